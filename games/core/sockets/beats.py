"""The process's beats: the server's own (``ServerBeat``: "a server is up", which the clock reads),
and the table sockets' heartbeat: one write per server process and period, not one per socket;
and their session checks, batched the same way.

Every ``liveness.heartbeat_seconds()`` a task of the process sends ``actions.heartbeats`` the
seats its open table sockets hold, the tables they show and its spectator sockets: the seats are
seen (``Seat.last_seen``, which the clock reads to find absent players), the spectators' rows
stay counted (``games.core.state.watching``), and each socket whose table
moved on without it (a broadcast lost with a server that died after its commit) reads its table
again. A few calls a period (one per :data:`CHUNK` sockets): with a beat per socket, 400 sockets
made 27 worker calls and 54 queries a second, about 4% of a live table's server CPU
(bench/live.py, py-spy).

The same task checks the sockets' sessions before the socket's own check runs out
(``BASRA_SESSION_RECHECK_SECONDS``, :func:`session_tick`): the sessions due in batches
(``games.core.sockets.auth.live_sessions``: one cache read and one query of users for up to
:data:`SESSION_CHUNK` sockets), before the heartbeat's calls when one is due. A socket whose
session is still its user's trusts it for another window, so a play does not check it itself
(that check, a session read and a user query, was about 7% of a live table's server CPU,
py-spy, bench/live.py); one whose session ended (expired, deleted, the user disabled or the
password changed) is told at once (``session_checked``), with no need for an action.

After a channel-layer outage (``games.core.state.broadcast``: sends failed, one worked again) every
table socket reads its table at once (:meth:`TableBeats.tables_moved`): the broadcasts it missed
are not waited for until the next heartbeat. While the layer is down the server's beat tries it
every :data:`WEB_BEAT_SECONDS`, so this comes within a second of its return.

A socket is in it from its first state to its disconnect (``TableConsumer``); the set holds
sockets weakly, so a consumer that ended in any way is not beaten for.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging
import time
import weakref
from collections.abc import Awaitable, Callable
from typing import Protocol

from django.conf import settings

from games.core import actions
from games.core.sockets.auth import live_sessions
from games.core.sockets.workers import in_worker
from games.core.state import broadcast, liveness, online, outages

logger = logging.getLogger(__name__)

#: Sockets beaten for in one worker call (a few milliseconds of the database thread).
CHUNK = 50
#: Sessions checked in one worker call (one cache read and one query of users).
SESSION_CHUNK = 200
#: The shortest wait between two session checks (seconds), whatever the window.
SESSION_TICK_MIN = 0.5


def session_tick() -> float | None:
    """Seconds between two looks for sessions due: a quarter of
    ``BASRA_SESSION_RECHECK_SECONDS``, at least :data:`SESSION_TICK_MIN`; ``None`` when the
    window is 0 (every action checks itself). A look checks the sessions whose window runs out
    within two ticks: each session is checked with at least a quarter of its window still to
    run, room for a look that comes late on a loaded server (a beat of 400 sockets waits behind
    the plays for the database thread)."""
    window = settings.BASRA_SESSION_RECHECK_SECONDS
    return None if window <= 0 else max(window / 4, SESSION_TICK_MIN)


class Beating(Protocol):
    """What the beat reads of a socket, and tells it."""

    match_id: int
    seq: int
    closing: bool
    gone: bool

    def seated_user(self) -> int | None:
        """The id of the socket's logged-in user if they have a seat at its table."""

    def watcher_channel(self) -> str | None:
        """The socket's channel name if it counts as a spectator (a ``Watcher`` row)."""

    def table_moved(self) -> None:
        """The table's ``seq`` is past the last state this socket sent: read it again."""

    def session_due(self, by: float) -> tuple[str, int] | None:
        """``(session key, user id)`` if the socket is logged in and its session check runs out
        by ``by`` (seconds on :attr:`TableBeats.clock`), else ``None``."""

    def session_checked(self, at: float, alive: bool) -> None:
        """Its session was checked at ``at`` (seconds on :attr:`TableBeats.clock`): still the
        user's, or not."""


