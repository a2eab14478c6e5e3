"""Where the computer seats think: worker processes the clock owns, off the clock's loop.

The clock (``games.core.clock.clock``) decides *when* a computer seat plays; the strong bot's search (tens
of milliseconds of CPU a move, up to ``actions.BOT_TIME_LIMIT``) runs here, in a
``concurrent.futures.ProcessPoolExecutor`` (:func:`pool`, ``settings.BASRA_BOT_WORKERS``
processes, default one per core), so a tick never waits for a bot and the moves of many tables
are thought at once, on every core, whatever the GIL of the clock's process is doing.

Why a pool the clock owns and not Channels' ``runworker`` on a named channel: a bot's move is a
pure function of one picklable ``actions.BotTurn`` (``actions.choose_card``), so it needs no
channel layer, no Redis round trip and no message format of its own; the pool starts and stops
with the clock (``make run`` stays one command, and so does production's ``run_clock``), a
result comes back as a future to exactly the clock that asked, which applies it, and a table is
never asked for twice because the clock keeps what it has in flight (:class:`Thinking`). A
``runworker`` would be a further process to run and supervise, and its answer would have to
come back through the layer to whoever applies it.

A turn goes: the clock finds a computer seat to move whose ``deadline`` is near (up to the
longest computer delay ahead, so the thinking overlaps the human-looking wait), reads its
``BotTurn`` (``actions.bot_turn``) and :meth:`Thinking.submit`\\ s it; a worker chooses the
card; back on the event loop the card waits for the table's deadline and is applied with
``actions.bot_play(card=, seen=)`` on the database worker thread (``games.core.sockets.workers``): only if
the table is still at the ``seq`` the bot saw, else dropped (``stale``) and the next tick asks
again.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging
import multiprocessing
import multiprocessing.connection
import os
import threading
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import CancelledError, Executor, Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from django.conf import settings

if TYPE_CHECKING:
    from games.core import actions

# Nothing here imports Django's models at import time: a worker process imports this module
# (for :func:`_worker_ready`) before Django is set up.

logger = logging.getLogger(__name__)


def _worker_ready() -> None:
    """Run in each new worker: Django is set up, so a ``BotTurn`` can be unpickled there; and
    the worker ends with the process that started it, even one killed outright (a pool's
    workers hold their task queue's pipe open themselves, so they would wait on it forever)."""
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "basra_site.settings")
    django.setup()
    end_with_parent()


def end_with_parent() -> None:
    """A process pool's ``initializer``: the worker ends (``os._exit``) as soon as the process
    that started it does, however that ends (a kill, a crash), even in the middle of a task. A
    pool's workers hold their own task queue's pipe open, so without this they would finish
    their task and then wait on that queue for ever. Nothing happens in a process without a
    ``multiprocessing`` parent."""
    parent = multiprocessing.parent_process()
    if parent is not None:

        def follow() -> None:
            multiprocessing.connection.wait([parent.sentinel])
            os._exit(0)

        threading.Thread(target=follow, name="basra-follow-parent", daemon=True).start()


def worker_count() -> int:
    """How many thinking processes: ``BASRA_BOT_WORKERS`` (default the machine's cores; 0: none,
    the bots think in the clock's tick)."""
    return settings.BASRA_BOT_WORKERS


def pool(workers: int | None = None) -> ProcessPoolExecutor:
    """A process pool for the bots, ``workers`` processes (default :func:`worker_count`).

    Started with ``spawn``: the clock may run inside a server process with threads and an event
    loop, which ``fork`` would copy half-way. Each worker sets Django up once (a ``BotTurn`` is
    a class of ``games.core.actions``) and touches no database. The workers are started now, in the
    background, so the first move does not wait for them.
    """
    workers = workers or worker_count() or 1
    executor = ProcessPoolExecutor(
        max_workers=workers,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=_worker_ready,
    )
    for _ in range(workers):
        executor.submit(os.getpid)
    return executor


@dataclass
class _Flight:
    turn: actions.BotTurn
    deadline: datetime
    now: datetime
    started: float


