"""Cards are named by words in the reader's language (games.core.pages.cards; issue 22: "every
card a button with an accessible name ('seven of diamonds')"), one source for the table, the
replay and the rules page."""

import re

import pytest
from django.utils import translation

from games.core.for_apps import card_labels, card_name
from games.engine.cards import RANKS, SUITS

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
        assert card_name("KS") == "King of spades"
    with translation.override("ar"):
        assert card_name("7D") == "سبعة ديناري"
        assert card_name("JC") == "ولد سباتي"


def test_the_table_and_the_replay_name_cards_alike():
    """The two pages' scripts get the same names (``table-config`` and the replay's labels)."""
    from games.core.pages.views import table_labels
    from games.replays.views import replay_labels

    with translation.override("ar"):
        table, replay, labels = table_labels(), replay_labels(), card_labels()
    for key in ("cardName", "ranks", "suits"):
        assert table[key] == replay[key] == labels[key]
