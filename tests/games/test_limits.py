"""Limits on what one person may open: at most ``MAX_OPEN_TABLES`` tables waiting for players."""

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse

from games.core import actions
from games.core.errors import GameError
from games.core.models import Match

pytestmark = pytest.mark.django_db

RULES = {"players": 2, "target": 101}


@pytest.fixture
def alice(django_user_model):
    return django_user_model.objects.create_user(username="alice", password="pw-Basra-123")


@pytest.fixture
def bob(django_user_model):
    return django_user_model.objects.create_user(username="bob", password="pw-Basra-123")


def open_table(user, **kwargs):
    return actions.create_table(user=user, players=2, rules=RULES, rated=False, **kwargs)


def test_create_table_refuses_a_fourth_open_table(alice):
    for _ in range(3):
        open_table(alice)
    with pytest.raises(GameError) as error:
        open_table(alice)
    assert error.value.code == "too_many_open_tables"
    assert "3 tables" in error.value.message
    assert Match.objects.filter(created_by=alice).count() == 3


def test_started_tables_do_not_count(alice, bob):
    first = open_table(alice)
    actions.join_table(user=bob, match_id=first.id)  # starts: no longer open
    for _ in range(3):
        open_table(alice)
    assert Match.objects.filter(created_by=alice, status=Match.Status.OPEN).count() == 3


def test_leaving_an_open_table_frees_a_place(alice, bob):
    tables = [actions.create_table(user=alice, players=4, rules={"players": 4}, rated=False)
              for _ in range(3)]
    actions.join_table(user=bob, match_id=tables[0].id)
    actions.leave_table(user=alice, match_id=tables[0].id)
    open_table(alice)
    assert Match.objects.filter(created_by=alice).count() == 4


def test_other_people_are_not_limited_by_alice(alice, bob):
    for _ in range(3):
        open_table(alice)
    open_table(bob)


def test_the_lobby_form_shows_the_error(alice, client):
    for _ in range(3):
        open_table(alice)
    client.force_login(alice)
    data = {"players": "2", "target": "101", "mode": "casual", "majority_points": "30",
            "basra_points": "10", "jack_basra_points": "20", "seven_diamonds": "wild",
            "move_seconds": "30"}
    response = client.post(reverse("table_create"), data, follow=True)
    assert response.redirect_chain[-1][0] == reverse("lobby")
    assert [str(m) for m in get_messages(response.wsgi_request)] == [
        "You already sit at 3 tables waiting for players: start or leave one of them before "
        "opening another."
    ]
    assert Match.objects.filter(created_by=alice).count() == 3
