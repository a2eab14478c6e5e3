"""The table sockets' heartbeat: one write per server process and period, not one per socket.

Every ``liveness.heartbeat_seconds()`` a task of the process sends ``actions.heartbeats`` the
seats its open table sockets hold, the tables they show and its spectator sockets: the seats are
seen (``Seat.last_seen``, which the clock reads to find absent players), the spectators' rows
stay counted (``games.watching``), and each socket whose table
moved on without it (a broadcast lost with a server that died after its commit) reads its table
again. A few calls a period (one per :data:`CHUNK` sockets): with a beat per socket, 400 sockets
made 27 worker calls and 54 queries a second, about 4% of a live table's server CPU
(bench/live.py, py-spy).

A socket is in it from its first state to its disconnect (``TableConsumer``); the set holds
sockets weakly, so a consumer that ended in any way is not beaten for.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from typing import Protocol

from games import actions, liveness
from games.workers import in_worker

logger = logging.getLogger(__name__)

#: Sockets beaten for in one worker call (a few milliseconds of the database thread).
CHUNK = 50


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


class TableBeats:
    """The process's table sockets, beaten for together (see the module).

    One task per event loop (each test has its own loop), running while sockets are in.
    """

    def __init__(self) -> None:
        self._sockets: weakref.WeakSet[Beating] = weakref.WeakSet()
        self._task: asyncio.Task | None = None

    def add(self, socket: Beating) -> None:
        """Beat for ``socket`` from now on (call on the event loop)."""
        loop = asyncio.get_running_loop()
        self._sockets.add(socket)
        if self._task is None or self._task.done() or self._task.get_loop() is not loop:
            self._task = loop.create_task(self._run())

    def discard(self, socket: Beating) -> None:
        """Stop beating for ``socket`` (it closed)."""
        self._sockets.discard(socket)

    async def beat(self) -> None:
        """One beat now, for the sockets in (the task calls it every period), :data:`CHUNK`
        sockets a worker call: the process's plays share the one database thread with it, and
        one call for 400 sockets held it for 50-70 ms (plays queued behind it)."""
        sockets = [s for s in list(self._sockets) if not (s.closing or s.gone)]
        for start in range(0, len(sockets), CHUNK):
            await self._beat(sockets[start:start + CHUNK])

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
        while self._sockets:
            await asyncio.sleep(liveness.heartbeat_seconds())
            try:
                await self.beat()
            except Exception:  # noqa: BLE001 - a database hiccup must not stop the beats
                logger.exception("table heartbeat failed")


#: The one of this process.
table_beats = TableBeats()
