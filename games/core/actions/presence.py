"""Presence: who is at the table (sockets' heartbeats, absence, return, the computer taking over,
a table against the computer waiting for its person) and the time given back after an outage
(``docs/protocol.md``, "Clock, absence, claim and resign"). When silence counts as absence or an
outage is ``games.core.state.liveness``.
"""

from __future__ import annotations

from collections.abc import Collection
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import connection
from django.db.models import Q
from django.utils import timezone

from games.core.actions import endings, funnel, rematch
from games.core.actions.funnel import Change
from games.core.actions.store import write_transaction
from games.core.errors import GameError
from games.core.models import ClockTick, Event, Match, Seat
from games.core.state import liveness, reads
from games.core.state.cache import seat_rows
from games.core.state.watching import watches_seen

#: Timeouts in a row after which a seat is absent.
TIMEOUTS_ABSENT = 3
#: The computer that plays for a timed-out person, and that takes over an absent one.
STAND_IN = "greedy"


def absent(change: Change, seat: Seat, reason: str) -> None:
    """Mark ``seat`` absent (``absent`` event); in a 4-player match the computer takes it over
    for the rest of the match (``bot_takeover``). At a table against the computer
    (``liveness.against_computer``) the table is paused instead: no takeover and no deadline,
    so nobody plays until its person is back (:func:`_back`, or a play) or the clock abandons
    it (:func:`abandon_paused`). The caller saves the seat."""
    seat.absent = True
    change.log(Event.Kind.ABSENT, {"reason": reason}, seat=seat.seat)
    if liveness.against_computer(change.seats):
        change.match.deadline = None  # paused: the clock plays for nobody (clock._due)
        return
    if change.match.players == 4:
        seat.bot = STAND_IN
        change.log(
            Event.Kind.BOT_TAKEOVER,
            {"bot": STAND_IN, "user": seat.user_id, "username": seat.user.get_username()},
            seat=seat.seat,
        )


def end_if_nobody_left(change: Change) -> bool:
    """End the match ``abandoned`` (no winner, RULES.md's termination "no person left to play
    it") if every person seated at it is absent: the computer does not play a table out for
    nobody. Not a table against the computer: that one waits for its person, paused
    (:func:`absent`), and :func:`abandon_paused` ends it after the wait. The seats' changes are
    saved first by the caller.

    :returns: whether it ended.
    """
    seats = change.seat_models()
    people = [s for s in seats if s.user_id is not None]
    if not people or not all(s.absent for s in people) or liveness.against_computer(seats):
        return False
    endings.finish(change, None, Match.Result.ABANDONED)
    return True


def mark_absent(*, match_id: int, now: datetime) -> int:
    """Mark absent every person at the table whose sockets have been silent too long.

    A seat is silent since ``max(last_seen, started_at)`` (its sockets refresh ``last_seen``);
    too long is more than ``liveness.absent_grace()``. 2 players: the opponent may then claim
    the win (``endings.claim_win``). 4 players: the computer takes the seat over. When nobody
    is left, the match ends ``abandoned`` (:func:`end_if_nobody_left`); at a rated table, when
    the computer took over a person who had not played a card of the first deal themselves,
    it is aborted at once (``endings.abort_if_unplayed``). A table against the computer is
    paused instead (:func:`absent`).

    :returns: the number of seats marked absent.
    """
    cutoff = now - liveness.absent_grace()

    def body(change: Change) -> int:
        match = change.match
        if match.status != Match.Status.PLAYING or match.started_at >= cutoff:
            return 0
        gone = [
            s for s in change.seat_models()
            if s.user_id is not None and not s.bot and not s.absent
            and liveness.silent_too_long(last_seen=s.last_seen, started_at=match.started_at, now=now)
        ]
        if not gone:
            return 0
        for seat in gone:
            absent(change, seat, "disconnected")
            seat.save(update_fields=["absent", "bot"])
        change.changed_seating()
        if end_if_nobody_left(change) or endings.abort_if_unplayed(
            change, [seat.seat for seat in gone if seat.bot]
        ):
            return len(gone)
        round_ = change.live.round
        turn = round_.turn if round_ is not None else None
        if any(seat.seat == turn and seat.bot for seat in gone):
            # The computer took over the seat to move: it plays after its delay, not the
            # person's remaining time.
            change.set_deadline()
        return len(gone)

    return funnel.run(match_id, body, now=now)


