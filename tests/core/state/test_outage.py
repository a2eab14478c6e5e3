"""A Redis outage (issue 36): what follows a commit is best effort, and the site degrades.

The broken layer is the test's own channel layer object with ``group_send`` replaced by one that
raises as channels-redis does when Redis is down (``redis.exceptions.ConnectionError``).
"""

from __future__ import annotations

import asyncio
import logging

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.test import Client
from django.urls import reverse
from redis.exceptions import ConnectionError as RedisConnectionError

from games.core import actions
from games.core.models import Match
from games.core.sockets import beats
from games.core.state import broadcast, reads
from tests.core.helpers import log_records, seated_match, synced, table_path, two_seated
from tests.core.pages.helpers import VALID

db = database_sync_to_async


@pytest.fixture(autouse=True)
def _layer_thought_up(monkeypatch):
    """Each test starts with the layer thought up (the module's outage flag)."""
    monkeypatch.setattr(broadcast, "_layer_down", False)
    # The stand-in layers here are one server's, whatever the run's REDIS_LAYER_URLS says.
    monkeypatch.setattr(broadcast, "layer_hosts", lambda: [])


@pytest.fixture
def broken_layer(monkeypatch):
    """``break_()`` makes the channel layer's ``group_send`` raise as with Redis down,
    ``repair()`` gives the real one back; ``failed`` (an ``asyncio.Event``, if set) is set at
    each attempt, ``calls`` counts them. A test with a socket open holds the server's beat too
    (``server_beat_clock``): while the layer is thought down the beat probes it with a send
    that ``break_`` does not break, and would find it back in the middle of the test."""
    layer = get_channel_layer()
    real = layer.group_send
    state = {"calls": 0, "failed": None}

    async def down(group, message):
        state["calls"] += 1
        if state["failed"] is not None:
            state["failed"].set()
        raise RedisConnectionError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    state["break_"] = lambda: monkeypatch.setattr(layer, "group_send", down)
    state["repair"] = lambda: monkeypatch.setattr(layer, "group_send", real)
    return state


@pytest.fixture
def outage_log():
    """The records of ``broadcast``'s logger."""
    with log_records(broadcast.logger) as records:
        yield records


@pytest.mark.django_db(transaction=True)
def test_a_committed_create_answers_its_table_though_the_layer_is_down(
    django_user_model, broken_layer, outage_log
):
    alice = django_user_model.objects.create_user("alice", "alice@example.com", "pw-Basra-123")
    bob = django_user_model.objects.create_user("bob", "bob@example.com", "pw-Basra-123")
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    client.get(reverse("lobby"))
    token = client.cookies["csrftoken"].value
    broken_layer["break_"]()

    response = client.post(reverse("table_create"), {**VALID, "csrfmiddlewaretoken": token})

    match = Match.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("table", args=[match.id])
    assert broken_layer["calls"] > 0  # the after-commit broadcast was tried, and failed
    # A join and a leave, committed the same way, answer as usual too.
    other = Client()
    other.force_login(bob)
    assert other.post(reverse("table_join", args=[match.id])).status_code == 302
    calls = broken_layer["calls"]
    # Several failures, one line.
    lines = outage_log
    assert calls > 2
    assert [(r.levelno, "channel layer down" in r.getMessage()) for r in lines] == [
        (logging.WARNING, True)
    ]
    # The first send that works again says so, once.
    broken_layer["repair"]()
    broadcast.send_seating(match.id)
    broadcast.send_seating(match.id)
    assert [r.levelno for r in outage_log] == [logging.WARNING, logging.INFO]
    assert not broadcast.layer_is_down()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_on_the_socket_path_a_failed_broadcast_is_logged_once_and_the_socket_stays(
    make_player, open_socket, broken_layer, outage_log, server_beat_clock
):
    match, on_turn, _waiting, hand = await two_seated(make_player)
    socket = await open_socket(table_path(match.pk), on_turn.cookie)
    view = await socket.receive_json_from()
    broken_layer["break_"]()

    # A play over the socket: committed, its broadcast handed to the socket's loop, failed.
    broken_layer["failed"] = asyncio.Event()
    await socket.send_json_to({"type": "play", "card": hand[0], "seq": view["seq"]})
    await asyncio.wait_for(broken_layer["failed"].wait(), 10)
    # Another failure, from a thread outside any socket.
    broken_layer["failed"] = asyncio.Event()
    await db(broadcast.send_seating)(match.pk)
    await asyncio.wait_for(broken_layer["failed"].wait(), 10)

    # The play stands, the socket answers still, and the outage was told once.
    assert (await synced(socket))["seq"] == view["seq"] + 1
    assert [r.levelno for r in outage_log] == [logging.WARNING]


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_when_the_layer_is_back_every_socket_gets_the_state_it_missed_at_once(
    make_player, open_socket, broken_layer, outage_log, beats_clock, server_beat_clock
):
    """No heartbeat comes (``beats_clock`` stands still) and no message of the table is sent
    after the outage: the socket's state comes from the layer's return alone."""
    match, on_turn, waiting, hand = await two_seated(make_player)
    socket = await open_socket(table_path(match.pk), waiting.cookie)
    view = await socket.receive_json_from()

    broken_layer["break_"]()
    await db(actions.play_card)(
        user=on_turn.user, match_id=match.pk, card=hand[0], seq=view["seq"]
    )
    assert broadcast.layer_is_down()  # the play's state was dropped
    broken_layer["repair"]()
    await db(broadcast.send_tables)([])  # a send that works, to the lobby: the layer is back

    state = await socket.receive_json_from()
    assert state["type"] == "state" and state["seq"] == view["seq"] + 1
    assert [r.levelno for r in outage_log] == [logging.WARNING, logging.INFO]


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_while_the_layer_is_down_the_server_beat_tries_it_and_finds_it_back(
    monkeypatch, server_beat_clock, outage_log
):
    """No action sends anything after the outage: the server's beat finds the layer back."""
    back = asyncio.Event()
    sent = []

    class SharedLayer:  # the Redis layer, answering again
        async def send(self, channel, message):
            sent.append(channel)

    monkeypatch.setattr(broadcast, "get_channel_layer", SharedLayer)
    monkeypatch.setattr(broadcast, "_when_back", [back.set])
    broadcast.layer_failed(RedisConnectionError("Connection refused."))

    beats.server_beat.opened()
    try:
        await asyncio.wait_for(back.wait(), 10)
    finally:
        await beats.server_beat.closed()
    assert sent == [broadcast.PROBE_CHANNEL]
    assert not broadcast.layer_is_down()
    assert [r.levelno for r in outage_log] == [logging.WARNING, logging.INFO]


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_phrase_sent_while_the_layer_is_down_leaves_the_socket_open(
    make_player, open_socket, broken_layer, outage_log, server_beat_clock
):
    match, _on_turn, waiting, _hand = await two_seated(make_player)
    socket = await open_socket(table_path(match.pk), waiting.cookie)
    view = await socket.receive_json_from()
    broken_layer["break_"]()

    await socket.send_json_to({"type": "phrase", "id": "good_luck"})

    assert (await synced(socket))["seq"] == view["seq"]  # handled after the phrase, still open
    assert broken_layer["calls"] == 1
    assert [r.levelno for r in outage_log] == [logging.WARNING]
