"""The chat on the table socket, through the core's one hook (games.core.sockets.table_frames):
lines both ways, each room to its readers, refusals as error frames tagged with their frame,
a blocker never sent the blocked player's lines."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async

from games.chat.models import ChatLine
from games.core.for_apps import abort_match
from games.people import services as people
from tests.chat.helpers import finished
from tests.core.helpers import expect_error, seated_match, table_barrier, table_path

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True), pytest.mark.live]

db = database_sync_to_async


async def opened(open_socket, match, player=None):
    comm = await open_socket(table_path(match.pk), player.cookie if player else None)
    state = await comm.receive_json_from()
    assert state["type"] == "state"
    return comm


async def line_of(comm) -> dict:
    frame = await comm.receive_json_from()
    assert frame["type"] == "chat", frame
    return frame["line"]


async def refusal(comm, code: str) -> None:
    frame = await expect_error(comm, code)
    assert frame["frame"] == "chat"


async def test_two_seats_talk_both_ways_and_spectators_in_their_own_room(make_player, open_socket):
    alice, bob, carol = [await db(make_player)(n) for n in ("alice", "bob", "carol")]
    match = await db(seated_match)([alice.user, bob.user])
    a, b = await opened(open_socket, match, alice), await opened(open_socket, match, bob)
    c = await opened(open_socket, match, carol)  # a spectator
    await a.send_json_to({"type": "chat", "room": "player", "text": "hi <script>alert(1)</script>"})
    for comm in (a, b):
        line = await line_of(comm)
        assert (line["username"], line["room"], line["text"]) == ("alice", "player", "hi <script>alert(1)</script>")
    await b.send_json_to({"type": "chat", "room": "player", "text": "hello alice"})
    assert (await line_of(a))["text"] == (await line_of(b))["text"] == "hello alice"
    await c.send_json_to({"type": "chat", "room": "spectator", "text": "go bob"})
    assert (await line_of(c))["text"] == "go bob"
    await table_barrier(match.pk, [a, b, c])  # the seats got no spectator's line, carol no player's
    await c.send_json_to({"type": "chat", "room": "player", "text": "psst"})
    await refusal(c, "chat_not_allowed")
    await a.send_json_to({"type": "chat_history"})
    history = await a.receive_json_from()
    assert history["type"] == "chat_lines" and history["on"] is True
    assert [l["text"] for l in history["lines"]] == ["hi <script>alert(1)</script>", "hello alice"]
    await c.send_json_to({"type": "chat_history"})
    assert [l["text"] for l in (await c.receive_json_from())["lines"]] == ["go bob"]

    await db(abort_match)(user=alice.user, match_id=match.pk)  # over: both rooms read by all
    for comm in (a, b, c):
        assert (await comm.receive_json_from())["type"] == "state"
    await c.send_json_to({"type": "chat", "room": "player", "text": "let me in"})
    await refusal(c, "chat_not_allowed")  # the players' room is the seats' to write
    await c.send_json_to({"type": "chat", "room": "spectator", "text": "well played"})
    for comm in (a, b, c):
        assert (await line_of(comm))["text"] == "well played"
    await b.send_json_to({"type": "chat", "room": "player", "text": "thanks"})
    for comm in (a, b, c):
        assert (await line_of(comm))["text"] == "thanks"


async def test_a_running_table_of_four_refuses_free_chat_between_seats(make_player, open_socket):
    players = [await db(make_player)(n) for n in ("alice", "bob", "carol", "dave")]
    match = await db(seated_match)([p.user for p in players])
    a = await opened(open_socket, match, players[0])
    await a.send_json_to({"type": "chat", "room": "player", "text": "I hold the seven of diamonds"})
    await refusal(a, "chat_not_allowed")
    await a.send_json_to({"type": "phrase", "id": "good_luck"})  # the quick phrases stay
    assert (await a.receive_json_from())["type"] == "phrase"
    assert not await db(ChatLine.objects.exists)()


async def test_bad_input_is_refused_and_nothing_stored(make_player, open_socket):
    alice, bob = await db(make_player)("alice"), await db(make_player)("bob")
    match = await db(seated_match)([alice.user, bob.user])
    a = await opened(open_socket, match, alice)
    await a.send_json_to({"type": "chat", "room": "player", "text": "x" * 10_000})
    await refusal(a, "chat_too_long")
    await a.send_json_to({"type": "chat", "room": "player", "text": ["list"]})
    await refusal(a, "bad_message")
    await a.send_json_to({"type": "chat", "room": "player", "text": "a\x00b\u202ec"})
    assert (await line_of(a))["text"] == "abc"
    for n in range(4):
        await a.send_json_to({"type": "chat", "room": "player", "text": f"flood {n}"})
        await line_of(a)
    await a.send_json_to({"type": "chat", "room": "player", "text": "one too many"})
    await refusal(a, "chat_rate_limited")
    assert await db(ChatLine.objects.count)() == 5


async def test_an_anonymous_spectator_reads_but_cannot_write(make_player, open_socket):
    alice, bob, carol = [await db(make_player)(n) for n in ("alice", "bob", "carol")]
    match = await db(seated_match)([alice.user, bob.user])
    anonymous = await opened(open_socket, match)
    c = await opened(open_socket, match, carol)
    await anonymous.send_json_to({"type": "chat", "room": "spectator", "text": "hi"})
    await refusal(anonymous, "login_required")
    await c.send_json_to({"type": "chat", "room": "spectator", "text": "hello watchers"})
    assert (await line_of(anonymous))["text"] == "hello watchers"


async def test_a_blocker_is_never_sent_the_blocked_player_s_lines(make_player, open_socket):
    alice, bob = await db(make_player)("alice"), await db(make_player)("bob")
    match = await db(finished)([alice.user, bob.user])
    await db(people.block)(user=bob.user, username="alice")
    a, b = await opened(open_socket, match, alice), await opened(open_socket, match, bob)
    await a.send_json_to({"type": "chat", "room": "player", "text": "from alice"})
    assert (await line_of(a))["text"] == "from alice"  # the sender is not told
    await table_barrier(match.pk, [a, b])  # bob got nothing of alice's line
    await b.send_json_to({"type": "chat", "room": "player", "text": "from bob"})
    assert (await line_of(b))["text"] == "from bob"
    assert (await line_of(a))["text"] == "from bob"
    await b.send_json_to({"type": "chat_history"})
    assert [l["text"] for l in (await b.receive_json_from())["lines"]] == ["from bob"]


async def test_a_player_whose_chat_is_off_is_sent_no_line(make_player, open_socket):
    from games.chat import services

    alice, bob = await db(make_player)("alice"), await db(make_player)("bob")
    match = await db(seated_match)([alice.user, bob.user])
    await db(services.set_enabled)(bob.user, False)
    a, b = await opened(open_socket, match, alice), await opened(open_socket, match, bob)
    await a.send_json_to({"type": "chat", "room": "player", "text": "anyone?"})
    assert (await line_of(a))["text"] == "anyone?"
    await table_barrier(match.pk, [a, b])  # bob got nothing
    await b.send_json_to({"type": "chat", "room": "player", "text": "hi"})
    await refusal(b, "chat_off")
    await b.send_json_to({"type": "chat_history"})
    assert await b.receive_json_from() == {"type": "chat_lines", "lines": [], "on": False, "sanction": None, "sanction_until": None}
