"""A closed account (``accounts.closing``) in a player's recent matches: the match stays, its
name shown as "Closed account" with no link to a profile (games/core/pages/profile.py
``person``, games/core/models.py ``Seat.display_name``)."""

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from accounts.closing import close_account
from games.core.models import Match
from tests.core.helpers import seated_match

pytestmark = pytest.mark.django_db


def test_the_opponents_profile_shows_closed_account():
    from django.test import Client

    ali, badr = (get_user_model().objects.create_user(username=n, password=None) for n in ("ali", "badr"))
    match = seated_match([ali, badr])
    close_account(ali, by=ali, reason="owner")  # resigns the match: badr's side wins
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.seats.filter(user=ali).exists()
    html = Client().get(reverse("profile", args=["badr"])).content.decode()
    assert "Closed account" in html and "/players/ali/" not in html
    assert [s.display_name for s in match.seats.order_by("seat") if s.user_id == ali.pk] == ["Closed account"]


def test_the_closing_page_names_the_table_it_resigns_or_leaves():
    from django.test import Client

    from games.core import actions

    ali, badr, cala = (get_user_model().objects.create_user(username=n, password=None)
                       for n in ("ali", "badr", "cala"))
    match = seated_match([ali, badr])
    client = Client()
    client.force_login(ali)
    html = client.get(reverse("account_close")).content.decode()
    assert "You are playing a match" in html and f'href="/table/{match.pk}/"' in html
    waiting = actions.create_table(user=cala, players=2, rules={}, rated=False)
    client.force_login(cala)
    html = client.get(reverse("account_close")).content.decode()
    assert "a table waiting for players" in html and f'href="/table/{waiting.pk}/"' in html
    client.force_login(badr)
    actions.resign(user=badr, match_id=match.pk)
    assert 'data-closing="table"' not in client.get(reverse("account_close")).content.decode()


def test_the_table_page_and_its_state_name_a_closed_account(django_capture_on_commit_callbacks):
    """The table page of an old match, read once while it was played (its seating kept per
    process) and again after one player closed their account: "Closed account", no username."""
    from django.test import Client

    ali, badr = (get_user_model().objects.create_user(username=n, password=None) for n in ("ali", "badr"))
    match = seated_match([ali, badr])
    url = reverse("table", args=[match.pk])
    before = Client().get(url).context["config"]["state"]["seats"]
    assert [s["username"] for s in before] == ["ali", "badr"]
    with django_capture_on_commit_callbacks(execute=True):
        close_account(ali, by=ali, reason="owner")
    response = Client().get(url)
    seats = response.context["config"]["state"]["seats"]
    assert [(s["username"], s["closed"]) for s in seats] == [(None, True), ("badr", False)]
    assert '"ali"' not in response.content.decode()


def test_the_lobby_lists_name_a_closed_account():
    """A match still played (the computer playing a closed account's seat, as after a
    takeover) in the lobby's lists: the seat reads "Closed account", with no username."""
    from games.core.state import lobby

    ali, badr = (get_user_model().objects.create_user(username=n, password=None) for n in ("ali", "badr"))
    match = seated_match([ali, badr])
    match.seats.filter(user=ali).update(bot="greedy", absent=True)
    get_user_model().objects.filter(pk=ali.pk).update(is_active=False)
    for rows in (lobby.live_matches(None), lobby.your_matches(badr)):
        seat = next(row for row in rows if row["id"] == match.pk)["seats"][0]
        assert (seat["username"], seat["closed"], seat["name"]) == (None, True, "Closed account")
