"""What the public profile page shows, and the hook other apps use to add to it.

The accounts app imports no games code (games depend on accounts, not the reverse; lichess's
site modules likewise listen rather than call). It reads the games models through the app
registry for the list of matches, and the profile view sends `profile_context` so the games app
can add what only it knows: a receiver connected in its ``AppConfig.ready()`` returns extra
context, for example

    @receiver(profile_context)
    def add_rating(sender, player, **kwargs):
        return {"rating": current_rating(player)}

Keys the template ``accounts/profile.html`` knows, each shown in the block of the same name:

    rating          int or None; the player's current rating. None (nothing shown) until the games
                    app reports one through `profile_context`.
    recent_matches  list of `RecentMatch`, newest first, or None when the games app is not
                    installed. Filled here from ``games.Seat``; a receiver may replace it.
"""

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.apps import apps
from django.contrib.auth import get_user_model
from django.contrib.auth.base_user import AbstractBaseUser
from django.db.models import Prefetch
from django.dispatch import Signal
from django.urls import reverse
from django.utils.translation import gettext

RECENT_MATCHES = 10

# Sent with sender=the user model and player=the user whose profile is shown; receivers return a
# dict of extra template context (or None).
profile_context = Signal()


def build_profile_context(player: AbstractBaseUser) -> dict[str, Any]:
    """Collect the template context of `player`'s public profile.

    :returns: ``{"player": user, "rating": ..., "recent_matches": ...}`` plus whatever receivers of
        `profile_context` add; see the module docstring for the shapes.
    """
    context: dict[str, Any] = {
        "player": player,
        "rating": None,
        "recent_matches": recent_matches(player) if apps.is_installed("games.core") else None,
    }
    for _receiver, extra in profile_context.send(sender=get_user_model(), player=player):
        if extra:
            context.update(extra)
    return context


@dataclass(frozen=True)
class Opponent:
    """Someone at a player's table: ``name`` to show, ``url`` of their profile (``None`` for a
    computer seat, which has no profile)."""

    name: str
    url: str | None


@dataclass(frozen=True)
class RecentMatch:
    """One started or finished match of a player, as the profile lists it.

    ``url`` is the table page (``/table/<id>/``, which also shows a finished match); ``opponents``
    and ``partners`` are :class:`Opponent` values (``partners`` is empty at a table for two); ``result`` is
    translated text; ``score`` is ``"<own side>–<other side>"`` or ``""`` before the first round
    ends; ``when`` is the finish time, else the start time.
    """

    url: str
    opponents: list[Opponent]
    partners: list[Opponent]
    result: str
    score: str
    when: datetime | None
    finished: bool
    #: The replay page (``/match/<id>/replay/``) of a finished match when the replays app is
    #: installed, else ``None``.
    replay_url: str | None = None


def recent_matches(player: AbstractBaseUser, limit: int = RECENT_MATCHES) -> list[RecentMatch]:
    """List `player`'s latest `limit` matches that have started (open tables are left out).

    Sides are ``seat % 2`` (RULES.md "Four players"); ``Match.scores`` is ``[side 0, side 1]`` and
    ``Match.winner_side`` the winning side once finished. Two queries whatever `limit` is.
    """
    Seat = apps.get_model("games", "Seat")
    Match = apps.get_model("games", "Match")
    seats = (
        Seat.objects.filter(user=player)
        .exclude(match__status=Match.Status.OPEN)
        .select_related("match")
        .prefetch_related(
            Prefetch("match__seats", queryset=Seat.objects.select_related("user").order_by("seat"))
        )
        .order_by("-match__created_at", "-match_id")[:limit]
    )
    return [_recent_match(seat) for seat in seats]


def _opponent(seat) -> Opponent:
    if seat.user_id is None:
        return Opponent(name=seat.display_name, url=None)
    username = seat.user.get_username()
    return Opponent(name=username, url=reverse("profile", kwargs={"username": username}))


def _recent_match(own_seat) -> RecentMatch:
    match = own_seat.match
    side = own_seat.seat % 2
    others = [seat for seat in match.seats.all() if seat.pk != own_seat.pk]
    finished = match.status == match.Status.FINISHED
    # How it ended, not only who won: a claim or a resignation is not a plain "Lost 0–0".
    if not finished:
        result = gettext("Playing")
    elif match.winner_side is None:
        result = (
            gettext("Aborted") if match.result == "abort"
            else gettext("Unfinished")
        )
    elif match.winner_side == side:
        result = {
            "claim": gettext("Won on a claim (the opponent left)"),
            "resign": gettext("Won: the opponent resigned") if match.players == 2
            else gettext("Won: the opponents resigned"),
        }.get(match.result, gettext("Won"))
    else:
        result = {
            "claim": gettext("Lost on a claim (away from the table)"),
            "resign": gettext("Lost: resigned"),
        }.get(match.result, gettext("Lost"))
    scores = match.scores or []
    # A match that ended (claim, resignation, abort) before any round was scored has no score
    # worth showing: "Lost: resigned" says it, "0–0" would only mislead.
    early = finished and match.result not in ("", "target") and not any(scores)
    score = f"{scores[side]}–{scores[1 - side]}" if len(scores) == 2 and not early else ""
    return RecentMatch(
        url=reverse("table", kwargs={"match_id": match.pk}),
        opponents=[_opponent(seat) for seat in others if seat.seat % 2 != side],
        partners=[_opponent(seat) for seat in others if seat.seat % 2 == side],
        result=result,
        score=score,
        when=match.finished_at or match.started_at,
        finished=finished,
        replay_url=_replay_url(match.pk) if finished else None,
    )


def _replay_url(match_id: int) -> str | None:
    """The replay page of a finished match, if the replays app is installed (by URL name: the
    accounts app imports no games code)."""
    if not apps.is_installed("games.replays"):
        return None
    return reverse("replays:match", kwargs={"match_id": match_id})
