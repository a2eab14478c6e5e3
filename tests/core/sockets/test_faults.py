"""Faults a protocol-level client found in the table sockets (issue 8), over the real ASGI app.

A send to a client that has just closed; a cancel lost in the socket's watch; a card code with a
non-ASCII look-alike letter; a flood of frames; frames queued behind a close; a socket that
outlives its session's logout.
"""

from __future__ import annotations

import asyncio
import threading
from datetime import datetime, timedelta
from importlib import import_module

import pytest
from autobahn.exception import Disconnected
from channels.db import database_sync_to_async
from channels.exceptions import StopConsumer
from channels.testing import WebsocketCommunicator
from django.conf import settings as django_settings
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.core import actions
from games.core.actions import presence
from games.core.models import Event, Match, Seat
from games.core.sockets import base as socket_base, table as table_socket
from games.core.state import broadcast, liveness, reads
from games.core.state.cache import clear_caches
from tests.conftest import communicator, patient_communicator, ws_headers
from tests.core.helpers import (
    VirtualClock,
    eventually,
    expect_error,
    log_size,
    seated_match,
    strings_in,
    synced,
    table_barrier,
    table_path,
)

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

db = database_sync_to_async


@db
def last_seen(match_id: int, seat: int):
    return Seat.objects.get(match_id=match_id, seat=seat).last_seen


@pytest.fixture
def rate_time(monkeypatch) -> VirtualClock:
    """The sockets' rate limits on a virtual clock (``socket_base.rate_clock``): no token comes back
    while a slow machine sends a burst, and one comes back when the test moves time on."""
    clock = VirtualClock()
    monkeypatch.setattr(socket_base, "rate_clock", clock)
    return clock


@pytest.fixture
def site_rate_limit(settings, rate_time):
    """The site's own rate limit (the defaults of ``basra_site.settings``), not the lifted one
    of the other live-table tests (``tests/core/conftest.py``), on a virtual clock."""
    settings.BASRA_SOCKET_BURST = 8
    settings.BASRA_SOCKET_RATE = 4.0
    return settings.BASRA_SOCKET_BURST, settings.BASRA_SOCKET_RATE


@pytest.fixture
def table_consumers(monkeypatch):
    """The ``TableConsumer`` objects opened during the test, in order."""
    opened: list[table_socket.TableConsumer] = []
    connect = table_socket.TableConsumer.connect

    async def recording(self):
        opened.append(self)
        await connect(self)

    monkeypatch.setattr(table_socket.TableConsumer, "connect", recording)
    return opened


@pytest.fixture
def seen_calls(monkeypatch):
    """Every seen-update of a seat, as the username: ``actions.player_seen`` (connects,
    disconnects) and each seat of the process's heartbeats (``actions.heartbeats``)."""
    calls: list[str] = []
    real, real_beats = actions.player_seen, actions.heartbeats

    def counted(**kwargs):
        calls.append(kwargs["user"].username)
        real(**kwargs)

    def counted_beats(**kwargs):
        names = dict(get_user_model().objects.values_list("pk", "username"))
        calls.extend(names[user_id] for _match_id, user_id in kwargs["seated"])
        return real_beats(**kwargs)

    monkeypatch.setattr(actions, "player_seen", counted)
    monkeypatch.setattr(presence, "player_seen", counted)
    monkeypatch.setattr(actions, "heartbeats", counted_beats)
    return calls


# --- a send to a client that has closed ------------------------------------------------------


def closing_client(path: str, cookie: str) -> tuple[WebsocketCommunicator, dict]:
    """A communicator whose server ``send`` raises as daphne's does once the client has closed:
    autobahn's ``Disconnected`` ("Attempt to send on a closed protocol"), before daphne has
    queued the ``websocket.disconnect``. Set ``flag["closed"]`` to close the client."""
    from basra_site.asgi import application

    flag = {"closed": False}

    async def app(scope, receive, send):
        async def send_or_fail(message):
            if flag["closed"]:
                raise Disconnected("Attempt to send on a closed protocol")
            await send(message)

        return await application(scope, receive, send_or_fail)

    return patient_communicator()(app, path, headers=ws_headers(cookie)), flag


