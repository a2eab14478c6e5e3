"""The websocket protocol (docs/protocol.md) over the real ASGI application.

Every test talks to ``basra_site.asgi.application`` through ``WebsocketCommunicator`` with a real
session cookie and ``Origin`` header, as a browser does.
"""

from __future__ import annotations

import copy
import json
from datetime import datetime, timedelta
from importlib import import_module

import pytest
from channels.db import database_sync_to_async
from django.conf import settings
from django.test import Client
from django.urls import reverse

from games import engine
from games.core import actions
from games.core.actions import seating
from games.core.models import Event, Match
from games.core.state import reads, cache as table_cache
from games.engine import shuffle
from tests.conftest import communicator
from tests.core.helpers import (
    expect_error,
    log_size,
    seated_match,
    strings_in,
    synced,
    table_barrier,
    table_path,
    timeless,
)


def log_out(cookie: str) -> None:
    """Log the session ``cookie`` out as its owner would, with the logout form (a POST)."""
    client = Client()
    client.cookies[settings.SESSION_COOKIE_NAME] = cookie
    assert client.post(reverse("account_logout")).status_code == 302
    assert not SessionStore(session_key=cookie).exists(cookie)


SessionStore = import_module(settings.SESSION_ENGINE).SessionStore

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

db = database_sync_to_async


# --- lobby -----------------------------------------------------------------------------------


async def test_lobby_lists_open_tables_live(make_player, open_socket):
    alice, bob = await db(make_player)("alice"), await db(make_player)("bob")
    lobby = await open_socket("/ws/lobby/")  # anonymous visitors may watch the lobby
    assert await lobby.receive_json_from() == {"type": "tables", "tables": []}

    match = await db(actions.create_table)(user=alice.user, players=2, rules={"target": 61},
                                             rated=True)
    update = await lobby.receive_json_from()
    assert update["type"] == "tables"
    [row] = update["tables"]
    assert row["id"] == match.pk and row["target"] == 61 and row["rated"] is True
    # Every seat, with its side and the name to show; alice's socket-less seat was just taken.
    assert row["seats"] == [
        {"seat": 0, "side": 0, "username": "alice", "bot": None, "closed": False, "name": "alice",
         "online": True, "rating": "1500?", "title": None},
        {"seat": 1, "side": 1, "username": None, "bot": None, "closed": False, "name": "Empty seat",
         "online": False, "rating": None, "title": None},
    ]
    assert row["mine"] is False and row["taken"] == 1 and row["age"] == "created just now"
    assert row["created_by_online"] is True

    await db(actions.join_table)(user=bob.user, match_id=match.pk)  # full: starts, leaves lobby
    assert await lobby.receive_json_from() == {"type": "tables", "tables": []}

    await lobby.send_json_to({"type": "sync"})
    assert await lobby.receive_json_from() == {"type": "tables", "tables": []}
    await lobby.send_to(text_data="{oops")
    await expect_error(lobby, "bad_json")
    await lobby.send_json_to({"type": "play", "card": "5D", "seq": 1})
    await expect_error(lobby, "unknown_type")


async def test_a_foreign_origin_is_refused(make_player):
    alice = await db(make_player)("alice")
    for origin in ("http://evil.example", None):
        comm = communicator("/ws/lobby/", alice.cookie, origin=origin)
        connected, _ = await comm.connect()
        assert not connected
        comm = communicator(table_path(1), alice.cookie, origin=origin)
        connected, _ = await comm.connect()
        assert not connected


# --- table: connecting and watching ----------------------------------------------------------


@pytest.mark.parametrize("match_id", [999999, 2**63 - 1, 2**63, 10**23])
async def test_unknown_table_is_an_error_then_closed(make_player, open_socket, match_id):
    """Also an id past the database's integers, which the database cannot even look up ("Python
    int too large to convert to SQLite INTEGER"): an unknown table, not an internal error."""
    alice = await db(make_player)("alice")
    comm = await open_socket(table_path(match_id), alice.cookie)
    await expect_error(comm, "not_found")
    assert (await comm.receive_output())["code"] == 4404


