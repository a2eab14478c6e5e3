"""A match ended by a decision away from the table (``games.core.actions.end_by_decision``: a
tournament forfeit or withdrawal): through ``finish`` and ``match_finished`` like every ending,
refused for a match not being played, and the end of the table for its sockets."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from django.db import connection

from games.core import actions
from games.core.errors import GameError
from games.core.models import Event, Match
from games.core.signals import match_finished
from games.core.state import reads
from games.core.state.records import match_record
from tests.core.helpers import expect_error, play_turn, seated_match, table_path, users_by_seat

db = database_sync_to_async


@pytest.fixture
def users(make_player):
    return [make_player(name).user for name in ("alice", "bob")]


@pytest.fixture
def received():
    calls = []

    def receiver(sender, match, winner, result, **kwargs):
        calls.append((match.pk, winner, result, connection.in_atomic_block,
                      Match.objects.get(pk=match.pk).status))

    match_finished.connect(receiver)
    yield calls
    match_finished.disconnect(receiver)


def refused(code: str, **kwargs) -> None:
    """``end_by_decision(**kwargs)`` fails with ``code`` and writes nothing."""
    match_id = kwargs["match_id"]
    before = Match.objects.filter(pk=match_id).values_list("seq", "status", "result").first()
    with pytest.raises(GameError) as error:
        actions.end_by_decision(**kwargs)
    assert error.value.code == code and error.value.message
    assert Match.objects.filter(pk=match_id).values_list("seq", "status", "result").first() == before


@pytest.mark.django_db
def test_a_decision_ends_the_match_through_finish(users, received):
    match = seated_match(users, rules={"target": 61})
    play_turn(match)
    match.refresh_from_db()
    seq = actions.end_by_decision(match_id=match.pk, winner=1)
    match.refresh_from_db()
    assert (match.status, match.result, match.winner_side) == ("finished", "decided", 1)
    assert match.seq == seq and match.finished_at is not None and match.deadline is None
    last = Event.objects.filter(match=match).order_by("-seq").first()
    assert last.kind == Event.Kind.MATCH_END and last.payload["reason"] == "decided"
    assert last.payload["winner"] == 1
    # match_finished, once, inside the transaction, with the row already finished.
    assert received == [(match.pk, 1, "decided", True, "finished")]
    # Nobody can play, claim or resign at the table any more.
    seat_users = users_by_seat(match)
    with pytest.raises(GameError) as error:
        play_turn(match)
    assert error.value.code == "match_over"
    with pytest.raises(GameError) as error:
        actions.claim_win(user=seat_users[1], match_id=match.pk)
    assert error.value.code == "match_over"
    with pytest.raises(GameError) as error:
        actions.resign(user=seat_users[0], match_id=match.pk)
    assert error.value.code == "match_over"
    # Everyone's state says the match is over, decided, with side 1 the winner.
    state = reads.table_state(match_id=match.pk, user=None)
    assert state["result"]["reason"] == "decided" and state["result"]["winner"] == 1
    # The record says so (RULES.md's termination "decided"), not that a side resigned.
    headers = match_record(match)["headers"]
    assert (headers["termination"], headers["winner"]) == ("decided", 1)


@pytest.mark.django_db
def test_a_decision_that_nobody_won(users):
    match = seated_match(users)
    actions.end_by_decision(match_id=match.pk, winner=None)
    match.refresh_from_db()
    assert (match.status, match.result, match.winner_side) == ("finished", "decided", None)
    headers = match_record(match)["headers"]
    assert (headers["termination"], headers["winner"]) == ("decided", None)


@pytest.mark.django_db
def test_a_decision_is_refused_unless_the_match_is_being_played(users, received):
    waiting = actions.create_table(user=users[0], players=2, rules={}, rated=False)
    refused("not_started", match_id=waiting.pk, winner=0)
    match = seated_match(users)
    actions.resign(user=users[1], match_id=match.pk)
    received.clear()
    refused("match_over", match_id=match.pk, winner=1)
    match.refresh_from_db()
    assert (match.result, match.winner_side) == ("resign", 0)
    refused("not_found", match_id=match.pk + 1000, winner=0)
    playing = seated_match(users)
    for bad in (2, -1, "0"):
        refused("bad_winner", match_id=playing.pk, winner=bad)
    assert received == []


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_the_sockets_get_the_final_state(make_player, open_socket, known_decks):
    alice, bob = [await db(make_player)(n) for n in ("alice", "bob")]
    match = await db(seated_match)([alice.user, bob.user])
    a = await open_socket(table_path(match.pk), alice.cookie)
    watcher = await open_socket(table_path(match.pk))
    for comm in (a, watcher):
        await comm.receive_json_from()
    await db(actions.end_by_decision)(match_id=match.pk, winner=0)
    for comm in (a, watcher):
        over = await comm.receive_json_from()
        assert over["type"] == "state" and over["match"]["status"] == "finished"
        assert over["result"] == {"winner": 0, "scores": [0, 0], "reason": "decided"}
    await a.send_json_to({"type": "claim"})
    await expect_error(a, "match_over")
