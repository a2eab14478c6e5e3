"""Django's Redis cache with one client per process, shared by every thread and task.

Django keeps a cache instance per thread and per asyncio task (``django.core.cache.caches`` is an
``asgiref.local.Local``), and each ``RedisCache`` instance builds its own client with its own
connection pool. Under Channels every websocket consumer is a task of its own, so each socket's
handshake (its session read through ``cached_db``) built a client and opened a new TCP connection
to Redis: 6-8% of a live table's server CPU in ``bench/live.py`` (py-spy), and an open connection
per socket. redis-py's clients and pools are thread-safe ("Connection pools", redis-py docs), so
one client per (servers, options) serves the whole process.
"""

from __future__ import annotations

import threading
from typing import Any

from django.core.cache.backends.redis import RedisCache, RedisCacheClient

_clients: dict[tuple, RedisCacheClient] = {}
_lock = threading.Lock()


class SharedRedisCache(RedisCache):
    """``django.core.cache.backends.redis.RedisCache`` whose client is the process's one for the
    same ``LOCATION`` and ``OPTIONS`` (set it as ``CACHES[...]["BACKEND"]``)."""

    @property
    def _cache(self) -> Any:
        key = (tuple(self._servers), repr(sorted(self._options.items())))
        client = _clients.get(key)
        if client is None:
            with _lock:
                client = _clients.setdefault(key, self._class(self._servers, **self._options))
        return client
