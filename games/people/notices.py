"""Notices between friends: a friend starts a rated match (``Notice.Kind.RATED``), a friend
enters a tournament (``Notice.Kind.TOURNAMENT``); each kind can be turned off in the settings
(``Profile.notify_rated``, ``notify_tournament``).

Each is kept for the notifications page (``NOTICE_DAYS`` days, then deleted by the next notice
written or page read) and pushed at once to the friend's open pages through the core's notice
socket (``send_notice``, after the commit), kinds ``friend_rated`` and ``friend_tournament``
(``static/people/notify.js`` shows them).
"""

from __future__ import annotations

from collections.abc import Collection
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import timezone

from games.core.for_apps import send_notice
from games.people.models import NOTICE_DAYS, Follow, Notice, Profile

#: The socket notice kind of each kind of notice.
PUSHED = {Notice.Kind.RATED: "friend_rated", Notice.Kind.TOURNAMENT: "friend_tournament"}
_SWITCH = {Notice.Kind.RATED: "notify_rated", Notice.Kind.TOURNAMENT: "notify_tournament"}


def friends_to_tell(people: Collection[int], kind: str) -> dict[int, set[int]]:
    """``{person: friends to tell}``: for each of ``people``, the friends (both follow each
    other) who keep notices of ``kind`` on, less the ``people`` themselves (three queries)."""
    people = set(people)
    back = set(
        Follow.objects.filter(followed_id__in=people).exclude(follower_id__in=people)
        .values_list("follower_id", "followed_id")
    )
    if not back:
        return {}
    mine = set(
        Follow.objects.filter(follower_id__in=people, followed_id__in={f for f, _p in back})
        .values_list("followed_id", "follower_id")
    )
    pairs = back & mine
    off = set(
        Profile.objects.filter(user_id__in={f for f, _p in pairs}, **{_SWITCH[kind]: False})
        .values_list("user_id", flat=True)
    )
    out: dict[int, set[int]] = {}
    for friend, person in pairs:
        if friend not in off:
            out.setdefault(person, set()).add(friend)
    return out


def tell(kind: str, person_id: int, data: dict, now: datetime | None = None,
         told: set[int] | None = None) -> int:
    """Tell ``person_id``'s friends of ``kind`` (``data`` is kept with each notice and sent
    with ``friend`` added), but those in ``told`` (then added to it); returns how many were
    told."""
    now = timezone.now() if now is None else now
    friends = friends_to_tell((person_id,), kind).get(person_id, set()) - (told or set())
    if told is not None:
        told |= friends
    if not friends:
        return 0
    name = get_user_model().objects.filter(pk=person_id).values_list("username", flat=True).first()
    data = {"friend": name, **data}
    Notice.objects.bulk_create([Notice(user_id=f, kind=kind, data=data, created_at=now) for f in friends])
    Notice.objects.filter(created_at__lt=now - timedelta(days=NOTICE_DAYS)).delete()
    for friend in friends:
        send_notice(friend, PUSHED[kind], data)
    return len(friends)


def on_match_started(sender: Any, match: Any, people: list[int], **kwargs: Any) -> None:
    """Receiver of the core's ``match_started``: a rated match's players' friends are told,
    each once (a friend of two of its players hears of the first)."""
    if not match.rated:
        return
    url = reverse("table", args=[match.pk])
    told: set[int] = set()
    for person in people:
        tell(Notice.Kind.RATED, person, {"match_id": match.pk, "url": url}, told=told)


def on_entrant_saved(sender: Any, instance: Any, created: bool = False, raw: bool = False, **kwargs: Any) -> None:
    """``post_save`` of a tournament's entrant (``games.tournaments.for_apps.Entrant``): the
    friends of the player who entered are told (a partner they invite is told by the event)."""
    if not created or raw:
        return
    tournament = instance.tournament
    data = {"tournament_id": tournament.pk, "tournament": tournament.name,
            "url": reverse("tournament", args=[tournament.pk])}
    tell(Notice.Kind.TOURNAMENT, instance.user_id, data)


def recent(user_id: int, now: datetime | None = None) -> list[Notice]:
    """``user_id``'s notices of the last ``NOTICE_DAYS`` days, newest first (older ones go)."""
    now = timezone.now() if now is None else now
    Notice.objects.filter(user_id=user_id, created_at__lt=now - timedelta(days=NOTICE_DAYS)).delete()
    return list(Notice.objects.filter(user_id=user_id).order_by("-created_at", "-pk")[:200])


def mark_read(user_id: int, ids: Collection[int] | None = None) -> int:
    """Mark ``user_id``'s notices read (``ids``: those only); returns how many changed."""
    rows = Notice.objects.filter(user_id=user_id, read=False)
    if ids is not None:
        rows = rows.filter(pk__in=list(ids))
    return rows.update(read=True)


def unread_count(user_id: int) -> int:
    """How many of ``user_id``'s notices are unread (one count)."""
    return Notice.objects.filter(user_id=user_id, read=False).count()
