"""The one funnel every change to a table goes through (STYLE.md, "Write it like this": Zulip's
``check_*`` → ``do_*`` → ``send_event_on_commit``; boardgame.io's ``Master.onUpdate``).

:func:`run` takes an action's body (a function of a :class:`Change`) and does, around it, what
every change needs, in this order:

1. **Lock** the match row (``select_for_update``) inside a transaction, or, for a play sent
   against the ``seq`` this process keeps the table at, **compare and set**: the body runs on the
   kept row and engine state, and the write succeeds only if the row is still at that ``seq``
   (``store.write_if_unchanged``: on PostgreSQL one statement, a transaction of its own; when
   the play ends the match, ``endings.finish`` makes it one transaction with the
   ``match_finished`` receivers), else the body runs again the locked way.
2. The **seats** (``Change.seats``) and the **engine** state (``Change.live``), read lazily: kept
   in this process (``games.core.state.cache``), caught up from the log, or replayed.
3. The body checks the request (raising ``GameError`` before anything changes), asks the engine,
   and **appends events** (``Change.log``), numbered on from ``Match.seq``.
4. **Save**: the events and the row in one go (``Change.write``); ``endings.finish`` writes early
   and sends ``match_finished`` inside the transaction.
5. **Broadcast on commit**: every seat its own ``state`` (or a seating/closed notice, and the
   lobby), and the engine state kept for the next change — only once the transaction committed.
"""

from __future__ import annotations

import copy
import random
import uuid
from collections import Counter
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any, TypeVar

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games import engine
from games.core.actions import store
from games.core.actions.store import write_transaction
from games.core.errors import GameError, from_engine
from games.core.models import Event, Match, Seat
from games.core.state import broadcast, deadlines, reads
from games.core.state.cache import SeatRow, cache, seat_rows
from games.core.state.messages import state_messages
from games.core.state.queries import match_row

T = TypeVar("T")

#: The ``Match`` fields an action may change after creating the row (saved together).
MATCH_FIELDS = [
    "seq", "status", "started_at", "finished_at", "scores", "winner_side", "result", "deadline",
    "seating_token", "client_seeds",
]

#: How each play that named the ``seq`` it was made against was written, in this process:
#: ``"compare_and_set"`` (on the kept state, no lock) or ``"locked"``. For tests and benches.
paths: Counter[str] = Counter()

def require_login(user: Any) -> None:
    """:raises GameError: ``login_required`` unless ``user`` is logged in."""
    if user is None or not user.is_authenticated:
        raise GameError("login_required")


def bot_delay() -> timedelta:
    """How long a computer seat waits before it plays: uniform in ``BASRA_BOT_DELAY_SECONDS``.

    Default 0.6-1.5 s: long enough to see each play land, short enough not to bore.
    """
    low, high = settings.BASRA_BOT_DELAY_SECONDS
    return timedelta(seconds=random.uniform(low, high))


class Moved(Exception):
    """The row moved on since the kept state a compare-and-set was made on: nothing was written."""


class NeedsLock(Exception):
    """A change the compare-and-set way cannot make (it touches the seats): take the lock."""


