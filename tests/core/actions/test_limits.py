"""Limits on what one person may open: at most ``MAX_OPEN_TABLES`` tables waiting for players,
and ``MAX_TABLES`` unfinished tables of every kind (computer tables included)."""

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse

from games.core import actions
from games.core import for_apps
from games.core.errors import MAX_TABLES, GameError
from games.core.models import Match

pytestmark = [pytest.mark.django_db, pytest.mark.live]

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


def computer_table(user):
    return actions.create_table(user=user, players=2, rules=RULES, rated=False,
                                bots={1: "greedy"})


def test_computer_tables_count_against_the_cap_of_unfinished_tables(alice, bob):
    for _ in range(MAX_TABLES):
        assert computer_table(alice).status == Match.Status.PLAYING
    with pytest.raises(GameError) as error:
        computer_table(alice)
    assert error.value.code == "too_many_tables"
    assert f"{MAX_TABLES} unfinished tables" in error.value.message
    # Nor may alice sit at somebody else's table, nor be seated by a challenge.
    waiting = open_table(bob)
    with pytest.raises(GameError, match="unfinished tables"):
        actions.join_table(user=alice, match_id=waiting.pk)
    with pytest.raises(GameError, match="unfinished tables"):
        actions.create_table(user=bob, players=2, rules=RULES, rated=False,
                             people={1: (alice, None)})
    assert Match.objects.filter(seats__user=alice).count() == MAX_TABLES


def test_a_finished_table_or_a_seat_lost_to_absence_frees_a_place(alice, bob):
    tables = [computer_table(alice) for _ in range(MAX_TABLES)]
    actions.resign(user=alice, match_id=tables[0].pk)
    computer_table(alice)
    from games.core.models import Seat

    Seat.objects.filter(match=tables[1], user=alice).update(absent=True)
    computer_table(alice)


def test_a_tournament_table_is_opened_whatever_the_cap(alice, bob):
    for _ in range(MAX_TABLES):
        computer_table(alice)
    # What the apps are given (games.core.for_apps) seats the event's players regardless.
    match = for_apps.create_table(user=alice, players=2, rules=RULES, rated=False)
    for_apps.join_table(user=bob, match_id=match.pk)
    match.refresh_from_db()
    assert match.status == Match.Status.PLAYING