async def test_anonymous_socket_spectates_but_cannot_play(make_player, open_socket, known_decks):
    alice, bob = await db(make_player)("alice"), await db(make_player)("bob")
    match = await db(seated_match)([alice.user, bob.user])
    comm = await open_socket(table_path(match.pk))
    view = await comm.receive_json_from()
    assert view["type"] == "state" and view["you"] is None and view["prev_seq"] is None
    assert view["round"]["hand"] == [] and view["round"]["hand_sizes"] == [4, 4]
    assert view["seats"] == [
        {"seat": 0, "username": "alice", "closed": False, "side": 0, "bot": None,
         "absent": False, "resign_offer": False, "title": None},
        {"seat": 1, "username": "bob", "closed": False, "side": 1, "bot": None,
         "absent": False, "resign_offer": False, "title": None},
    ]
    before = await log_size(match.pk)
    hand_of_mover = known_decks[0][0:4]  # dealer 0: seat 1 moves first and holds deck[0:4]
    await comm.send_json_to({"type": "play", "card": hand_of_mover[0], "seq": view["seq"]})
    await expect_error(comm, "login_required")
    assert await log_size(match.pk) == before


async def test_state_message_fields(make_player, open_socket, known_decks):
    alice, bob = await db(make_player)("alice"), await db(make_player)("bob")
    match = await db(seated_match)([alice.user, bob.user], rules={"target": 61}, rated=True)
    comm = await open_socket(table_path(match.pk), bob.cookie)
    view = await comm.receive_json_from()
    assert set(view) == {"type", "seq", "prev_seq", "match", "seats", "you", "round", "scores",
                         "target", "round_results", "result", "deadline", "move_seconds", "now",
                         "client_seed", "extras", "paused"}
    assert view["paused"] is None  # a table of people: never paused
    # The ratings app's part (games.ratings.table): two new players, even chances, no change yet.
    assert view["extras"] == {"ratings": {
        "seats": [{"seat": 0, "rating": "1500?", "rating_after": None, "change": None, "not_rated": None},
                  {"seat": 1, "rating": "1500?", "rating_after": None, "change": None, "not_rated": None}],
        "chances": [50, 50], "not_rated": None}}
    assert view["client_seed"] is None  # one's own seed is shown only until the start
    # Seat 1 moves first: its 30 seconds run from the start, in the server's time.
    assert view["move_seconds"] == 30
    assert view["deadline"] == match.deadline.isoformat()
    assert match.deadline == match.started_at + timedelta(seconds=30)
    assert 0 < (match.deadline - datetime.fromisoformat(view["now"])).total_seconds() <= 30
    seeds = await db(lambda: [s.client_seed for s in match.seats.order_by("seat")])()
    assert view["match"] == {"id": match.pk, "status": "playing", "players": 2, "rated": True,
                             "rules": match.rules, "shuffle": {
                                 "algorithm": "basra-shuffle/1",
                                 "commitment": shuffle.commitment(match.server_seed),
                                 "client_seeds": seeds, "server_seed": None}}
    assert view["you"] == 1 and view["seq"] == match.seq
    assert view["scores"] == [0, 0] and view["target"] == 61
    assert view["round_results"] == [] and view["result"] is None
    deck = known_decks[0]
    # Dealer 0 deals deck[0:4] to seat 1, deck[4:8] to seat 0, then the floor (RULES.md).
    assert view["round"] == {
        "number": 1, "dealer": 0, "turn": 1,
        "floor": view["round"]["floor"],
        "hand": deck[0:4],
        "hand_sizes": [4, 4], "stock_size": 40, "pile_sizes": [0, 0],
        "basras": [0, 0], "jack_basras": [0, 0], "last_play": None, "over": False,
    }
    assert len(view["round"]["floor"]) == 4
    assert not set(view["round"]["floor"]) & set(deck[0:8])


