"""How a match ended, worded once (``games.core.pages.endings``, published as
``for_apps.match_ending``): every ending for either side, and the profile's recent matches and
the ratings' match history saying the same of one match."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest
from django.contrib.auth import get_user_model

from games.core.for_apps import match_ending, match_score
from games.core.models import Match, Seat
from games.core.pages.profile import recent_matches
from games.ratings.history import rows, seats_of

R = Match.Result


def match(result, winner_side, *, players=2, status=Match.Status.FINISHED, scores=()):
    return Match(result=result, winner_side=winner_side, players=players, status=status,
                 scores=list(scores))


# (result, winner side, players) → (outcome, text) for side 0.
ENDINGS = [
    (R.TARGET, 0, 2, ("won", "Won")),
    (R.TARGET, 1, 2, ("lost", "Lost")),
    (R.CLAIM, 0, 2, ("won", "Won on a claim (the opponent left)")),
    (R.CLAIM, 1, 2, ("lost", "Lost on a claim (away from the table)")),
    (R.RESIGN, 0, 2, ("won", "Won: the opponent resigned")),
    (R.RESIGN, 0, 4, ("won", "Won: the opponents resigned")),
    (R.RESIGN, 1, 4, ("lost", "Lost: resigned")),
    (R.ABORT, None, 2, ("aborted", "Aborted")),
    (R.DECIDED, None, 2, ("aborted", "Decided away from the table (a forfeit or a withdrawal)")),
    (R.DECIDED, 0, 2, ("won", "Won: decided away from the table (a forfeit or a withdrawal)")),
    (R.DECIDED, 1, 2, ("lost", "Lost: decided away from the table (a forfeit or a withdrawal)")),
    (R.ABANDONED, None, 2, ("aborted", "Abandoned: no person was left to play it")),
]


@pytest.mark.parametrize(("result", "winner", "players", "expected"), ENDINGS)
def test_every_ending_is_worded_for_each_side(result, winner, players, expected):
    assert match_ending(match(result, winner, players=players), 0) == expected


def test_the_list_covers_every_ending_reason():
    assert {result for result, *_rest in ENDINGS} == set(R)


def test_a_match_not_finished_is_being_played():
    assert match_ending(match("", None, status=Match.Status.PLAYING), 1) == ("playing", "Playing")


def test_the_score_is_left_out_when_it_would_mislead():
    assert match_score(match(R.TARGET, 0, scores=[126, 87]), 1) == "87–126"
    assert match_score(match(R.RESIGN, 1, scores=[0, 0]), 0) == ""
    assert match_score(match(R.TARGET, 0, scores=[0, 0]), 0) == "0–0"
    assert match_score(match("", None, status=Match.Status.PLAYING, scores=[30, 44]), 0) == "30–44"
    assert match_score(match("", None, status=Match.Status.PLAYING), 0) == ""


@pytest.mark.django_db
@pytest.mark.parametrize("result", [R.ABANDONED, R.DECIDED, R.ABORT, R.RESIGN, R.CLAIM])
def test_the_profile_and_the_history_word_a_match_alike(result):
    """The profile said "Unfinished" of an abandoned match the history called abandoned."""
    users = [get_user_model().objects.create_user(username=name, password=None)
             for name in ("amira", "karim")]
    when = datetime(2026, 3, 1, 20, 0, tzinfo=timezone.utc)
    won = result in (R.RESIGN, R.CLAIM)
    played = Match.objects.create(
        created_by=users[0], players=2, status=Match.Status.FINISHED, result=result,
        winner_side=1 if won else None, scores=[0, 0], started_at=when, finished_at=when,
    )
    for number, user in enumerate(users):
        Seat.objects.create(match=played, seat=number, user=user)
    [recent] = recent_matches(users[0])
    [row] = rows(seats_of(users[0]), users[0])
    assert (recent.result, recent.score) == (row.result, row.score)
    assert (recent.outcome, recent.result) == match_ending(played, 0)
