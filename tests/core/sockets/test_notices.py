"""The notice socket /ws/me/ and the rematch frames of the table socket, over the real ASGI
application (docs/protocol.md, "Notices" and "Rematch")."""

from __future__ import annotations


import pytest
from channels.db import database_sync_to_async
from django.conf import settings
from django.test import Client
from django.urls import reverse

from games.core import actions
from games.core.models import Match
from games.core.state import broadcast
from games.core.state.notices import send_notice
from tests.conftest import communicator
from tests.core.helpers import expect_error, seated_match, table_path

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

db = database_sync_to_async


async def test_the_notice_socket_needs_a_signed_in_player_of_this_site(make_player):
    """Anonymous: closed with 4401 (not signed in), which the page does not retry; a refused
    handshake would reach it as 1006, a dropped connection it retries (docs/protocol.md names
    4401)."""
    alice = await db(make_player)("alice")
    anonymous = communicator("/ws/me/")
    connected, _ = await anonymous.connect()
    assert connected
    assert (await anonymous.receive_output())["code"] == 4401
    foreign = communicator("/ws/me/", alice.cookie, origin="http://evil.example")
    connected, _ = await foreign.connect()
    assert not connected


async def test_a_notice_reaches_every_page_of_that_player_only(make_player, open_socket):
    alice, bob = await db(make_player)("alice"), await db(make_player)("bob")
    pages = [await open_socket("/ws/me/", alice.cookie) for _ in range(2)]
    other = await open_socket("/ws/me/", bob.cookie)
    for comm in [*pages, other]:
        assert await comm.receive_json_from() == {"type": "pending", "notices": []}
    await db(send_notice)(alice.user.pk, "table_ready", {"url": "/table/7/"})
    for comm in pages:
        assert await comm.receive_json_from() == {
            "type": "notice", "kind": "table_ready", "payload": {"url": "/table/7/"},
        }
    # None for bob. Barrier: send_notice returned once its message was in every channel it
    # went to; a notice to bob sent now is behind it in bob's channel (delivered in order).
    await db(send_notice)(bob.user.pk, "barrier", {})
    assert await other.receive_json_from() == {"type": "notice", "kind": "barrier", "payload": {}}
    await pages[0].send_json_to({"type": "nope"})
    await expect_error(pages[0], "unknown_type")
    await pages[0].send_to(text_data="{")
    await expect_error(pages[0], "bad_json")


async def test_a_challenge_is_seen_and_answered_live(make_player, open_socket):
    alice, bob = await db(make_player)("alice"), await db(make_player)("bob")
    a, b = await open_socket("/ws/me/", alice.cookie), await open_socket("/ws/me/", bob.cookie)
    await a.receive_json_from(), await b.receive_json_from()
    made = await db(actions.create_challenge)(
        user=alice.user, username="bob", rules={}, rated=False, move_seconds=30
    )
    got = await b.receive_json_from()
    assert got["type"] == "notice" and got["kind"] == "challenge"
    assert got["payload"]["id"] == made.pk and got["payload"]["from"] == "alice"
    assert (await a.receive_json_from())["kind"] == "challenge_sent"
    # A page opened now is told of it too.
    late = await open_socket("/ws/me/", bob.cookie)
    pending = await late.receive_json_from()
    assert [n["kind"] for n in pending["notices"]] == ["challenge"]

    await db(actions.accept_challenge)(user=bob.user, challenge_id=made.pk)
    match = await db(Match.objects.get)()
    url = reverse("table", kwargs={"match_id": match.pk})
    for comm in (a, b, late):
        answer = await comm.receive_json_from()
        assert answer["kind"] == "challenge_answer"
        assert answer["payload"]["status"] == "accepted" and answer["payload"]["url"] == url


async def test_a_logout_closes_that_sessions_notice_socket(make_player, open_socket):
    alice = await db(make_player)("alice")
    comm = await open_socket("/ws/me/", alice.cookie)
    await comm.receive_json_from()

    def log_out() -> None:
        client = Client()
        client.cookies[settings.SESSION_COOKIE_NAME] = alice.cookie
        client.post(reverse("account_logout"))

    await db(log_out)()
    assert (await comm.receive_output())["code"] == 4401


async def open_table(open_socket, match, player):
    comm = await open_socket(table_path(match.pk), player.cookie)
    state = await comm.receive_json_from()
    assert state["type"] == "state"
    return comm


async def next_of(comm, kind: str) -> dict:
    """The next frame of ``kind`` (states that come in between are skipped)."""
    while True:
        message = await comm.receive_json_from()
        if message["type"] == kind:
            return message