async def test_open_table_state(make_player, open_socket):
    alice = await db(make_player)("alice")
    match = await db(actions.create_table)(user=alice.user, players=4, rules={}, rated=False)
    comm = await open_socket(table_path(match.pk), alice.cookie)
    view = await comm.receive_json_from()
    assert view["match"]["status"] == "open" and view["you"] == 0
    # The commitment from the creation on; one's own client seed only, until the start.
    assert view["match"]["shuffle"] == {
        "algorithm": "basra-shuffle/1", "commitment": shuffle.commitment(match.server_seed),
        "client_seeds": None, "server_seed": None}
    seat = await db(lambda: match.seats.get(seat=0))()
    assert view["client_seed"] == seat.client_seed and len(seat.client_seed) == 16
    assert view["round"] is None and view["seats"] == [
        {"seat": 0, "username": "alice", "closed": False, "side": 0, "bot": None,
         "absent": False, "resign_offer": False, "title": None}]
    assert view["deadline"] is None
    await comm.send_json_to({"type": "play", "card": "5D", "seq": view["seq"]})
    await expect_error(comm, "not_started")


# --- bad input, one by one -------------------------------------------------------------------


async def test_bad_input_gets_an_error_and_changes_nothing(make_player, open_socket, known_decks):
    alice, bob, carol = [await db(make_player)(n) for n in ("alice", "bob", "carol")]
    match = await db(seated_match)([alice.user, bob.user])
    mover = await open_socket(table_path(match.pk), bob.cookie)  # seat 1 moves first
    waiter = await open_socket(table_path(match.pk), alice.cookie)
    watcher = await open_socket(table_path(match.pk), carol.cookie)
    mine = await mover.receive_json_from()
    theirs = await waiter.receive_json_from()
    assert (await watcher.receive_json_from())["you"] is None
    assert mine["round"]["turn"] == 1
    seq = mine["seq"]
    before = await log_size(match.pk)

    async def check(comm, frame, code):
        if isinstance(frame, str):
            await comm.send_to(text_data=frame)
        else:
            await comm.send_json_to(frame)
        await expect_error(comm, code)
        assert await log_size(match.pk) == before, (frame, code)

    await check(mover, "{not json", "bad_json")
    await check(mover, "[1, 2]", "bad_json")
    await check(mover, '"play"', "bad_json")
    await check(mover, {"type": "shout"}, "unknown_type")
    await check(mover, {"card": "5D"}, "unknown_type")
    await check(mover, {"type": "play", "card": mine["round"]["hand"][0]}, "bad_message")
    await check(mover, {"type": "play", "card": mine["round"]["hand"][0], "seq": str(seq)},
                "bad_message")
    await check(mover, {"type": "play", "card": mine["round"]["hand"][0], "seq": True},
                "bad_message")
    await check(mover, {"type": "play", "card": 5, "seq": seq}, "bad_message")
    await check(mover, {"type": "play", "card": "ZZ", "seq": seq}, "bad_card")
    await check(mover, {"type": "play", "card": theirs["round"]["hand"][0], "seq": seq},
                "card_not_in_hand")
    await check(waiter, {"type": "play", "card": theirs["round"]["hand"][0], "seq": seq},
                "not_your_turn")
    await check(watcher, {"type": "play", "card": mine["round"]["hand"][0], "seq": seq},
                "not_seated")
    await check(mover, {"type": "play", "card": mine["round"]["hand"][0], "seq": seq - 1},
                "stale")
    # A stale play is followed by the current state.
    fresh = await mover.receive_json_from()
    assert fresh["type"] == "state" and fresh["seq"] == seq and fresh["prev_seq"] is None

    # The double click: the same play twice; only the first is applied.
    card = mine["round"]["hand"][0]
    await mover.send_json_to({"type": "play", "card": card, "seq": seq})
    await mover.send_json_to({"type": "play", "card": card, "seq": seq})
    # The new state and the second click's "stale" may arrive in either order.
    seen = []
    while not ({"stale"} <= {m.get("code") for m in seen}
               and any(m["type"] == "state" for m in seen)):
        seen.append(await mover.receive_json_from())
    for message in seen:
        if message["type"] == "error":
            assert message["code"] == "stale" and message["message"]
        else:
            assert message["type"] == "state" and message["seq"] == seq + 1
            assert message["round"]["last_play"]["card"] == card
            assert card not in message["round"]["hand"]
    assert await log_size(match.pk) == (seq + 1, before[1] + 1)
    assert (await waiter.receive_json_from())["seq"] == seq + 1
    assert (await watcher.receive_json_from())["seq"] == seq + 1


