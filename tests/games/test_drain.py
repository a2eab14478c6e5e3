"""A server process's graceful stop, in process (``games.core.sockets.drain``): every socket is
closed with 1001 "going away" after the work it has taken in. The real daphne and its signals:
``tests/e2e/test_graceful_stop.py``."""

from __future__ import annotations

import asyncio

import pytest
from channels.db import database_sync_to_async

from games.core.sockets.drain import CLOSE_GOING_AWAY, drain

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

db = database_sync_to_async


@pytest.fixture(autouse=True)
def _not_draining():
    yield
    drain.draining = False


async def test_every_kind_of_socket_is_closed_with_1001(make_player, open_socket):
    alice = await db(make_player)("alice")
    lobby = await open_socket("/ws/lobby/", alice.cookie)
    notices = await open_socket("/ws/me/", alice.cookie)
    assert (await lobby.receive_json_from())["type"] == "tables"
    assert (await notices.receive_json_from())["type"] == "pending"
    stopping = asyncio.ensure_future(drain.run(30))
    for comm in (lobby, notices):
        assert await comm.receive_output() == {"type": "websocket.close", "code": CLOSE_GOING_AWAY}
        await comm.send_input({"type": "websocket.disconnect", "code": CLOSE_GOING_AWAY})
    assert await stopping == 0
