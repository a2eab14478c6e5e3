"""An account the moderators closed says so: on its profile (not "This player closed their
account"), and to its owner trying to log in (not "username and/or password not correct")."""

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from accounts.closing import close_account

pytestmark = pytest.mark.django_db


@pytest.fixture
def moderator(db):
    return get_user_model().objects.create_user(username="modo", email="modo@example.com", is_staff=True)


def test_the_profile_of_an_account_the_moderators_closed_says_so(client, player, moderator):
    close_account(player, by=moderator, reason="engine use")
    response = client.get(reverse("profile", args=["amira"]))
    html = response.content.decode()
    assert response.status_code == 410
    assert "This account was closed by the moderators for breaking the site's rules." in html.replace("&#x27;", "'")
    assert "closed their account" not in html and "engine use" not in html


def test_the_owner_s_own_closing_still_says_they_closed_it(client, player):
    close_account(player, by=player, reason="owner")
    html = client.get(reverse("profile", args=["amira"])).content.decode()
    assert "This player closed their account." in html and "moderators" not in html.split("<main>")[1]


@pytest.mark.parametrize("login", ["amira", "AMIRA"])
def test_the_owner_of_an_account_the_moderators_closed_is_told_at_log_in(player, password, moderator, login):
    close_account(player, by=moderator, reason="engine use")
    response = Client().post(reverse("account_login"), {"login": login, "password": password})
    html = response.content.decode().replace("&#x27;", "'")
    assert response.status_code == 200 and "_auth_user_id" not in response.wsgi_request.session
    assert "This account was closed by the moderators for breaking the site's rules" in html
    assert "not correct" not in html


def test_an_account_its_owner_closed_is_told_closed_at_log_in(player, password):
    close_account(player, by=player, reason="owner")
    html = Client().post(reverse("account_login"), {"login": "amira", "password": "whatever"}).content.decode()
    assert "This account is closed" in html and "not correct" not in html


def test_an_e_mail_log_in_tells_nothing_of_a_closed_account(player, password, moderator):
    """No address is confirmed as registered (allauth's enumeration prevention)."""
    close_account(player, by=moderator, reason="engine use")
    html = Client().post(reverse("account_login"), {"login": "amira@example.com", "password": password}).content.decode()
    assert "not correct" in html and "closed by the moderators" not in html


def test_a_wrong_name_is_still_not_correct(db):
    html = Client().post(reverse("account_login"), {"login": "nobody", "password": "x" * 12}).content.decode()
    assert "not correct" in html