async def test_a_logged_out_socket_cannot_play(make_player, open_socket):
    alice, bob = await db(make_player)("alice"), await db(make_player)("bob")
    match = await db(seated_match)([alice.user, bob.user])
    sockets = {}
    for player in (alice, bob):
        sockets[player.username] = await open_socket(table_path(match.pk), player.cookie)
    views = {name: await comm.receive_json_from() for name, comm in sockets.items()}
    turn = views["alice"]["round"]["turn"]
    name = ("alice", "bob")[turn]
    cookie = (alice, bob)[turn].cookie
    # Log out in another tab, through the site's logout form: the open socket remains, and is
    # told (the page says so and offers to log in again).
    await db(log_out)(cookie)
    assert await sockets[name].receive_json_from() == {"type": "logged_out"}
    watched = await sockets[name].receive_json_from()  # the spectators' view at once
    assert watched["you"] is None and watched["round"]["hand"] == []
    before = await log_size(match.pk)
    view = views[name]
    await sockets[name].send_json_to(
        {"type": "play", "card": view["round"]["hand"][0], "seq": view["seq"]}
    )
    await expect_error(sockets[name], "login_required")
    assert await log_size(match.pk) == before


# --- seating through the sockets -------------------------------------------------------------


async def test_sockets_follow_seating_and_close_when_the_table_goes(make_player, open_socket):
    alice, bob = await db(make_player)("alice"), await db(make_player)("bob")
    match = await db(actions.create_table)(user=alice.user, players=4, rules={}, rated=False)
    a = await open_socket(table_path(match.pk), alice.cookie)
    b = await open_socket(table_path(match.pk), bob.cookie)
    assert (await a.receive_json_from())["you"] == 0
    assert (await b.receive_json_from())["you"] is None

    await db(actions.join_table)(user=bob.user, match_id=match.pk)
    for comm in (a, b):
        view = await comm.receive_json_from()
        assert [s["username"] for s in view["seats"]] == ["alice", "bob"]
    assert view["you"] == 2  # bob, partner of the creator

    await db(actions.leave_table)(user=bob.user, match_id=match.pk)
    assert (await b.receive_json_from())["you"] is None
    assert [s["seat"] for s in (await a.receive_json_from())["seats"]] == [0]

    await db(actions.leave_table)(user=alice.user, match_id=match.pk)
    for comm in (a, b):
        closed = await comm.receive_json_from()
        assert closed["type"] == "closed" and closed["message"]
        assert (await comm.receive_output())["code"] == 4404


# --- whole matches: nothing leaks ------------------------------------------------------------


@db
def hands_by_seq(match_id: int) -> dict[int, list[set[str]]]:
    """Every seat's hand right after each event ``seq`` of a match, replayed from its log."""
    match = Match.objects.get(pk=match_id)
    live, hands = None, {}
    for event in Event.objects.filter(match=match).order_by("seq"):
        if event.kind == "start":
            live = engine.Match(engine.Rules.from_dict(match.rules), dealer=event.payload["dealer"])
        elif event.kind == "deal":
            live.start_round(event.payload["deck"])
        elif event.kind == "play":
            live.play(event.payload["card"], seat=event.seat)
        hands[event.seq] = (
            [{card.code for card in hand} for hand in live.round.hands]
            if live is not None and live.round is not None
            else [set() for _ in range(match.players)]
        )
    return hands


async def hands_at(match_id: int, seq: int) -> list[set[str]]:
    """Every seat's hand right after event ``seq``, from the log."""
    return (await hands_by_seq(match_id))[seq]


