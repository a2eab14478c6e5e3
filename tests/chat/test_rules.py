"""The chat's rules (games/chat/services.py, docs/protocol.md "Chat"): who writes in which room,
the table of four, the setting, sanctions, the limits, bad input; each refusal stores nothing."""

from __future__ import annotations

import pytest
from django.core.cache import cache

from games.chat import services
from games.chat.errors import ChatError
from games.chat.models import ChatLine
from games.core.for_apps import GameError
from games.people import services as people
from tests.chat.helpers import finished, say
from tests.core.helpers import seated_match

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _no_flood_left():
    """Each test's players start with a fresh flood window (the cache outlives a test)."""
    yield
    cache.delete_many([f"chat-rate:{n}" for n in range(1, 200)])


def refused(code: str, user, match, text="hello", **kwargs) -> None:
    before = ChatLine.objects.count()
    with pytest.raises((ChatError, GameError)) as info:
        say(user, match, text, **kwargs)
    assert info.value.code == code and info.value.message
    assert ChatLine.objects.count() == before


def test_a_seat_says_a_line_to_the_players_room(players4):
    alice, bob = players4[0].user, players4[1].user
    match = seated_match([alice, bob])
    line = say(alice, match, "  good   luck  ")
    assert line["text"] == "good luck" and line["room"] == "player" and line["username"] == "alice"
    assert line["report"].endswith(f"?match={match.pk}&line={line['id']}") and "alice" in line["report"]
    row = ChatLine.objects.get()
    assert (row.match_id, row.user_id, row.room, row.text) == (match.pk, alice.pk, "player", "good luck")


def test_rooms_while_the_match_runs(players4):
    alice, bob, carol = (p.user for p in players4[:3])
    match = seated_match([alice, bob])
    refused("chat_not_allowed", alice, match, room="spectator")
    refused("chat_not_allowed", carol, match, room="player", seat=None)
    assert say(carol, match, "go alice", room="spectator", seat=None)["room"] == "spectator"


def test_no_free_chat_between_seats_at_a_running_table_of_four(players4):
    match = seated_match([p.user for p in players4])
    for seat, player in enumerate(players4):
        refused("chat_not_allowed", player.user, match, seat=seat)


def test_after_the_match_everyone_at_the_table_talks_in_both_rooms(players4):
    users = [p.user for p in players4]
    match = finished(users)
    assert say(users[0], match, "gg")["room"] == "player"
    assert say(users[1], match, "gg all", room="spectator", seat=1)["room"] == "spectator"


def test_a_player_turns_their_chat_off(players4):
    alice, bob = players4[0].user, players4[1].user
    match = seated_match([alice, bob])
    say(bob, match, "hi", seat=1)
    services.set_enabled(alice, False)
    refused("chat_off", alice, match)
    assert services.history(user=alice, match_id=match.pk, seat=0) == []
    services.set_enabled(alice, True)
    assert [l["text"] for l in services.history(user=alice, match_id=match.pk, seat=0)] == ["hi"]


@pytest.mark.parametrize("code", ["chat_timeout", "chat_banned"])
def test_a_moderator_s_sanction_refuses_lines(players4, monkeypatch, code):
    monkeypatch.setattr(services, "chat_refusal", lambda user: code)
    match = seated_match([players4[0].user, players4[1].user])
    refused(code, players4[0].user, match)


def test_ten_thousand_characters_are_too_long_and_140_fit(players4):
    alice, bob = players4[0].user, players4[1].user
    match = seated_match([alice, bob])
    refused("chat_too_long", alice, match, text="x" * 10_000)
    refused("chat_too_long", alice, match, text="x" * 141)
    assert len(say(alice, match, "x" * 140)["text"]) == 140


