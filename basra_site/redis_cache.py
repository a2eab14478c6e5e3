"""Django's Redis cache with one client per process, shared by every thread and task.

Django keeps a cache instance per thread and per asyncio task (``django.core.cache.caches`` is an
``asgiref.local.Local``), and each ``RedisCache`` instance builds its own client with its own
connection pool. Under Channels every websocket consumer is a task of its own, so each socket's
handshake (its session read through ``cached_db``) built a client and opened a new TCP connection
to Redis: 6-8% of a live table's server CPU in ``bench/live.py`` (py-spy), and an open connection
per socket. redis-py's clients and pools are thread-safe ("Connection pools", redis-py docs), so
one client per (servers, options) serves the whole process.

:class:`DegradingRedisCache`, the site's cache with ``REDIS_URL``, treats Redis being down as a
miss, so the site keeps working from the database (issue 36).
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from redis.exceptions import ConnectionError as RedisConnectionError, TimeoutError as RedisTimeoutError

logger = logging.getLogger(__name__)

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


#: What redis-py raises when the server cannot be reached or does not answer in time (a
#: ``BusyLoadingError`` is a ``ConnectionError`` too). Other errors (a wrong command, a
#: ``ResponseError``) are bugs and still raise.
UNREACHABLE = (RedisConnectionError, RedisTimeoutError)
#: At most this many keys written or deleted during an outage are remembered, to be deleted
#: when Redis is back (:class:`DegradingRedisCache`).
STALE_KEYS_MAX = 10_000
#: Seconds between two tries of Redis while it is down; meanwhile every call is a miss at once
#: (a host that does not answer would otherwise cost each call the connect timeout).
RETRY_SECONDS = 1.0
#: The clock of the retries (seconds; tests give a virtual one).
clock = time.monotonic

_down = False
_retry_at = 0.0
_stale: set[str] = set()
_stale_overflow = False
_lock_state = threading.Lock()
_trying = threading.Lock()


def cache_is_down() -> bool:
    """Whether this process's last try of the Redis cache found it unreachable."""
    return _down


class DegradingRedisCache(SharedRedisCache):
    """:class:`SharedRedisCache` that treats Redis being unreachable as a miss: a read finds
    nothing (``get`` its default, ``get_many`` ``{}``, ``has_key`` ``False``), a write or delete
    does nothing, ``add`` says it added (allauth's rate limits wait in a loop until an ``add``
    succeeds, ``allauth.core.internal.ratelimit.cache_lock``), ``incr`` finds no key
    (``ValueError``, as Django's caches do for a missing key). So while Redis is down the
    sessions (``cached_db``) come from the database, and allauth's limits and the phrases' pause
    (``games.core.state.phrases``) let requests through.

    Process-wide: logged once per outage (a WARNING at the first failure, an INFO when Redis
    answers again); while down, Redis is tried again at most every :data:`RETRY_SECONDS`, by
    one call, the others missing at once. A write or delete that failed may have left an older
    value in Redis (a session from before a log-out): those keys are remembered (at most
    :data:`STALE_KEYS_MAX`) and deleted before anything else once Redis answers, so no stale
    session comes back.
    """

    def _call(self, method: str, fallback: Any, written: list[str], *args: Any, **kwargs: Any) -> Any:
        """``RedisCache.<method>(*args, **kwargs)``; ``fallback`` (raised if an exception) when
        Redis is unreachable, ``written`` (the made keys the call would change) then stale."""
        try:
            if _down and not _try_back(self):
                raise RedisConnectionError("Redis is down (tried again later)")
            return getattr(super(), method)(*args, **kwargs)
        except UNREACHABLE as error:
            _went_down(error, written)
            if isinstance(fallback, BaseException):
                raise fallback from None
            return fallback

    def _made(self, keys, version) -> list[str]:
        return [self.make_and_validate_key(key, version=version) for key in keys]

    def add(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        return self._call("add", True, self._made([key], version), key, value, timeout, version)

    def get(self, key, default=None, version=None):
        return self._call("get", default, [], key, default, version)

    def set(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        self._call("set", None, self._made([key], version), key, value, timeout, version)

    def touch(self, key, timeout=DEFAULT_TIMEOUT, version=None):
        return self._call("touch", False, [], key, timeout, version)

    def delete(self, key, version=None):
        return self._call("delete", False, self._made([key], version), key, version)

    def get_many(self, keys, version=None):
        return self._call("get_many", {}, [], keys, version)

    def has_key(self, key, version=None):
        return self._call("has_key", False, [], key, version)

    def incr(self, key, delta=1, version=None):
        missing = ValueError(f"Key '{key}' not found.")
        return self._call("incr", missing, self._made([key], version), key, delta, version)

    def set_many(self, data, timeout=DEFAULT_TIMEOUT, version=None):
        keys = list(data)
        return self._call("set_many", keys, self._made(keys, version), data, timeout, version)

    def delete_many(self, keys, version=None):
        keys = list(keys)
        self._call("delete_many", None, self._made(keys, version), keys, version)

    def clear(self):
        return self._call("clear", False, [])


def _went_down(error: BaseException, written: list[str]) -> None:
    """Note an unreachable Redis: ``written`` are stale, the next try waits; a WARNING if it
    was thought up."""
    global _down, _retry_at, _stale_overflow
    with _lock_state:
        first, _down = not _down, True
        if first or clock() >= _retry_at:
            _retry_at = clock() + RETRY_SECONDS
        room = STALE_KEYS_MAX - len(_stale)
        _stale.update(written[:room])
        _stale_overflow |= len(written) > room
    if first:
        logger.warning(
            "Redis cache unreachable, serving without it until it is back: %s: %s",
            type(error).__name__, error,
        )


def _try_back(cache: RedisCache) -> bool:
    """Redis is thought down: whether this call may use it. ``False`` before the next try is
    due or while another call tries; else delete the keys that went stale (raises if Redis is
    still unreachable) and note it is back, with an INFO."""
    global _down, _stale_overflow
    if clock() < _retry_at or not _trying.acquire(blocking=False):
        return False
    try:
        with _lock_state:
            stale = list(_stale)
        if stale:
            cache._cache.delete_many(stale)
        with _lock_state:
            _stale.difference_update(stale)
            if _stale:  # written while this deleted: the next call deletes them
                return False
            was, _down, overflow = _down, False, _stale_overflow
            _stale_overflow = False
    finally:
        _trying.release()
    if was:
        logger.info("Redis cache back (%d keys written during the outage deleted)", len(stale))
        if overflow:
            logger.warning(
                "more than %d keys were written during the Redis outage: the others may hold "
                "stale values until they expire", STALE_KEYS_MAX,
            )
    return True
