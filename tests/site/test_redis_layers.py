"""The channel layer on more than one Redis (issue 36): ``REDIS_LAYER_URLS``, over which
channels-redis's pub/sub layer spreads the channels and groups by consistent hash, and
``REDIS_SENTINELS`` with ``REDIS_SENTINEL_MASTER``, a master found through Sentinel
(``basra_site.settings.redis_layer_hosts``; the cache and the sessions stay on ``REDIS_URL``).

The servers are private ``redis-server`` processes on free ports (``tests/site/redis_servers.py``),
never the machine's own. Two layer objects stand for two server processes: what one sends, the
other's consumers receive.
"""

from __future__ import annotations

import asyncio
import logging
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from channels.layers import get_channel_layer
from channels_redis.pubsub import RedisPubSubChannelLayer
from django.core.exceptions import ImproperlyConfigured

from basra_site.settings import redis_layer_hosts, redis_settings
from games.core.state import broadcast
from tests.core.helpers import log_records
from tests.site.redis_servers import REDIS_SERVER, Inbox, RedisServer, Sentinel, wait_until

ROOT = Path(__file__).resolve().parents[2]
URL = "redis://127.0.0.1:6379/3"
#: The channel prefix of the tests on private servers: a fixed one, so that the channels and
#: groups fall on the same servers every run (the hash covers the prefix).
PREFIX = "basra7"
TIMEOUT = {"socket_connect_timeout": 2}

needs_redis_server = pytest.mark.skipif(REDIS_SERVER is None, reason="needs redis-server")


# --- settings -------------------------------------------------------------------------------


def test_one_server_by_default():
    assert redis_layer_hosts(URL) == [{"address": URL, **TIMEOUT}]


def test_layer_urls_give_one_host_each_in_their_order():
    hosts = redis_layer_hosts(URL, " redis://10.0.0.2:6379/0, redis://10.0.0.3:6380/0 ,")
    assert hosts == [
        {"address": "redis://10.0.0.2:6379/0", **TIMEOUT},
        {"address": "redis://10.0.0.3:6380/0", **TIMEOUT},
    ]


def test_sentinels_give_one_host_found_through_them():
    hosts = redis_layer_hosts(URL, sentinels="10.0.0.5:26379, [::1]:26380", master="basra")
    assert hosts == [{
        "master_name": "basra",
        "sentinels": [("10.0.0.5", 26379), ("::1", 26380)],
        "sentinel_kwargs": {**TIMEOUT, "socket_timeout": 2},
        **TIMEOUT,
    }]


@pytest.mark.parametrize("arguments, refusal", [
    ({"sentinels": "10.0.0.5:26379"}, "go together"),
    ({"master": "basra"}, "go together"),
    ({"sentinels": "10.0.0.5", "master": "basra"}, "not host:port"),
    ({"layer_urls": "redis://a:6379/0", "sentinels": "a:26379", "master": "m"}, "not both"),
])
def test_a_half_or_doubly_given_layer_is_refused(arguments, refusal):
    with pytest.raises(ImproperlyConfigured, match=refusal):
        redis_layer_hosts(URL, **arguments)


@pytest.mark.parametrize("arguments", [
    {"layer_urls": "redis://a:6379/0"}, {"sentinels": "a:26379", "master": "m"},
])
def test_a_layer_of_its_own_needs_redis_url_for_the_cache(arguments):
    with pytest.raises(ImproperlyConfigured, match="need REDIS_URL"):
        redis_layer_hosts("", **arguments)


SHOW = (
    "from basra_site import settings as s; c = s.CHANNEL_LAYERS['default']['CONFIG']; "
    "print([h.get('address') or h['master_name'] for h in c['hosts']], c['prefix'], "
    "s.CACHES['default']['LOCATION'], s.BASRA_SHARED_LAYER)"
)


def settings_with(**env: str) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items()
             if not k.startswith(("REDIS_", "BASRA_CHANNEL_PREFIX", "DJANGO_"))}
    return subprocess.run([sys.executable, "-c", SHOW], cwd=ROOT,
                          env=clean | {"DEBUG": "1"} | env, capture_output=True, text=True)


def test_the_site_takes_its_layer_from_the_environment_and_keeps_the_cache_on_redis_url():
    shown = settings_with(REDIS_URL=URL, REDIS_LAYER_URLS="redis://a:1/0,redis://b:2/0")
    assert shown.stdout.split("\n")[0] == (
        f"['redis://a:1/0', 'redis://b:2/0'] basra3: {URL} True"
    ), shown.stderr[-1000:]
    shown = settings_with(REDIS_URL=URL, BASRA_CHANNEL_PREFIX="site2",
                          REDIS_SENTINELS="s1:26379,s2:26379", REDIS_SENTINEL_MASTER="basra")
    assert shown.stdout.split("\n")[0] == f"['basra'] site2: {URL} True", shown.stderr[-1000:]
    refused = settings_with(REDIS_LAYER_URLS="redis://a:1/0")
    assert refused.returncode != 0
    assert "need REDIS_URL" in refused.stderr


