"""A tournament's table ending before every player played a card of the first deal: the
tournament's own rules stand (the core does not abort it), and it is not rated."""

from __future__ import annotations

import pytest

from games.core import actions
from games.ratings.models import RatedMatch
from games.ratings.rating import not_rated_reason
from games.tournaments import services
from tests.core.helpers import play_turn
from tests.tournaments.helpers import enter, event, live_games, refresh, users

pytestmark = pytest.mark.django_db


def test_a_resignation_after_one_play_keeps_the_tournament_result():
    org, a, b = users("org", "a", "b")
    t = event(org, "round_robin", rated=True)
    enter(t, [a, b])
    services.start(user=org, tournament_id=t.pk)
    (game,) = live_games(t)
    match = game.match
    assert match.rated and not match.early_abort
    play_turn(match)
    actions.resign(user=b, match_id=match.pk)
    match.refresh_from_db()
    game.refresh_from_db()
    assert match.result == "resign" and not game.aborted and game.winner.user == a
    assert not RatedMatch.objects.filter(match=match).exists()
    assert not_rated_reason(match) == "ended_early"
    services.catch_up(t.pk)
    assert refresh(t).status == "finished"
