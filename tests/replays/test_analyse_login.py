"""The replay's "Analyse" as a visitor who is not logged in sees it: a log-in link back to the
replay, never the button that would be refused (asking for an analysis needs an account)."""

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from games.core import actions
from tests.core.helpers import seated_match

pytestmark = pytest.mark.django_db


def test_a_visitor_gets_a_log_in_link_and_a_player_the_button():
    ali, badr = (get_user_model().objects.create_user(username=n, password=None) for n in ("ali", "badr"))
    match = seated_match([ali, badr])
    actions.resign(user=ali, match_id=match.pk)
    url = reverse("replays:match", args=[match.pk])
    html = Client().get(url).content.decode()
    assert f'href="{reverse("account_login")}?next=/match/{match.pk}/replay/"' in html
    assert "Log in to analyse this match" in html and '<button type="button" class="button primary" id="analyse"' not in html
    client = Client()
    client.force_login(badr)
    html = client.get(url).content.decode()
    assert '<button type="button" class="button primary" id="analyse"' in html
    assert "Log in to analyse this match" not in html