def abandon_paused(*, match_id: int, now: datetime, left_before: datetime) -> bool:
    """End ``abandoned`` (``endings.finish``, no winner) a table against the computer whose
    person is still absent and was last seen before ``left_before`` (the clock's sweep, after
    ``liveness.computer_table_wait()``); checked again under the row lock.

    :returns: whether it ended.
    """

    def body(change: Change) -> bool:
        if change.match.status != Match.Status.PLAYING or change.match.started_at >= left_before:
            return False
        seats = change.seat_models()
        waited = liveness.waiting_for(seats)
        person = next((s for s in seats if s.seat == waited), None)
        if person is None or (person.last_seen is not None and person.last_seen >= left_before):
            return False
        endings.finish(change, None, Match.Result.ABANDONED)
        return True

    return funnel.run(match_id, body, now=now)


def player_seen(*, match_id: int, user: Any, now: datetime | None = None) -> None:
    """A socket of ``user`` at the table is alive (its opening, its close, a logout): refresh
    ``last_seen``.

    One ``UPDATE``, no lock and no event: the clock reads ``last_seen`` to find absent seats.
    Written as SQL, the same statement the ORM's ``update`` writes: building it each time was
    two thirds of the call (1.45 ms against 0.4 ms, on a socket's opening and its close).
    """
    if user is None or not user.is_authenticated:
        return
    now = timezone.now() if now is None else now
    last_seen = Seat._meta.get_field("last_seen")
    with connection.cursor() as cursor:
        cursor.execute(_seen_sql(), [last_seen.get_db_prep_save(now, connection), match_id, user.pk])


def seat_closed(*, match_id: int, user: Any, now: datetime | None = None) -> None:
    """A seated person's table socket closed: :func:`player_seen` (the grace before "absent"
    counts from the moment the last socket went away) and, when the match is over, no rematch
    any more (``rematch.left``: leaving a table of people ends the offer).

    One worker call for the close, and the match's status read with one small statement
    before anything about a rematch is asked (that question was an ORM query on every close,
    matches being played included).
    """
    if user is None or not user.is_authenticated:
        return
    player_seen(match_id=match_id, user=user, now=now)
    if _status(match_id) == Match.Status.FINISHED:
        rematch.left(match_id=match_id, user=user)


def _status(match_id: int) -> str | None:
    """``Match.status`` of ``match_id`` (``None``: no such match)."""
    quote, meta = connection.ops.quote_name, Match._meta
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT {quote(meta.get_field('status').column)} FROM {quote(meta.db_table)} "
            f"WHERE {quote(meta.pk.column)} = %s",
            [match_id],
        )
        row = cursor.fetchone()
    return None if row is None else row[0]


_SEEN_SQL: dict[str, str] = {}


def _seen_sql() -> str:
    """``UPDATE`` of one person's ``last_seen`` at one table, for this database."""
    sql = _SEEN_SQL.get(connection.vendor)
    if sql is None:
        quote, meta = connection.ops.quote_name, Seat._meta
        sql = _SEEN_SQL[connection.vendor] = (
            f"UPDATE {quote(meta.db_table)} SET {quote(meta.get_field('last_seen').column)} = %s "
            f"WHERE {quote(meta.get_field('match').column)} = %s "
            f"AND {quote(meta.get_field('user').column)} = %s"
        )
    return sql


def seen_waiting(*, user: Any, now: datetime | None = None) -> int:
    """A lobby socket of ``user`` is alive: ``user`` is seen at every open table they sit at.

    A person who opened a table and waits in the lobby for someone to join is there: their
    table is not abandoned (``seating.close_abandoned``) and the lobby shows them online. One
    ``UPDATE``, no lock and no event, as :func:`player_seen`.

    :returns: the number of seats updated.
    """
    if user is None or not user.is_authenticated:
        return 0
    now = timezone.now() if now is None else now
    return Seat.objects.filter(user_id=user.pk, match__status=Match.Status.OPEN).update(
        last_seen=now
    )


