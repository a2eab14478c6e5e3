"""Card codes and Rules options (RULES.md, "Names" and "The engine's public interface")."""

from __future__ import annotations

import copy
import dataclasses
import json
import pickle

import pytest

from games.engine import Card, CardError, Rules, RulesError, SevenDiamonds, full_deck, parse_cards


# --- cards -------------------------------------------------------------------------------------


def test_codes_round_trip_for_the_whole_deck():
    deck = full_deck()
    assert len(deck) == 52 and len(set(deck)) == 52
    assert [Card.from_code(c.code) for c in deck] == deck
    assert all(str(c) == c.code for c in deck)
    assert {c.code for c in deck} == {
        r + s for r in "A 2 3 4 5 6 7 8 9 10 J Q K".split() for s in "CDHS"
    }


def test_ten_is_written_10_and_read_as_10_or_t_in_any_case():
    assert Card.from_code("10H").code == "10H"
    assert Card.from_code("TH") == Card.from_code("th") == Card.from_code("10h") == Card(10, "H")
    assert Card.from_code("jd") == Card(11, "D") and Card.from_code("as").rank == 1
    assert Card("TH") is Card("10H") is Card.from_code("10H")


@pytest.mark.parametrize("bad", ["", "1H", "11S", "5X", "H5", "10", "AS ", " AS", "TT", "0C", 5, None, b"AS"])
def test_unknown_codes_raise_value_error(bad):
    with pytest.raises(CardError) as info:
        Card.from_code(bad)
    assert isinstance(info.value, ValueError)


#: Characters that are not ASCII but that ``str.upper()`` or ``str.lower()`` turns into ASCII
#: (every one of them in Unicode: "ß" SS, "ı" I, "ſ" S, the Kelvin sign K, the ligatures ﬀ..ﬆ),
#: and fullwidth look-alikes of the code's letters and digits.
LOOK_ALIKES = (
    ["\u00df", "\u0131", "\u017f", "\u212a"]
    + [chr(c) for c in range(0xFB00, 0xFB07)]
    + [chr(0xFF00 + ord(c) - 0x20) for c in "ACDHSJQKTacdhsjqkt0123456789"]
)


def test_the_look_alikes_are_the_whole_unicode_set_that_case_maps_to_ascii():
    mapped = {
        chr(c) for c in range(0x80, 0x110000)
        if chr(c).upper().isascii() or chr(c).lower().isascii()
    }
    assert mapped <= set(LOOK_ALIKES)


@pytest.mark.parametrize(
    "bad", ["5\u017f", "A\u017f", "10\u017f", "t\u017f", "\u212aS", "\u212aH", "K\u0131",
            "\uff2b\uff33", "\uff4b\uff53", "5\uff33", "\uff15S", "\uff11\uff10H", "5\u00df",
            "\u00df", "5\ufb06", "\ufb05"],
)
def test_non_ascii_look_alikes_are_no_card(bad):
    # "5ſ".upper() == "5S": matched after upper(), the long s would play the five of spades.
    with pytest.raises(CardError):
        Card.from_code(bad)


def test_no_look_alike_in_any_place_of_any_code_is_a_card():
    codes = [c.code for c in full_deck()] + ["T" + s for s in "CDHS"]
    for code in codes + [c.lower() for c in codes]:
        for at in range(len(code)):
            for char in LOOK_ALIKES:
                forged = code[:at] + char + code[at + 1:]
                with pytest.raises(CardError):
                    Card.from_code(forged)


@pytest.mark.parametrize("suit", ["\u017f", "\u212a", "\uff33", "\uff53", "\u00df"])
def test_a_non_ascii_suit_is_no_suit(suit):
    with pytest.raises(CardError):
        Card(5, suit)


@pytest.mark.parametrize(("rank", "suit"), [(0, "H"), (14, "H"), (1, "X"), (True, "H"), ("A", "H"), ("ZZ", None), (5, None)])
def test_bad_rank_or_suit_raise(rank, suit):
    with pytest.raises(CardError):
        Card(rank, suit)


def test_cards_are_hashable_ordered_frozen_values():
    a, b = Card.from_code("AS"), Card.from_code("2C")
    assert a < b and b > a and a <= Card.from_code("AS") and sorted([b, a]) == [a, b]
    assert {a: 1}[Card(1, "S")] == 1
    assert sorted(full_deck(), reverse=True)[0].code == "KS"
    with pytest.raises(AttributeError):
        a.rank = 5
    # Copies and pickles are the one object for the card.
    assert copy.deepcopy(a) is a and pickle.loads(pickle.dumps(a)) is a
    assert repr(a) == "Card.from_code('AS')"
    with pytest.raises(TypeError):
        _ = a < "AS"


