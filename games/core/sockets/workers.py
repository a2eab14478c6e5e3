"""Where the sockets' database work runs: threads of their own that keep their connections.

Channels' ``database_sync_to_async`` runs every call on one shared thread (Channels enters no
``ThreadSensitiveContext``) and closes the connection after each call (``CONN_MAX_AGE`` is 0, as
Django advises under ASGI), so each play would open a new PostgreSQL connection. The live tables
instead run their calls on ``settings.BASRA_DB_THREADS`` threads of their own (default 1), each
keeping its one connection between calls. The actions hold no state in the thread, and the
match row lock (or the compare-and-set on ``seq``) orders the writes.

Why one thread: a play's database work is a few round trips of well under a millisecond, and
every thread added competes with the event loop for the GIL. Measured with bench/live.py
(200 tables, one daphne process, PostgreSQL and Redis on the same 2 cores): p99 48-58 ms with 1
thread, 78-281 ms with 2, 455 ms with 8, and the CPU time per play grows with the threads.
More processes (one per core), not more threads, is how a server grows.

On SQLite (development, tests) the calls keep Channels' single thread: SQLite has one writer at
a time, and its in-memory test database refuses a concurrent reader instead of waiting.

A kept connection is checked before a call when PostgreSQL may have dropped it (a restart), so
that the call does not fail on it (:func:`_check_kept`); every call's outcome tells the
process's database outage log (``games.core.state.outages``: one WARNING per outage, one INFO
when a call works again), on either database.
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
import queue
import select
import threading
from collections.abc import Callable
from typing import Any

from channels.db import database_sync_to_async
from django.conf import settings
from django.db import DatabaseError, InterfaceError, connection, connections

from games.core.state import broadcast, outages

class _Pool:
    """The worker threads: each takes calls from one queue and hands each result back to the
    caller's event loop (``call_soon_threadsafe``).

    What ``loop.run_in_executor`` on a ``ThreadPoolExecutor`` does, with less in between: it
    made a ``concurrent.futures`` future per call, chained to an asyncio one by callbacks and
    locks both ways, about 4% of a play's server CPU (py-spy, bench/live.py); here one asyncio
    future per call, set on the loop. A call whose caller stopped waiting (a cancelled task)
    still runs to its end; its result is dropped. The threads are daemons, as the process's
    own end does not wait for them: a call cut short by it has either committed or not.
    """

    def __init__(self, threads: int) -> None:
        self.calls: queue.SimpleQueue = queue.SimpleQueue()
        self.threads = [
            threading.Thread(target=self._work, name=f"basra-db-{n}", daemon=True)
            for n in range(threads)
        ]
        for thread in self.threads:
            thread.start()

    def call(self, loop: asyncio.AbstractEventLoop, context: contextvars.Context,
             function: Callable[..., Any], args: tuple, kwargs: dict) -> asyncio.Future:
        """Run ``function(*args, **kwargs)`` in ``context`` on a worker thread; the future is
        ``loop``'s."""
        future = loop.create_future()
        self.calls.put((loop, future, context, function, args, kwargs))
        return future

    def _work(self) -> None:
        while True:
            item = self.calls.get()
            if item is None:
                connections.close_all()
                return
            loop, future, context, function, args, kwargs = item
            try:
                result = context.run(_call_keeping_connection, function, args, kwargs)
                answer = (future, result, None)
            except BaseException as error:  # noqa: BLE001 - handed to the caller, as an executor does
                answer = (future, None, error)
            try:
                loop.call_soon_threadsafe(_settle, *answer)
            except RuntimeError:
                pass  # the loop has closed (its server is stopping): nobody waits any more
            del item, future, args, kwargs, answer

    def stop(self) -> None:
        """Let the threads finish the calls queued and end, each closing its connections."""
        for _ in self.threads:
            self.calls.put(None)
        for thread in self.threads:
            thread.join()


def _settle(future: asyncio.Future, result: Any, error: BaseException | None) -> None:
    if future.cancelled():
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(result)


_executor: _Pool | None = None
_executor_lock = threading.Lock()


def _pool() -> _Pool:
    global _executor
    with _executor_lock:
        if _executor is None:
            _executor = _Pool(settings.BASRA_DB_THREADS)
        return _executor


def stop() -> None:
    """Let the worker threads finish and end, closing their connections; tests use it.

    Each thread gives its connection back before it ends: a pooled connection that is only
    garbage-collected stays counted as lent out, and the pool runs dry. A later call starts
    new threads.
    """
    global _executor
    with _executor_lock:
        executor, _executor = _executor, None
    if executor is not None:
        executor.stop()


def _call_keeping_connection(function: Callable[..., Any], args: tuple, kwargs: dict) -> Any:
    """``function(*args, **kwargs)`` on a thread that keeps its connection between calls
    (a worker thread, an app's own), dropping it only when it is broken: checked before the
    call (:func:`_check_kept`), and after a database error (the next call reconnects). The
    database's outages are noted for the log (:func:`_noting`)."""
    _check_kept()
    try:
        return _noting(function, *args, **kwargs)
    except (DatabaseError, InterfaceError):
        # The database may have gone away (restart, idle timeout): the next call reconnects.
        _close_broken()
        raise


