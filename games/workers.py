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
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from asgiref.sync import SyncToAsync
from channels.auth import AuthMiddleware, get_user
from channels.db import database_sync_to_async
from channels.sessions import CookieMiddleware, SessionMiddleware
from django.conf import settings
from django.db import DatabaseError, InterfaceError, connection, connections

from games import broadcast

_executor: ThreadPoolExecutor | None = None
_threads = 0
_executor_lock = threading.Lock()


def _pool() -> ThreadPoolExecutor:
    global _executor, _threads
    with _executor_lock:
        if _executor is None:
            _threads = settings.BASRA_DB_THREADS
            _executor = ThreadPoolExecutor(max_workers=_threads, thread_name_prefix="basra-db")
        return _executor


def stop() -> None:
    """Let the worker threads finish and end, closing their connections; tests use it.

    A later call starts new threads.
    """
    global _executor
    with _executor_lock:
        executor, _executor = _executor, None
    if executor is not None:
        # Each thread gives its connection back before it ends: a pooled connection that is only
        # garbage-collected stays counted as lent out, and the pool runs dry. The barrier makes
        # every one of the threads take one of these calls.
        barrier = threading.Barrier(_threads)

        def release() -> None:
            with contextlib.suppress(threading.BrokenBarrierError):
                barrier.wait(timeout=5)
            connections.close_all()

        for _ in range(_threads):
            executor.submit(release)
        executor.shutdown(wait=True)


class _KeepConnection(SyncToAsync):
    """``sync_to_async`` on the worker pool, dropping a connection only when it is broken."""

    def thread_handler(self, loop: Any, *args: Any, **kwargs: Any) -> Any:
        try:
            return super().thread_handler(loop, *args, **kwargs)
        except (DatabaseError, InterfaceError):
            # The database may have gone away (restart, idle timeout): the next call reconnects.
            for conn in connections.all(initialized_only=True):
                if conn.connection is not None and not conn.is_usable():
                    conn.close()
            raise


def in_worker(function: Callable[..., Any]) -> Callable[..., Any]:
    """``function`` as a coroutine run on the database worker threads.

    The actions' broadcasts (``transaction.on_commit``) are handed back to the calling event
    loop (``broadcast.CALLER_LOOP``), so the worker thread goes on at once.
    """
    if connection.vendor == "sqlite":
        call = database_sync_to_async(function)
    else:
        call = _KeepConnection(function, thread_sensitive=False, executor=_pool())

    async def run(*args: Any, **kwargs: Any) -> Any:
        broadcast.CALLER_LOOP.set(asyncio.get_running_loop())
        return await call(*args, **kwargs)

    return run


class WorkerAuthMiddleware(AuthMiddleware):
    """Channels' ``AuthMiddleware``, looking the session's user up on the worker threads.

    Channels does the lookup (the session row, then the user row) on its one shared database
    thread, opening and closing a connection each time, so a burst of sockets (800 within a
    second, ``shared/bench/BENCH.md``) queues there past daphne's handshake timeout. Here the
    same ``get_user`` runs on the worker threads, which keep their connections.
    """

    async def resolve_scope(self, scope: dict) -> None:
        scope["user"]._wrapped = await in_worker(get_user.func)(scope)


def AuthMiddlewareStack(inner: Any) -> Any:  # noqa: N802 - named like Channels' own
    """Channels' ``AuthMiddlewareStack`` (cookies, session, user) with :class:`WorkerAuthMiddleware`."""
    return CookieMiddleware(SessionMiddleware(WorkerAuthMiddleware(inner)))