def test_a_flood_is_refused_after_five_lines_in_ten_seconds(players4):
    alice, bob = players4[0].user, players4[1].user
    match = seated_match([alice, bob])
    for n in range(services.RATE_LINES):
        say(alice, match, f"line {n}")
    refused("chat_rate_limited", alice, match)
    assert ChatLine.objects.count() == services.RATE_LINES


def test_markup_nul_and_bidi_overrides_are_stored_as_plain_text(players4):
    alice, bob = players4[0].user, players4[1].user
    match = seated_match([alice, bob])
    assert say(alice, match, "<b>hi</b>\x00\u202e<script>x</script>")["text"] == "<b>hi</b><script>x</script>"
    refused("bad_message", alice, match, text="\x00\u202e \n")
    refused("bad_message", alice, match, text=None)
    refused("bad_message", alice, match, room="everyone")


def test_listed_words_are_masked_when_stored(players4):
    match = seated_match([players4[0].user, players4[1].user])
    assert say(players4[0].user, match, "you bastard")["text"] == "you *******"
    assert ChatLine.objects.get().text == "you *******"


def test_no_table_and_no_login(players4, django_user_model):
    from django.contrib.auth.models import AnonymousUser

    match = seated_match([players4[0].user, players4[1].user])
    refused("login_required", AnonymousUser(), match)
    match.pk = 999999
    refused("not_found", players4[0].user, match)


def test_a_blocker_never_reads_the_blocked_player_s_lines(players4):
    alice, bob = players4[0].user, players4[1].user
    match = finished([alice, bob])
    say(alice, match, "from alice")
    say(bob, match, "from bob", seat=1)
    people.block(user=bob, username="alice")
    assert [l["text"] for l in services.history(user=bob, match_id=match.pk, seat=1)] == ["from bob"]
    assert [l["text"] for l in services.history(user=alice, match_id=match.pk, seat=0)] == ["from alice", "from bob"]
    assert [l["text"] for l in services.replay_lines(match.pk, bob)] == ["from bob"]


def test_history_gives_each_reader_the_rooms_they_may_read(players4):
    alice, bob, carol = (p.user for p in players4[:3])
    match = seated_match([alice, bob])
    say(alice, match, "players")
    say(carol, match, "spectators", room="spectator", seat=None)
    assert [l["text"] for l in services.history(user=bob, match_id=match.pk, seat=1)] == ["players"]
    assert [l["text"] for l in services.history(user=carol, match_id=match.pk, seat=None)] == ["spectators"]
    from games.core.for_apps import abort_match

    abort_match(user=alice, match_id=match.pk)
    assert len(services.history(user=carol, match_id=match.pk, seat=None)) == 2


def test_the_moderators_read_a_player_s_lines(players4):
    # Through the readers the chat registered with the moderation app (its games/moderation/chat.py).
    from games.moderation import chat as registered

    alice, bob = players4[0].user, players4[1].user
    match = seated_match([alice, bob])
    first, second = say(alice, match, "one"), say(alice, match, "two")
    lines = registered.lines_by(alice.pk, 10)
    assert [l["text"] for l in lines] == ["two", "one"]
    assert set(lines[0]) == {"id", "user_id", "match_id", "room", "text", "original", "created"}
    say(alice, match, "you b4stard")
    assert registered.lines_by(alice.pk, 1)[0] | {"created": None, "id": None} == {
        "id": None, "user_id": alice.pk, "match_id": match.pk, "room": "player",
        "text": "you *******", "original": "you b4stard", "created": None,
    }
    assert registered.line(first["id"])["match_id"] == match.pk and registered.line(10**9) is None
    assert second["id"] != first["id"]


def test_the_people_app_answers_the_chat_kind(players4):
    from games.core.for_apps import relations

    alice, bob = players4[0].user, players4[1].user
    people.block(user=bob, username="alice")
    assert relations.barriers("chat", [alice.pk], [bob.pk]) == {(alice.pk, bob.pk): relations.SILENT}
    assert relations.barriers("chat", [bob.pk], [alice.pk]) == {}
