"""The table page gives the seat picker's side labels (static/games/table_sides.js), translated."""

import pytest
from django.test import Client
from django.urls import reverse

from games.core import actions

pytestmark = pytest.mark.django_db


def test_the_table_page_carries_the_side_labels_in_the_page_language(make_player):
    alice = make_player("alice")
    match = actions.create_table(user=alice.user, players=4, rules={}, rated=False)
    client = Client()
    client.force_login(alice.user)
    url = reverse("table", kwargs={"match_id": match.pk})
    english = client.get(url).context["config"]["labels"]
    assert (english["yourSeat"], english["partnerSeat"], english["opponentSeat"]) == (
        "Your seat", "Your partner's seat", "Opponents' seat")
    arabic = client.get(url, headers={"accept-language": "ar"}).context["config"]["labels"]
    assert arabic["partnerSeat"] == "مقعد شريكك"
    assert arabic["sideNumber"] == "الفريق %(number)s"
    assert 'games/table_sides.js' in client.get(url).content.decode()
