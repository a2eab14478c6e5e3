"""The core's one question about two people (games/core/relations.py), at each place it is
asked: a challenge, a rematch, a quick phrase, seeing someone online, and the queues' pairing.
An app's answer (here a stand-in, tests/core/helpers_relations.py) decides; ``SILENT`` looks
to the actor like a player who does not answer and reaches nobody; ``REFUSED`` is said."""

from __future__ import annotations

from datetime import timedelta

import pytest
import pytest_asyncio
from channels.db import database_sync_to_async
from django.core.cache import cache
from django.utils import timezone

from games.core import actions, relations
from games.core.models import Challenge, Match, Online, Rematch
from games.core.state import broadcast, notices, online
from tests.core.helpers import refused, seated_match, synced, table_path
from tests.core.helpers_relations import answering

pytestmark = [pytest.mark.django_db]


@pytest.fixture
def answers():
    with answering() as a:
        yield a


def challenge(user, username):
    return actions.create_challenge(user=user, username=username, rules={"target": 61}, rated=False,
                                    move_seconds=20)


def test_no_answerer_bars_nothing_and_an_unknown_kind_is_an_error():
    with answering():
        relations.answer_with(None)
        assert relations.barriers("challenge", {1}, {2}) == {}
        with pytest.raises(ValueError):
            relations.barriers("hug", {1}, {2})


def test_a_silent_challenge_waits_unseen_by_the_one_who_blocked(make_player, sent, answers,
                                                              django_capture_on_commit_callbacks):
    alice, bob = make_player("alice").user, make_player("bob").user
    answers.barred[("challenge", alice.pk, bob.pk)] = relations.SILENT
    with django_capture_on_commit_callbacks(execute=True):
        made = challenge(alice, "bob")
    # To alice, as any challenge waiting for an answer; nothing reaches bob.
    assert made.status == Challenge.Status.PENDING
    assert [(uid, kind) for uid, kind, _p in sent] == [(alice.pk, "challenge_sent")]
    assert notices.pending(bob) == []
    assert [n["kind"] for n in notices.pending(alice)] == ["challenge_sent"]
    # Her cancel reaches her pages only.
    sent.clear()
    with django_capture_on_commit_callbacks(execute=True):
        actions.cancel_challenge(user=alice, challenge_id=made.pk)
    assert [(uid, kind) for uid, kind, _p in sent] == [(alice.pk, "challenge_answer")]
    assert answers.asked[0] == ("challenge", frozenset({alice.pk}), frozenset({bob.pk}))


def test_an_open_challenge_reaches_the_other(make_player, sent, answers, django_capture_on_commit_callbacks):
    alice, bob = make_player("alice").user, make_player("bob").user
    answers.barred[("challenge", bob.pk, alice.pk)] = relations.SILENT  # the other way: no matter
    with django_capture_on_commit_callbacks(execute=True):
        challenge(alice, "bob")
    assert [(uid, kind) for uid, kind, _p in sent] == [(bob.pk, "challenge"), (alice.pk, "challenge_sent")]


def test_a_refused_challenge_is_said_and_nothing_is_made(make_player, sent, answers):
    alice, bob = make_player("alice").user, make_player("bob").user
    answers.barred[("challenge", alice.pk, bob.pk)] = relations.REFUSED
    refused("challenge_not_accepted", challenge, user=alice, username="bob")
    assert Challenge.objects.count() == 0 and sent == []


@pytest.fixture
def news(monkeypatch):
    out: list = []
    monkeypatch.setattr(
        broadcast, "send_table_news",
        lambda match_id, message, hidden_from=(): out.append((match_id, message, list(hidden_from))),
    )
    return out


def test_a_silent_rematch_is_not_recorded_and_is_hidden_from_the_one_who_blocked(
    make_player, news, answers, django_capture_on_commit_callbacks
):
    alice, bob = make_player("alice").user, make_player("bob").user
    old = seated_match([alice, bob])
    actions.resign(user=bob, match_id=old.pk)
    answers.barred[("rematch", bob.pk, alice.pk)] = relations.SILENT
    with django_capture_on_commit_callbacks(execute=True):
        assert actions.ask_rematch(user=bob, match_id=old.pk) is None
    # bob's page shows his ask, as when the other does not answer; alice's sockets are not sent it.
    assert news == [(old.pk, {"type": "rematch", "accepted": [1], "waiting": [0], "gone": False, "url": None},
                     [alice.pk])]
    # Not recorded: alice's own ask does not start a table with him.
    with django_capture_on_commit_callbacks(execute=True):
        assert actions.ask_rematch(user=alice, match_id=old.pk) is None
    assert Rematch.objects.get(match=old).accepted == [0]
    assert Match.objects.count() == 1


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_phrase_does_not_reach_a_seated_player_who_blocked_the_sender(make_player, open_socket,
                                                                               settings):
    settings.BASRA_PHRASE_SECONDS = 0
    cache.clear()
    db = database_sync_to_async
    alice, bob = await db(make_player)("alice"), await db(make_player)("bob")
    match = await db(seated_match)([alice.user, bob.user])
    with answering() as answers:
        answers.barred[("phrase", bob.user.pk, alice.user.pk)] = relations.SILENT
        a = await open_socket(table_path(match.pk), alice.cookie)
        b = await open_socket(table_path(match.pk), bob.cookie)
        w = await open_socket(table_path(match.pk))
        for comm in (a, b, w):
            assert (await comm.receive_json_from())["type"] == "state"
        await b.send_json_to({"type": "phrase", "id": "good_luck"})
        for comm in (b, w):
            assert await comm.receive_json_from() == {"type": "phrase", "seat": 1, "id": "good_luck"}
        # alice's next frame is the answer to her sync, not bob's phrase (sent before it).
        await b.send_json_to({"type": "sync"})
        await b.receive_json_from()
        await synced(a)
        await a.send_json_to({"type": "phrase", "id": "hello"})  # the other way is open
        for comm in (a, b, w):
            assert await comm.receive_json_from() == {"type": "phrase", "seat": 0, "id": "hello"}


def test_who_is_online_asks_who_may_see_them(make_player, answers):
    alice, bob, carol = (make_player(n).user for n in ("alice", "bob", "carol"))
    now = timezone.now()
    Online.objects.create(user=bob, process="p1", seen_at=now)
    Online.objects.create(user=carol, process="p2", seen_at=now - online.stale_after() - timedelta(seconds=1))
    assert online.online_among(alice.pk, {bob.pk, carol.pk}, now) == {bob.pk}
    answers.barred[("see_online", alice.pk, bob.pk)] = relations.SILENT
    assert online.online_among(alice.pk, {bob.pk, carol.pk}, now) == set()
    assert online.online_among(None, {bob.pk}, now) == {bob.pk}
