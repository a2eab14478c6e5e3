"""The lobby's friends-online block: which of a player's friends are online, and what each is
doing (playing at a table, watching one, waiting in a queue, in a tournament), with the way to
watch or challenge them in one tap.

Its cost does not grow with the site: one query for the friends (at most ``MAX_FOLLOWS``), one
for who of them is online (``games.core.state.online``) and the core's question about seeing
them (``games.people.relations``, up to four), then one for their names and avatars, one each for
their tables, the tables they watch, the queues and the tournaments (two or three), for the
online friends only. ``bench/social.py`` measures it.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db.models import OuterRef, Subquery
from django.urls import reverse

from games.core.for_apps import Match, Seat, online_among, relations, watched_by
from games.people import profiles, services
from games.people.models import Profile
from games.queues import for_apps as queues
from games.tournaments import for_apps as tournaments


@dataclass(frozen=True)
class FriendOnline:
    """One online friend: ``doing`` is ``playing``, ``watching``, ``queue``, ``tournament`` or
    ``""`` (on the site); ``match_id`` the table played or watched, if any."""

    username: str
    avatar: str
    doing: str
    match_id: int | None
    #: Whether the viewer may challenge them (``False``: their setting refuses it openly).
    challengeable: bool = True

    @property
    def table_url(self) -> str | None:
        return reverse("table", args=[self.match_id]) if self.match_id else None

    @property
    def profile_url(self) -> str:
        return reverse("profile", args=[self.username])


def friends_online(user_id: int) -> list[FriendOnline]:
    """``user_id``'s friends whom they may see online, by name (see the module's docstring)."""
    friends = services.friends_of(user_id)
    online = online_among(user_id, friends)
    if not online:
        return []
    avatar = Profile.objects.filter(user_id=OuterRef("pk")).values("avatar")[:1]
    rows = (
        get_user_model().objects.filter(pk__in=online, is_active=True)
        .annotate(avatar=Subquery(avatar)).values_list("pk", "username", "avatar")
    )
    names = {pk: name for pk, name, _a in rows}
    avatars = {pk: a for pk, _n, a in rows if a in profiles.AVATARS}
    ids = set(names)
    playing = dict(
        Seat.objects.filter(user_id__in=ids, absent=False, match__status=Match.Status.PLAYING)
        .order_by("match_id")
        .values_list("user_id", "match_id")
    )
    watching = watched_by(ids - set(playing))
    rest = ids - set(playing) - set(watching)
    waiting = queues.waiting(rest)
    busy = tournaments.engaged(rest - waiting)
    refused = {
        pk for pk, verdict in relations.barred("challenge", user_id, ids).items() if verdict == relations.REFUSED
    }
    out = []
    for pk, name in names.items():
        if pk in playing:
            doing, match_id = "playing", playing[pk]
        elif pk in watching:
            doing, match_id = "watching", watching[pk]
        elif pk in waiting:
            doing, match_id = "queue", None
        elif pk in busy:
            doing, match_id = "tournament", None
        else:
            doing, match_id = "", None
        out.append(FriendOnline(name, avatars.get(pk, profiles.DEFAULT_AVATAR), doing, match_id, pk not in refused))
    return sorted(out, key=lambda f: f.username.casefold())