class Change:
    """One change to one table, from the lock (or the kept state) to the broadcast.

    ``match`` is the row (changed in memory, written by :meth:`write`); ``now`` the time of the
    change; ``prev_seq`` the row's ``seq`` before it; ``events`` the events appended so far.
    ``announce`` says what the sockets are told after the commit: ``"state"`` (every seat its
    state), ``"seating"`` (seats changed before the start: each socket re-reads), ``"closed"``
    (the table was removed) or ``None``; ``lobby``: the lobby's list is sent too.
    """

    def __init__(
        self,
        match: Match,
        now: datetime,
        *,
        live: engine.Match | None = None,
        cas: bool = False,
        before: Match | None = None,
    ) -> None:
        self.match = match
        self.match_id = match.pk
        self.now = now
        self.prev_seq = match.seq
        self.events: list[Event] = []
        self.announce: str | None = "state"
        self.lobby = False
        self.finished = False
        self.deleted = False
        self._cas = cas
        # The row as it was, to keep with an untouched engine state (:meth:`_put_back`): a copy,
        # or ``before``, a copy the caller hands over (the compare-and-set way's kept row).
        self._row = copy.copy(match) if before is None else before
        self._live = live
        self._dirty = False
        self._written = 0

    # --- reading ------------------------------------------------------------------------------

    @property
    def live(self) -> engine.Match:
        """The engine state at ``prev_seq`` (then as this change made it); read on first use."""
        if self._live is None:
            self._live = cache.checkout(self._row)
        return self._live

    @property
    def seats(self) -> tuple[SeatRow, ...]:
        """The taken seats as they are now (kept per ``seating_token``)."""
        return seat_rows(self.match)

    def seat_models(self) -> list[Seat]:
        """The ``Seat`` rows, to change them (under the lock only)."""
        self.needs_lock()
        return list(
            Seat.objects.filter(match_id=self.match.pk).select_related("user").order_by("seat")
        )

    def needs_lock(self) -> None:
        """:raises NeedsLock: in a compare-and-set change (the funnel then takes the lock)."""
        if self._cas:
            raise NeedsLock

    # --- changing -----------------------------------------------------------------------------

    def log(self, kind: str, payload: dict, seat: int | None = None) -> None:
        """Append an event, numbered ``match.seq + 1`` (written by :meth:`write`).

        :raises RuntimeError: after the match ended (nothing follows ``match_end``).
        """
        if self.finished:
            raise RuntimeError("an event after the match ended")
        self.match.seq += 1
        self.events.append(
            Event(match=self.match, seq=self.match.seq, kind=kind, seat=seat, payload=payload)
        )

    def play(self, seat: int, card: engine.Card) -> engine.Capture:
        """The engine plays ``card`` for ``seat`` (the engine checks turn and hand).

        :raises GameError: the engine's refusal, mapped by ``games.core.errors.from_engine``.
        """
        try:
            capture = self.live.play(card, seat=seat)
        except engine.BasraError as error:
            raise from_engine(error) from None
        self._dirty = True
        return capture

    def begin(self, live: engine.Match) -> None:
        """The match starts: ``live`` (a new engine ``Match``) is its state from now on."""
        self._live = live
        self._dirty = True

    def deal(self, deck: list[str]) -> None:
        """The engine deals its next round from ``deck`` (codes, ``deck[0]`` on top)."""
        self.live.start_round(deck)
        self._dirty = True

    def changed_seating(self) -> None:
        """A seat changed: cached seatings of this match are no longer used."""
        self.needs_lock()
        self.match.seating_token = uuid.uuid4()

    def set_deadline(self, pause: float = 0.0) -> None:
        """``match.deadline``: when the seat to move runs out (a person) or plays (the computer,
        after :func:`bot_delay`); ``None`` when no clock runs (not playing, no time per play).

        :param pause: seconds before that wait begins (the first play of a new round: time to
            read the last round's score, ``BASRA_ROUND_PAUSE_SECONDS``).
        """
        match = self.match
        match.deadline = None
        if match.status != Match.Status.PLAYING or self.live.over or self.live.round is None:
            return
        turn = self.live.round.turn
        mover = next((s for s in self.seats if s.seat == turn), None)
        start = self.now + timedelta(seconds=pause) if pause else self.now
        if mover is not None and mover.bot:
            match.deadline = start + bot_delay()
        elif match.move_seconds:
            match.deadline = start + timedelta(seconds=match.move_seconds)

    def write(self) -> None:
        """Write the events appended since the last write and the row.

        Locked: one ``INSERT`` of the events and an ``UPDATE`` of the row. Compare-and-set: one
        write that succeeds only if the row is still as it was kept (``store``).

        :raises Moved: compare-and-set, and the row had moved on (nothing written).
        """
        new = self.events[self._written:]
        if self._cas:
            if self._written:
                raise RuntimeError("a compare-and-set change writes once")
            if not store.write_if_unchanged(self.match, self.prev_seq, new, self.now):
                raise Moved
        else:
            Event.objects.bulk_create(new)
            self.match.save(update_fields=MATCH_FIELDS)
        self._written = len(self.events)

    # --- ending -------------------------------------------------------------------------------

    def _commit(self) -> None:
        """Write what is left and register the broadcast for after the commit."""
        if self.deleted or not self.events:
            self._put_back()
            if self.deleted:
                self._on_commit()
            return
        if self._written < len(self.events):
            self.write()
        self._on_commit()

    def _put_back(self) -> None:
        """Keep the engine state again if this change did not touch it (a refusal, a no-op)."""
        if self._live is not None and not self._dirty:
            cache.checkin(self._row, self._live, owned=True)

    def _on_commit(self) -> None:
        """Register what follows the commit: keep the engine state, tell the sockets (each seat
        its own ``state``; or the seating or closed notice), and the lobby."""
        match_id, announce, lobby = self.match_id, self.announce, self.lobby
        # The row to keep with the engine state: a copy, since a locked change's row is the
        # caller's; a compare-and-set change's row is its own working copy, never used again.
        row = self.match if self._cas else copy.copy(self.match)
        live = self._live
        if announce == "state" and live is None and self.match.status != Match.Status.OPEN:
            live = self.live
        if self.deleted:
            live = None
        info = seat_users = None
        if announce == "state":
            seats = seat_rows(self.match)
            info = reads.table_info(self.match, seats, self.events)
            seat_users = {s.seat: s.user_id for s in seats if s.user_id is not None}
        seq, prev_seq = self.match.seq, self.prev_seq
        # A new deadline may come before the clock of this process meant to look again.
        new_deadline = (
            self.match.deadline is not None and self.match.deadline != self._row.deadline
        )

        def after_commit() -> None:
            if new_deadline:
                deadlines.deadline_set()
            if live is not None:
                cache.checkin(row, live, owned=True)
            if announce == "state":
                states = state_messages(
                    info, live, seq=seq, prev_seq=prev_seq, seats=[*seat_users, None]
                )
                broadcast.send_states(match_id, states, seat_users)
            elif announce == "seating":
                broadcast.send_seating(match_id)
            elif announce == "closed":
                broadcast.send_closed(match_id)
            if lobby:
                broadcast.send_tables(reads.open_tables())

        transaction.on_commit(after_commit)

    def _drop(self) -> None:
        """After a failure: keep the engine state only if it was not touched."""
        self._put_back()


