"""The seat picker's side labels (static/games/table/sides.js) reach the table page translated,
through the JavaScript catalogue."""

import pytest
from django.test import Client
from django.urls import reverse

from games.core import actions
from tests.site.catalogue import script_label, served_catalogue

pytestmark = pytest.mark.django_db


def test_the_table_page_carries_the_side_labels_in_the_page_language(make_player):
    alice = make_player("alice")
    match = actions.create_table(user=alice.user, players=4, rules={}, rated=False)
    client = Client()
    client.force_login(alice.user)
    url = reverse("table", kwargs={"match_id": match.pk})
    labels = "static/games/table/labels.js"
    english = {key: script_label(labels, key) for key in ("yourSeat", "partnerSeat", "opponentSeat")}
    assert (english["yourSeat"], english["partnerSeat"], english["opponentSeat"]) == (
        "Your seat", "Your partner's seat", "Opponents' seat")
    arabic = served_catalogue("ar")  # what /jsi18n/ gives the page's scripts
    assert arabic[english["partnerSeat"]] == "مقعد شريكك"
    assert arabic[script_label(labels, "sideNumber")] == "الفريق %(number)s"
    assert 'games/table/main.js' in client.get(url).content.decode()  # which imports sides.js