async def test_a_state_sent_to_a_closed_client_ends_the_socket_and_the_seat_goes_absent(
    make_player, open_socket, known_decks, settings, monkeypatch, seen_calls, beats_clock
):
    settings.BASRA_ABSENT_GRACE_SECONDS = 0.5
    monkeypatch.setattr(liveness, "HEARTBEAT_SECONDS", 0.1)
    alice, bob = await db(make_player)("alice"), await db(make_player)("bob")
    match = await db(seated_match)([alice.user, bob.user])
    a, client = closing_client(table_path(match.pk), alice.cookie)
    assert (await a.connect())[0]
    first = await a.receive_json_from()
    assert first["you"] == 0 and first["round"]["turn"] == 1
    b = await open_socket(table_path(match.pk), bob.cookie)
    await b.receive_json_from()
    await eventually(lambda: beats_clock.sleeping() == 1)
    await beats_clock.advance(0.3)  # alice's socket beats on its own
    assert seen_calls.count("alice") >= 3

    client["closed"] = True  # alice closed the tab; the server has not said so yet
    closed_at = timezone.now()
    hand = (await db(reads.table_state)(match_id=match.pk, user=bob.user))["round"]["hand"]
    await db(actions.play_card)(user=bob.user, match_id=match.pk, card=hand[0], seq=first["seq"])
    # The state broadcast to alice finds her gone: her socket ends as if she had disconnected,
    # without a websocket.disconnect from the server, and without an error.
    await asyncio.wait({a.future}, timeout=30)  # real seconds: only a bound on a hang
    assert a.future.done() and a.future.exception() is None
    before = seen_calls.count("alice")
    gone_at = await last_seen(match.pk, 0)
    assert gone_at >= closed_at  # the last seen-update was done (time stood still for beats)

    await beats_clock.advance(1.0)  # ten beats of a watch that would live on
    assert seen_calls.count("alice") == before  # no more beats
    assert await last_seen(match.pk, 0) == gone_at
    # With no open socket, alice is absent once the grace has passed (bob kept beating); bob
    # may claim.
    later = gone_at + timedelta(seconds=1)  # twice the grace
    await db(actions.player_seen)(match_id=match.pk, user=bob.user, now=later)
    assert await db(actions.mark_absent)(match_id=match.pk, now=later) == 1
    assert (await b.receive_json_from())["round"]["last_play"]["seat"] == 1  # bob's own play
    assert (await b.receive_json_from())["seats"][0]["absent"] is True
    await b.send_json_to({"type": "claim"})
    assert (await b.receive_json_from())["result"]["reason"] == "claim"


async def test_a_send_that_finds_the_client_gone_does_the_closing_work_once(
    make_player, known_decks, monkeypatch, seen_calls, table_consumers
):
    alice, bob = await db(make_player)("alice"), await db(make_player)("bob")
    match = await db(seated_match)([alice.user, bob.user])
    a, client = closing_client(table_path(match.pk), alice.cookie)
    assert (await a.connect())[0]
    first = await a.receive_json_from()
    [socket] = table_consumers
    groups = set(socket.groups_in)
    assert groups == {broadcast.table_group(match.pk), broadcast.account_group(alice.user.pk)}
    left = []
    discard = socket.channel_layer.group_discard

    async def counted_discard(group, channel):
        left.append(group)
        await discard(group, channel)

    monkeypatch.setattr(socket.channel_layer, "group_discard", counted_discard)
    client["closed"] = True
    before = seen_calls.count("alice")
    await a.send_json_to({"type": "sync"})  # answered with a state: the send fails
    await asyncio.wait({a.future}, timeout=30)  # real seconds: only a bound on a hang
    assert a.future.done() and a.future.exception() is None
    assert socket.watch is None and socket.groups_in == set()
    assert sorted(left) == sorted(groups)  # every group left, once
    assert seen_calls.count("alice") == before + 1  # one last seen-update
    # The server's own websocket.disconnect comes later; handled, it stops the socket and does
    # nothing twice.
    with pytest.raises(StopConsumer):
        await socket.websocket_disconnect({"type": "websocket.disconnect", "code": 1001})
    assert seen_calls.count("alice") == before + 1 and sorted(left) == sorted(groups)
    assert first["you"] == 0


# --- the deadline's timer and a disconnect ----------------------------------------------------


