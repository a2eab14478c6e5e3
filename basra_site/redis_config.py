"""The Redis part of the settings: the site's prefix in Redis, and the channel layer's and the
cache's configuration from ``REDIS_URL``, ``REDIS_LAYER_URLS`` and ``REDIS_SENTINELS``
(README "Redis: one server, several, or Sentinel"). Pure functions of their arguments, read by
``basra_site/settings.py``."""

from __future__ import annotations

from django.core.exceptions import ImproperlyConfigured


def redis_site_prefix(url: str) -> str:
    """The prefix of this site's names in Redis, from ``REDIS_URL``'s database: ``"basra4"``
    for ``redis://host:6379/4`` (database 0 when the URL names none)."""
    from urllib.parse import urlsplit

    path = urlsplit(url).path.strip("/")
    return f"basra{int(path) if path.isdigit() else 0}"


#: Seconds a connection to a Redis server (or a Sentinel) of the layer may take: a host that
#: does not answer fails a send after this (best effort after a commit,
#: games/core/state/broadcast.py), not after the system's connect timeout.
REDIS_CONNECT_SECONDS = 2


def _sentinel_address(item: str) -> tuple[str, int]:
    """``("host", port)`` of ``"host:port"`` (``"[::1]:26379"`` for IPv6).

    :raises ImproperlyConfigured: no port, or not a number.
    """
    host, _colon, port = item.rpartition(":")
    if not host or not port.isdigit():
        raise ImproperlyConfigured(f"REDIS_SENTINELS: {item!r} is not host:port")
    return host.strip("[]"), int(port)


def redis_layer_hosts(
    url: str, layer_urls: str = "", sentinels: str = "", master: str = ""
) -> list[dict]:
    """The channel layer's ``hosts`` (channels-redis's pub/sub layer, its README "hosts"): one
    entry per Redis server it shards over by consistent hash.

    ``layer_urls`` (``REDIS_LAYER_URLS``, comma-separated URLs) gives one ``{"address": …}``
    entry each; ``sentinels`` (``REDIS_SENTINELS``, ``"host:port,…"``) with ``master``
    (``REDIS_SENTINEL_MASTER``) one Sentinel entry, ``{"master_name", "sentinels",
    "sentinel_kwargs", …}``, which channels-redis turns into redis-py's
    ``SentinelConnectionPool`` (``channels_redis.utils.create_pool``): every connection asks
    the Sentinels for the master. Neither: ``url``'s server alone. Every entry fails a connect
    after :data:`REDIS_CONNECT_SECONDS`.

    :raises ImproperlyConfigured: a Sentinel list without a master name or the other way
        round, both a Sentinel list and layer URLs, or either without ``url`` (the cache and the
        sessions stay on ``REDIS_URL``'s server).
    """
    timeout = {"socket_connect_timeout": REDIS_CONNECT_SECONDS}
    urls = [item.strip() for item in layer_urls.split(",") if item.strip()]
    addresses = [_sentinel_address(item.strip()) for item in sentinels.split(",") if item.strip()]
    master = master.strip()
    if bool(addresses) != bool(master):
        raise ImproperlyConfigured("REDIS_SENTINELS and REDIS_SENTINEL_MASTER go together")
    if urls and addresses:
        raise ImproperlyConfigured("set REDIS_LAYER_URLS or REDIS_SENTINELS, not both")
    if (urls or addresses) and not url:
        raise ImproperlyConfigured(
            "REDIS_LAYER_URLS and REDIS_SENTINELS need REDIS_URL: the cache and the sessions"
        )
    if addresses:
        # The Sentinels' own connections time out on reads too: a Sentinel that hangs is
        # passed over for the next one (redis-py's discover_master), not waited on.
        return [{
            "master_name": master,
            "sentinels": addresses,
            "sentinel_kwargs": {**timeout, "socket_timeout": REDIS_CONNECT_SECONDS},
            **timeout,
        }]
    return [{"address": address, **timeout} for address in urls or [url]]


def redis_settings(url: str, prefix: str, hosts: list[dict] | None = None) -> tuple[dict, dict]:
    """``(CHANNEL_LAYERS, CACHES)`` for a site on the Redis server of ``url``, every channel,
    group and key of it behind ``prefix``; the channel layer on ``hosts``
    (:func:`redis_layer_hosts`) when given, else on ``url``'s server too.

    Redis pub/sub ignores the database number: a PUBLISH reaches the subscribers of every
    database on the server ("Database & Scoping", Redis's pub/sub docs). Two sites on one server
    (``/4`` and ``/6``) received each other's table states and notices until their channel
    names carried a prefix of their own.
    """
    layers = {
        "default": {
            # Pub/sub: group membership lives in the process and a group send is one PUBLISH,
            # so a burst of sockets joining groups does not exhaust the Redis connection pool
            # as the list-based RedisChannelLayer does (shared/bench/BENCH.md).
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            # Several hosts: each channel and group on one of them, by consistent hash of its
            # name (prefix included), so every process must list the same hosts in one order.
            "CONFIG": {"hosts": hosts or redis_layer_hosts(url), "prefix": f"{prefix}:"},
        }
    }
    caches = {
        "default": {
            # Django's RedisCache, with one client (one connection pool) per process, that
            # treats Redis being down as a miss: sessions (cached_db), allauth's rate limits
            # and the site's keys then go on from the database, or without (issue 36).
            "BACKEND": "basra_site.redis_cache.DegradingRedisCache",
            "LOCATION": url,
            "KEY_PREFIX": prefix,
            # A host that does not answer is a miss after 2 s, not after the system's
            # connect timeout (minutes); then at most one call a second tries it again.
            "OPTIONS": {"socket_connect_timeout": REDIS_CONNECT_SECONDS},
        }
    }
    return layers, caches