async def play_match_over_sockets(players, match, spectator_cookie=None):
    """Play ``match`` to the end over websockets, each seat choosing from its own state.

    :returns: ``{seat or None: [every message that socket received]}``.
    """
    sockets = {}
    for seat, player in enumerate(players):
        sockets[seat] = communicator(table_path(match.pk), player.cookie)
    sockets[None] = communicator(table_path(match.pk), spectator_cookie)
    received = {seat: [] for seat in sockets}
    for seat, comm in sockets.items():
        assert (await comm.connect())[0]
        received[seat].append(await comm.receive_json_from())
    try:
        while received[None][-1]["result"] is None:
            latest = received[None][-1]
            turn = latest["round"]["turn"]
            mine = received[turn][-1]
            await sockets[turn].send_json_to(
                {"type": "play", "card": mine["round"]["hand"][-1], "seq": mine["seq"]}
            )
            for seat, comm in sockets.items():
                message = await comm.receive_json_from()
                assert message["type"] == "state", message
                received[seat].append(message)
            assert len({received[s][-1]["seq"] for s in sockets}) == 1
        # Nothing after the end. Barrier: the last mover's sync is handled once its play's
        # handling has returned (its broadcasts were in the channels by then); a broadcast sent
        # after must be every socket's next frame (channels deliver in order).
        assert (await synced(sockets[turn]))["seq"] == received[None][-1]["seq"]
        await table_barrier(match.pk, list(sockets.values()))
    finally:
        for comm in sockets.values():
            await comm.disconnect()
    return received


async def check_no_leaks(match_id: int, received: dict) -> int:
    """Every message only shows its own seat's hand, and the server seed only once the match is
    over (then always); returns the number of messages checked."""
    checked = 0
    hands_after = await hands_by_seq(match_id)
    match = await db(Match.objects.get)(pk=match_id)
    server_seed = match.server_seed
    assert len(server_seed) == 64
    for seat, messages in received.items():
        previous = None
        for message in messages:
            assert {"deck", "stock"}.isdisjoint(strings_in(message))
            revealed = message["match"]["shuffle"]["server_seed"]
            if message["result"] is None:
                assert revealed is None
                assert not any(server_seed in text for text in strings_in(message))
            else:
                assert message["match"]["status"] == "finished" and revealed == server_seed
            hands = hands_after[message["seq"]]
            # round_results names the leftover cards of rounds already over: those codes are
            # dealt again in the next round's fresh deck, so they are checked apart, below.
            shown = strings_in({k: v for k, v in message.items() if k != "round_results"})
            for result in message["round_results"]:
                assert set(result["leftover"]["cards"]) <= set(seating.DECK_CODES)
                assert strings_in(result) & set(seating.DECK_CODES) == set(result["leftover"]["cards"])
            for other, hand in enumerate(hands):
                if other != seat:
                    assert not hand & shown, (seat, other, message["seq"])
            own = set(message["round"]["hand"])
            assert own == (hands[seat] if seat is not None else set())
            # The only cards a message names: your hand, the floor, the last play. Never the
            # stock (the deck order) nor anything else.
            last = message["round"]["last_play"] or {"card": None, "taken": []}
            allowed = own | set(message["round"]["floor"]) | {last["card"]} | set(last["taken"])
            assert shown & set(seating.DECK_CODES) <= allowed
            assert message["you"] == seat
            if previous is not None:
                assert message["prev_seq"] == previous["seq"]  # no gap in a live stream
            previous = message
            checked += 1
    return checked


async def test_a_played_two_player_match_never_leaks_a_hand(make_player, known_decks):
    alice, bob, carol = [await db(make_player)(n) for n in ("alice", "bob", "carol")]
    match = await db(seated_match)([alice.user, bob.user])
    received = await play_match_over_sockets([alice, bob], match, spectator_cookie=carol.cookie)
    final = received[None][-1]
    finished = await db(Match.objects.get)(pk=match.pk)
    assert finished.status == "finished"
    assert final["result"] == {"winner": finished.winner_side, "scores": finished.scores,
                               "reason": "target"}
    assert len(final["round_results"]) >= 2
    checked = await check_no_leaks(match.pk, received)
    assert checked == 3 * len(received[0]) and len(received[0]) > 96