async def test_between_states_a_socket_waits_on_a_timer_and_a_disconnect_cancels_it(
    make_player, known_decks, table_consumers
):
    """No task of its own waits between states (a task woken at every state was about 2% of a
    play's server CPU): the read after a passed deadline is a timer of the loop, moved at each
    state; the disconnect cancels it. (The task it replaces waited with ``asyncio.wait_for``,
    which on Python 3.11 could swallow the disconnect's cancel, CPython gh-86296.)"""
    alice, bob = await db(make_player)("alice"), await db(make_player)("bob")
    match = await db(seated_match)([alice.user, bob.user])
    a = communicator(table_path(match.pk), alice.cookie)
    assert (await a.connect())[0]
    view = await a.receive_json_from()
    assert view["deadline"] is not None
    [socket] = table_consumers
    assert socket.watch is None and socket.timer is not None
    first = socket.timer
    # A state was just sent, its deadline a second sooner: the timer is moved. (With the same
    # deadline the new time differs from the old by the drift between time.time() and the
    # loop's clock, either way: a timer set no later stays, TableConsumer._track.)
    sooner = datetime.fromisoformat(view["deadline"]) - timedelta(seconds=1)
    socket._track(sooner.isoformat())
    assert first.cancelled() and socket.timer is not None and socket.timer is not first
    timer = socket.timer
    await a.disconnect()
    assert timer.cancelled() and socket.timer is None and socket.watch is None


async def test_a_disconnect_right_after_a_state_is_prompt_and_does_the_last_seen_update(
    make_player, known_decks, monkeypatch, table_consumers
):
    alice, bob = await db(make_player)("alice"), await db(make_player)("bob")
    match = await db(seated_match)([alice.user, bob.user])
    a = communicator(table_path(match.pk), alice.cookie)
    assert (await a.connect())[0]
    await a.receive_json_from()
    [socket] = table_consumers
    stale = timezone.now() - timedelta(hours=1)
    await db(Seat.objects.filter(match=match).update)(last_seen=stale)
    # The deadline the socket watches for is a day away: a disconnect that waited for the
    # watch would hang, and the hang's bound below is far from the time a slow machine takes.
    await db(Match.objects.filter(pk=match.pk).update)(deadline=timezone.now() + timedelta(days=1))
    clear_caches()
    socket.deadline = (await db(Match.objects.get)(pk=match.pk)).deadline.isoformat()
    disconnect = table_socket.TableConsumer.disconnect

    async def right_after_a_state(self, code):
        # A table.state and the websocket.disconnect handled in the same turn of the loop (both
        # were waiting): the state's news and the watch's cancel come together.
        self._track(self.deadline)
        await disconnect(self, code)

    monkeypatch.setattr(table_socket.TableConsumer, "disconnect", right_after_a_state)
    await a.disconnect(timeout=30)  # raises TimeoutError if the disconnect hangs
    assert socket.watch is None and socket.groups_in == set()
    assert await last_seen(match.pk, 0) > stale  # the last seen-update happened


# --- card codes ------------------------------------------------------------------------------


async def test_a_look_alike_letter_is_bad_card_and_plays_nothing(
    make_player, open_socket, known_decks
):
    alice, bob = await db(make_player)("alice"), await db(make_player)("bob")
    match = await db(seated_match)([alice.user, bob.user])
    first = await db(reads.table_state)(match_id=match.pk, user=bob.user)
    await db(actions.play_card)(user=bob.user, match_id=match.pk,
                                 card=first["round"]["hand"][0], seq=first["seq"])
    a = await open_socket(table_path(match.pk), alice.cookie)
    b = await open_socket(table_path(match.pk), bob.cookie)
    view = await a.receive_json_from()
    await b.receive_json_from()
    assert view["round"]["turn"] == 0 and "5S" in view["round"]["hand"]
    before = await log_size(match.pk)
    # "ſ".upper() == "S": "5ſ" matched after upper() played the five of spades.
    await a.send_json_to({"type": "play", "card": "5\u017f", "seq": view["seq"]})
    await expect_error(a, "bad_card")
    assert await log_size(match.pk) == before
    # Nothing else sent. Barriers: a's sync is handled once the bad play's handling has
    # returned (what it sent on a came first, what it broadcast was in the channels by then),
    # and a broadcast sent after that must be both sockets' next frame (channels deliver in
    # order).
    assert (await synced(a))["seq"] == view["seq"]
    await table_barrier(match.pk, [a, b])
    await a.send_json_to({"type": "play", "card": "5s", "seq": view["seq"]})  # ASCII: any case
    played = await a.receive_json_from()
    assert played["round"]["last_play"]["card"] == "5S"


# --- rate limit ------------------------------------------------------------------------------