# --- two servers ------------------------------------------------------------------------------


@pytest.fixture
def redis_servers(tmp_path):
    """``start(*options, port=None)``: a private Redis server, stopped after the test."""
    started: list[RedisServer] = []

    def start(*options: str, port: int | None = None) -> RedisServer:
        server = RedisServer(tmp_path, *options, port=port)
        started.append(server)
        return server.start()

    yield start
    for server in reversed(started):
        server.stop()


def site_layers(prefix: str, hosts: list[dict]) -> dict:
    """The site's ``CHANNEL_LAYERS`` on ``hosts`` (the cache's URL is not used here)."""
    return redis_settings("redis://127.0.0.1:1/0", prefix, hosts)[0]


def process_layer(layers: dict) -> RedisPubSubChannelLayer:
    """A layer as one server process of the site builds it from ``layers``."""
    return RedisPubSubChannelLayer(**layers["default"]["CONFIG"])


def names_on(server: RedisServer, prefix: str) -> set[str]:
    """The pub/sub channels someone listens to on ``server`` under ``prefix``."""
    with server.client() as client:
        return set(client.pubsub_channels(f"{prefix}:*"))


def wait_for_subscriptions(servers: list[RedisServer], prefix: str, count: int) -> list[set[str]]:
    """Each server's channels under ``prefix``, once ``count`` in all are listened to (a
    SUBSCRIBE is sent without waiting for the server's answer)."""

    def all_there() -> list[set[str]] | None:
        names = [names_on(server, prefix) for server in servers]
        return names if sum(map(len, names)) >= count else None

    return wait_until(all_there, 10, f"{count} subscriptions under {prefix}")


@needs_redis_server
@pytest.mark.asyncio
async def test_two_servers_carry_channels_and_groups_between_processes_spread_over_both(
    redis_servers,
):
    one, two = redis_servers(), redis_servers()
    prefix = PREFIX
    layers = site_layers(prefix, redis_layer_hosts(URL, f"{one.url},{two.url}"))
    sender, listener = process_layer(layers), process_layer(layers)
    try:
        channels = [await listener.new_channel() for _ in range(12)]
        for number, channel in enumerate(channels):
            await listener.group_add(f"table.{number}", channel)
        on_one, on_two = await asyncio.to_thread(wait_for_subscriptions, [one, two], prefix, 24)

        # Spread over both, each name on one server only, every one under the site's prefix.
        assert on_one and on_two
        assert not on_one & on_two
        assert {c for c in on_one | on_two if "__group__" not in c} == set(channels)
        assert all(name.startswith(f"{prefix}:") for name in on_one | on_two)

        for number, channel in enumerate(channels):
            await sender.send(channel, {"type": "direct", "n": number})
            await sender.group_send(f"table.{number}", {"type": "group", "n": number})
        for number, channel in enumerate(channels):
            heard = [await asyncio.wait_for(listener.receive(channel), 10) for _ in range(2)]
            assert sorted((m["type"], m["n"]) for m in heard) == [
                ("direct", number), ("group", number)
            ]
    finally:
        await sender.flush()
        await listener.flush()


@pytest.fixture
def outage_log(monkeypatch):
    """``(records of broadcast's logger, calls of its when_back callbacks)``, the layer thought
    up at the start."""
    monkeypatch.setattr(broadcast, "_layer_down", False)
    backs: list[float] = []
    monkeypatch.setattr(broadcast, "_when_back", [])
    broadcast.when_back(lambda: backs.append(time.monotonic()))
    with log_records(broadcast.logger) as records:
        yield records, backs


def outage_lines(records: list[logging.LogRecord]) -> list[str]:
    return [f"{logging.getLevelName(r.levelno)} {r.getMessage()[:18]}" for r in records]


