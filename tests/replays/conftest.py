"""Fixtures of the replays tests: a database of matches played through the live core's actions."""

from __future__ import annotations

import random

import pytest

from games.core import actions
from games.core.models import Match
from tests.games.helpers import play_out, play_turn, seated_match, users_by_seat


@pytest.fixture
def users(make_player):
    return [make_player(name).user for name in ("alice", "bob", "carol", "dave")]


def random_choice(seed: int):
    rng = random.Random(seed)
    return lambda hand: rng.choice(sorted(hand))


@pytest.fixture
def played(users) -> list[Match]:
    """Matches played through ``games.core.actions`` and finished every way: two players to the
    default target 101 (several rounds), four players to 31, a resignation in round 1, an abort
    before the first play, and one still being played."""
    full = seated_match(users[:2])
    play_out(full)
    four = seated_match(users[:4], rules={"target": 31})
    play_out(four)
    resigned = seated_match(users[:2], rules={"target": 31})
    choose = random_choice(3)
    for _ in range(20):
        play_turn(resigned, choose)
    actions.resign(user=users_by_seat(resigned)[1], match_id=resigned.pk)
    aborted = seated_match(users[2:4])
    actions.abort_match(user=users[2], match_id=aborted.pk)
    playing = seated_match(users[:2])
    play_turn(playing)
    matches = [full, four, resigned, aborted, playing]
    for match in matches:
        match.refresh_from_db()
    return matches
