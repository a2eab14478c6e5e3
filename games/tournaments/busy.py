"""A player wanted by two events at once (``games.tournaments.services``).

A player seated at tables of two events at the same time would see one of them played out by
timeouts. The rule here: **a player sits at one tournament table at a time.**

- A table is opened only when none of its players is *engaged elsewhere* (:func:`engaged`):
  seated at a table of another event that is being played and still counts, or wanted by a
  pairing of another running event that has waited longer for its table (first come, first
  served: without it, an event whose next round is paired the moment a player's match ends
  could keep the other event's table waiting for the whole of it). A round's pairing whose
  player is engaged waits, without a table, and is shown as waiting on the event page; the
  scheduler (``scheduler.tick``, every few seconds) opens it, oldest first, once its players
  are free. An arena leaves an engaged player out of its waves until they are free, as lichess
  pairs only the players who are not at a board.
- Registering is not refused (an arena of an hour and a Swiss of the evening may well be
  played one after the other), but an event whose expected time overlaps another event of the
  player's (:func:`clashes`) says so before and after the click: a table of either event may
  have to wait for them, and their opponent with it.

How long an event lasts: an arena its minutes; a round-based event its planned rounds for its
entrants times :data:`ROUND_MINUTES` (times 3 for a best-of-3 knockout): an estimate, used for
the warning only.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import Any

from django.db.models import Exists, OuterRef, Q
from django.utils import timezone

from games.core.for_apps import Match, Seat
from games.tournaments.models import Entrant, Game, Pairing, Tournament

#: Minutes one round of a round-based event is expected to take (one match to the usual
#: target with a clock per play); an estimate, for the overlap warning only.
ROUND_MINUTES = 30


def expected_window(t: Tournament, now: datetime, entrants: int | None = None) -> tuple[datetime, datetime]:
    """When ``t`` is expected to be played: ``(start, end)``.

    ``start``: the real start (``started_at``) or the planned one. ``end``: an arena's end
    (``ends_at``, or the start plus its minutes); a round-based event's start plus its planned
    rounds for ``entrants`` (default: its entrants now, at least 2) times
    :data:`ROUND_MINUTES` (times ``best_of``). A running event lasts at least one more round
    from ``now``, whatever the estimate said.
    """
    start = t.started_at or t.starts_at
    if t.format == Tournament.Format.ARENA:
        end = t.ends_at or start + timedelta(minutes=t.arena_minutes or 0)
    else:
        if entrants is None:
            entrants = t.entrants.exclude(status=Entrant.Status.WITHDRAWN).count()
        rounds = t.planned_rounds(max(entrants, 2)) or 1
        end = start + timedelta(minutes=ROUND_MINUTES * rounds * t.best_of)
        if t.status == Tournament.Status.RUNNING:
            end = max(end, now + timedelta(minutes=ROUND_MINUTES))
    return start, end


def clashes(t: Tournament, users: Iterable[Any], now: datetime | None = None) -> list[Tournament]:
    """The other upcoming or running events ``users`` (a player, and a partner) are entered in
    (not withdrawn; a partnership still waiting for its partner counts) whose expected time
    (:func:`expected_window`) overlaps ``t``'s, soonest first."""
    now = timezone.now() if now is None else now
    ids = [u.pk for u in users if u is not None]
    others = (
        Tournament.objects.filter(
            status__in=[Tournament.Status.UPCOMING, Tournament.Status.RUNNING],
            entrants__in=Entrant.objects.exclude(status=Entrant.Status.WITHDRAWN).filter(
                Q(user_id__in=ids) | Q(partner_id__in=ids)
            ),
        )
        .exclude(pk=t.pk)
        .distinct()
    )
    start, end = expected_window(t, now)
    out = []
    for other in others:
        other_start, other_end = expected_window(other, now)
        if start < other_end and other_start < end:
            out.append(other)
    return sorted(out, key=lambda o: (o.started_at or o.starts_at, o.pk))


def engaged(
    user_ids: Iterable[int], *, tournament_id: int, pairing_id: int | None = None,
    waiting: bool = True,
) -> dict[int, Tournament]:
    """Which of ``user_ids`` are engaged in another event than ``tournament_id``: ``{user id:
    that event}``.

    Engaged: seated at a tournament table of another event that is being played and still
    counts; or, when ``pairing_id`` is given, a player of a pairing of another running event
    that waits for its table and was made before it (a smaller id; ``pairing_id`` ``None``:
    any such pairing, for an arena wave, whose pairings are new). ``waiting=False``: the
    seated only. Two queries (one without ``waiting``).
    """
    ids = set(user_ids)
    if not ids:
        return {}
    out: dict[int, Tournament] = {}
    seated = (
        Seat.objects.filter(
            user_id__in=ids, match__status=Match.Status.PLAYING,
            match__tournament_game__winner__isnull=True, match__tournament_game__aborted=False,
            match__tournament_game__pairing__finished_at__isnull=True,
        )
        .exclude(match__tournament_game__pairing__tournament_id=tournament_id)
        .values_list("user_id", "match__tournament_game__pairing__tournament_id")
    )
    for user_id, other in seated:
        out.setdefault(user_id, other)
    if not waiting:
        return _events(out)
    members = Q()
    for field in ("a__user_id", "a__partner_id", "b__user_id", "b__partner_id"):
        members |= Q(**{f"{field}__in": ids})
    waiting = (
        Pairing.objects.filter(
            members, tournament__status=Tournament.Status.RUNNING, finished_at__isnull=True,
            b__isnull=False,
        )
        .exclude(tournament_id=tournament_id)
        .exclude(Exists(Game.objects.filter(pairing=OuterRef("pk"), winner__isnull=True, aborted=False)))
    )
    if pairing_id is not None:
        waiting = waiting.filter(pk__lt=pairing_id)
    for row in waiting.order_by("pk").values(
        "tournament_id", "a__user_id", "a__partner_id", "b__user_id", "b__partner_id"
    ):
        for field in ("a__user_id", "a__partner_id", "b__user_id", "b__partner_id"):
            if row[field] in ids:
                out.setdefault(row[field], row["tournament_id"])
    return _events(out)


def _events(by_user: dict[int, int]) -> dict[int, Tournament]:
    """``{user id: event id}`` as ``{user id: Tournament}`` (one query, none when empty)."""
    if not by_user:
        return {}
    events = Tournament.objects.in_bulk(set(by_user.values()))
    return {user_id: events[other] for user_id, other in by_user.items()}


def engaged_entrants(t: Tournament, entrants: Iterable[Entrant]) -> dict[int, Tournament]:
    """``{entrant id: the other event}`` for each of ``entrants`` (of ``t``) with a player at a
    live table of another event (:func:`engaged`'s first half), for the event page. A pairing
    of the other event that waits for its table is left out: it may be waiting for this
    event's table, and both pages then named each other. One query."""
    entrants = list(entrants)
    by_user = engaged(
        [uid for e in entrants for uid in (e.user_id, e.partner_id) if uid is not None],
        tournament_id=t.pk, waiting=False,
    )
    out = {}
    for e in entrants:
        for uid in (e.user_id, e.partner_id):
            if uid in by_user:
                out[e.pk] = by_user[uid]
                break
    return out
