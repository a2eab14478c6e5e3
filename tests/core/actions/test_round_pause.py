"""The pause after a round ends (``BASRA_ROUND_PAUSE_SECONDS``, games/core/actions/play.py
``apply_play`` through ``funnel.Change.set_deadline``): the next round's first play has its clock
start only after it, so that the score can be read; every other play's clock starts at once.
Time is injected (the services' ``now``), never a sleep.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.core import actions
from games.core.clock import clock
from games.core.models import Event, Match
from games.core.state import reads
from tests.core.helpers import seated_match, users_by_seat

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _long_grace(settings):
    settings.BASRA_ABSENT_GRACE_SECONDS = 10_000
    settings.BASRA_CLOCK_OUTAGE_SECONDS = 10**9


@pytest.fixture
def users(make_player):
    return [make_player(name).user for name in ("alice", "bob")]


def play_to_round_end(match: Match, now) -> None:
    """Play the first card of each hand, at ``now``, until the first round is over."""
    seat_users = users_by_seat(match)
    while True:
        match.refresh_from_db()
        public = reads.table_state(match_id=match.pk, user=None)
        if public["round_results"]:
            return
        user = seat_users[public["round"]["turn"]]
        mine = reads.table_state(match_id=match.pk, user=user)
        actions.play_card(user=user, match_id=match.pk, card=mine["round"]["hand"][0],
                          seq=mine["seq"], now=now)


def test_the_first_play_of_a_new_round_waits_the_pause(users, known_decks, settings):
    settings.BASRA_ROUND_PAUSE_SECONDS = 7
    match = seated_match(users, rules={"target": 500})
    now = timezone.now()
    # An ordinary play: the next seat's clock starts at once.
    seat_users = users_by_seat(match)
    public = reads.table_state(match_id=match.pk, user=None)
    mover = seat_users[public["round"]["turn"]]
    mine = reads.table_state(match_id=match.pk, user=mover)
    actions.play_card(user=mover, match_id=match.pk, card=mine["round"]["hand"][0],
                      seq=mine["seq"], now=now)
    match.refresh_from_db()
    assert match.deadline == now + timedelta(seconds=match.move_seconds)
    # The round's last play deals the next round: its clock starts 7 s later.
    play_to_round_end(match, now)
    match.refresh_from_db()
    assert Event.objects.filter(match=match, kind="deal").count() == 2
    assert match.deadline == now + timedelta(seconds=7 + match.move_seconds)
    # So the clock does not play for the seat when only the time per play has passed.
    assert clock.tick(now=now + timedelta(seconds=match.move_seconds + 1)) == 0
    assert match.seq == Match.objects.get(pk=match.pk).seq


def test_a_computer_seat_waits_the_pause_too(make_player, known_decks, settings):
    settings.BASRA_ROUND_PAUSE_SECONDS = 6
    settings.BASRA_BOT_DELAY_SECONDS = (1.0, 1.0)
    user = make_player("alice").user
    match = actions.create_table(
        user=user, players=2, rules={"target": 500}, rated=False, bots={1: "greedy"}
    )
    now = timezone.now()
    for _ in range(200):
        match.refresh_from_db()
        public = reads.table_state(match_id=match.pk, user=None)
        if public["round_results"]:
            break
        if public["round"]["turn"] == 0:
            mine = reads.table_state(match_id=match.pk, user=user)
            actions.play_card(user=user, match_id=match.pk, card=mine["round"]["hand"][0],
                              seq=mine["seq"], now=now)
        else:
            actions.bot_play(match_id=match.pk, seat=1, now=now)
    match.refresh_from_db()
    public = reads.table_state(match_id=match.pk, user=None)
    assert public["round"]["number"] == 2 and public["round"]["last_play"] is None
    if public["round"]["turn"] == 1:
        assert match.deadline == now + timedelta(seconds=6 + 1.0)
    else:
        assert match.deadline == now + timedelta(seconds=6 + match.move_seconds)