def keeping_connection(function: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """``function(*args, **kwargs)`` on a thread of the caller's own that keeps its database
    connection between calls (an app's scheduler), as the worker threads do: a kept connection
    the database dropped meanwhile is replaced before the call, a broken one closed after it,
    and the database's outages logged once each (``games.core.state.outages``).

    :raises: what ``function`` raises.
    """
    return _call_keeping_connection(function, args, kwargs)


def _noting(function: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """``function(*args, **kwargs)``, its outcome noted in ``outages.database``: an error of
    :data:`outages.UNAVAILABLE` as a failure (logged once per outage), a return as the database
    working."""
    try:
        result = function(*args, **kwargs)
    except outages.UNAVAILABLE as error:
        outages.database.failed(error)
        raise
    outages.database.works()
    return result


def _close_broken() -> None:
    """Close this thread's connections that no longer answer (``is_usable``: one ``SELECT 1``)."""
    for conn in connections.all(initialized_only=True):
        if conn.connection is not None and not conn.is_usable():
            conn.close()


#: Per thread: ``outages.database.failures`` when its kept connections were last checked.
_checked = threading.local()


def _check_kept() -> None:
    """Before a call on a thread that keeps its connection: close the connection if it no
    longer works, so that the call opens a fresh one (from the pool, which checks it) instead of
    failing on a dead one. The thread keeps its connection past every check of Django's
    (``CONN_HEALTH_CHECKS`` is skipped with a pool, which checks only what it lends), so after a
    PostgreSQL restart the first call on it failed ("terminating connection due to administrator
    command"), although the database was back.

    Checked with a round trip (``is_usable``) only when there is a reason: a database failure
    was noted in this process since this thread last checked (another thread, or the server's
    beat, met the outage first), or the server has dropped the connection while it was idle
    (:func:`_dropped`). Otherwise nothing but one ``poll`` of its socket.
    """
    failures = outages.database.failures
    suspect = getattr(_checked, "failures", failures) != failures
    _checked.failures = failures
    for conn in connections.all(initialized_only=True):
        if conn.connection is None or conn.in_atomic_block:
            continue
        if (suspect or _dropped(conn)) and not conn.is_usable():
            conn.close()


def _dropped(conn: Any) -> bool:
    """Whether the server has closed ``conn``'s idle PostgreSQL connection, or written to it
    unasked: what PostgreSQL does to every connection when it stops or restarts (a FATAL
    message, then the close) or ends the session. An idle connection has nothing to read, so a
    readable socket means that; no round trip (psycopg's ``Connection.closed`` and
    ``fileno()``, and one ``poll``). ``False`` for other databases (SQLite has no server)."""
    if conn.vendor != "postgresql":
        return False
    raw = conn.connection
    try:
        if raw.closed:
            return True
        poller = select.poll()
        poller.register(raw.fileno(), select.POLLIN)
        return bool(poller.poll(0))
    except Exception:  # noqa: BLE001 - a connection that cannot say is checked the long way
        return True


def in_worker(function: Callable[..., Any]) -> Callable[..., Any]:
    """``function`` as a coroutine run on the database worker threads.

    The actions' broadcasts (``transaction.on_commit``) are handed back to the calling event
    loop, so the worker thread goes on at once: on PostgreSQL with the call's result
    (``broadcast.Pending``), on SQLite as they come (``broadcast.CALLER_LOOP``).

    On PostgreSQL the call goes to the worker threads (:class:`_Pool`), in a copy
    of the caller's context (its contextvars, as ``asgiref``'s ``sync_to_async`` passes them):
    ``sync_to_async`` also carries the context's changes back to the caller and builds a
    wrapper per call, about 50 µs of CPU a call more here (every play, connect and close), and
    nothing run here changes the caller's context. On SQLite, Channels'
    ``database_sync_to_async`` (see the module).
    """
    if _vendor() == "sqlite":
        call = database_sync_to_async(functools.partial(_noting, function))

        async def run(*args: Any, **kwargs: Any) -> Any:
            broadcast.CALLER_LOOP.set(asyncio.get_running_loop())
            return await call(*args, **kwargs)

        return run

    async def run_pooled(*args: Any, **kwargs: Any) -> Any:
        loop = asyncio.get_running_loop()
        context = contextvars.copy_context()
        pending = broadcast.Pending()
        context.run(_enter, loop, pending)
        try:
            return await _pool().call(loop, context, function, args, kwargs)
        finally:
            pending.close()

    return run_pooled


def _enter(loop: asyncio.AbstractEventLoop, pending: broadcast.Pending) -> None:
    broadcast.CALLER_LOOP.set(loop)
    broadcast.PENDING.set(pending)


_vendors: dict[str, str] = {}


def _vendor() -> str:
    """The default database's vendor (``connection.vendor``), read once per process."""
    vendor = _vendors.get("default")
    if vendor is None:
        vendor = _vendors["default"] = connection.vendor
    return vendor
