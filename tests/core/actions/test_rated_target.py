"""Issue 35, item 5: a rated match to 11 points (one round; new players' ratings moved by about
68) was allowed. A rated table plays to at least ``RATED_TARGET_MIN`` (61) wherever a table is
made (``create_table``: the lobby, a challenge accepted, a rematch); a lower target is refused
with ``rated_target_too_low`` and nothing is made. The forms say so beside the target and refuse
it on that field. (Challenges and rematches: ``tests/core/actions/test_challenges.py``,
``test_rematch.py``; tournaments keep their organisers' targets:
``tests/tournaments/test_rated_targets.py``.)"""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from games.core import actions
from games.core.errors import GameError
from games.core.models import Event, Match, Seat
from tests.core.helpers import refused

pytestmark = pytest.mark.django_db

FORM = {
    "players": "2", "target": "41", "mode": "rated", "majority_points": "30",
    "basra_points": "10", "jack_basra_points": "20", "seven_diamonds": "wild", "move_seconds": "30",
}


def nothing_made() -> None:
    assert not Match.objects.exists() and not Seat.objects.exists() and not Event.objects.exists()


def test_a_rated_table_to_fewer_than_61_points_is_refused_and_nothing_is_made(make_player):
    alice, bob = make_player("alice").user, make_player("bob").user
    for target in (11, 41, 60):
        refused("rated_target_too_low", actions.create_table, user=alice, players=2,
                rules={"target": target}, rated=True)
        # Refused with everyone seated from the start too (a challenge accepted, a rematch).
        refused("rated_target_too_low", actions.create_table, user=alice, players=2,
                rules={"target": target}, rated=True, people={1: (bob, None)})
    nothing_made()
    with pytest.raises(GameError) as error:
        actions.create_table(user=alice, players=4, rules={"target": 41}, rated=True)
    assert "at least 61 points" in error.value.message
    nothing_made()


def test_a_rated_table_to_61_and_a_casual_one_to_11_are_made(make_player):
    alice = make_player("alice").user
    rated = actions.create_table(user=alice, players=2, rules={"target": 61}, rated=True)
    casual = actions.create_table(user=alice, players=4, rules={"target": 11}, rated=False)
    assert rated.rated and rated.rules["target"] == 61
    assert not casual.rated and casual.rules["target"] == 11


def test_an_app_that_keeps_its_own_targets_says_so(make_player):
    """``rated_target_min=None``: the keyword a tournament's tables are made with
    (``games.tournaments.tables.open_table``); the core names no app."""
    alice = make_player("alice").user
    match = actions.create_table(user=alice, players=2, rules={"target": 11}, rated=True,
                                 rated_target_min=None)
    assert match.rated and match.rules["target"] == 11


def test_the_lobby_form_refuses_a_rated_table_under_61_on_the_target(make_player):
    client = Client()
    client.force_login(make_player("alice").user)
    response = client.post(reverse("table_create"), FORM)
    assert response.status_code == 400
    assert response.context["form"].errors["target"] == [
        "A rated table plays to at least 61 points: choose a higher target, or a casual table."
    ]
    page = response.content.decode()
    assert page.count("A rated table plays to at least 61 points") == 1  # shown on the field
    nothing_made()
    # In Arabic too, and never a server error.
    client.cookies["django_language"] = "ar"
    response = client.post(reverse("table_create"), FORM)
    assert response.status_code == 400
    assert "الطاولة المصنّفة تُلعب حتى 61 نقطة على الأقل" in response.content.decode()
    nothing_made()
    # The same target at a casual table, or 61 at a rated one, is made.
    assert client.post(reverse("table_create"), FORM | {"mode": "casual"}).status_code == 302
    assert client.post(reverse("table_create"), FORM | {"target": "61"}).status_code == 302
    assert sorted(Match.objects.values_list("rated", "rules__target")) == [(False, 41), (True, 61)]


def test_the_computer_form_says_nothing_of_rated_targets(make_player):
    """"Play the computer" is never rated: its target's help is the range alone."""
    from games.core.pages.forms import CreateTableForm, PlayComputerForm

    assert "Rated tables play to at least 61." in str(CreateTableForm()["target"].help_text)
    assert "Rated" not in str(PlayComputerForm()["target"].help_text)


def test_the_rules_page_says_it(client):
    page = client.get(reverse("rules")).content.decode()
    assert "A rated table plays to at least 61 points" in page