async def test_a_rematch_over_the_table_sockets(make_player, open_socket):
    alice, bob = await db(make_player)("alice"), await db(make_player)("bob")
    match = await db(seated_match)([alice.user, bob.user])
    await db(actions.resign)(user=bob.user, match_id=match.pk)
    a, b = await open_table(open_socket, match, alice), await open_table(open_socket, match, bob)
    watcher = await open_table(open_socket, match, await db(make_player)("carol"))

    await a.send_json_to({"type": "rematch", "client_seed": "aaaa"})
    for comm in (a, b, watcher):
        offer = await next_of(comm, "rematch")
        assert offer == {"type": "rematch", "accepted": [0], "waiting": [1], "gone": False,
                         "url": None}
    await b.send_json_to({"type": "rematch", "client_seed": "bbbb"})
    starts = [await next_of(comm, "rematch") for comm in (a, b, watcher)]
    new = await db(lambda: Match.objects.exclude(pk=match.pk).get())()
    assert [start["url"] for start in starts] == [f"/table/{new.pk}/"] * 3
    assert new.client_seeds == ["aaaa", "bbbb"]
    # Going there closes the old sockets: the rematch that started is not undone.
    await a.disconnect()  # returns when the socket's disconnect work is done
    await b.send_json_to({"type": "rematch"})
    assert (await next_of(b, "rematch"))["url"] == f"/table/{new.pk}/"


async def test_a_player_leaving_the_finished_table_ends_the_offer(make_player, open_socket):
    alice, bob = await db(make_player)("alice"), await db(make_player)("bob")
    match = await db(seated_match)([alice.user, bob.user])
    await db(actions.resign)(user=bob.user, match_id=match.pk)
    a, b = await open_table(open_socket, match, alice), await open_table(open_socket, match, bob)
    await a.send_json_to({"type": "rematch"})
    await next_of(a, "rematch")
    await b.disconnect()  # bob closes the page
    gone = await next_of(a, "rematch")
    assert gone["gone"] is True and gone["url"] is None
    await a.send_json_to({"type": "rematch"})
    await expect_error(a, "rematch_gone")
    assert await db(Match.objects.count)() == 1
    # A page opened later is told at once that there is no rematch.
    again = await open_socket(table_path(match.pk), alice.cookie)
    assert (await again.receive_json_from())["type"] == "state"
    assert (await again.receive_json_from())["gone"] is True


async def test_a_player_leaving_before_anyone_asked_is_told_at_once(make_player, open_socket):
    """bob leaves the finished table (to its replay, say) before anyone asked: alice's page is
    told at once that there is no rematch, not only by a refusal once she asks."""
    alice, bob = await db(make_player)("alice"), await db(make_player)("bob")
    match = await db(seated_match)([alice.user, bob.user])
    await db(actions.resign)(user=bob.user, match_id=match.pk)
    a, b = await open_table(open_socket, match, alice), await open_table(open_socket, match, bob)
    await b.disconnect()  # returns when the socket's disconnect work is done
    # Its broadcasts, sent on this loop without waiting, are in the channel layer once flushed;
    # a message to the table sent after them reaches alice's socket after them (one channel's
    # messages keep their order, over Redis too).
    await broadcast.flush(30)
    barrier = {"type": "barrier", "n": 0}
    await db(broadcast.send_table_news)(match.pk, barrier)
    frames = []
    while not frames or frames[-1] != barrier:
        frames.append(await a.receive_json_from())
    gone = [f for f in frames if f["type"] == "rematch"]
    assert gone == [{"type": "rematch", "accepted": [], "waiting": [0, 1], "gone": True,
                     "url": None}]
    await a.send_json_to({"type": "rematch"})
    await expect_error(a, "rematch_gone")


@pytest.mark.parametrize("players", [2, 4])
async def test_leaving_a_finished_match_against_the_computer_and_coming_back(
    make_player, open_socket, players
):
    """alice, alone against the computer, goes elsewhere after the end and comes back: no
    "gone", and her ask starts the rematch."""
    alice = await db(make_player)("alice")
    match = await db(actions.create_table)(
        user=alice.user, players=players, rules={}, rated=False,
        bots={seat: "greedy" for seat in range(1, players)},
    )
    await db(actions.resign)(user=alice.user, match_id=match.pk)
    first = await open_table(open_socket, match, alice)
    await first.disconnect()  # returns when the socket's disconnect work is done
    again = await open_table(open_socket, match, alice)
    await again.send_json_to({"type": "rematch"})
    offer = await next_of(again, "rematch")
    new = await db(lambda: Match.objects.exclude(pk=match.pk).get())()
    assert offer["gone"] is False and offer["url"] == f"/table/{new.pk}/"


async def test_bad_rematch_frames(make_player, open_socket):
    alice, bob = await db(make_player)("alice"), await db(make_player)("bob")
    match = await db(seated_match)([alice.user, bob.user])
    a = await open_table(open_socket, match, alice)
    await a.send_json_to({"type": "rematch"})
    await expect_error(a, "rematch_not_over")
    await a.send_json_to({"type": "rematch", "client_seed": 5})
    await expect_error(a, "bad_message")
    anon = await open_socket(table_path(match.pk))
    await anon.receive_json_from()
    await anon.send_json_to({"type": "rematch"})
    await expect_error(anon, "login_required")


async def test_a_password_change_closes_the_notice_sockets_of_ended_sessions(make_player,
                                                                             open_socket):
    alice = await db(make_player)("alice")
    comm = await open_socket("/ws/me/", alice.cookie)
    await comm.receive_json_from()
    from importlib import import_module

    from games.core.state import broadcast

    store = import_module(settings.SESSION_ENGINE).SessionStore
    await db(lambda: store(session_key=alice.cookie).delete())()
    await db(broadcast.send_session_recheck)(alice.user.pk)
    assert (await comm.receive_output())["code"] == 4401
