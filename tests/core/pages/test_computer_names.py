"""A computer seat's name on the pages off the table (the lobby, the replays list, the replay
page, the profile's recent matches, the match history and head-to-head) is the table's own
(``static/games/table/kit.js`` ``botName``): its level, "Greedy", or, where the table has several
computer seats, its level and number in seat order, "Greedy 1", "Greedy 2", in the reader's
language (``games.core.models.bot_display_name``). A game record keeps ``bot:<level>``."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from games.core import actions
from games.core.models import Match, bot_display_name, record_seat_names, seat_display_names

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("language, alone, second", [
    ("en", "Greedy", "Greedy 2"), ("ar", "طمّاع", "طمّاع 2"), ("fr", "Avide", "Avide 2"),
])
def test_a_computer_is_named_by_its_level_numbered_among_several(language, alone, second):
    with translation.override(language):
        assert bot_display_name("greedy") == alone
        assert bot_display_name("greedy", 2) == second
        names = seat_display_names([
            {"seat": 0, "username": "alice", "bot": None},
            {"seat": 1, "username": None, "bot": "greedy"},
            {"seat": 3, "username": None, "bot": "greedy"},
        ])
        assert names == {0: "alice", 1: bot_display_name("greedy", 1), 3: second}


def test_a_records_seats_are_named_as_the_table_names_them():
    assert record_seat_names(["alice", "bot:strong"]) == ["alice", "Strong"]
    assert record_seat_names(["alice", "bot:random", "bot:greedy", "bot:random"]) == [
        "alice", "Random 1", "Greedy 2", "Random 3"]


@pytest.fixture
def finished(alice, make_user):
    """``(two, four)``: alice against the greedy computer, and alice with a computer against bob
    with another (four seats, two computers), both resigned by alice at once."""
    bob = make_user("bob")
    two = actions.create_table(user=alice, players=2, rules={}, rated=False, bots={1: "greedy"})
    four = actions.create_table(user=alice, players=4, rules={}, rated=False,
                                bots={1: "greedy", 2: "random"})
    actions.join_table(user=bob, match_id=four.pk, seat=3)
    for match in (two, four):
        actions.resign(user=alice, match_id=match.pk)
        match.refresh_from_db()
        assert match.status == Match.Status.FINISHED
    return two, four


def test_every_page_names_a_computer_as_the_table_does(finished, alice):
    two, four = finished
    pages = {
        "profile": reverse("profile", args=["alice"]),
        "history": reverse("match_history", args=["alice"]),
        "head to head": reverse("head_to_head", args=["alice", "bob"]),
        "replays": reverse("replays:recent"),
        "replay": reverse("replays:match", args=[four.pk]),
    }
    for name, url in pages.items():
        html = Client().get(url).content.decode()
        assert "Computer" not in html.replace("Computer player", ""), name
        assert "Greedy 1" in html and "Random 2" in html, name
    for name in ("profile", "history", "replays"):
        html = Client().get(pages[name]).content.decode()
        assert ">Greedy<" in html or ">Greedy</bdi>" in html, name
    with translation.override("fr"):
        html = Client(headers={"accept-language": "fr"}).get(pages["replays"]).content.decode()
    assert "Avide 1" in html and "Hasard 2" in html
    record = json.loads(Client().get(reverse("match_record", args=[four.pk])).content)
    assert record["seats"] == ["alice", "bot:greedy", "bot:random", "bob"]