def move_deadline(match: Match, deadline: datetime) -> None:
    """Move the locked ``match``'s ``deadline`` alone: no event and no new ``seq`` (nothing
    happened at the table, only its time changed: an outage's time given back,
    ``presence.resume_clock``; the wait for a person who has not come, ``play.act_on_deadline``).
    The open pages count down to the deadline they were sent, so every socket is sent its
    ``state`` again after the commit (same ``seq``, the new deadline): they and the clock agree.
    """
    match.deadline = deadline
    match.save(update_fields=["deadline"])
    match_id = match.pk
    transaction.on_commit(lambda: _announce_state(match_id))


def _announce_state(match_id: int) -> None:
    """Send every socket of table ``match_id`` its ``state`` as it stands."""
    states = reads.table_states(match_id)
    if states is not None:
        broadcast.send_states(match_id, *states)


def lock(match_id: int) -> Match:
    """The match row, locked until the end of the transaction.

    :raises GameError: ``not_found``.
    """
    try:
        # NO KEY UPDATE: the key never changes, and new events referencing the row must not wait.
        return Match.objects.select_for_update(no_key=True).get(pk=match_id)
    except Match.DoesNotExist:
        raise GameError("not_found") from None


_FALLBACK = object()


def run(
    match_id: int | None,
    body: Callable[[Change], T],
    *,
    now: datetime | None = None,
    seen: int | None = None,
    new: Callable[[datetime], Match] | None = None,
) -> T:
    """Run the action ``body`` on table ``match_id`` through the funnel (see the module).

    :param seen: the ``seq`` the request was made against (a play): when this process keeps the
        table at that ``seq`` (or behind it, caught up from the log), try the compare-and-set way
        first; a refusal there, a seat to change or a row that moved on is decided the locked
        way, which has the last word.
    :param new: instead of locking a table, create it (``new(now)`` returns the new row).
    :returns: what ``body`` returns.
    :raises GameError: the body's refusal (nothing written); ``not_found``.
    """
    now = timezone.now() if now is None else now
    if seen is not None and match_id is not None:
        result = _compare_and_set(match_id, body, now, seen)
        if result is not _FALLBACK:
            paths["compare_and_set"] += 1
            return result
        paths["locked"] += 1
    with write_transaction():
        match = new(now) if new is not None else lock(match_id)
        change = Change(match, now)
        try:
            result = body(change)
            change._commit()
        except BaseException:
            change._drop()
            raise
    return result


def _compare_and_set(match_id: int, body: Callable[[Change], T], now: datetime, seen: int) -> Any:
    """:func:`run` the compare-and-set way; ``_FALLBACK`` when the locked way must decide."""
    entry = cache.take(match_id)
    if entry is None:
        return _FALLBACK
    row = entry.row
    if entry.seq != seen:
        if entry.seq > seen:
            # The request is stale: the locked way says so.
            cache.checkin(row, entry.live, owned=True)
            return _FALLBACK
        # Behind: another process (the clock, another server) wrote since. Catch up.
        row = match_row(match_id)
        if row is None or row.seq != seen or str(row.cache_token) != entry.token:
            return _FALLBACK
        try:
            live = cache.bring_to(entry, row)
        except engine.BasraError:
            return _FALLBACK
        entry.live, entry.seq, entry.row = live, row.seq, row
    change = Change(copy.copy(row), now, live=entry.live, cas=True, before=row)
    try:
        with store.compare_and_set_scope():
            result = body(change)
            change._commit()
    except (Moved, NeedsLock, GameError):
        change._drop()
        return _FALLBACK
    except BaseException:
        change._drop()
        raise
    return result
