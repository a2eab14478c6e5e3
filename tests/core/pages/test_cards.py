"""Cards are named by words in the reader's language (games.core.pages.cards; issue 22: "every
card a button with an accessible name ('seven of diamonds')"), one source for the table, the
replay and the rules page."""

import re

import pytest
from django.utils import translation

from games.core.for_apps import card_labels, card_name
from games.engine.cards import RANKS, SUITS
from tests.site.catalogue import ROOT

CODES = [rank + suit for suit in SUITS for rank in RANKS]


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_every_card_is_named_by_words_not_digits(lang):
    with translation.override(lang):
        names = [card_name(code) for code in CODES]
        labels = card_labels()
    assert set(labels["ranks"]) == set(RANKS) and set(labels["suits"]) == set(SUITS)
    assert len(set(names)) == 52  # no two cards share a name
    assert not [name for name in names if re.search(r"\d", name)]


def test_the_names_in_english_and_in_arabic():
    with translation.override("en"):
        assert card_name("7D") == "seven of diamonds"
        assert card_name("10H") == "ten of hearts"
        # Every rank in lower case, the court cards and the ace too ("six of hearts" and
        # "king of clubs", not "King of clubs").
        assert card_name("KS") == "king of spades"
        assert [card_name(code) for code in ("AH", "JC", "QD", "KC")] == [
            "ace of hearts", "jack of clubs", "queen of diamonds", "king of clubs",
        ]
    with translation.override("ar"):
        assert card_name("7D") == "سبعة ديناري"
        assert card_name("JC") == "ولد سباتي"
        assert card_name("AH") == "آس كوبة" or card_name("AH").startswith("آس")
    with translation.override("fr"):
        assert [card_name(code).split()[0] for code in ("AH", "JC", "QD", "KC", "6H")] == [
            "As", "Valet", "Dame", "Roi", "Six",
        ]


def test_the_scripts_name_cards_as_the_server_does():
    """The table's and the replay's scripts name cards from one module (static/games/labels.js,
    through the JavaScript catalogue) with the server's words (the rules page's)."""
    cards = (ROOT / "static/games/labels.js").read_text(encoding="utf-8")
    for page in ("static/games/table/labels.js", "static/replays/labels.js"):
        assert 'import {cards' in (ROOT / page).read_text(encoding="utf-8"), page
    with translation.override("en"):  # English is the msgids' language
        labels = card_labels()
    assert f'cardName: gettext("{labels["cardName"]}")' in cards
    for suit, name in labels["suits"].items():
        assert f'{suit}: gettext("{name}")' in cards
    for rank, name in labels["ranks"].items():
        assert re.search(rf'"?{rank}"?: p?gettext\((?:"card", )?"{name}"\)', cards), rank
