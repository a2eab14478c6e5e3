"""The table clock: plays for seats whose time ran out, moves the computer seats and marks players
who left as absent.

Everything it acts on is in the database (``Match.deadline``, ``Seat.last_seen``), so it keeps no
timer of its own: :func:`run` calls :func:`tick` every quarter second (sooner when a deadline
comes first, :func:`next_wake`; in the web server's process every :data:`IN_SERVER_INTERVAL`
at most, and at once after each change there that sets a deadline:
``games.core.state.deadlines``), and a clock that is stopped and started again (or a second
one) simply finds the same deadlines. Each action is one ``games.core.actions`` write (row lock, ``seq``
check, events, broadcast after the commit), so the clock and the players' own plays never both
apply: whichever takes the row lock second finds the table changed and does nothing. The rules
of what it does are ``docs/protocol.md`` "Clock, absence, claim and resign".

The clock decides *when*; the computer seats think elsewhere (``games.core.clock.thinking``): a tick hands
a computer seat's turn to the thinking workers ahead of its deadline and goes on at once; the
card is applied when the deadline comes. Timeouts of people (the greedy stand-in, cheap) are
played within the tick. Where it runs (:class:`Runner`): ``manage.py run_clock``, its own process
(with Redis, whose channel layer carries its broadcasts to every server), or, without a shared
layer (``make run``), inside the daphne process on daphne's event loop (``basra_site.asgi``), so
that its broadcasts reach the sockets there.

Every tick also writes when it ended (``games.core.models.ClockTick``). A tick that finds the last one
ended more than :func:`liveness.outage_after` ago knows no clock ran meanwhile (a restart, a database
outage): it first gives every table the time back (``actions.resume_clock``), so a restart
makes nobody absent and plays no timeout for a person who could not play. The web servers beat
too (``games.core.models.WebTick``, every server process from its start for as long as it runs,
``games.core.sockets.beats.ServerBeat``); while they are all silent no server is running: the clock does
nothing and writes no tick, so their outage is given back the same way. Servers that run with
nobody connected keep beating, so a table everyone left is not frozen: its absences come.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from django.conf import settings
from django.db.models import Exists, OuterRef, Q, QuerySet
from django.utils import timezone

from games.core import actions

from games.core.errors import GameError
from games.core.models import Match, Seat
from games.core.sockets.workers import in_worker
from games.core.state import deadlines, liveness, outages, watching

if TYPE_CHECKING:
    from games.core.clock.thinking import Thinking

logger = logging.getLogger(__name__)

#: Seconds between two ticks, at most, of a clock in the web server's process (:class:`Runner`
#: ``woken``): that process's own changes wake it for each new deadline, so it waits only for the
#: absences (a grace of a minute by default) and the sweeps (:data:`SWEEP_SECONDS`), and an idle
#: server asks the database once a second instead of four times.
IN_SERVER_INTERVAL = 1.0

#: How many due tables one tick handles at most (the rest wait for the next tick, oldest first).
BATCH = 200


def _due(until: datetime, *, skip: list[int] = ()) -> list[tuple[int, datetime]]:
    """Matches being played whose deadline is at or before ``until`` (and not in ``skip``), the
    longest overdue first: ``(match id, deadline)``. A table paused for its absent person
    (``presence.absent``) has no deadline: it is never due, so nobody plays there."""
    return list(
        Match.objects.filter(status=Match.Status.PLAYING, deadline__lte=until)
        .exclude(pk__in=skip)
        .order_by("deadline", "pk")
        .values_list("pk", "deadline")[:BATCH]
    )


def _computer_turns(match_ids: list[int]) -> dict[int, actions.BotTurn]:
    """The computer seats to move among ``match_ids``: ``{match id: its BotTurn}``.

    One query for the computer seats of all of them; a table where a person is to move (or that
    has no computer seat) is not in the result.
    """
    seats: dict[int, list[int]] = {}
    for match_id, seat in (
        Seat.objects.filter(match_id__in=match_ids).exclude(bot="").order_by("match_id", "seat")
        .values_list("match_id", "seat")
    ):
        seats.setdefault(match_id, []).append(seat)
    turns = {}
    for match_id, numbers in seats.items():
        for seat in numbers:
            try:
                turns[match_id] = actions.bot_turn(match_id=match_id, seat=seat)
                break
            except GameError:
                continue  # not this seat's turn (or the table ended meanwhile)
    return turns


def _silent_people(cutoff: datetime, *, absent: bool) -> QuerySet[Seat]:
    """The persons' seats (not taken over) at matches being played, ``absent`` or not, silent
    since before ``cutoff``: counted from ``max(last_seen, started_at)``, so a person who joined
    an open table and closed the page is not absent the moment the last seat is taken."""
    return Seat.objects.filter(
        match__status=Match.Status.PLAYING,
        match__started_at__lt=cutoff,
        user__isnull=False,
        bot="",
        absent=absent,
    ).filter(Q(last_seen__isnull=True) | Q(last_seen__lt=cutoff))


def _gone(now: datetime) -> list[int]:
    """Matches being played with a person not yet absent whose sockets fell silent longer than
    ``liveness.absent_grace()`` (:func:`_silent_people`)."""
    cutoff = now - liveness.absent_grace()
    return list(
        _silent_people(cutoff, absent=False)
        .order_by("match_id")
        .values_list("match_id", flat=True)
        .distinct()[:BATCH]
    )


#: Seconds between two sweeps of the open tables and the spectator rows (:func:`_sweep`): both
#: count in minutes, so the clock's quarter-second ticks need not look every time.
SWEEP_SECONDS = 5.0
#: When this process's clock last swept (``time.monotonic()``; ``None``: not yet).
_swept_at: float | None = None


def abandon_after() -> timedelta:
    """How long an open table may have nobody seated there connected before the clock closes
    it: ``BASRA_OPEN_TABLE_ABANDON_SECONDS`` (default 180)."""
    return timedelta(seconds=settings.BASRA_OPEN_TABLE_ABANDON_SECONDS)


def _abandoned(silent_since: datetime) -> list[int]:
    """Open tables created before ``silent_since`` where no seated person has been seen since
    (``Seat.last_seen``), oldest first."""
    seen = Seat.objects.filter(
        match_id=OuterRef("pk"), user__isnull=False, last_seen__gte=silent_since
    )
    return list(
        Match.objects.filter(status=Match.Status.OPEN, created_at__lt=silent_since)
        .filter(~Exists(seen))
        .order_by("created_at", "pk")
        .values_list("pk", flat=True)[:BATCH]
    )


def _paused_too_long(left_before: datetime) -> list[int]:
    """Tables against the computer waiting, paused, for their absent person
    (``liveness.waiting_for``) who was last seen before ``left_before`` (:func:`_silent_people`),
    by id. One query."""
    other_person = Seat.objects.filter(match_id=OuterRef("match_id"), user__isnull=False).exclude(
        pk=OuterRef("pk")
    )
    return list(
        _silent_people(left_before, absent=True)
        .filter(~Exists(other_person))
        .order_by("match_id")
        .values_list("match_id", flat=True)[:BATCH]
    )


def _sweep(now: datetime, horizon: datetime, *, force: bool = False) -> int:
    """Every :data:`SWEEP_SECONDS` (or ``force``): close the abandoned open tables
    (``actions.close_abandoned``; silence counted up to ``horizon``, what a server was up to see),
    end ``abandoned`` the tables against the computer whose person has been away longer than
    ``liveness.computer_table_wait()`` (``actions.abandon_paused``) and delete the spectator rows
    of sockets that died with their process (``watching.sweep_watchers``). Returns the tables
    closed or ended."""
    global _swept_at
    moment = time.monotonic()
    if not force and _swept_at is not None and moment - _swept_at < SWEEP_SECONDS:
        return 0
    _swept_at = moment
    silent_since = horizon - abandon_after()
    done = 0
    for match_id in _abandoned(silent_since):
        try:
            if actions.close_abandoned(match_id=match_id, now=now, silent_since=silent_since):
                done += 1
                logger.info("clock: closed abandoned open table %s", match_id)
        except outages.UNAVAILABLE:
            raise  # the database, not the table: the tick fails as a whole (run)
        except Exception:  # noqa: BLE001 - one broken table must not stop the clock for all
            logger.exception("clock: closing abandoned table %s failed", match_id)
    left_before = horizon - liveness.computer_table_wait()
    for match_id in _paused_too_long(left_before):
        try:
            if actions.abandon_paused(match_id=match_id, now=now, left_before=left_before):
                done += 1
                logger.info("clock: abandoned table %s, its person gone too long", match_id)
        except outages.UNAVAILABLE:
            raise  # the database, not the table: the tick fails as a whole (run)
        except Exception:  # noqa: BLE001 - as above
            logger.exception("clock: abandoning paused table %s failed", match_id)
    try:
        watching.sweep_watchers(now=now)
    except outages.UNAVAILABLE:
        raise  # the database, not the table: the tick fails as a whole (run)
    except Exception:  # noqa: BLE001 - as above
        logger.exception("clock: sweeping spectator rows failed")
    return done


def thinking_lead() -> timedelta:
    """How long before a computer seat's deadline its move is handed to the thinking workers:
    the longest computer delay (``BASRA_BOT_DELAY_SECONDS``), so the bot thinks while the table
    waits its human-looking delay and the card is ready when the deadline comes."""
    return timedelta(seconds=max(settings.BASRA_BOT_DELAY_SECONDS))


def tick(
    *,
    now: datetime,
    outage: timedelta | None = None,
    thinking: Thinking | None = None,
    since: datetime | None = None,
    sweep: bool = False,
) -> int:
    """Do everything the clock owes at ``now``; returns the number of actions taken.

    Nothing at all while the web servers are down (none has beaten for longer than ``outage``;
    a server process beats from its start for as long as it runs, ``games.core.sockets.beats.ServerBeat``):
    players cannot reach their tables, and the clock counts as stopped since their last beat
    (``liveness.clock_paused``). Otherwise what it decides about people (absences, timeouts)
    waits for what a server was up to see: deadlines and silences up to the last beat (the
    horizon), so servers that die just before a deadline decide nothing.
    First, if the previous tick ended more than ``outage`` (default :func:`liveness.outage_after`) before
    ``now``, the clock was not running (or the web servers were down): every table gets the
    time back (``actions.resume_clock``: deadlines moved on by the gap, seats seen at ``now``;
    not an action, no event). Then the absences (a seat silent longer than :func:`liveness.absent_grace`
    is marked absent, and in a 4-player match the computer takes it over), then the deadlines
    (:func:`_deadlines`): a computer seat plays when its delay is over (at ``now``: it wrongs
    nobody), a person whose time per play ran out gets the greedy bot's card, logged as a
    timeout. Every :data:`SWEEP_SECONDS` (or with ``sweep``: tests), the open tables nobody
    seated there has had a socket at for :func:`abandon_after` are closed, the tables against
    the computer whose person has been away for ``liveness.computer_table_wait()`` abandoned and
    the spectator rows of dead processes deleted (:func:`_sweep`).

    ``thinking``: where the computer seats think (``games.core.clock.thinking.Thinking``): their turns are
    handed to it ahead of their deadline and the tick goes on at once; the card is applied when
    it comes back (not counted here). ``None``: the bot thinks and plays within this tick (tests,
    ``run_clock --once``). Tests pass ``now`` to move time on without waiting. A table whose
    action fails is logged and left for the next tick; the others go on.

    ``since``: when this clock started running (:func:`run`; ``run_clock --once``: now). Time
    given back that began before it is the clock starting after it was stopped, not an outage:
    that is logged at INFO; a gap this clock lived through (no tick for longer than ``outage``
    while it ran: the database, the process or every web server was down) is a WARNING.
    ``None``: every gap is an outage.
    """
    started = time.monotonic()
    outage = liveness.outage_after() if outage is None else outage
    web = liveness.web_last_seen()
    if web is not None and now - web > outage:
        # No web server is up: nobody can play or keep a socket open. Do nothing, and count
        # the clock as stopped since the last beat: when a server is back, that whole gap is
        # given back as an outage.
        liveness.clock_paused(at=web)
        return 0
    horizon = now if web is None else min(now, web)
    gap = actions.resume_clock(now=now, outage=outage)
    if gap is not None:
        _log_gap(gap, now=now, since=since)
    done = 0
    for match_id in _gone(horizon):
        try:
            done += actions.mark_absent(match_id=match_id, now=horizon)
        except outages.UNAVAILABLE:
            raise  # the database, not the table: the tick fails as a whole (run)
        except Exception:  # noqa: BLE001 - one broken table must not stop the clock for all
            logger.exception("clock: absence check of match %s failed", match_id)
    done += _deadlines(now, horizon, thinking)
    done += _sweep(now, horizon, force=sweep)
    # The end of this tick, on ``now``'s time line (tests inject ``now``): a long tick (many
    # computer plays) is not mistaken for an outage by the next one.
    liveness.clock_ran(until=now + timedelta(seconds=time.monotonic() - started))
    return done


def _log_gap(gap: timedelta, *, now: datetime, since: datetime | None) -> None:
    """Log the time :func:`tick` gave back: a WARNING for an outage this clock ran through, INFO
    for the time it was not running before it started (a restart, a deploy, last night's stop)."""
    shown = timedelta(seconds=round(gap.total_seconds()))  # "0:01:00", not "0:00:59.998791"
    if since is not None and now - gap < since:
        logger.info("clock: started after %s stopped; the tables got that time back", shown)
    else:
        logger.warning("clock: no tick for %s; the tables got that time back", shown)


def _deadlines(now: datetime, horizon: datetime, thinking: Thinking | None) -> int:
    """The deadlines part of :func:`tick`: the computer seats due by ``now`` (with ``thinking``,
    due by ``now`` + :func:`thinking_lead`, those not already in flight), the people due by
    ``horizon``. Returns the plays made here."""
    lead = thinking_lead() if thinking is not None else timedelta(0)
    due = _due(now + lead, skip=thinking.in_flight() if thinking is not None else [])
    turns = _computer_turns([match_id for match_id, _ in due])
    done = 0
    for match_id, deadline in due:
        try:
            turn = turns.get(match_id)
            if turn is not None and thinking is not None:
                thinking.submit(turn, deadline=deadline, now=now)
            elif turn is not None:
                if deadline <= now:
                    actions.bot_play(match_id=match_id, seat=turn.seat, now=now,
                                      card=actions.choose_card(turn), seen=turn.seq)
                    done += 1
            elif deadline <= horizon and actions.act_on_deadline(match_id=match_id, now=now):
                done += 1
        except GameError as error:
            logger.info("clock: match %s moved on (%s)", match_id, error.code)
        except outages.UNAVAILABLE:
            raise  # the database, not the table: the tick fails as a whole (run)
        except Exception:  # noqa: BLE001 - as above
            logger.exception("clock: deadline of match %s failed", match_id)
    return done


def next_wake(*, now: datetime, interval: float, thinking: Thinking | None = None) -> float:
    """Seconds until the next tick is due: ``interval``, or sooner if a deadline (less the
    thinking lead) comes first, so a computer seat is not kept waiting for the tick's pace."""
    lead = thinking_lead() if thinking is not None else timedelta(0)
    skip = thinking.in_flight() if thinking is not None else []
    if len(_due(now + lead, skip=skip)) >= BATCH:
        return 0.0  # more is due than one tick handles
    upcoming = (
        Match.objects.filter(status=Match.Status.PLAYING, deadline__gt=now + lead)
        .exclude(pk__in=skip)
        .order_by("deadline")
        .values_list("deadline", flat=True)
        .first()
    )
    if upcoming is None:
        return interval
    return max(0.0, min(interval, (upcoming - lead - now).total_seconds()))


def _tick_and_wait(
    interval: float, outage: timedelta, thinking: Thinking | None, since: datetime
) -> float:
    now = timezone.now()
    tick(now=now, outage=outage, thinking=thinking, since=since)
    return next_wake(now=timezone.now(), interval=interval, thinking=thinking)


async def run(
    *,
    interval: float,
    thinking: Thinking | None = None,
    stopping: asyncio.Event | None = None,
    woken: bool = False,
) -> None:
    """Tick on the running event loop until ``stopping`` is set (then after the tick in hand) or
    the task is cancelled, every ``interval`` seconds at most (sooner when a deadline comes
    first, :func:`next_wake`).

    ``woken``: the changes made in this process wake the clock when they set a deadline
    (``games.core.state.deadlines``; a clock in the web server's process, where every change of
    its tables is made), so ``interval`` need only be as short as the absences and sweeps ask.
    Without it (``run_clock``, a process of its own) a deadline set elsewhere is seen at the
    next tick.

    Each tick runs on the database worker thread (``games.core.sockets.workers.in_worker``), so the loop (a
    web server's, with its sockets) is never blocked, and the broadcasts of the tick's changes
    are handed back to this loop: in a web server process they reach its sockets even over the
    in-memory channel layer. A gap of a few intervals is this clock's own pace, never an outage.
    A tick the database fails is logged once per outage (``games.core.state.outages``), a
    channel layer that fails once per outage too (``broadcast.layer_failed``): the clock goes on.
    """
    outage = max(liveness.outage_after(), timedelta(seconds=4 * interval))
    since = timezone.now()  # the downtime before this is a start-up, not an outage (tick)
    step = in_worker(_tick_and_wait)
    stopping = stopping or asyncio.Event()
    woke = asyncio.Event()
    unlisten = deadlines.listen(woke) if woken else (lambda: None)
    try:
        while not stopping.is_set():
            # Cleared before the tick reads the deadlines: one set while it runs ticks again.
            woke.clear()
            try:
                wait = await step(interval, outage, thinking, since)
            except asyncio.CancelledError:
                raise
            except outages.UNAVAILABLE:
                # The database is down or restarting: one WARNING for the outage, one INFO when
                # a tick works again (``outages.database``, noted on the database thread), and
                # the next tick as planned; the tables get the time back then (``tick``).
                wait = interval
            except Exception:  # noqa: BLE001 - a bug of one tick must not stop the clock
                logger.exception("clock: tick failed")
                wait = interval
            await _first_of(stopping, woke, timeout=wait)
    finally:
        unlisten()


async def _first_of(*events: asyncio.Event, timeout: float) -> None:
    """Return when one of ``events`` is set, or after ``timeout`` seconds."""
    waiters = [asyncio.ensure_future(event.wait()) for event in events]
    try:
        await asyncio.wait(waiters, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for waiter in waiters:
            waiter.cancel()


class Runner:
    """The clock and its thinking workers on the running event loop (``run_clock``, or a web
    server process when ``BASRA_CLOCK_IN_SERVER``: ``basra_site.asgi``, ``woken`` and every
    :data:`IN_SERVER_INTERVAL` at most). ``interval``, ``woken``: :func:`run`'s."""

    def __init__(
        self, *, interval: float = 0.25, workers: int | None = None, woken: bool = False
    ) -> None:
        self.interval = interval
        self.workers = workers
        self.woken = woken
        self.thinking: Thinking | None = None
        self.task: asyncio.Task | None = None
        self.stopping: asyncio.Event | None = None

    def start(self) -> None:
        """Start ticking (call on the event loop). ``workers`` 0: the bots think in the tick."""
        from games.core.clock import thinking

        count = thinking.worker_count() if self.workers is None else self.workers
        if count > 0:
            self.thinking = thinking.Thinking(make_executor=lambda: thinking.pool(count))
        self.stopping = asyncio.Event()
        self.task = asyncio.get_running_loop().create_task(
            run(interval=self.interval, thinking=self.thinking, stopping=self.stopping,
                woken=self.woken)
        )
        logger.info("clock: ticking every %g s, %s thinking worker(s)", self.interval, count)

    async def stop(self) -> None:
        """Stop ticking, after the tick in hand (a SIGTERM to ``run_clock`` or to the server):
        its plays are committed and broadcast on this loop. It is waited for
        ``BASRA_DRAIN_SECONDS`` at most, then cancelled (its database call still ends on its
        thread, unanswered). Then stop the workers."""
        if self.task is not None:
            self.stopping.set()
            done, _pending = await asyncio.wait({self.task}, timeout=settings.BASRA_DRAIN_SECONDS)
            if not done:
                self.task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await self.task
            self.task = None
        if self.thinking is not None:
            self.thinking.close()
            self.thinking = None
