"""Who reads and writes a table's chat (games/chat/services.py, docs/protocol.md "Chat"): only
those the table lets watch; the players' room after the match read by the seats and logged-in
spectators, written by the seats only; the same rule for the history and the live lines."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.cache import cache

from games.chat import services
from games.chat.errors import ChatError
from games.core.for_apps import Match, abort_match
from games.core.sockets import table_frames
from tests.chat.helpers import finished, say
from tests.core.helpers import seated_match

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _no_flood_left():
    yield
    cache.delete_many([f"chat-rate:{n}" for n in range(1, 200)])


def texts(user, match, seat=None) -> list[str]:
    return [line["text"] for line in services.history(user=user, match_id=match.pk, seat=seat)]


def sent(monkeypatch, django_capture_on_commit_callbacks, do) -> dict:
    """The ``table.app`` event that ``do()`` broadcasts."""
    events = []
    monkeypatch.setattr(table_frames.broadcast, "send_group", lambda group, event: events.append(event))
    with django_capture_on_commit_callbacks(execute=True):
        do()
    [event] = events
    return event


def test_after_the_match_outsiders_and_visitors(players4, monkeypatch, django_capture_on_commit_callbacks):
    alice, bob, carol = (p.user for p in players4[:3])
    match = seated_match([alice, bob])
    say(alice, match, "secret plan")
    abort_match(user=alice, match_id=match.pk)
    assert texts(AnonymousUser(), match) == []
    assert texts(None, match) == []
    assert texts(carol, match) == ["secret plan"]  # a logged-in spectator the table lets watch
    with pytest.raises(ChatError) as info:
        say(carol, match, "hi", room="player", seat=None)
    assert info.value.code == "chat_not_allowed"
    event = sent(monkeypatch, django_capture_on_commit_callbacks, lambda: say(bob, match, "gg", seat=1))
    assert not table_frames.reaches(event, None, None)  # an anonymous socket
    assert table_frames.reaches(event, None, carol.pk) and table_frames.reaches(event, 0, alice.pk)
    event = sent(
        monkeypatch, django_capture_on_commit_callbacks,
        lambda: say(carol, match, "well played", room="spectator", seat=None),
    )
    assert table_frames.reaches(event, None, None)
    assert texts(None, match) == ["well played"]


def test_a_table_nobody_may_watch_keeps_its_chat_to_its_seats(
    players4, monkeypatch, django_capture_on_commit_callbacks
):
    alice, bob, carol = (p.user for p in players4[:3])
    match = seated_match([alice, bob])
    Match.objects.filter(pk=match.pk).update(watchers=Match.Watchers.NOBODY)
    say(alice, match, "hello")
    assert texts(carol, match) == [] and texts(None, match) == []
    abort_match(user=alice, match_id=match.pk)
    assert texts(carol, match) == [] and texts(None, match) == []
    with pytest.raises(ChatError):
        say(carol, match, "hi", room="spectator", seat=None)
    assert texts(bob, match, seat=1) == ["hello"]
    for room in ("player", "spectator"):
        event = sent(
            monkeypatch, django_capture_on_commit_callbacks,
            lambda room=room: say(bob, match, "bye", room=room, seat=1),
        )
        assert not table_frames.reaches(event, None, carol.pk) and not table_frames.reaches(event, None, None)
        assert table_frames.reaches(event, 0, alice.pk)


def test_a_table_for_registered_watchers_keeps_visitors_out(players4):
    alice, bob, carol = (p.user for p in players4[:3])
    match = finished([alice, bob])
    Match.objects.filter(pk=match.pk).update(watchers=Match.Watchers.REGISTERED)
    say(carol, match, "nice", room="spectator", seat=None)
    assert texts(None, match) == [] and texts(carol, match) == ["nice"]


@pytest.mark.parametrize("code", ["chat_timeout", "chat_banned"])
def test_the_history_tells_a_sanctioned_reader_their_sanction(players4, monkeypatch, code):
    from games.chat import frames

    alice, bob = (p.user for p in players4[:2])
    match = seated_match([alice, bob])
    monkeypatch.setattr(frames, "chat_refusal", lambda user: code if user == alice else None)
    [answer] = frames.on_history(user=alice, match_id=match.pk, seat=0, message={})
    assert answer["sanction"] == code
    [answer] = frames.on_history(user=bob, match_id=match.pk, seat=1, message={})
    assert answer["sanction"] is None