def test_card_points_and_number_cards():
    points = {c.code: c.points for c in full_deck() if c.points}
    assert points == {"AC": 1, "AD": 1, "AH": 1, "AS": 1, "JC": 1, "JD": 1, "JH": 1, "JS": 1, "2C": 2, "10D": 3}
    assert [c.is_number for c in parse_cards("AS 10D JC QH KS")] == [True, True, False, False, False]


def test_full_deck_is_a_fresh_list_each_time():
    deck = full_deck()
    deck.reverse()
    assert full_deck()[0].code == "AC"


# --- rules -------------------------------------------------------------------------------------


def test_rules_defaults_are_the_egyptian_game():
    assert Rules().to_dict() == {
        "players": 2,
        "target": 101,
        "majority_points": 30,
        "basra_points": 10,
        "jack_basra_points": 20,
        "card_points": False,
        "seven_diamonds": "wild",
    }


def test_rules_are_frozen_keyword_only_and_hashable():
    r = Rules(players=4, seven_diamonds="classic")
    assert r.seven_diamonds is SevenDiamonds.CLASSIC and r.seven_diamonds == "classic"
    assert r == Rules(players=4, seven_diamonds=SevenDiamonds.CLASSIC)
    assert hash(r) == hash(Rules(players=4, seven_diamonds="classic"))
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.players = 2
    with pytest.raises(TypeError):
        Rules(2)
    assert dataclasses.replace(r, target=51).target == 51


def test_rules_dict_round_trip_through_json():
    r = Rules(players=4, target=61, majority_points=20, basra_points=5, jack_basra_points=0,
              card_points=True, seven_diamonds="plain")
    assert Rules.from_dict(json.loads(json.dumps(r.to_dict()))) == r
    assert Rules.from_dict({"players": 4}) == Rules(players=4)


@pytest.mark.parametrize(
    "options",
    [
        {"players": 3},
        {"players": "2"},
        {"target": 0},
        {"target": 101.0},
        {"target": True},
        {"majority_points": -1},
        {"basra_points": None},
        {"jack_basra_points": -5},
        {"card_points": 1},
        {"seven_diamonds": "komi"},
        {"seven_diamonds": None},
    ],
)
def test_bad_rules_values_raise_rules_error(options):
    with pytest.raises(RulesError):
        Rules(**options)
    with pytest.raises(ValueError):
        Rules.from_dict(options)


def test_an_unknown_option_is_named_and_is_both_a_type_and_a_value_error():
    for make in (lambda: Rules(basra=10), lambda: Rules.from_dict({"basra": 10, "players": 2})):
        with pytest.raises(RulesError, match="basra") as info:
            make()
        assert isinstance(info.value, TypeError) and isinstance(info.value, ValueError)
    with pytest.raises(RulesError):
        Rules.from_dict(["players", 2])


# --- rules under which nobody can score --------------------------------------------------------

NOTHING = {"majority_points": 0, "basra_points": 0, "jack_basra_points": 0, "card_points": False}


@pytest.mark.parametrize("mode", list(SevenDiamonds))
def test_no_points_at_all_means_nobody_can_score(mode):
    assert Rules(**NOTHING, seven_diamonds=mode).can_score is False
    assert Rules(seven_diamonds=mode).can_score is True


@pytest.mark.parametrize(
    "one", [{"majority_points": 1}, {"basra_points": 1}, {"jack_basra_points": 1}, {"card_points": True}]
)
@pytest.mark.parametrize("mode", list(SevenDiamonds))
def test_any_single_way_to_score_is_enough(one, mode):
    assert Rules(**{**NOTHING, **one}, seven_diamonds=mode).can_score is True


@pytest.mark.parametrize("mode", list(SevenDiamonds))
def test_a_basra_and_a_jack_basra_happen_under_every_seven_of_diamonds_mode(mode):
    """Why a lone basra or jack-basra bonus is a way to score whatever the komi does (RULES.md,
    "Examples": 9S on 5S 4H 2D 7C, JD on JS)."""
    from games.engine import capture

    rules = Rules(seven_diamonds=mode)
    assert capture(Card.from_code("9S"), parse_cards("5S 4H 2D 7C"), rules).basra == "basra"
    assert capture(Card.from_code("JD"), parse_cards("JS"), rules).basra == "jack_basra"
