"""Challenges and plays through the Bot and Board APIs: the core's writes, its codes, nothing
changed by a refusal."""

from __future__ import annotations

import pytest

from games.api.models import BotAccount
from games.core.for_apps import Challenge, Match
from tests.api.helpers import account, call, error_code
from tests.core.helpers import hand_of, seated_match, snapshot, turn_of, users_by_seat

pytestmark = pytest.mark.django_db


def bot(name: str):
    user, token = account(name)
    BotAccount.objects.create(user=user)
    return user, token


def test_challenge_ai_starts_a_match_against_the_computer():
    user, token = account("alice", "challenge:write")
    answer = call("post", "/api/challenge/ai", token, {"level": "random", "target": "11", "players": "2"})
    assert answer.status_code == 200
    game = answer.json()["game"]
    assert set(game) == {"id", "seat", "players", "rated", "isMyTurn"}
    match = Match.objects.get(pk=game["id"])
    assert match.status == Match.Status.PLAYING and match.rules["target"] == 11 and not match.rated
    assert match.seats.filter(user=user).count() == 1 and match.seats.filter(bot="random").count() == 1


def test_challenge_ai_at_four_seats_three_computers():
    _user, token = account("alice", "bot:play")
    game = call("post", "/api/challenge/ai", token, {"level": "greedy", "players": "4"}).json()["game"]
    assert Match.objects.get(pk=game["id"]).seats.filter(bot="greedy").count() == 3


@pytest.mark.parametrize("form, code", [
    ({"level": "godlike"}, "bad_level"),
    ({"players": "3"}, "bad_players"),
    ({"target": "5"}, "bad_target"),
    ({"target": "x"}, "bad_target"),
    ({"move_seconds": "7"}, "bad_clock"),
])
def test_challenge_ai_refusals_change_nothing(form, code):
    _user, token = account("alice")
    answer = call("post", "/api/challenge/ai", token, form)
    assert answer.status_code == 400 and error_code(answer) == code
    assert not Match.objects.exists()


def test_a_challenge_accepted_seats_both():
    alice, a_token = account("alice", "challenge:write")
    _robot, r_token = bot("robot")
    sent = call("post", "/api/challenge/robot", a_token, {"target": "61", "move_seconds": "30", "rated": "false"})
    assert sent.status_code == 200, sent.content
    c = sent.json()["challenge"]
    assert c["status"] == "created" and c["direction"] == "out" and c["destUser"]["title"] == "BOT"
    assert c["challenger"]["username"] == "alice" and c["target"] == 61 and c["move_seconds"] == 30
    assert call("post", f"/api/challenge/{c['id']}/accept", r_token).json() == {"ok": True}
    match = Challenge.objects.get(pk=c["id"]).match
    assert match.status == Match.Status.PLAYING
    assert error_code(call("post", f"/api/challenge/{c['id']}/accept", r_token)) == "challenge_answered"


def test_decline_and_cancel_and_the_reserved_name():
    _alice, a_token = account("alice", "challenge:write")
    _bob, b_token = account("bob", "challenge:write")
    c = call("post", "/api/challenge/bob", a_token).json()["challenge"]
    assert error_code(call("post", f"/api/challenge/{c['id']}/decline", b_token, {"reason": "nope"})) == "bad_request"
    assert call("post", f"/api/challenge/{c['id']}/decline", b_token, {"reason": "later"}).json() == {"ok": True}
    assert Challenge.objects.get(pk=c["id"]).status == Challenge.Status.DECLINED
    c = call("post", "/api/challenge/bob", a_token).json()["challenge"]
    assert error_code(call("post", f"/api/challenge/{c['id']}/cancel", b_token)) == "challenge_not_sender"
    assert call("post", f"/api/challenge/{c['id']}/cancel", a_token).json() == {"ok": True}
    assert call("post", "/api/challenge/nobody", a_token).status_code == 404
    assert error_code(call("post", "/api/challenge/ai", a_token, {"level": "x"})) == "bad_level"


def _bot_match():
    """A casual match between person alice (seat 0) and the bot robot (seat 1)."""
    alice, a_token = account("alice", "board:play")
    robot, r_token = bot("robot")
    match = seated_match([alice, robot], rules={"target": 11})
    return match, (alice, a_token), (robot, r_token)


def _path(family, match, card, seq=None):
    suffix = "" if seq is None else f"?seq={seq}"
    return f"/api/{family}/game/{match.pk}/play/{card}{suffix}"


