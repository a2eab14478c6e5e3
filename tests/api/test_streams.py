"""The NDJSON streams: a match for one seat (from the table's own broadcast), the account's
events, keep-alives, one event stream per token."""

from __future__ import annotations

import asyncio
import json

import pytest
from asgiref.sync import sync_to_async
from django.test import AsyncClient, override_settings

from games.api.models import BotAccount
from tests.api.helpers import account, bearer, call
from tests.core.helpers import hand_of, seated_match, turn_of, users_by_seat

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

#: Real seconds a line may take: only a bound on a hang.
WITHIN = 30


class Lines:
    """An open NDJSON answer, read a line at a time (keep-alives as ``None``)."""

    def __init__(self, response):
        assert response["Content-Type"] == "application/x-ndjson", response.content
        self.response = response
        self.iterator = response._iterator  # the view's generator: closed as a client going away

    async def next(self):
        chunk = await asyncio.wait_for(anext(self.iterator), WITHIN)
        return None if chunk.strip() == b"" else json.loads(chunk)

    async def next_event(self):
        """The next line that is not a keep-alive."""
        while (line := await self.next()) is None:
            pass
        return line

    async def ended(self) -> bool:
        try:
            await asyncio.wait_for(anext(self.iterator), WITHIN)
        except StopAsyncIteration:
            return True
        return False

    async def close(self):
        await self.iterator.aclose()


async def open_stream(path: str, token: str):
    response = await AsyncClient().get(path, headers=bearer(token))
    if response.status_code != 200:
        return response
    return Lines(response)


async def two_event_streams():
    """Accounts alice and bob (challenges' scopes), each with an open event stream:
    ``(alice's token, bob's token, alice's stream, bob's stream)``."""
    _alice, a_token = await sync_to_async(account)("alice", "challenge:write", "challenge:read")
    _bob, b_token = await sync_to_async(account)("bob", "challenge:write", "challenge:read")
    return a_token, b_token, await open_stream("/api/stream/event", a_token), await open_stream(
        "/api/stream/event", b_token
    )


def _setup():
    alice, a_token = account("alice", "board:play", "challenge:read")
    robot, r_token = account("robot")
    BotAccount.objects.create(user=robot)
    match = seated_match([alice, robot], rules={"target": 11})
    return match, alice, a_token, robot, r_token


async def test_the_game_stream_gives_the_seat_s_view_then_each_change():
    match, alice, a_token, robot, r_token = await sync_to_async(_setup)()
    stream = await open_stream(f"/api/bot/game/stream/{match.pk}", r_token)
    try:
        full = await stream.next_event()
        assert full["type"] == "gameFull" and full["id"] == match.pk and full["players"] == 2
        robot_seat = full["you"]
        state = full["state"]
        assert state["type"] == "gameState" and state["you"] == robot_seat
        assert sorted(state["round"]["hand"]) == sorted(await sync_to_async(hand_of)(match, robot))
        alice_hand = await sync_to_async(hand_of)(match, alice)
        assert not set(alice_hand) & set(json.dumps(full).split('"'))  # no other seat's hand
        mover = await sync_to_async(turn_of)(match)
        users = await sync_to_async(users_by_seat)(match)
        family, token = ("bot", r_token) if users[mover] == robot else ("board", a_token)
        card = (await sync_to_async(hand_of)(match, users[mover]))[0]
        answer = await sync_to_async(call)("post", f"/api/{family}/game/{match.pk}/play/{card}?seq={state['seq']}", token)
        assert answer.status_code == 200, answer.content
        after = await stream.next_event()
        assert after["type"] == "gameState" and after["seq"] > state["seq"]
        assert after["you"] == robot_seat and "hand" in after["round"]
        assert set(after) >= {"seq", "match", "seats", "you", "round", "scores", "target", "round_results", "result", "deadline", "now"}
        # A phrase: a chatLine.
        await sync_to_async(call)("post", f"/api/board/game/{match.pk}/chat", a_token, {"room": "player", "text": "good_luck"})
        chat = await stream.next_event()
        assert chat == {"type": "chatLine", "room": "player", "username": "alice", "text": "good_luck"}
        # Free text: the chat's line, as the table's sockets get it.
        await sync_to_async(call)("post", f"/api/board/game/{match.pk}/chat", a_token, {"room": "player", "text": "hi <b>robot</b>"})
        chat = await stream.next_event()
        assert chat == {"type": "chatLine", "room": "player", "username": "alice", "text": "hi <b>robot</b>"}
        # The end: the state that shows it over, then the stream ends.
        await sync_to_async(call)("post", f"/api/board/game/{match.pk}/resign", a_token)
        last = await stream.next_event()
        assert last["match"]["status"] == "finished"
        assert await stream.ended()
    finally:
        await stream.close()


