"""A tournament table's record names its event and round (RULES.md "Game record", ``event``),
through the core's ``games.core.signals.record_headers``."""

from __future__ import annotations

import pytest

from games.core import actions
from games.core.state import records
from games.tournaments import services
from tests.tournaments.helpers import enter, event, live_games, play_round, users

pytestmark = pytest.mark.django_db


def test_a_tournament_tables_record_names_the_event_and_round():
    people = users("p01", "p02", "p03", "p04")
    t = event(people[0], "round_robin")
    enter(t, people)
    services.start(user=people[0], tournament_id=t.pk)
    first = live_games(t)[0]
    assert records.match_record(first.match)["headers"]["event"] == "round_robin test, round 1"
    play_round(t)
    second = live_games(t)[0]
    assert records.match_record(second.match)["headers"]["event"] == "round_robin test, round 2"
    # A match of no event keeps the core's empty header.
    casual = actions.create_table(user=people[0], players=2, rules={}, rated=False)
    assert records.match_record(casual)["headers"]["event"] == ""


def test_an_arena_record_names_the_arena():
    people = users("a01", "a02")
    t = event(people[0], "arena", arena_minutes=30)
    enter(t, people)
    services.start(user=people[0], tournament_id=t.pk)
    game = live_games(t)[0]
    assert records.match_record(game.match)["headers"]["event"] == "arena test"