def test_plays_through_both_apis_and_their_refusals():
    match, (alice, a_token), (robot, r_token) = _bot_match()
    seats = {0: ("board", alice, a_token), 1: ("bot", robot, r_token)}
    mover = turn_of(match)
    waiting = 1 - mover
    family, user, token = seats[mover]
    o_family, other, o_token = seats[waiting]

    # Out of turn, a stale seq, a card not held, a bad card: refused, nothing changed.
    before = snapshot(match)
    o_card = hand_of(match, other)[0]
    assert error_code(call("post", _path(o_family, match, o_card), o_token)) == "not_your_turn"
    card = hand_of(match, user)[0]
    stale = call("post", _path(family, match, card, seq=match.seq - 1), token)
    assert stale.status_code == 409 and error_code(stale) == "stale"
    assert error_code(call("post", _path(family, match, o_card), token)) == "card_not_in_hand"
    assert error_code(call("post", _path(family, match, "ZZ"), token)) == "bad_card"
    assert snapshot(match) == before

    # The play, then the same play again: stale, once.
    seq = match.seq
    assert call("post", _path(family, match, card, seq=seq), token).json() == {"ok": True}
    again = call("post", _path(family, match, card, seq=seq), token)
    assert error_code(again) == "stale"
    match.refresh_from_db()
    assert match.seq > seq and card not in hand_of(match, user)

    # Without seq: the table's current one.
    o_card = hand_of(match, other)[0]
    assert call("post", _path(o_family, match, o_card), o_token).json() == {"ok": True}


def test_each_api_for_its_kind_of_account_and_a_match_one_is_not_in():
    match, (alice, a_token), (robot, r_token) = _bot_match()
    before = snapshot(match)
    assert error_code(call("post", _path("bot", match, "AS"), a_token)) in ("not_bot", "missing_scope")
    assert error_code(call("post", _path("board", match, "AS"), r_token)) == "bot_account"
    _carol, c_token = account("carol", "board:play")
    assert error_code(call("post", _path("board", match, "AS"), c_token)) == "not_seated"
    assert error_code(call("post", f"/api/board/game/{match.pk}/resign", c_token)) == "not_seated"
    assert call("post", "/api/board/game/999999/play/AS", a_token).status_code == 404
    assert snapshot(match) == before


def test_resign_ends_the_match_and_later_plays_are_match_over():
    match, (alice, a_token), _robot = _bot_match()
    assert call("post", f"/api/board/game/{match.pk}/resign", a_token).json() == {"ok": True}
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.result == "resign"
    assert error_code(call("post", _path("board", match, "AS"), a_token)) == "match_over"


@pytest.mark.django_db(transaction=True)  # an async view reads the token on another connection
def test_chat_takes_free_text_and_the_table_s_phrases():
    from games.chat.models import ChatLine

    match, (alice, a_token), _robot = _bot_match()
    path = f"/api/board/game/{match.pk}/chat"
    assert call("post", path, a_token, {"room": "player", "text": "hello <b>"}).json() == {"ok": True}
    assert list(ChatLine.objects.values_list("room", "text")) == [("player", "hello <b>")]
    assert error_code(call("post", path, a_token, {"room": "spectator", "text": "hi"})) == "chat_not_allowed"
    assert error_code(call("post", path, a_token, {"room": "player", "text": "x" * 141})) == "chat_too_long"
    assert call("post", path, a_token, {"room": "player", "text": "good_luck"}).json() == {"ok": True}
    assert error_code(call("post", path, a_token, {"room": "player", "text": "good_luck"})) == "phrase_too_soon"
    assert ChatLine.objects.count() == 1
    for n in range(4):
        assert call("post", path, a_token, {"room": "player", "text": f"line {n}"}).status_code == 200
    flood = call("post", path, a_token, {"room": "player", "text": "one too many"})
    assert flood.status_code == 429 and error_code(flood) == "chat_rate_limited"
    assert flood["Retry-After"] == "10"  # games.chat.services.RATE_SECONDS: the window's length
    assert ChatLine.objects.count() == 5
    _carol, c_token = account("carol", "board:play")
    assert error_code(call("post", path, c_token, {"room": "player", "text": "hi"})) == "not_seated"


def test_follows_and_blocks_through_the_people_app():
    _alice, token = account("alice", "follow:read", "follow:write")
    account("bob")
    assert call("post", "/api/rel/follow/bob", token).json() == {"ok": True}
    lines = call("get", "/api/rel/following", token).content.decode().splitlines()
    assert [l for l in lines if l] == ['{"username":"bob","title":null,"rating":null}']
    assert call("post", "/api/rel/unfollow/bob", token).json() == {"ok": True}
    assert call("get", "/api/rel/following", token).content == b""
    assert call("post", "/api/rel/block/bob", token).json() == {"ok": True}
    assert call("post", "/api/rel/unblock/bob", token).json() == {"ok": True}
    assert call("post", "/api/rel/follow/nobody", token).status_code == 404
    _c, read_only = account("carol", "follow:read")
    assert error_code(call("post", "/api/rel/follow/bob", read_only)) == "missing_scope"


def test_a_bot_has_a_table_cap_of_its_own(monkeypatch):
    from games.api import api as api_module

    monkeypatch.setattr(api_module, "BOT_MAX_TABLES", 2)
    _robot, token = bot("robot")
    for _ in range(2):
        assert call("post", "/api/challenge/ai", token, {"target": "11"}).status_code == 200
    over = call("post", "/api/challenge/ai", token, {"target": "11"})
    assert error_code(over) == "too_many_tables"
    assert Match.objects.count() == 2
