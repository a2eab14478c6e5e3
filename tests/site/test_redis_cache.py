"""The Redis cache keeps one client per process (basra_site/redis_cache.py)."""

from __future__ import annotations

import threading

from django.core.cache import CacheHandler

from basra_site.redis_cache import SharedRedisCache

SETTINGS = {
    "one": {"BACKEND": "basra_site.redis_cache.SharedRedisCache", "LOCATION": "redis://127.0.0.1:6379/9"},
    "other": {"BACKEND": "basra_site.redis_cache.SharedRedisCache", "LOCATION": "redis://127.0.0.1:6379/10"},
}


def test_cache_instances_of_other_threads_share_one_client_per_location():
    """Django makes a cache instance per thread (and per asyncio task): they all use one
    client, so one connection pool, for the same location; another location has its own."""
    caches = CacheHandler(SETTINGS)
    seen = []

    def use() -> None:
        seen.append((caches["one"], caches["one"]._cache, caches["other"]._cache))

    threads = [threading.Thread(target=use) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    instances = {id(entry[0]) for entry in seen}
    assert len(instances) == 3  # Django's own instance per thread
    assert len({id(entry[1]) for entry in seen}) == 1
    assert len({id(entry[2]) for entry in seen}) == 1
    assert seen[0][1] is not seen[0][2]


def test_other_options_get_their_own_client():
    one = SharedRedisCache("redis://127.0.0.1:6379/9", {})
    same = SharedRedisCache("redis://127.0.0.1:6379/9", {})
    other = SharedRedisCache("redis://127.0.0.1:6379/9", {"OPTIONS": {"socket_timeout": 3}})
    assert one._cache is same._cache and one._cache is not other._cache