class Thinking:
    """The computer turns in flight: thought by an executor, applied back on an event loop.

    ``executor``: where ``think(turn)`` runs (:func:`pool`; tests may give a thread pool);
    ``make_executor``: builds a new one if the pool breaks (a worker killed), default
    :func:`pool`; ``loop``: the event loop that applies the cards (default: the running one);
    ``think``: the bot (default ``actions.choose_card``); ``clock`` and ``sleep``: how a card
    measures its wait for the deadline (seconds of ``time.monotonic()``, waited with
    ``asyncio.sleep`` on ``loop``; tests give a virtual pair, so that a deadline comes when the
    test moves time on, however slow the machine). A table is in flight from :meth:`submit`
    until its card is applied or dropped, and is never submitted twice meanwhile.
    """

    def __init__(
        self,
        executor: Executor | None = None,
        *,
        make_executor: Callable[[], Executor] = pool,
        loop: asyncio.AbstractEventLoop | None = None,
        think: Callable[[actions.BotTurn], Any] | None = None,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        from games.core import actions

        self.make_executor = make_executor
        self.executor = executor if executor is not None else make_executor()
        self.loop = loop or asyncio.get_running_loop()
        self.think = think or actions.choose_card
        self.clock = clock
        self.sleep = sleep
        self._flights: dict[int, _Flight] = {}
        self._lock = threading.Lock()
        self._idle = asyncio.Event()
        self._idle.set()
        #: Cards applied and dropped so far (for the logs and tests).
        self.applied = 0
        self.dropped = 0

    def __contains__(self, match_id: int) -> bool:
        with self._lock:
            return match_id in self._flights

    def in_flight(self) -> list[int]:
        """The match ids being thought about or waiting to be applied."""
        with self._lock:
            return list(self._flights)

    def submit(self, turn: actions.BotTurn, *, deadline: datetime, now: datetime) -> bool:
        """Think about ``turn`` elsewhere; play the card at ``deadline`` (on ``now``'s time line).

        Returns at once (any thread). ``False``: the table is already in flight, nothing done.
        """
        with self._lock:
            if turn.match_id in self._flights:
                return False
            self._flights[turn.match_id] = _Flight(turn, deadline, now, self.clock())
        self.loop.call_soon_threadsafe(self._idle.clear)
        try:
            future = self.executor.submit(self.think, turn)
        except (BrokenProcessPool, RuntimeError):
            # A worker died (the pool is broken) or the pool was shut down: a new one.
            logger.warning("thinking: the pool is broken; starting a new one")
            self.executor = self.make_executor()
            future = self.executor.submit(self.think, turn)
        future.add_done_callback(lambda done: self._back(turn.match_id, done))
        return True

    def _back(self, match_id: int, future: Future) -> None:
        # In the executor's thread, or in the submitting one if the card was already chosen:
        # hand the result to the loop (gone if it was stopped), in a context of its own, not
        # the submitting thread's (asgiref marks that one as inside its database thread).
        with contextlib.suppress(RuntimeError):
            self.loop.call_soon_threadsafe(
                self._thought, match_id, future, context=contextvars.Context()
            )

    def _thought(self, match_id: int, future: Future) -> None:
        """On the loop: the card is chosen; play it when the table's deadline comes."""
        flight = self._flights.get(match_id)
        if flight is None:
            return
        wait = (flight.deadline - flight.now).total_seconds() - (self.clock() - flight.started)
        self.loop.create_task(self._play(match_id, future, max(0.0, wait)))

    async def _play(self, match_id: int, future: Future, wait: float) -> None:
        """Wait ``wait`` seconds (the rest of the table's delay), then apply the card."""
        from games.core.sockets.workers import in_worker
        from games.core.state import outages

        await self.sleep(wait)
        flight = self._flights.get(match_id)
        try:
            card = future.result()
            played = await in_worker(self._apply)(flight, self.clock, card)
        except outages.UNAVAILABLE:
            played = False  # logged once per outage (games.core.state.outages); asked again
        except (Exception, CancelledError):  # noqa: BLE001 - one table must not stop the others
            logger.exception("thinking: the computer's move at match %s failed", match_id)
            played = False
        with self._lock:
            self._flights.pop(match_id, None)
            if not self._flights:
                self._idle.set()
        if played:
            self.applied += 1
        else:
            self.dropped += 1

    @staticmethod
    def _apply(flight: _Flight, clock: Callable[[], float], card: Any) -> bool:
        """On the database thread: ``bot_play`` the card if the table is still as the bot saw it
        and its deadline has come (an outage given back moves it on: the next tick asks again).
        The play's time is read now, on ``clock`` (the one ``flight.started`` was read on)."""
        from games.core import actions
        from games.core.errors import GameError
        from games.core.models import Match

        turn = flight.turn
        now = flight.now + timedelta(seconds=clock() - flight.started)
        if not Match.objects.filter(pk=turn.match_id, seq=turn.seq, deadline__lte=now).exists():
            return False
        try:
            actions.bot_play(match_id=turn.match_id, seat=turn.seat, card=card, seen=turn.seq,
                              now=now)
        except GameError as error:
            # The table changed while the bot thought (a resignation, a claim...): drop it.
            logger.info("thinking: match %s moved on (%s); card dropped", turn.match_id, error.code)
            return False
        return True

    async def idle(self) -> None:
        """Wait until nothing is in flight (tests, a clean stop)."""
        await self._idle.wait()

    def close(self) -> None:
        """Stop the workers (what is in flight is dropped; the next clock asks again)."""
        self.executor.shutdown(wait=False, cancel_futures=True)
