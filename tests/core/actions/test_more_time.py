"""More time for the seat to move at a casual table (games/core/actions/more_time.py; WCAG 2.2
"Timing Adjustable"), through the action and over the socket. Time is injected (``now``)."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from channels.db import database_sync_to_async

from games.core import actions
from games.core.models import Event, Match
from tests.core.helpers import expect_error, refused, seated_match, table_path
from tests.core.helpers import play_human, snapshot, turn_of


@pytest.fixture
def pair(make_player):
    return [make_player(name).user for name in ("alice", "bob")]


def casual(users, **kwargs) -> Match:
    """A casual two-player table with 30 s per play (the default), started; seat 1 to move."""
    match = seated_match(users, **kwargs)
    assert match.move_seconds == 30 and turn_of(match) == 1
    return match


@pytest.mark.django_db
def test_the_player_to_move_gets_one_more_time_per_play(pair, known_decks):
    match = casual(pair)
    deadline = match.deadline
    now = deadline - timedelta(seconds=5)
    granted = actions.ask_more_time(user=pair[1], match_id=match.pk, now=now)
    match.refresh_from_db()
    assert granted == match.deadline == deadline + timedelta(seconds=30)
    event = Event.objects.filter(match=match).order_by("-seq").first()
    assert (event.kind, event.seat, event.payload) == ("more_time", 1, {"seconds": 30})
    # Asked again at once (a double click): 35 s left, more than one time per play.
    before = snapshot(match)
    refused("more_time_not_yet", actions.ask_more_time, user=pair[1], match_id=match.pk, now=now)
    assert snapshot(match) == before
    # Once less than 30 s is left, again (and again: WCAG asks for at least ten).
    for _ in range(10):
        now = match.deadline - timedelta(seconds=29)
        actions.ask_more_time(user=pair[1], match_id=match.pk, now=now)
        match.refresh_from_db()
        assert match.deadline == now + timedelta(seconds=59)
    # The play that follows is made as usual, and the next seat has its plain time per play.
    play_human(match, pair[1])
    match.refresh_from_db()
    assert turn_of(match) == 0


@pytest.mark.django_db
def test_refusals_change_nothing(pair, make_player, known_decks):
    match = casual(pair)
    stranger = make_player("carol").user
    before = snapshot(match)
    now = match.deadline - timedelta(seconds=10)
    refused("not_your_turn", actions.ask_more_time, user=pair[0], match_id=match.pk, now=now)
    refused("not_seated", actions.ask_more_time, user=stranger, match_id=match.pk, now=now)
    refused("timed_out", actions.ask_more_time, user=pair[1], match_id=match.pk,
            now=match.deadline + timedelta(seconds=1))
    assert snapshot(match) == before


@pytest.mark.django_db
@pytest.mark.parametrize("rated", [True, False])
def test_a_rated_table_or_one_without_a_clock_gives_no_more_time(pair, known_decks, rated):
    # Rated: the default clock, kept as it is; casual: no clock at all.
    match = actions.create_table(user=pair[0], players=2, rules={}, rated=rated,
                                 **({} if rated else {"move_seconds": None}))
    actions.join_table(user=pair[1], match_id=match.pk)
    match.refresh_from_db()
    seat_users = {s.seat: s.user for s in match.seats.select_related("user")}
    mover = seat_users[turn_of(match)]
    before = snapshot(match)
    refused("more_time_not_allowed", actions.ask_more_time, user=mover, match_id=match.pk)
    assert snapshot(match) == before


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_more_time_over_the_socket(make_player, open_socket, known_decks):
    db = database_sync_to_async
    alice, bob = await db(make_player)("alice"), await db(make_player)("bob")
    match = await db(seated_match)([alice.user, bob.user])
    a = await open_socket(table_path(match.pk), alice.cookie)
    b = await open_socket(table_path(match.pk), bob.cookie)
    first = await a.receive_json_from()
    await b.receive_json_from()
    await a.send_json_to({"type": "more_time"})  # alice is not to move
    await expect_error(a, "not_your_turn")
    await b.send_json_to({"type": "more_time"})
    mine, theirs = await b.receive_json_from(), await a.receive_json_from()
    for state in (mine, theirs):
        assert state["prev_seq"] == first["seq"] and state["seq"] == first["seq"] + 1
        later = datetime.fromisoformat(state["deadline"]) - datetime.fromisoformat(first["deadline"])
        assert later == timedelta(seconds=30)
    await b.send_json_to({"type": "more_time"})
    await expect_error(b, "more_time_not_yet")