async def test_a_match_one_does_not_sit_in_is_404_and_a_person_is_not_a_bot():
    match, alice, a_token, robot, r_token = await sync_to_async(_setup)()
    _carol, c_token = await sync_to_async(account)("carol")
    answer = await open_stream(f"/api/board/game/stream/{match.pk}", c_token)
    assert answer.status_code == 404 and answer.json()["error"]["code"] == "not_found"
    answer = await open_stream(f"/api/bot/game/stream/{match.pk}", a_token)
    assert answer.status_code == 403


@override_settings(BASRA_API_KEEPALIVE_SECONDS=0.05)
async def test_an_idle_stream_sends_empty_lines():
    match, alice, a_token, robot, r_token = await sync_to_async(_setup)()
    stream = await open_stream(f"/api/board/game/stream/{match.pk}", a_token)
    try:
        assert (await stream.next())["type"] == "gameFull"
        assert await stream.next() is None
        assert await stream.next() is None
    finally:
        await stream.close()


async def test_the_event_stream_starts_with_matches_in_play_then_challenges():
    match, alice, a_token, robot, r_token = await sync_to_async(_setup)()
    _bob, b_token = await sync_to_async(account)("bob", "challenge:write")
    stream = await open_stream("/api/stream/event", a_token)
    try:
        first = await stream.next_event()
        assert first["type"] == "gameStart" and first["game"]["id"] == match.pk
        assert set(first["game"]) == {"id", "seat", "players", "rated", "isMyTurn"}
        sent = await sync_to_async(call)("post", "/api/challenge/alice", b_token, {"target": "61"})
        cid = sent.json()["challenge"]["id"]
        event = await stream.next_event()
        assert event["type"] == "challenge" and event["challenge"]["id"] == cid
        assert event["challenge"]["direction"] == "in" and event["challenge"]["challenger"]["username"] == "bob"
        await sync_to_async(call)("post", f"/api/challenge/{cid}/cancel", b_token)
        event = await stream.next_event()
        assert event["type"] == "challengeCanceled" and event["challenge"]["status"] == "canceled"
        # The match ends: gameFinish.
        await sync_to_async(call)("post", f"/api/board/game/{match.pk}/resign", a_token)
        event = await stream.next_event()
        assert event == {"type": "gameFinish", "game": {**first["game"], "isMyTurn": False}}
    finally:
        await stream.close()


async def test_a_challenge_accepted_is_a_game_start_on_both_streams_and_a_decline_is_told():
    a_token, b_token, a_stream, b_stream = await two_event_streams()
    try:
        cid = (await sync_to_async(call)("post", "/api/challenge/bob", a_token)).json()["challenge"]["id"]
        assert (await a_stream.next_event())["challenge"]["direction"] == "out"
        assert (await b_stream.next_event())["challenge"]["direction"] == "in"
        await sync_to_async(call)("post", f"/api/challenge/{cid}/decline", b_token, {"reason": "later"})
        declined = await a_stream.next_event()
        assert declined["type"] == "challengeDeclined" and declined["challenge"]["declineReason"] == "later"
        assert (await b_stream.next_event())["type"] == "challengeDeclined"
        cid = (await sync_to_async(call)("post", "/api/challenge/alice", b_token)).json()["challenge"]["id"]
        await a_stream.next_event(), await b_stream.next_event()
        await sync_to_async(call)("post", f"/api/challenge/{cid}/accept", a_token)
        a_start, b_start = await a_stream.next_event(), await b_stream.next_event()
        assert a_start["type"] == b_start["type"] == "gameStart"
        assert a_start["game"]["id"] == b_start["game"]["id"]
        assert {a_start["game"]["seat"], b_start["game"]["seat"]} == {0, 1}
    finally:
        await a_stream.close()
        await b_stream.close()