@needs_redis_server
@pytest.mark.asyncio
@pytest.mark.parametrize("lost", [0, 1])
async def test_one_server_of_two_down_is_one_outage_until_both_answer(
    redis_servers, settings, outage_log, lost
):
    """With one of the layer's servers down, sends to the other still work: they must not
    count as the layer being back (one WARNING, no INFO, no catch-up of every table per send),
    and the health probe says ``down`` whichever server it is."""
    records, backs = outage_log
    servers = [redis_servers(), redis_servers()]
    prefix = PREFIX
    settings.CHANNEL_LAYERS = site_layers(
        prefix, redis_layer_hosts(URL, ",".join(server.url for server in servers))
    )
    groups = [broadcast.everyone_group(number) for number in range(1, 13)]
    inbox = await Inbox(process_layer(settings.CHANNEL_LAYERS)).open(*groups)
    try:
        on = await asyncio.to_thread(wait_for_subscriptions, servers, prefix, 13)
        # A table whose group is on the server lost, and one on the other.
        lost_table, kept_table = (
            next(n for n, group in enumerate(groups, 1) if any(c.endswith(group) for c in on[i]))
            for i in (lost, 1 - lost)
        )
        assert await broadcast.aprobe_layer() == "ok"

        servers[lost].kill()
        for count in range(3):
            await broadcast.send_watchers(lost_table, count)
            await broadcast.send_watchers(kept_table, count)
        assert outage_lines(records) == ["WARNING channel layer down"]
        assert broadcast.layer_is_down()
        assert backs == []
        assert await broadcast.aprobe_layer() == "down"
        # What the server kept carries on meanwhile.
        assert [(await inbox.next())["count"] for _ in range(3)] == [0, 1, 2]

        servers[lost] = redis_servers(port=servers[lost].port)
        assert await broadcast.aprobe_layer() == "ok"
        assert outage_lines(records) == ["WARNING channel layer down", "INFO channel layer back"]
        assert len(backs) == 1
        assert not broadcast.layer_is_down()

        # The other process's consumers hear the restarted server's tables again once their
        # subscriptions are made again there (channels-redis's receiver retries each second).
        _at, heard = await inbox.first_heard(
            lambda count: broadcast.send_watchers(lost_table, count), 15, start=100
        )
        assert heard["count"] >= 100
        assert len(backs) == 1
    finally:
        await inbox.close()
        await get_channel_layer().flush()


# --- Sentinel ---------------------------------------------------------------------------------

#: The name the test's Sentinel knows its master by, and how long it waits for an answer before
#: it takes the master for down (production keeps Sentinel's 30 s, or sets its own: README).
MASTER_NAME = "basra"
DOWN_AFTER_MS = 500


@pytest.fixture
def sentinel_set(redis_servers, tmp_path):
    """``(master, replica, sentinel)``: a master, its replica and one Sentinel watching them
    (quorum 1), the Sentinel ready to promote the replica."""
    # The master syncs its replica at once (Redis 7 waits 5 s for more replicas by default).
    master = redis_servers("--repl-diskless-sync-delay", "0")
    replica = redis_servers("--replicaof", "127.0.0.1", str(master.port))
    sentinel = Sentinel(tmp_path, master, MASTER_NAME, DOWN_AFTER_MS)
    # Debian's redis-server runs as a Sentinel (`--sentinel`): a machine where it cannot
    # fails here, loudly, rather than skipping the failover it is to show.
    sentinel.start()
    try:
        sentinel.wait_for_replica(replica)
        yield master, replica, sentinel
    finally:
        sentinel.stop()


@needs_redis_server
@pytest.mark.asyncio
async def test_through_sentinel_the_layer_works_again_after_the_master_is_lost(
    sentinel_set, settings, outage_log
):
    """The site's layer on a master found through Sentinel: the master is killed, Sentinel
    promotes the replica, and a table's broadcasts reach the other process's consumers again,
    the outage one WARNING and one INFO. The pause, from the kill to the first frame heard
    again, is printed (README gives the figures; ``bench/layer_failover.py`` measures it)."""
    master, replica, sentinel = sentinel_set
    records, backs = outage_log
    settings.CHANNEL_LAYERS = site_layers(
        PREFIX, redis_layer_hosts(URL, sentinels=sentinel.address, master=MASTER_NAME)
    )
    inbox = await Inbox(process_layer(settings.CHANNEL_LAYERS)).open(broadcast.everyone_group(1))
    try:
        await asyncio.to_thread(wait_for_subscriptions, [master], PREFIX, 2)
        await broadcast.send_watchers(1, -1)
        assert (await inbox.next())["count"] == -1
        assert await broadcast.aprobe_layer() == "ok"

        lost_at = time.monotonic()
        master.kill()

        # send_watchers is best effort: it never raises.
        heard_at, _heard = await inbox.first_heard(
            lambda count: broadcast.send_watchers(1, count), 30
        )
        pause = heard_at - lost_at
        print(f"failover pause {pause:.2f} s (down-after {DOWN_AFTER_MS} ms)")
        assert sentinel.master_port() == replica.port
        assert outage_lines(records) == ["WARNING channel layer down", "INFO channel layer back"]
        assert len(backs) == 1
        assert await broadcast.aprobe_layer() == "ok"
    finally:
        await inbox.close()
        await get_channel_layer().flush()