def heartbeats(
    *,
    seated: Collection[tuple[int, int]],
    tables: Collection[int],
    watching: Collection[str] = (),
    now: datetime | None = None,
) -> dict[int, int]:
    """The table sockets of one server process are alive (``games.core.sockets.beats``), in one write.

    The people of ``seated`` (``(match id, user id)`` pairs: sockets whose user has a seat there)
    are seen (``Seat.last_seen``), and back if the clock had marked them absent meanwhile (say
    while their server was stalled; a seat the computer took over stays the computer's). Returns
    the ``seq`` of each of ``tables`` that still exists, so that a socket that missed a broadcast
    (the server that wrote the change died before sending it) reads its table again. The
    spectator sockets ``watching`` (channel names) keep their ``Watcher`` rows counted
    (``games.core.state.watching.watches_seen``).

    Queries: one ``UPDATE`` returning the absent among them (when anyone is seated), one
    ``UPDATE`` of the watchers' rows (when anyone watches), one ``SELECT`` of the tables'
    ``seq``, whatever the number of sockets; a lock and an event only for someone back.

    :returns: ``{match id: Match.seq}``; a removed table is missing.
    """
    now = timezone.now() if now is None else now
    if seated:
        for match_id, user_id in _seen_all(sorted(set(seated)), now):
            _back(match_id, user_id, now)  # under the lock: only while the match is played
    if watching:
        watches_seen(channels=watching, now=now)
    return _seqs(sorted(set(tables)))


def _seen_all(pairs: list[tuple[int, int]], now: datetime) -> list[tuple[int, int]]:
    """``last_seen = now`` for the seats of ``pairs`` (``(match id, user id)``), in one
    ``UPDATE`` (SQL row values, PostgreSQL and SQLite 3.15+), returning those of them that are
    absent and still a person's (RETURNING: SQLite 3.35+).

    Written as SQL: the ORM's form of it, fifty ``Q`` objects joined by OR, compiled twice
    (the update and the select of the absent), was most of a heartbeat's cost.
    """
    quote, meta = connection.ops.quote_name, Seat._meta

    def column(name: str) -> str:
        return quote(meta.get_field(name).column)

    sql = (
        f"UPDATE {quote(meta.db_table)} SET {column('last_seen')} = %s "
        f"WHERE ({column('match')}, {column('user')}) IN "
        f"({', '.join(['(%s, %s)'] * len(pairs))}) "
        f"RETURNING {column('match')}, {column('user')}, {column('absent')}, {column('bot')}"
    )
    params = [meta.get_field("last_seen").get_db_prep_save(now, connection)]
    for match_id, user_id in pairs:
        params += [match_id, user_id]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    return sorted((match_id, user_id) for match_id, user_id, absent, bot in rows
                  if absent and not bot)


def _seqs(match_ids: list[int]) -> dict[int, int]:
    """``{match id: Match.seq}`` of those of ``match_ids`` that exist (one ``SELECT``)."""
    if not match_ids:
        return {}
    quote, meta = connection.ops.quote_name, Match._meta
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT {quote(meta.pk.column)}, {quote(meta.get_field('seq').column)} "
            f"FROM {quote(meta.db_table)} "
            f"WHERE {quote(meta.pk.column)} IN ({', '.join(['%s'] * len(match_ids))})",
            match_ids,
        )
        return dict(cursor.fetchall())


def player_connected(*, match_id: int, user: Any, now: datetime | None = None) -> bool:
    """A socket of ``user`` opened at the table: refresh ``last_seen``; an absent player is back.

    The ``returned`` event clears the absence (and the timeouts), so a claim is no longer
    allowed; a seat the computer has taken over (4 players) stays the computer's.

    :returns: whether ``returned`` was logged.
    """
    if user is None or not user.is_authenticated:
        return False
    now = timezone.now() if now is None else now
    player_seen(match_id=match_id, user=user, now=now)
    if not Seat.objects.filter(
        match_id=match_id, user_id=user.pk, absent=True, bot="",
        match__status=Match.Status.PLAYING,
    ).exists():
        return False
    return _back(match_id, user.pk, now)


def _back(match_id: int, user_id: int, now: datetime) -> bool:
    """Log ``returned`` at ``now`` for user ``user_id``'s seat if it is still absent and a
    person's, under the row lock (:func:`player_connected`, :func:`heartbeats`); a table against
    the computer, paused while its person was away, goes on (its deadline set as if the turn
    began now). Returns whether ``returned`` was logged."""

    def body(change: Change) -> bool:
        mine = next((s for s in change.seat_models() if s.user_id == user_id), None)
        if change.match.status != Match.Status.PLAYING or mine is None:
            return False
        if not mine.absent or mine.bot:
            return False
        mine.absent, mine.timeouts = False, 0
        mine.save(update_fields=["absent", "timeouts"])
        change.changed_seating()
        change.log(Event.Kind.RETURNED, {"by": "connect"}, seat=mine.seat)
        if liveness.against_computer(change.seats):
            # The table was paused (:func:`absent`): it goes on as if the turn began now.
            change.set_deadline()
        return True

    try:
        return funnel.run(match_id, body, now=now)
    except GameError:
        return False


# --- the time given back after an outage ------------------------------------------------------


