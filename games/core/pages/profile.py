"""What the core adds to a player's public profile (``templates/accounts/profile.html``, the
``profile.sections`` slot): the player's recent matches (``templates/games/_recent_matches.html``).
Registered in ``GamesConfig.ready()``, as the apps register theirs (``games.core.pages.slots``):
``accounts`` sits below the core and knows none of it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.db.models import BooleanField, Case, Exists, OuterRef, Prefetch, Value, When
from django.http import HttpRequest
from django.urls import reverse

from games.core import titles
from games.core.models import Match, Seat, nothing_to_replay
from games.core.pages.endings import PLAYING, match_ending, match_score

RECENT_MATCHES = 10


@dataclass(frozen=True)
class Opponent:
    """Someone at a player's table: ``name`` to show, ``url`` of their profile (``None`` for a
    computer seat, which has no profile), ``title`` of their account (``games.core.titles``:
    ``"BOT"``, else ``None``)."""

    name: str
    url: str | None
    title: str | None = None


def person(seat: Any, marks: Mapping[int, str] | None = None) -> Opponent:
    """The :class:`Opponent` of ``seat`` (a ``Seat`` with its ``user`` loaded); a closed
    account's seat is named "Closed account", with no link. ``marks``: the titles of a page's
    accounts (``games.core.titles.titles``, asked once for all the page's seats); ``None``: no
    title is shown."""
    if seat.user_id is None or not seat.user.is_active:
        return Opponent(name=seat.display_name, url=None)
    username = seat.user.get_username()
    return Opponent(
        name=username, url=reverse("profile", kwargs={"username": username}),
        title=(marks or {}).get(seat.user_id),
    )


@dataclass(frozen=True)
class RecentMatch:
    """One started or finished match of a player, as the profile lists it.

    ``url`` is the table page (``/table/<id>/``, which also shows a finished match); ``opponents``
    and ``partners`` are :class:`Opponent` values (``partners`` is empty at a table for two);
    ``outcome`` and ``result`` are :func:`games.core.pages.endings.match_ending`'s; ``score`` is
    :func:`~games.core.pages.endings.match_score`'s; ``when`` is the finish time, else the
    start time; ``forfeit``: a no-show's table, with nothing to replay
    (``models.nothing_to_replay``: decided away from the table or abandoned with no card a
    person played).
    """

    match_id: int
    url: str
    opponents: list[Opponent]
    partners: list[Opponent]
    outcome: str
    result: str
    score: str
    when: datetime | None
    finished: bool
    forfeit: bool


def recent_matches(player: AbstractBaseUser, limit: int = RECENT_MATCHES) -> list[RecentMatch]:
    """``player``'s latest ``limit`` matches that have started (open tables are left out),
    newest first. Three queries whatever ``limit`` is (the
    accounts' titles one of them, when an app answers ``games.core.titles``)."""
    seats = (
        Seat.objects.filter(user=player)
        .exclude(match__status=Match.Status.OPEN)
        .select_related("match")
        .annotate(forfeit=Exists(
            Match.objects.filter(nothing_to_replay(), pk=OuterRef("match_id"))))
        .prefetch_related(
            Prefetch("match__seats", queryset=Seat.objects.select_related("user").order_by("seat"))
        )
        .order_by("-match__created_at", "-match_id")[:limit]
    )
    marks = titles.titles(
        other.user_id for seat in seats for other in seat.match.seats.all()
    )
    return [_recent_match(seat, marks) for seat in seats]


def _recent_match(own_seat: Seat, marks: Mapping[int, str]) -> RecentMatch:
    match = own_seat.match
    side = own_seat.seat % 2
    others = [seat for seat in match.seats.all() if seat.pk != own_seat.pk]
    outcome, result = match_ending(match, side)
    return RecentMatch(
        match_id=match.pk,
        url=reverse("table", kwargs={"match_id": match.pk}),
        opponents=[person(seat, marks) for seat in others if seat.seat % 2 != side],
        partners=[person(seat, marks) for seat in others if seat.seat % 2 == side],
        outcome=outcome,
        result=result,
        score=match_score(match, side),
        when=match.finished_at or match.started_at,
        finished=outcome != PLAYING,
        forfeit=own_seat.forfeit,
    )


def recent_matches_section(request: HttpRequest, page: Mapping[str, Any]) -> dict[str, Any]:
    """The ``profile.sections`` context of ``page["player"]``: ``recent_matches``."""
    return {"recent_matches": recent_matches(page["player"])}


def closing_table_section(request: HttpRequest, page: Mapping[str, Any]) -> dict[str, Any] | None:
    """The ``account.close`` context: ``closing_table``, the table the player holds a seat at
    (``games.core.for_apps.current_table``: ``{"match_id", "url", "playing"}``), which closing
    the account resigns or leaves (``games.core.actions.closing``); ``None`` without one."""
    table = current_table(request.user.pk)
    return None if table is None else {"closing_table": table}


def current_table(user_id: int) -> dict | None:
    """The table ``user_id`` holds a person's seat at that is not over, for an app that must
    say so ("You are playing at table 12", the queues' refusal ``queue_seated``):
    ``{"match_id", "url" (the table page), "playing"}``, ``playing`` true once the match is
    being played, false while the table waits for its players; ``None`` when there is none.
    A seat the computer took over from an absent person is no longer theirs
    (``Seat.absent``). Of several, a match being played comes before an open table, then the
    newest. One query."""
    row = (
        Seat.objects.filter(user_id=user_id, absent=False)
        .exclude(match__status=Match.Status.FINISHED)
        .annotate(playing=Case(When(match__status=Match.Status.PLAYING, then=Value(True)),
                               default=Value(False), output_field=BooleanField()))
        .order_by("-playing", "-match_id")
        .values_list("match_id", "playing")
        .first()
    )
    if row is None:
        return None
    return {"match_id": row[0], "url": reverse("table", args=[row[0]]), "playing": row[1]}
