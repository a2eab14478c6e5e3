"""The "How to play" page: RULES.md's examples drawn as cards, linked from the navigation and
the lobby, in English and Arabic."""

import re

import pytest
from django.urls import reverse

from games.core.pages.rules_page import EXAMPLES, example_rows

#: RULES.md, "Examples (default rules)": floor, played -> (taken, basra).
RULES_MD = {
    ("5H KS 5C", "5D"): ("5H 5C", None),
    ("5S 4H 2D 7C", "9S"): ("5S 4H 2D 7C", "basra"),
    ("3S 2H AD 4C 6H", "6S"): ("3S 2H AD 6H", None),
    ("AS 2H 3C 3D 4S 5H", "6C"): ("AS 2H 3C 3D 4S 5H", "basra"),
    ("10C 5D 4S AH", "10H"): ("10C 5D 4S AH", "basra"),
    ("QS KH 9D", "8C"): ("", None),
    ("QS QH 2D", "QC"): ("QS QH", None),
    ("QS 5H 9C", "JD"): ("QS 5H 9C", None),
    ("JS", "JD"): ("JS", "jack_basra"),
    ("", "7D"): ("", None),
    ("3C 4D", "7D"): ("3C 4D", "basra"),
    ("5C KD", "7D"): ("5C KD", None),
    ("7D", "4S"): ("7D", "basra"),
}


def test_the_examples_are_rules_md_s_and_the_engine_agrees():
    assert [(e.floor, e.played) for e in EXAMPLES] == list(RULES_MD)
    for example, row in zip(EXAMPLES, example_rows()):
        taken, basra = RULES_MD[(example.floor, example.played)]
        assert " ".join(card["code"] for card in row["taken"]) == taken
        assert row["basra"] == basra
        assert row["stays"] == (taken == "")


@pytest.mark.django_db
def test_the_page_draws_every_example_as_cards(client):
    response = client.get(reverse("rules"))
    assert response.status_code == 200
    html = response.content.decode()
    examples = html.split('class="rules-example"')[1:]
    assert len(examples) == len(RULES_MD)
    first = examples[0]
    # The floor 5H KS 5C, the 5D played, the 5H and 5C taken: the table page's card markup.
    assert re.findall(r'data-card="(\w+)"', first) == ["5H", "KS", "5C", "5D", "5H", "5C"]
    assert 'class="card suit-H red small" data-card="5H" title="five of hearts"' in first
    assert 'class="card suit-S court small" data-card="KS"' in first
    assert "Jack basra!" in examples[8] and "Basra!" in examples[1]
    assert "Nothing: the card stays on the floor." in examples[5]
    assert "games/games.css" in html


@pytest.mark.django_db
def test_the_navigation_and_the_lobby_link_to_it(client):
    url = reverse("rules")
    lobby = client.get(reverse("lobby")).content.decode()
    assert f'<a href="{url}">How to play</a>' in lobby
    assert f'href="{url}" id="lobby-rules"' in lobby
    page = client.get(url).content.decode()
    assert f'<a href="{url}" aria-current="page">How to play</a>' in page


@pytest.mark.django_db
def test_the_page_in_arabic(client):
    html = client.get(reverse("rules"), HTTP_ACCEPT_LANGUAGE="ar").content.decode()
    assert '<html lang="ar" dir="rtl">' in html
    assert "طريقة لعب الباصرة" in html
    assert 'title="خمسة كوبة"' in html  # the card's name, as on the table
    assert "باصرة ولد!" in html
    assert "How to play" not in html