def _lock_clock() -> ClockTick | None:
    """The clock's heartbeat row, locked until the end of the transaction (``None``: no row)."""
    return ClockTick.objects.select_for_update().filter(pk=ClockTick.ONE).first()


def resume_clock(*, now: datetime, outage: timedelta) -> timedelta | None:
    """Give every table its time back if the clock was not running before ``now``.

    The clock's last tick ended at ``ClockTick.last_tick``; a gap longer than ``outage`` means
    no clock ran (the server, the clock process or the database was down), and nobody could
    play or keep a socket open meanwhile. Each match being played is then, under its row lock
    (one transaction with the heartbeat row's lock, so a second clock process does not do it
    again): its ``deadline`` moved on by the gap, but never past a whole time per play from
    ``now`` (:func:`_resume_deadline`), and each person seated there and not absent counted as
    seen at ``now`` (``Seat.last_seen``), so the absence grace starts again, and the absent
    person a paused table against the computer waits for seen the gap later (its wait is not
    used up by the outage); so is every person seated at an open table (their table is not
    abandoned). No event is logged
    and ``seq`` does not change: nothing happened at the tables; after the commit each table
    whose deadline moved is sent its ``state`` again (same ``seq``, the new ``deadline``), so
    its open pages count down to the clock's time. The first tick ever (no row) is not an
    outage.

    :param outage: the longest gap between ticks that is not an outage
        (``liveness.outage_after``).
    :returns: the gap that was given back, or ``None`` (the clock was running).
    """
    last = liveness.clock_last_ran()
    if last is None or now - last <= outage:
        return None
    with write_transaction():
        row = _lock_clock()
        if row is None or now - row.last_tick <= outage:
            return None  # another clock process resumed meanwhile
        gap = now - row.last_tick
        playing = Match.objects.filter(status=Match.Status.PLAYING).order_by("pk")
        for match_id in playing.values_list("pk", flat=True):
            _resume_match(match_id, now, gap)
        # Nobody could reach an open table either: its people count as seen now, so the clock
        # does not take their tables for abandoned (``seating.close_abandoned``).
        Seat.objects.filter(
            match__status=Match.Status.OPEN, user__isnull=False, last_seen__lt=now
        ).update(last_seen=now)
        row.last_tick = now
        row.save(update_fields=["last_tick"])
    return gap


def _resume_match(match_id: int, now: datetime, gap: timedelta) -> None:
    """One table's part of :func:`resume_clock` (inside its transaction)."""
    match = funnel.lock(match_id)
    if match.status != Match.Status.PLAYING:
        return
    Seat.objects.filter(match_id=match.pk, user__isnull=False, bot="", absent=False).filter(
        Q(last_seen__isnull=True) | Q(last_seen__lt=now)
    ).update(last_seen=now)
    waiting = liveness.waiting_for(seat_rows(match))
    if waiting is not None:
        # Nobody could come back meanwhile: the paused table's wait for its person
        # (``abandon_paused``) is moved on by the gap too.
        person = Seat.objects.get(match_id=match.pk, seat=waiting)
        person.last_seen = max(person.last_seen or match.started_at, match.started_at) + gap
        person.save(update_fields=["last_seen"])
    if match.deadline is not None:
        funnel.move_deadline(match, _resume_deadline(match, match.deadline + gap, now))


def _resume_deadline(match: Match, moved: datetime, now: datetime) -> datetime:
    """``moved`` (a deadline plus the outage), but no later than a whole wait from ``now``;
    for a person to move, both with ``BASRA_RECONNECT_SECONDS`` more.

    A deadline set before the outage keeps exactly the time it had left, and a person to move
    gets the few seconds their page needs to find the server again (it retries every few
    seconds), which at a 10-second table would otherwise eat the whole turn. One set
    during the outage (the web server ran while only the clock was down, and someone played)
    must not turn the outage into extra time: the cap is the table's time per play (and the
    reconnect allowance), or for a computer to move the longest human-looking delay
    (``BASRA_BOT_DELAY_SECONDS``).
    """
    turn = reads.seat_to_move(match)
    mover = next((s for s in seat_rows(match) if s.seat == turn), None)
    if mover is not None and mover.bot:
        wait = timedelta(seconds=max(settings.BASRA_BOT_DELAY_SECONDS))
    elif match.move_seconds:
        reconnect = timedelta(seconds=settings.BASRA_RECONNECT_SECONDS)
        wait = timedelta(seconds=match.move_seconds) + reconnect
        moved += reconnect
    else:
        return moved
    return min(moved, now + wait)

