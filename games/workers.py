"""Where the sockets' database work runs: a few threads that keep their connections.

Channels' ``database_sync_to_async`` runs every call on one shared thread (Channels enters no
``ThreadSensitiveContext``) and closes the connection after each call (``CONN_MAX_AGE`` is 0, as
Django advises under ASGI), so each play would wait for every other socket's work and then open
a new PostgreSQL connection. The live tables instead run their calls on ``WORKERS`` threads of
their own, each keeping its one connection between calls (at most ``WORKERS`` connections per
process). The services hold no state in the thread, and the match row lock orders the writes.

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
from django.db import DatabaseError, InterfaceError, connection, connections

from games import broadcast

#: Threads (and so database connections) per process for the sockets' database work.
WORKERS = 4

_executor: ThreadPoolExecutor | None = None
_executor_lock = threading.Lock()


def _pool() -> ThreadPoolExecutor:
    global _executor
    with _executor_lock:
        if _executor is None:
            _executor = ThreadPoolExecutor(max_workers=WORKERS, thread_name_prefix="basra-db")
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
        barrier = threading.Barrier(WORKERS)

        def release() -> None:
            with contextlib.suppress(threading.BrokenBarrierError):
                barrier.wait(timeout=5)
            connections.close_all()

        for _ in range(WORKERS):
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

    The services' broadcasts (``transaction.on_commit``) are handed back to the calling event
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
    same ``get_user`` runs on ``WORKERS`` threads that keep their connections.
    """

    async def resolve_scope(self, scope: dict) -> None:
        scope["user"]._wrapped = await in_worker(get_user.func)(scope)


def AuthMiddlewareStack(inner: Any) -> Any:  # noqa: N802 - named like Channels' own
    """Channels' ``AuthMiddlewareStack`` (cookies, session, user) with :class:`WorkerAuthMiddleware`."""
    return CookieMiddleware(SessionMiddleware(WorkerAuthMiddleware(inner)))
