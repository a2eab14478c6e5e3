"""The core's one hook for the apps' table-socket frames (games/core/sockets/table_frames.py):
a handler answers its own type, a refusal comes back tagged with its frame, a broadcast reaches
the audience it names and not who bars its sender."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async

from games.core import relations
from games.core.errors import GameError
from games.core.sockets import table_frames
from tests.core.helpers import expect_error, seated_match, table_barrier, table_path
from tests.core.helpers_relations import answering

pytestmark = pytest.mark.django_db(transaction=True)

db = database_sync_to_async


@pytest.fixture
def echo():
    """A stand-in app's frame type ``echo``: answers its sender, and broadcasts to ``to``."""
    calls = []

    def handler(*, user, match_id, seat, message):
        calls.append((user.username if user else None, match_id, seat))
        if message.get("refuse"):
            raise GameError("bad_message")
        if message.get("to"):
            table_frames.send(match_id, {"type": "echoed", "by": seat}, to=message["to"],
                              sender=user.pk, kind="chat")
        return [{"type": "echo", "seat": seat}]

    table_frames.handle("echo", handler)
    yield calls
    table_frames._handlers.pop("echo")


def test_an_app_may_not_take_a_core_type_nor_another_s():
    with pytest.raises(ValueError):
        table_frames.handle("play", lambda **kw: None)
    table_frames.handle("mine", print)
    with pytest.raises(ValueError):
        table_frames.handle("mine", repr)
    table_frames._handlers.pop("mine")
    with pytest.raises(ValueError):
        table_frames.send(1, {}, to="nobody")


async def opened(open_socket, match_id, player=None):
    comm = await open_socket(table_path(match_id), player.cookie if player else None)
    assert (await comm.receive_json_from())["type"] == "state"
    return comm


@pytest.mark.asyncio
async def test_frames_reach_their_handler_and_their_audience(make_player, open_socket, echo):
    alice, bob, carol = [await db(make_player)(n) for n in ("alice", "bob", "carol")]
    match = await db(seated_match)([alice.user, bob.user])
    a, b = await opened(open_socket, match.pk, alice), await opened(open_socket, match.pk, bob)
    c = await opened(open_socket, match.pk, carol)
    await a.send_json_to({"type": "echo"})
    assert await a.receive_json_from() == {"type": "echo", "seat": 0}
    await a.send_json_to({"type": "nobody_s"})
    assert "frame" not in await expect_error(a, "unknown_type")
    await c.send_json_to({"type": "echo", "refuse": True})
    assert (await expect_error(c, "bad_message"))["frame"] == "echo"
    await a.send_json_to({"type": "echo", "to": "spectators"})
    assert await a.receive_json_from() == {"type": "echo", "seat": 0}
    assert await c.receive_json_from() == {"type": "echoed", "by": 0}
    await table_barrier(match.pk, [a, b, c])
    with answering() as answers:
        answers.barred[("chat", alice.user.pk, bob.user.pk)] = relations.SILENT
        await a.send_json_to({"type": "echo", "to": "everyone"})
        assert await a.receive_json_from() == {"type": "echo", "seat": 0}
        assert await a.receive_json_from() == await c.receive_json_from() == {"type": "echoed", "by": 0}
        await table_barrier(match.pk, [a, b, c])  # bob, who bars alice, got nothing
    assert echo == [("alice", match.pk, 0), ("carol", match.pk, None), ("alice", match.pk, 0),
                    ("alice", match.pk, 0)]
