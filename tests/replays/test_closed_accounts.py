"""A closed account (``accounts.closing``) in the latest replays: its match stays listed, its
name shown as "Closed account" (``Seat.display_name``)."""

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from accounts.closing import close_account
from tests.core.helpers import seated_match

pytestmark = pytest.mark.django_db


def test_the_latest_replays_show_closed_account():
    ali, badr = (get_user_model().objects.create_user(username=n, password=None) for n in ("ali", "badr"))
    seated_match([ali, badr])
    close_account(ali, by=ali, reason="owner")
    html = Client().get("/replays/").content.decode()
    assert "Closed account" in html and "badr" in html and ">ali<" not in html
