"""Sites sharing one Redis server hear none of each other's frames (settings.redis_settings).

Redis pub/sub ignores the database number, so the layers' names must differ: each site's
channels and groups carry the prefix of its ``REDIS_URL`` database (or
``BASRA_CHANNEL_PREFIX``). Needs a Redis server: ``REDIS_URL`` (CI sets it).
"""

from __future__ import annotations

import os
import uuid
from urllib.parse import urlsplit, urlunsplit

import pytest
from channels_redis.pubsub import RedisPubSubChannelLayer
from django.conf import settings

from basra_site.settings import redis_settings, redis_site_prefix

REDIS_URL = os.environ.get("REDIS_URL", "")
needs_redis = pytest.mark.skipif(not REDIS_URL, reason="needs a Redis server (REDIS_URL)")


def on_database(url: str, database: int) -> str:
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path=f"/{database}"))


def layer(url: str, prefix: str) -> RedisPubSubChannelLayer:
    layers, _caches = redis_settings(url, prefix)
    return RedisPubSubChannelLayer(**layers["default"]["CONFIG"])


def test_the_prefix_follows_the_database_number():
    assert redis_site_prefix("redis://127.0.0.1:6379/4") == "basra4"
    assert redis_site_prefix("redis://127.0.0.1:6379") == "basra0"
    assert redis_site_prefix("") == "basra0"
    layers, caches = redis_settings("redis://h:6379/6", "basra6")
    assert layers["default"]["CONFIG"]["prefix"] == "basra6:"
    assert caches["default"]["KEY_PREFIX"] == "basra6"


@needs_redis
def test_the_site_layer_and_cache_carry_the_prefix():
    assert settings.CHANNEL_LAYERS["default"]["CONFIG"]["prefix"] == (
        f"{settings.BASRA_CHANNEL_PREFIX}:"
    )
    assert settings.CACHES["default"]["KEY_PREFIX"] == settings.BASRA_CHANNEL_PREFIX


async def first_frame_heard(speaker: RedisPubSubChannelLayer, listener: RedisPubSubChannelLayer,
                            group: str) -> str:
    """The listener's socket joins ``group``; the speaker, then the listener's own site, send a
    frame to it: which arrives first (Redis delivers in the order it handles the PUBLISHes)."""
    channel = await listener.new_channel()
    await listener.group_add(group, channel)
    try:
        await speaker.group_send(group, {"type": "state", "from": "other site"})
        await listener.group_send(group, {"type": "state", "from": "own site"})
        return (await listener.receive(channel))["from"]
    finally:
        await listener.group_discard(group, channel)
        await speaker.flush()
        await listener.flush()


@needs_redis
@pytest.mark.asyncio
async def test_two_sites_on_one_redis_hear_only_their_own_tables():
    group = f"table.{uuid.uuid4().int % 10_000}"
    four, six = on_database(REDIS_URL, 4), on_database(REDIS_URL, 6)
    heard = await first_frame_heard(
        layer(four, redis_site_prefix(four)), layer(six, redis_site_prefix(six)), group
    )
    assert heard == "own site"


@needs_redis
@pytest.mark.asyncio
async def test_without_prefixes_of_their_own_the_sites_hear_each_other():
    # What the prefix prevents: the same names on two databases of one server do cross.
    group = f"table.{uuid.uuid4().int % 10_000}"
    four, six = on_database(REDIS_URL, 4), on_database(REDIS_URL, 6)
    heard = await first_frame_heard(layer(four, "asgi"), layer(six, "asgi"), group)
    assert heard == "other site"
