"""A server process's graceful stop, in process (``games.core.sockets.drain``): no new socket or
frame is taken, what each socket took in is finished and answered, then every socket is closed
with 1001 "going away". The real daphne and its signals: ``tests/e2e/test_graceful_stop.py``."""

from __future__ import annotations

import asyncio
import threading

import pytest
from channels.db import database_sync_to_async

from games.core import actions
from games.core.models import Event
from games.core.sockets.drain import CLOSE_GOING_AWAY, HttpInHand, drain
from games.core.state import broadcast
from tests.conftest import communicator
from tests.core.helpers import seated_match, table_path

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

db = database_sync_to_async
GOING_AWAY = {"type": "websocket.close", "code": CLOSE_GOING_AWAY}


@pytest.fixture(autouse=True)
def _not_draining():
    yield
    drain.draining = False


async def closed_going_away(comm) -> None:
    """The next output of ``comm`` is the 1001 close; its client answers it."""
    assert await comm.receive_output() == GOING_AWAY
    await comm.send_input({"type": "websocket.disconnect", "code": CLOSE_GOING_AWAY})


async def test_every_kind_of_socket_is_closed_with_1001(make_player, open_socket, known_decks):
    alice, bob = await db(make_player)("alice"), await db(make_player)("bob")
    match = await db(seated_match)([alice.user, bob.user])
    table = await open_socket(table_path(match.pk), alice.cookie)
    lobby = await open_socket("/ws/lobby/", alice.cookie)
    notices = await open_socket("/ws/me/", alice.cookie)
    assert (await table.receive_json_from())["type"] == "state"
    assert (await lobby.receive_json_from())["type"] == "tables"
    assert (await notices.receive_json_from())["type"] == "pending"
    stopping = asyncio.ensure_future(drain.run(30))
    for comm in (table, lobby, notices):
        await closed_going_away(comm)
    assert await stopping == 0
    # A socket that opens now is refused at its handshake.
    late = communicator("/ws/lobby/", alice.cookie)
    connected, _code = await late.connect()
    assert not connected


async def test_the_play_in_hand_is_answered_before_the_close_even_before_its_broadcast(
    make_player, open_socket, known_decks, monkeypatch
):
    alice, bob = await db(make_player)("alice"), await db(make_player)("bob")
    match = await db(seated_match)([alice.user, bob.user])
    comms = [await open_socket(table_path(match.pk), p.cookie) for p in (alice, bob)]
    states = [await comm.receive_json_from() for comm in comms]
    mover = next(c for c, s in zip(comms, states) if s["you"] == s["round"]["turn"])
    state = next(s for s in states if s["you"] == s["round"]["turn"])
    # The play's broadcast has not come by the time the socket closes (it goes through the
    # channel layer, which may be slower than the close): the socket reads the state itself.
    monkeypatch.setattr(broadcast, "send_states", lambda *args, **kwargs: None)
    in_hand, release = threading.Event(), threading.Event()
    play_card = actions.play_card

    def held_play(**kwargs):
        in_hand.set()
        release.wait()
        return play_card(**kwargs)

    monkeypatch.setattr(actions, "play_card", held_play)
    card, second = state["round"]["hand"][:2]
    await mover.send_json_to({"type": "play", "card": card, "seq": state["seq"]})
    await asyncio.get_running_loop().run_in_executor(None, in_hand.wait)
    stopping = asyncio.ensure_future(drain.run(30))
    await asyncio.sleep(0)  # the drain has begun (its first step runs at once)
    assert drain.draining
    # Sent once the stop has begun: dropped, never played.
    await mover.send_json_to({"type": "play", "card": second, "seq": state["seq"]})
    release.set()
    answer = await mover.receive_json_from()
    assert answer["type"] == "state" and answer["seq"] > state["seq"]
    assert answer["round"]["last_play"]["card"] == card
    await closed_going_away(mover)
    other = next(c for c in comms if c is not mover)
    await closed_going_away(other)
    assert await stopping == 0
    plays = await db(lambda: list(
        Event.objects.filter(match=match, kind="play").values_list("payload__card", flat=True)))()
    assert plays == [card]


async def test_the_drain_waits_for_the_http_requests_in_hand():
    gate, answered, seen = asyncio.Event(), [], []

    async def view(scope, receive, send):
        await gate.wait()
        answered.append(scope["path"])

    scope = {"type": "http", "path": "/table/new/"}
    request = asyncio.ensure_future(HttpInHand(view)(scope, None, None))
    await asyncio.sleep(0)  # the request has started
    stopping = asyncio.ensure_future(drain.run(30))
    stopping.add_done_callback(lambda _done: seen.append(list(answered)))
    await asyncio.sleep(0)
    gate.set()
    assert await stopping == 0
    assert seen == [["/table/new/"]]  # answered before the drain ended
    await request
