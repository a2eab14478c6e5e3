"""A tournament's table waits for a player who has not come yet (``games.core.actions.play``,
``_wait_for``): the event opens it wherever its players are, so the clock plays nothing for a
person who never opened it while the wait for players (the absence grace, 60 s, which the
no-show rule waits too) runs; their time starts when that wait ends. Someone who came, a table
past the wait and a table people sat at themselves keep the move clock as it was."""

from __future__ import annotations

from datetime import timedelta

import pytest

from games.core import actions
from games.core.models import Event, Match
from games.core.state import reads
from games.tournaments import services
from tests.core.helpers import seated_match, users_by_seat
from tests.tournaments.helpers import enter, event, live_games, users

pytestmark = pytest.mark.django_db

GRACE = 60


@pytest.fixture(autouse=True)
def _grace(settings):
    settings.BASRA_ABSENT_GRACE_SECONDS = GRACE


def event_table() -> Match:
    """The table of a round robin of two, just opened, with a time per play."""
    org, p, q = users("org", "p", "q")
    t = event(org, "round_robin", move_seconds=20)
    enter(t, [p, q])
    services.start(user=org, tournament_id=t.pk)
    (game,) = live_games(t)
    match = game.match
    match.refresh_from_db()
    assert match.move_seconds == 20 and match.deadline == match.started_at + timedelta(seconds=20)
    return match


def timeouts(match: Match) -> int:
    return Event.objects.filter(match=match, kind=Event.Kind.PLAY, payload__timeout=True).count()


def test_the_clock_waits_for_a_player_who_has_not_come_and_their_time_starts_with_the_wait_s_end():
    match = event_table()
    start, seq = match.started_at, match.seq
    turn = reads.seat_to_move(match)
    late = start + timedelta(seconds=21)
    assert actions.act_on_deadline(match_id=match.pk, now=late)
    match.refresh_from_db()
    assert timeouts(match) == 0 and match.seq == seq
    assert match.deadline == start + timedelta(seconds=GRACE + 20)
    # The same tick again changes nothing: the deadline is not yet due.
    assert not actions.act_on_deadline(match_id=match.pk, now=late)
    # The player comes 40 s after the start and has their whole time per play, and more.
    person = users_by_seat(match)[turn]
    actions.player_connected(match_id=match.pk, user=person, now=start + timedelta(seconds=40))
    hand = reads.table_state(match_id=match.pk, user=person)["round"]["hand"]
    actions.play_card(user=person, match_id=match.pk, card=hand[0], seq=seq)
    match.refresh_from_db()
    assert match.seq > seq and timeouts(match) == 0


def test_a_player_who_came_is_played_for_when_their_time_runs_out():
    match = event_table()
    turn = reads.seat_to_move(match)
    actions.player_seen(match_id=match.pk, user=users_by_seat(match)[turn],
                        now=match.started_at + timedelta(seconds=1))
    assert actions.act_on_deadline(match_id=match.pk, now=match.started_at + timedelta(seconds=21))
    assert timeouts(match) == 1


def test_after_the_wait_the_clock_plays_for_a_player_who_never_came():
    match = event_table()
    past = match.started_at + timedelta(seconds=GRACE)
    assert actions.act_on_deadline(match_id=match.pk, now=past)
    assert timeouts(match) == 1


def test_a_table_people_sat_at_themselves_keeps_the_move_clock():
    match = seated_match(users("a", "b"))
    # As if nobody had had its page open since (sitting down counts as being seen).
    match.seats.update(last_seen=None)
    assert actions.act_on_deadline(match_id=match.pk, now=match.deadline + timedelta(seconds=1))
    assert timeouts(match) == 1