async def test_a_burst_beyond_the_limit_is_refused_and_changes_nothing(
    make_player, open_socket, known_decks, site_rate_limit, rate_time
):
    burst, rate = site_rate_limit
    alice, bob = await db(make_player)("alice"), await db(make_player)("bob")
    match = await db(seated_match)([alice.user, bob.user])
    b = await open_socket(table_path(match.pk), bob.cookie)  # seat 1 moves first
    view = await b.receive_json_from()
    before = await log_size(match.pk)
    play = {"type": "play", "card": view["round"]["hand"][0], "seq": view["seq"]}
    for _ in range(burst):
        await b.send_json_to({"type": "sync"})
    for _ in range(5):
        await b.send_json_to(play)  # a good play, but over the limit
    for _ in range(burst):
        assert (await b.receive_json_from())["type"] == "state"
    error = await expect_error(b, "rate_limited")
    assert error["message"] != "rate_limited"  # the translated text
    # One error for the whole burst: the page answers an error with a sync, which would be
    # refused and answered again. Barrier: with a token back, a sync is admitted; it is handled
    # after the five plays (a socket handles its frames in order), so a second error would come
    # before its answer, and a play applied would show in it (a later seq).
    rate_time.now += 1 / rate  # a token back
    assert (await synced(b))["seq"] == view["seq"]
    assert await log_size(match.pk) == before  # none of the five plays was applied
    rate_time.now += 1 / rate  # a token back
    await b.send_json_to(play)
    applied = await b.receive_json_from()
    assert applied["type"] == "state" and applied["seq"] > view["seq"]
    assert await log_size(match.pk) != before


async def test_the_token_bucket_gives_a_burst_then_its_rate_and_never_saves_more_than_a_burst():
    bucket = socket_base.TokenBucket(burst=3, rate=4.0)
    assert [bucket.take(10.0) for _ in range(4)] == [True, True, True, False]
    assert not bucket.take(10.0 + 0.9 / 4)  # not yet a whole token back
    assert bucket.take(10.0 + 1 / 4)
    assert not bucket.take(10.0 + 1 / 4)
    # An hour idle refills the burst, no more.
    assert [bucket.take(3610.0) for _ in range(4)] == [True, True, True, False]


async def test_the_lobby_socket_is_limited_too(
    make_player, open_socket, site_rate_limit, rate_time
):
    burst, rate = site_rate_limit
    lobby = await open_socket("/ws/lobby/")
    await lobby.receive_json_from()
    for _ in range(burst + 3):
        await lobby.send_json_to({"type": "sync"})
    for _ in range(burst):
        assert (await lobby.receive_json_from())["type"] == "tables"
    await expect_error(lobby, "rate_limited")
    # One error, no more tables. Barrier: with a token back, a frame of a kind no refused
    # frame could answer is admitted, and handled after them (in order): its own error must be
    # the next frame.
    rate_time.now += 1 / rate
    await lobby.send_json_to({"type": "nope"})
    await expect_error(lobby, "unknown_type")


async def test_frames_queued_when_the_socket_closes_are_dropped(
    make_player, known_decks, monkeypatch, table_consumers
):
    alice, bob = await db(make_player)("alice"), await db(make_player)("bob")
    match = await db(seated_match)([alice.user, bob.user])
    b = communicator(table_path(match.pk), bob.cookie)
    assert (await b.connect())[0]
    view = await b.receive_json_from()
    [socket] = table_consumers
    calls = []
    started, release = threading.Event(), threading.Event()
    real = actions.play_card

    def slow_play(**kwargs):
        calls.append(kwargs["card"])
        started.set()
        release.wait(timeout=30)  # the database is slow: frames queue behind this one
        return real(**kwargs)

    monkeypatch.setattr(actions, "play_card", slow_play)
    hand = view["round"]["hand"]
    await b.send_json_to({"type": "play", "card": hand[0], "seq": view["seq"]})
    await eventually(started.is_set)
    for card in hand[1:] * 2:
        await b.send_json_to({"type": "play", "card": card, "seq": view["seq"] + 1})
    await b.send_input({"type": "websocket.disconnect", "code": 1001})  # the client goes
    await eventually(lambda: socket.gone)  # the socket has seen it go (not: 50 ms went by)
    release.set()
    await b.wait(30)  # the application ends: what it was going to do, it has done
    assert calls == [hand[0]]  # the one under way when the client left; the six queued: none


# --- logout ----------------------------------------------------------------------------------


SessionStore = import_module(django_settings.SESSION_ENGINE).SessionStore


def log_out(cookie: str) -> None:
    """Log the session ``cookie`` out through the site's logout form (a POST)."""
    client = Client()
    client.cookies[django_settings.SESSION_COOKIE_NAME] = cookie
    assert client.post(reverse("account_logout")).status_code == 302
    assert not SessionStore(session_key=cookie).exists(cookie)


def second_session(user) -> str:
    """The cookie of another logged-in session of ``user`` (another browser)."""
    client = Client()
    client.force_login(user)
    return client.cookies[django_settings.SESSION_COOKIE_NAME].value