async def test_a_four_player_match_seated_over_sockets_never_leaks(make_player, open_socket,
                                                                   known_decks):
    players = [await db(make_player)(n) for n in ("alice", "bob", "carol", "dave")]
    match = await db(actions.create_table)(user=players[0].user, players=4,
                                             rules={"target": 31}, rated=False)
    # bob, carol, dave open the table page before they sit down.
    watching = {p.username: await open_socket(table_path(match.pk), p.cookie) for p in players[1:]}
    for comm in watching.values():
        assert (await comm.receive_json_from())["you"] is None
    for joined, player in enumerate(players[1:], start=1):
        await db(actions.join_table)(user=player.user, match_id=match.pk)
        for comm in watching.values():
            view = await comm.receive_json_from()
            assert len(view["seats"]) == joined + 1
    # Seating order 0, 2, 1, 3: alice 0, bob 2, carol 1, dave 3; each now sees their own hand.
    assert view["you"] == 3 and view["match"]["status"] == "playing"
    hands = await hands_at(match.pk, view["seq"])
    assert set(view["round"]["hand"]) == hands[3]
    by_seat = [players[0], players[2], players[1], players[3]]
    received = await play_match_over_sockets(by_seat, match)
    assert received[None][-1]["result"] is not None
    await check_no_leaks(match.pk, received)


# --- broadcasts follow the commit -----------------------------------------------------------


async def test_a_rolled_back_play_is_never_broadcast(make_player, open_socket):
    from django.db import transaction

    alice, bob = await db(make_player)("alice"), await db(make_player)("bob")
    match = await db(seated_match)([alice.user, bob.user])
    sockets = [await open_socket(table_path(match.pk), p.cookie) for p in (alice, bob)]
    views = [await comm.receive_json_from() for comm in sockets]
    turn = views[0]["round"]["turn"]
    mover = (alice, bob)[turn].user
    card = views[turn]["round"]["hand"][0]

    class Abort(Exception):
        pass

    @db
    def play_then_fail():
        with transaction.atomic():
            actions.play_card(user=mover, match_id=match.pk, card=card, seq=views[0]["seq"])
            raise Abort

    with pytest.raises(Abort):
        await play_then_fail()
    # Nothing broadcast. Barrier: a broadcast from this thread returns once it is in every
    # channel, so one the rolled-back play sent would be ahead of this one.
    await table_barrier(match.pk, sockets)
    assert await log_size(match.pk) == (views[0]["seq"], views[0]["seq"])
    # The same play, committed this time, reaches both seats.
    await db(actions.play_card)(user=mover, match_id=match.pk, card=card, seq=views[0]["seq"])
    for comm in sockets:
        assert (await comm.receive_json_from())["round"]["last_play"]["card"] == card


# --- reconnecting ----------------------------------------------------------------------------


async def test_reconnect_restores_exactly_the_state(make_player, open_socket, known_decks):
    alice, bob = await db(make_player)("alice"), await db(make_player)("bob")
    match = await db(seated_match)([alice.user, bob.user])
    sockets = [await open_socket(table_path(match.pk), p.cookie) for p in (alice, bob)]
    latest = [await comm.receive_json_from() for comm in sockets]
    for _ in range(11):
        turn = latest[0]["round"]["turn"]
        await sockets[turn].send_json_to(
            {"type": "play", "card": latest[turn]["round"]["hand"][0], "seq": latest[turn]["seq"]}
        )
        latest = [await comm.receive_json_from() for comm in sockets]
    for restart in (False, True):
        if restart:
            table_cache.clear_caches()  # a server restart: only the database survives
        again = await open_socket(table_path(match.pk), alice.cookie)
        fresh = await again.receive_json_from()
        expected = timeless(copy.deepcopy(latest[0]))
        expected["prev_seq"] = None
        assert timeless(fresh) == expected
        await again.send_json_to({"type": "sync"})
        assert timeless(await again.receive_json_from()) == expected
    assert json.dumps(fresh)  # plain JSON




async def play_first_card(comm, view: dict) -> dict:
    """Play the first card of ``view``'s hand on ``comm``; returns the next message."""
    await comm.send_json_to({"type": "play", "card": view["round"]["hand"][0], "seq": view["seq"]})
    return await comm.receive_json_from()


