"""Issue 35, item 5: a rated table plays to at least 61 points wherever a player makes one, but
a tournament's tables keep the target their organiser chose (``tables.open_table`` makes them
with ``rated_target_min=None``), and the event's form neither says nor checks the players'
least target."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.tournaments import services
from games.tournaments.models import Tournament
from tests.tournaments.helpers import client_for, enter, event, form_data, live_games, users

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("players", [2, 4])
def test_a_rated_event_to_11_points_still_gets_its_tables(players):
    org, *people = users("org", "a", "b", "c", "d")
    t = event(org, "round_robin", players=players, rated=True)  # the helpers' target: 11
    enter(t, people[:players])
    services.start(user=org, tournament_id=t.pk)
    (game,) = live_games(t)
    assert game.match.rated and game.match.rules["target"] == 11
    assert game.match.seats.count() == players


def test_the_event_form_takes_a_rated_target_under_61():
    (org,) = users("org")
    client = client_for(org)
    page = client.get(reverse("tournament_create")).content.decode()
    assert "Rated tables play to at least" not in page
    response = client.post(reverse("tournament_create"), form_data(mode="rated", target="21"))
    assert response.status_code == 302
    t = Tournament.objects.get()
    assert t.rated and t.rules["target"] == 21