async def test_after_a_logout_the_sessions_socket_no_longer_receives_the_hand(
    make_player, open_socket, known_decks, seen_calls
):
    alice, bob = await db(make_player)("alice"), await db(make_player)("bob")
    match = await db(seated_match)([alice.user, bob.user])
    old = await open_socket(table_path(match.pk), alice.cookie)
    other = await open_socket(table_path(match.pk), await db(second_session)(alice.user))
    b = await open_socket(table_path(match.pk), bob.cookie)
    view = await old.receive_json_from()
    assert view["you"] == 0 and len(view["round"]["hand"]) == 4
    await other.receive_json_from()
    bob_view = await b.receive_json_from()

    seen_before = seen_calls.count("alice")
    await db(log_out)(alice.cookie)  # in another tab of the browser of ``old``
    await eventually(lambda: seen_calls.count("alice") > seen_before)
    assert seen_calls.count("alice") == seen_before + 1  # the seat's last seen-update
    assert await old.receive_json_from() == {"type": "logged_out"}  # the page is told
    watched = await old.receive_json_from()  # the spectators' view at once
    assert watched["you"] is None and watched["round"]["hand"] == []
    await db(actions.play_card)(user=bob.user, match_id=match.pk,
                                 card=bob_view["round"]["hand"][0], seq=bob_view["seq"])
    mine = await other.receive_json_from()  # alice's other session still gets her seat view
    assert mine["you"] == 0 and len(mine["round"]["hand"]) == 4
    after = await old.receive_json_from()  # the logged-out one gets the spectator view
    assert after["seq"] == mine["seq"]
    assert after["you"] is None and after["round"]["hand"] == []
    assert not set(mine["round"]["hand"]) & strings_in(after)
    await old.send_json_to({"type": "play", "card": mine["round"]["hand"][0], "seq": mine["seq"]})
    await expect_error(old, "login_required")
    # Nothing else. Barrier: the sync is handled after the refused play (in order): what that
    # play's handling sent came first, and a play applied would show in its answer.
    after_sync = await synced(old)
    assert after_sync["seq"] == mine["seq"] and after_sync["you"] is None


async def test_a_logout_between_the_handshake_and_the_join_is_not_missed(
    make_player, known_decks, monkeypatch
):
    alice, bob = await db(make_player)("alice"), await db(make_player)("bob")
    match = await db(seated_match)([alice.user, bob.user])
    join = table_socket.TableConsumer.join

    async def logout_first(self, group):
        if group == broadcast.account_group(alice.user.pk):
            # The session was read at the handshake; the logout's message goes out now,
            # before this socket is in the group that carries it.
            await db(log_out)(alice.cookie)
        await join(self, group)

    monkeypatch.setattr(table_socket.TableConsumer, "join", logout_first)
    a = communicator(table_path(match.pk), alice.cookie)
    assert (await a.connect())[0]
    first = await a.receive_json_from()
    assert first["you"] is None and first["round"]["hand"] == []
    await a.disconnect()


async def test_a_seat_view_already_on_its_way_at_the_logout_is_dropped(
    make_player, open_socket, known_decks, table_consumers
):
    alice, bob = await db(make_player)("alice"), await db(make_player)("bob")
    match = await db(seated_match)([alice.user, bob.user])
    old = await open_socket(table_path(match.pk), alice.cookie)
    view = await old.receive_json_from()
    [socket] = table_consumers
    await db(log_out)(alice.cookie)
    await eventually(lambda: not socket.logged_in)
    assert await old.receive_json_from() == {"type": "logged_out"}
    watched = await old.receive_json_from()  # the spectators' view at once
    assert watched["you"] is None and watched["round"]["hand"] == []
    # A change's states, queued on this socket's channel before the logout was seen: the
    # socket is an anonymous spectator's now and sends on the spectators' view, not alice's.
    later = dict(view, seq=view["seq"] + 1, prev_seq=view["seq"])
    assert later["round"]["hand"]
    watched = dict(later, you=None, round=dict(later["round"], hand=[]))
    await socket.channel_layer.send(socket.channel_name, {
        "type": "table.states", "seq": later["seq"], "deadline": later["deadline"],
        "views": [
            [0, alice.user.pk, broadcast.frame_text(later)],
            [None, None, broadcast.frame_text(watched)],
        ],
    })
    sent = await old.receive_json_from()
    assert sent["you"] is None and sent["round"]["hand"] == []
    # Only that view. Barrier: a broadcast sent now is behind the states in the socket's
    # channel, handled once their handling has returned: it must be the next frame.
    await table_barrier(match.pk, [old])