class TableBeats:
    """The process's table sockets, beaten for together (see the module).

    One task per event loop (each test has its own loop), running while sockets are in.

    ``clock``: the time line of the beats' cadence and of the sockets' session windows (seconds,
    any origin; ``time.monotonic()``, which is also asyncio's ``loop.time()``); ``sleep``: how
    the task waits ``seconds`` on that line (``asyncio.sleep``). Tests give a virtual pair, so
    that beats and windows run out when the test moves time on, however slow the machine.
    """

    def __init__(
        self,
        *,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self._sockets: weakref.WeakSet[Beating] = weakref.WeakSet()
        self._task: asyncio.Task | None = None
        self._context = contextvars.copy_context()
        self.clock = clock
        self.sleep = sleep

    def add(self, socket: Beating) -> None:
        """Beat for ``socket`` from now on (call on the event loop)."""
        loop = asyncio.get_running_loop()
        self._sockets.add(socket)
        if self._task is None or self._task.done() or self._task.get_loop() is not loop:
            # The task's context, for :meth:`tables_moved`'s calls from other threads.
            self._context = contextvars.copy_context()
            self._task = loop.create_task(self._run(), context=self._context.copy())

    def discard(self, socket: Beating) -> None:
        """Stop beating for ``socket`` (it closed)."""
        self._sockets.discard(socket)

    def tables_moved(self) -> None:
        """The channel layer works again after an outage (any thread; ``broadcast.when_back``):
        every socket reads its table now, and sends its client the state it missed, instead of
        at the next heartbeat."""
        task = self._task
        if task is None or task.done():
            return

        def wake() -> None:
            for socket in list(self._sockets):
                if not (socket.closing or socket.gone):
                    socket.table_moved()

        try:
            # In the beats task's context, not the caller's: a caller inside asgiref's
            # ``async_to_sync`` would pass on its thread-sensitive executor, which the sockets'
            # database calls would then wait for after it has ended.
            task.get_loop().call_soon_threadsafe(wake, context=self._context.copy())
        except RuntimeError:
            pass  # the loop has closed: no socket is left

    async def beat(self, *, heartbeat: bool = True, sessions_by: float | None = None) -> None:
        """One beat now, for the sockets in (the task calls it every period), :data:`CHUNK`
        sockets a worker call: the process's plays share the one database thread with it, and
        one call for 400 sockets held it for 50-70 ms (plays queued behind it).

        The sessions due go first, :data:`SESSION_CHUNK` a call: on a loaded server each call
        waits behind the plays for the database thread, and sessions checked after eight
        heartbeat calls came too late for their window (their plays then checked them).

        :param heartbeat: beat for the seats and tables (else only the sessions' check).
        :param sessions_by: check the sessions whose check runs out by then (seconds on
            :attr:`clock`) first; ``None``: none.
        """
        sockets = [s for s in list(self._sockets) if not (s.closing or s.gone)]
        if sessions_by is not None:
            due = [(s, pair) for s in sockets if (pair := s.session_due(sessions_by)) is not None]
            for start in range(0, len(due), SESSION_CHUNK):
                await self._check_sessions(due[start:start + SESSION_CHUNK])
        if heartbeat:
            for start in range(0, len(sockets), CHUNK):
                await self._beat(sockets[start:start + CHUNK])

    async def _check_sessions(self, due: list[tuple[Beating, tuple[str, int]]]) -> None:
        checked_at = self.clock()
        alive = await in_worker(live_sessions)([pair for _socket, pair in due])
        for socket, (key, _user) in due:
            if not (socket.closing or socket.gone):
                socket.session_checked(checked_at, key in alive)

    async def _beat(self, sockets: list[Beating]) -> None:
        seated = [
            (s.match_id, user_id) for s in sockets if (user_id := s.seated_user()) is not None
        ]
        watching = [
            channel for s in sockets if (channel := s.watcher_channel()) is not None
        ]
        seqs = await in_worker(actions.heartbeats)(
            seated=seated, tables={s.match_id for s in sockets}, watching=watching
        )
        for socket in sockets:
            seq = seqs.get(socket.match_id)
            if seq is not None and seq > socket.seq:
                socket.table_moved()

    async def _run(self) -> None:
        clock = self.clock
        next_beat = clock() + liveness.heartbeat_seconds()
        next_look = clock()
        while self._sockets:
            tick = session_tick()
            if tick is not None:
                # On a fixed cadence: a slow beat does not push the next look back.
                next_look = max(next_look + tick, clock())
            wake = next_beat if tick is None else min(next_beat, next_look)
            await self.sleep(max(0.0, wake - clock()))
            heartbeat = clock() >= next_beat
            if heartbeat:
                next_beat = clock() + liveness.heartbeat_seconds()
            sessions_by = None if tick is None else clock() + 2 * tick
            try:
                await self.beat(heartbeat=heartbeat, sessions_by=sessions_by)
            except outages.UNAVAILABLE:
                pass  # logged once per outage (games.core.state.outages): the next may work
            except Exception:  # noqa: BLE001 - a database hiccup must not stop the beats
                logger.exception("table heartbeat failed")


#: The one of this process.
table_beats = TableBeats()
broadcast.when_back(table_beats.tables_moved)


#: Seconds between two ``WebTick`` writes of a running server process; well under
#: ``BASRA_CLOCK_OUTAGE_SECONDS`` (default 5), after which the clock takes the servers for down.
WEB_BEAT_SECONDS = 1.0


class ServerBeat:
    """Tells the clock that this server process is up, from its start for as long as it runs;
    while the channel layer is down, tries it each beat (``broadcast.aprobe_layer``).

    One task per process (per event loop) writes ``WebTick`` every :data:`WEB_BEAT_SECONDS`
    (``liveness.web_seen``). :meth:`start` begins it when the server starts (daphne: once its
    reactor runs; an ASGI server: the lifespan startup; both ``basra_site.asgi``), whether or not
    any socket is open, so the clock tells "no server is running" (no beat: it stands still and
    gives the time back later) from "servers run, nobody is connected" (it goes on: a player
    who closed the tab is marked absent). A process where nothing called :meth:`start` (an ASGI
    server without lifespan events, the tests' communicators) beats at least while it has open
    sockets (:meth:`opened` to :meth:`closed`).

    ``sleep``: how the task waits ``WEB_BEAT_SECONDS`` between two beats (``asyncio.sleep``;
    tests give a virtual one, so that a beat comes when the test moves time on).
    """

    def __init__(self, *, sleep: Callable[[float], Awaitable[None]] = asyncio.sleep) -> None:
        self.sockets = 0
        self.task: asyncio.Task | None = None
        #: Beating from the server's start until :meth:`stop`, not only while sockets are open.
        self.lifelong = False
        self.sleep = sleep

    def _ensure(self) -> None:
        loop = asyncio.get_running_loop()
        if self.task is None or self.task.get_loop() is not loop or self.task.done():
            # Also a new event loop (each test has its own): the old state belonged to the old.
            self.sockets = 0
            self.lifelong = False
            self.task = loop.create_task(self._beat())

    def start(self) -> None:
        """The server process started: beat until :meth:`stop` (call on its event loop)."""
        self._ensure()
        self.lifelong = True

    async def stop(self) -> None:
        """The server process stops: no more beats."""
        task, self.task = self.task, None
        self.lifelong = False
        self.sockets = 0
        if task is not None and task.get_loop() is asyncio.get_running_loop():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    def opened(self) -> None:
        """A socket opened in this process (call on the event loop)."""
        self._ensure()
        self.sockets += 1

    async def closed(self) -> None:
        """A socket opened with :meth:`opened` closed; without :meth:`start`, the last one stops
        the beats."""
        self.sockets -= 1
        task = self.task
        if (
            self.sockets <= 0
            and not self.lifelong
            and task is not None
            and task.get_loop() is asyncio.get_running_loop()
        ):
            self.task = None
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def _beat(self) -> None:
        refreshed = time.monotonic()
        while True:
            try:
                await in_worker(liveness.web_seen)()
            except outages.UNAVAILABLE:
                pass  # logged once per outage, as above
            except Exception:  # noqa: BLE001 - a database hiccup must not stop the beats
                logger.exception("server beat failed")
            refreshed = await self._online(refreshed)
            if broadcast.layer_is_down():
                # Tried again each beat: once it works the sockets catch up at once
                # (``TableBeats.tables_moved``), even if no table changes meanwhile.
                await broadcast.aprobe_layer()
            await self.sleep(WEB_BEAT_SECONDS)

    @staticmethod
    async def _online(refreshed: float) -> float:
        """Write who came online and who went (``games.core.state.online``), and every
        ``online.REFRESH_SECONDS`` refresh the process's rows; returns when it last refreshed.
        Changes that could not be written are written at the next beat."""
        came, went = online.take_changes()
        due = time.monotonic() - refreshed >= online.REFRESH_SECONDS
        if not (came or went or due):
            return refreshed

        def work() -> None:
            online.write(came, went)
            if due:
                online.refresh()

        try:
            await in_worker(work)()
        except outages.UNAVAILABLE:
            online.give_back(came, went)
            return refreshed
        except Exception:  # noqa: BLE001 - as the server's beat
            online.give_back(came, went)
            logger.exception("online beat failed")
            return refreshed
        return time.monotonic() if due else refreshed


#: The one of this process.
server_beat = ServerBeat()