def set_password_elsewhere(user) -> None:
    """The user sets a password in another browser, through the site (allauth's form)."""
    client = Client()
    client.force_login(user)
    response = client.post(
        reverse("account_set_password"),
        {"password1": "seven-of-diamonds-77", "password2": "seven-of-diamonds-77"},
    )
    assert response.status_code == 302, response.content[:500]


async def test_a_password_change_elsewhere_ends_the_old_sessions_socket_at_once(
    make_player, open_socket, known_decks, monkeypatch
):
    """A socket checks its session again only after BASRA_SESSION_RECHECK_SECONDS (the handshake
    checked it), but a password change through the site (which ends the user's other sessions)
    makes it check at once: the old session's socket becomes a spectator's, with no hand, and
    cannot play."""
    from games.core.sockets import table as table_socket

    checks = []
    real = table_socket.session_user_is

    def counted(scope, user):
        checks.append(user.username)
        return real(scope, user)

    monkeypatch.setattr(table_socket, "session_user_is", counted)
    alice, bob = await db(make_player)("alice"), await db(make_player)("bob")
    match = await db(seated_match)([alice.user, bob.user])  # known decks: seat 1 plays first
    a = await open_socket(table_path(match.pk), alice.cookie)
    b = await open_socket(table_path(match.pk), bob.cookie)
    view_a, view_b = await a.receive_json_from(), await b.receive_json_from()
    assert view_b["round"]["turn"] == 1 and view_b["you"] == 1
    view_b = await play_first_card(b, view_b)
    view_a = await a.receive_json_from()
    view_a = await play_first_card(a, view_a)  # the handshake checked the session just now
    view_b = await b.receive_json_from()
    view_b = await play_first_card(b, view_b)
    view_a = await a.receive_json_from()
    view_a = await play_first_card(a, view_a)  # within the window: not read again
    assert checks.count("alice") == 0 and view_a["type"] == "state"
    view_b = await b.receive_json_from()
    await db(set_password_elsewhere)(alice.user)
    # The old session ended: the page is told, and at once a spectator's socket, no hand.
    assert await a.receive_json_from() == {"type": "logged_out"}
    gone = await a.receive_json_from()
    assert gone["type"] == "state" and gone["you"] is None and gone["round"]["hand"] == []
    assert checks.count("alice") == 1
    view_b = await play_first_card(b, view_b)
    after = await a.receive_json_from()
    assert after["you"] is None and after["round"]["hand"] == []
    before = await log_size(match.pk)
    await a.send_json_to(
        {"type": "play", "card": view_a["round"]["hand"][0], "seq": after["seq"]}
    )
    await expect_error(a, "login_required")
    assert await log_size(match.pk) == before


def end_session_by_hand(cookie: str) -> None:
    """The session is removed from its store without the site's logout (expiry, an admin)."""
    import_module(settings.SESSION_ENGINE).SessionStore(session_key=cookie).delete()


@pytest.mark.parametrize("window, refused", [(0.0, True), (3600.0, False)])
async def test_a_session_ended_by_hand_is_seen_once_the_handshake_check_is_older_than_the_window(
    make_player, open_socket, known_decks, settings, window, refused
):
    """The handshake's session check is trusted for BASRA_SESSION_RECHECK_SECONDS: a session
    ended without the site's logout (no push reaches the socket) is found at the first action
    after that, which is refused with ``login_required`` and writes nothing; within the window
    the play goes through."""
    settings.BASRA_SESSION_RECHECK_SECONDS = window
    alice, bob = await db(make_player)("alice"), await db(make_player)("bob")
    match = await db(seated_match)([bob.user, alice.user])  # known decks: seat 1 plays first
    a = await open_socket(table_path(match.pk), alice.cookie)
    view = await a.receive_json_from()
    assert view["you"] == 1 and view["round"]["turn"] == 1
    await db(end_session_by_hand)(alice.cookie)
    before = await log_size(match.pk)
    await a.send_json_to({"type": "play", "card": view["round"]["hand"][0], "seq": view["seq"]})
    if refused:
        await expect_error(a, "login_required")
        assert await log_size(match.pk) == before
    else:
        after = await a.receive_json_from()
        assert after["type"] == "state" and after["seq"] > view["seq"]
        assert await log_size(match.pk) > before