async def test_a_blocked_player_s_challenge_never_reaches_the_stream():
    alice, a_token = await sync_to_async(account)("alice", "challenge:read", "follow:write")
    _bob, b_token = await sync_to_async(account)("bob", "challenge:write")
    await sync_to_async(call)("post", "/api/rel/block/bob", a_token)
    await sync_to_async(call)("post", "/api/challenge/alice", b_token)
    stream = await open_stream("/api/stream/event", a_token)
    try:
        with override_settings(BASRA_API_KEEPALIVE_SECONDS=0.05):
            assert await stream.next() is None  # nothing but keep-alives
    finally:
        await stream.close()


async def test_a_second_event_stream_of_a_token_closes_the_first():
    _alice, token = await sync_to_async(account)("alice", "challenge:read")
    first = await open_stream("/api/stream/event", token)
    second = await open_stream("/api/stream/event", token)
    try:
        assert await first.ended()
    finally:
        await first.close()
        await second.close()


async def test_a_stream_left_open_keeps_no_more_as_states_go_by():
    """Thousands of states through one game stream (the table's group, as a long match sends
    them): what the stream holds stays the same size (tracemalloc, between the first thousand
    and the last)."""
    import tracemalloc

    from channels.layers import get_channel_layer

    from games.core.for_apps import table_group

    match, alice, a_token, robot, r_token = await sync_to_async(_setup)()
    stream = await open_stream(f"/api/board/game/stream/{match.pk}", a_token)
    layer = get_channel_layer()
    try:
        full = await stream.next_event()
        state = full["state"]

        async def states(first: int, count: int) -> None:
            for seq in range(first, first + count):
                view = json.dumps({**state, "type": "state", "seq": seq})
                await layer.group_send(table_group(match.pk), {
                    "type": "table.states", "seq": seq, "deadline": state["deadline"],
                    "views": [[state["you"], alice.pk, view], [None, None, view]],
                })
                assert (await stream.next_event())["seq"] == seq

        base = state["seq"] + 1
        await states(base, 1000)
        tracemalloc.start()
        before = tracemalloc.take_snapshot()
        await states(base + 1000, 2000)
        after = tracemalloc.take_snapshot()
        tracemalloc.stop()
        grown = sum(stat.size_diff for stat in after.compare_to(before, "filename"))
        assert grown < 64 * 1024, grown
    finally:
        await stream.close()


@override_settings(BASRA_API_KEEPALIVE_SECONDS=0.05)
async def test_a_seat_reading_its_stream_is_seen_as_a_table_socket_keeps_it(monkeypatch):
    """The clock marks a silent seat absent (and pauses a table against the computer): a
    program reading its seat's stream is present, as an open table socket is."""
    from datetime import timedelta

    from django.utils import timezone

    from games.api import streams
    from games.core.for_apps import Seat

    monkeypatch.setattr(streams, "SEEN_EVERY", 0.0)
    match, alice, a_token, robot, r_token = await sync_to_async(_setup)()
    old = timezone.now() - timedelta(hours=1)
    await sync_to_async(Seat.objects.filter(match=match, user=robot).update)(last_seen=old)
    stream = await open_stream(f"/api/bot/game/stream/{match.pk}", r_token)
    try:
        await stream.next_event()
        first = await sync_to_async(lambda: Seat.objects.get(match=match, user=robot).last_seen)()
        assert first > old
        assert await stream.next() is None  # a keep-alive: seen again
        second = await sync_to_async(lambda: Seat.objects.get(match=match, user=robot).last_seen)()
        assert second > first
    finally:
        await stream.close()


@override_settings(BASRA_CHALLENGE_SECONDS=1)
async def test_a_challenge_that_expires_unanswered_is_told_canceled_on_both_streams():
    a_token, b_token, a_stream, b_stream = await two_event_streams()
    try:
        sent = await sync_to_async(call)("post", "/api/challenge/alice", b_token, {"target": "61"})
        cid = sent.json()["challenge"]["id"]
        for stream in (a_stream, b_stream):
            assert (await stream.next_event())["type"] == "challenge"
        # Nothing is sent at the expiry: the streams tell of it themselves.
        for stream in (a_stream, b_stream):
            event = await asyncio.wait_for(stream.next_event(), WITHIN)
            assert event["type"] == "challengeCanceled"
            assert event["challenge"]["id"] == cid and event["challenge"]["status"] == "expired"
    finally:
        await a_stream.close()
        await b_stream.close()
