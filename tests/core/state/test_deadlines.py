"""News of a new deadline for the clock of this process (games/core/state/deadlines.py): the
funnel tells it after the commit of each change that sets a deadline, and only then."""

from __future__ import annotations

import asyncio

import pytest

from games.core import actions
from games.core.state import deadlines
from tests.core.helpers import play_human, refused, turn_of, users_by_seat


@pytest.fixture
def told(monkeypatch) -> list[bool]:
    """One entry per :func:`deadlines.deadline_set` call the funnel makes."""
    calls = []
    monkeypatch.setattr(deadlines, "deadline_set", lambda: calls.append(True))
    return calls


@pytest.mark.django_db
def test_a_change_that_sets_a_deadline_tells_after_its_commit(
    make_player, told, django_capture_on_commit_callbacks
):
    users = [make_player(name).user for name in ("alice", "bob")]
    with django_capture_on_commit_callbacks(execute=True):
        match = actions.create_table(user=users[0], players=2, rules={}, rated=False)
    assert told == []  # an open table: no clock runs yet
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        actions.join_table(user=users[1], match_id=match.pk)
    assert told == []  # not before the commit
    for callback in callbacks:
        callback()
    assert told == [True]  # the start: the first seat's time runs
    mover = users_by_seat(match)[turn_of(match)]
    with django_capture_on_commit_callbacks(execute=True):
        play_human(match, mover)
    assert told == [True, True]  # the next seat's time


@pytest.mark.django_db
def test_a_refused_play_and_an_untimed_table_tell_nothing(
    make_player, told, django_capture_on_commit_callbacks
):
    users = [make_player(name).user for name in ("alice", "bob")]
    with django_capture_on_commit_callbacks(execute=True):
        match = actions.create_table(user=users[0], players=2, rules={}, rated=False,
                                     move_seconds=None)
        actions.join_table(user=users[1], match_id=match.pk)
        seats = users_by_seat(match)
        waiting = seats[1 - turn_of(match)]
        match.refresh_from_db()
        refused("not_your_turn", actions.play_card, user=waiting, match_id=match.pk,
                card="AS", seq=match.seq)
        play_human(match, seats[turn_of(match)])
    assert told == []


@pytest.mark.asyncio
async def test_every_listening_clock_is_woken_until_it_stops_listening():
    first, second = asyncio.Event(), asyncio.Event()
    stop_first = deadlines.listen(first)
    stop_second = deadlines.listen(second)
    try:
        await asyncio.to_thread(deadlines.deadline_set)  # from another thread, as after a commit
        await asyncio.wait_for(asyncio.gather(first.wait(), second.wait()), 30)  # a hang's bound
        first.clear()
        second.clear()
        stop_first()
        deadlines.deadline_set()
        await asyncio.wait_for(second.wait(), 30)
        # Set by the same turn of the loop as ``second``, had it still been listening.
        assert not first.is_set()
    finally:
        stop_first()
        stop_second()
