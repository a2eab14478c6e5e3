"""What a play takes: RULES.md "What a play takes" and "Basra", every example and more per rule."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import Basra, Capture, Card, CardError, Rules, capture, full_deck
from tests.engine.helpers import cards, codes, reference_packings

WILD = Rules()
CLASSIC = Rules(seven_diamonds="classic")
PLAIN = Rules(seven_diamonds="plain")
NO_JACK_BASRA = Rules(jack_basra_points=0)


def take(floor: str, played: str, rules: Rules = WILD) -> tuple[list[str], str | None]:
    result = capture(Card.from_code(played), cards(floor), rules)
    return codes(result.taken), result.basra


# RULES.md, "Examples (default rules)", row by row.
@pytest.mark.parametrize(
    ("floor", "played", "taken", "basra"),
    [
        ("5H KS 5C", "5D", "5H 5C", None),
        ("5S 4H 2D 7C", "9S", "5S 4H 2D 7C", "basra"),
        ("3S 2H AD 4C 6H", "6S", "6H 3S 2H AD", None),
        ("AS 2H 3C 3D 4S 5H", "6C", "AS 2H 3C 3D 4S 5H", "basra"),
        ("10C 5D 4S AH", "10H", "10C 5D 4S AH", "basra"),
        ("QS KH 9D", "8C", "", None),
        ("QS QH 2D", "QC", "QS QH", None),
        ("QS 5H 9C", "JD", "QS 5H 9C", None),
        ("JS", "JD", "JS", "jack_basra"),
        ("", "7D", "", None),
        ("3C 4D", "7D", "3C 4D", "basra"),
        ("5C KD", "7D", "5C KD", None),
        ("7D", "4S", "7D", "basra"),
    ],
)
def test_rules_md_examples(floor, played, taken, basra):
    assert take(floor, played) == (codes(cards(taken)), basra)


def test_capture_is_a_value_with_a_frozenset_and_a_str_enum():
    result = capture(Card.from_code("9S"), cards("5S 4H 2D 7C"))
    assert isinstance(result, Capture)
    assert isinstance(result.taken, frozenset)
    assert result.basra is Basra.BASRA and result.basra == "basra"
    assert capture(Card.from_code("8C"), cards("QS KH 9D")) == Capture(frozenset(), None)


def test_capture_is_pure_and_takes_codes_too():
    floor = list(cards("5H KS 5C"))
    before = list(floor)
    assert capture("5D", floor) == capture(Card.from_code("5D"), tuple(floor), Rules())
    assert floor == before


def test_capture_refuses_what_is_not_a_card():
    with pytest.raises(CardError):
        capture("5X", cards("5H"))
    with pytest.raises(ValueError):
        capture(Card.from_code("5D"), ["5H", "11C"])
    with pytest.raises(TypeError):
        capture("5D", cards("5H"), rules={"players": 2})


# --- number cards ---------------------------------------------------------------------------


def test_greedy_is_wrong_the_largest_set_is_taken():
    # A greedy search taking 5+A first, then 4+2, leaves 3C 3D: right. One taking 3+2+A first
    # leaves 3 4 5, which cannot make a 6. The largest set is the whole floor.
    assert take("AS 2H 3C 3D 4S 5H", "6C") == (codes(cards("AS 2H 3C 3D 4S 5H")), "basra")
    assert take("3C 2H AS 4S", "6C") == (codes(cards("3C 2H AS")), None)


def test_singles_of_the_same_value_and_sums_together():
    assert take("8H 8S 5C 3D 2C", "8D") == (codes(cards("8H 8S 5C 3D")), None)


def test_more_cards_beat_fewer_cards_of_higher_value():
    # 4+1+1 takes three cards, 4+2 two: the larger set wins.
    assert take("4H 2S AC AD", "6C") == (codes(cards("4H AC AD")), None)


def test_court_cards_never_join_a_sum():
    assert take("JS 9C KD", "10H") == ([], None)
    assert take("QS AH 9C", "10H") == (codes(cards("AH 9C")), None)


def test_a_number_card_takes_nothing_higher():
    assert take("9C 10S", "8H") == ([], None)


def test_an_ace_takes_aces_only():
    assert take("AS AH 2C", "AD") == (codes(cards("AS AH")), None)
    assert take("AS AH", "AD") == (codes(cards("AS AH")), "basra")


def test_ten_takes_sums_and_singles_basra():
    assert take("10C 9D AS 6H 4C 3D 7S", "10H") == (codes(cards("10C 9D AS 6H 4C 3D 7S")), "basra")


def test_four_of_a_value_by_sum():
    assert take("5C 5D 5H", "10S") == (codes(cards("5C 5D")), None)


# --- Queen, King, Jack --------------------------------------------------------------------


def test_queen_and_king_take_their_rank_only():
    assert take("KS KH QD 2C", "KC") == (codes(cards("KS KH")), None)
    assert take("KS KH", "KC") == (codes(cards("KS KH")), "basra")
    assert take("QD", "QC") == (["QD"], "basra")
    assert take("KS 5H", "QC") == ([], None)


def test_jack_sweeps_everything_without_a_bonus():
    assert take("QS KH 7D 2C JH", "JD") == (codes(cards("QS KH 7D 2C JH")), None)
    assert take("5H", "JD") == (["5H"], None)
    assert take("JH JS", "JD") == (codes(cards("JH JS")), None)


def test_jack_on_an_empty_floor_stays():
    assert take("", "JD") == ([], None)


def test_jack_basra_only_on_a_lone_jack():
    assert take("JS", "JC") == (["JS"], "jack_basra")
    assert take("JS 2H", "JC") == (codes(cards("JS 2H")), None)


def test_jack_basra_points_zero_turns_jack_basra_off():
    assert take("JS", "JC", NO_JACK_BASRA) == (["JS"], None)
    assert take("JS", "7D", NO_JACK_BASRA) == (["JS"], None)
    assert take("7D", "JC", NO_JACK_BASRA) == (["7D"], None)
    # A basra of a number card is unaffected.
    assert take("3C 4D", "7D", NO_JACK_BASRA) == (codes(cards("3C 4D")), "basra")


# --- the seven of diamonds (komi) ---------------------------------------------------------


class TestWildSevenPlayed:
    """Default ``seven_diamonds="wild"``: "as any card, for a basra if it can, otherwise as a Jack"."""

    def test_stays_on_an_empty_floor(self):
        assert take("", "7D") == ([], None)

    def test_basra_as_a_seven(self):
        assert take("3C 4D", "7D") == (codes(cards("3C 4D")), "basra")

    def test_basra_as_another_number(self):
        # 9+1 is a ten: the 7D plays as a 10.
        assert take("9C AD", "7D") == (codes(cards("9C AD")), "basra")
        # Two fives and a 4+1: a five takes them all.
        assert take("5C 5H 4S AD", "7D") == (codes(cards("5C 5H 4S AD")), "basra")
        # A lone ace: as an ace.
        assert take("AS", "7D") == (["AS"], "basra")

    def test_basra_as_a_queen_or_king(self):
        assert take("QS QH", "7D") == (codes(cards("QS QH")), "basra")
        assert take("KC", "7D") == (["KC"], "basra")

    def test_jack_basra_on_a_lone_jack(self):
        assert take("JS", "7D") == (["JS"], "jack_basra")

    def test_otherwise_a_plain_sweep(self):
        assert take("5C KD", "7D") == (codes(cards("5C KD")), None)
        assert take("QS KS", "7D") == (codes(cards("QS KS")), None)
        assert take("JS 5H", "7D") == (codes(cards("JS 5H")), None)
        assert take("JS JH", "7D") == (codes(cards("JS JH")), None)
        # 9 + 8 = 17: no rank A..10 takes both.
        assert take("9S 8C", "7D") == (codes(cards("9S 8C")), None)
        # 6+3+2 = 11: as a 6 the 3+2 is short, nothing above 6 divides 11.
        assert take("6S 3C 2H", "7D") == (codes(cards("6S 3C 2H")), None)

    def test_sum_above_ten_is_not_a_basra_unless_it_packs(self):
        # 6+4 and 8+2 are two tens: as a 10 the 7D takes the whole floor.
        assert take("6S 4C 8H 2D", "7D") == (codes(cards("6S 4C 8H 2D")), "basra")
        # 6+3+5 = 14: no rank from 6 to 10 divides it into groups.
        assert take("6S 3C 5H", "7D") == (codes(cards("6S 3C 5H")), None)
        # 6+3+3 = 12 = 6 + (3+3): as a 6 it takes all.
        assert take("6S 3C 3H", "7D") == (codes(cards("6S 3C 3H")), "basra")


class TestWildSevenOnTheFloor:
    """A 7D lying on the floor "matches any card": it takes the rank of the card played."""

    def test_any_number_takes_a_lone_seven_as_a_basra(self):
        for played in ("AS", "4S", "7C", "10H"):
            assert take("7D", played) == (["7D"], "basra")

    def test_queen_and_king_take_it_as_a_basra(self):
        assert take("7D", "QC") == (["7D"], "basra")
        assert take("7D", "KH") == (["7D"], "basra")

    def test_jack_takes_a_lone_seven_as_a_jack_basra(self):
        assert take("7D", "JC") == (["7D"], "jack_basra")

    def test_it_is_taken_with_the_rest(self):
        assert take("7D 3C", "3H") == (codes(cards("7D 3C")), "basra")
        assert take("7D KS", "KH") == (codes(cards("7D KS")), "basra")
        assert take("7D 5C", "4S") == (["7D"], None)
        assert take("7D 5C 2H 2S", "4S") == (codes(cards("7D 2H 2S")), None)

    def test_it_is_the_played_rank_not_a_seven_in_a_sum(self):
        # Played as a 10, the 7D is a 10 (a single), not a 7 to add to the 3.
        assert take("7D 3C", "10H") == (["7D"], None)


class TestClassicSeven:
    """``seven_diamonds="classic"``: always sweeps; a basra only on number cards totalling <= 10."""

    def test_basra_on_small_number_floors(self):
        assert take("3C 4D", "7D", CLASSIC) == (codes(cards("3C 4D")), "basra")
        assert take("9C", "7D", CLASSIC) == (["9C"], "basra")
        assert take("AS 2S 3S 4S", "7D", CLASSIC) == (codes(cards("AS 2S 3S 4S")), "basra")

    def test_sweep_without_bonus_above_ten_or_with_court_cards(self):
        assert take("6C 5D", "7D", CLASSIC) == (codes(cards("6C 5D")), None)
        assert take("QS QH", "7D", CLASSIC) == (codes(cards("QS QH")), None)
        assert take("5C KD", "7D", CLASSIC) == (codes(cards("5C KD")), None)
        assert take("JS", "7D", CLASSIC) == (["JS"], None)

    def test_stays_on_an_empty_floor(self):
        assert take("", "7D", CLASSIC) == ([], None)

    def test_on_the_floor_it_is_an_ordinary_seven(self):
        assert take("7D", "4S", CLASSIC) == ([], None)
        assert take("7D", "7C", CLASSIC) == (["7D"], "basra")
        assert take("7D 3C", "10H", CLASSIC) == (codes(cards("7D 3C")), "basra")
        assert take("7D", "QC", CLASSIC) == ([], None)
        assert take("7D", "JC", CLASSIC) == (["7D"], None)


class TestPlainSeven:
    """``seven_diamonds="plain"``: the 7D is an ordinary 7, played or on the floor."""

    def test_played(self):
        assert take("3C 4D", "7D", PLAIN) == (codes(cards("3C 4D")), "basra")
        assert take("5C KD", "7D", PLAIN) == ([], None)
        assert take("7S 2C", "7D", PLAIN) == (["7S"], None)
        assert take("JS", "7D", PLAIN) == ([], None)

    def test_on_the_floor(self):
        assert take("7D", "4S", PLAIN) == ([], None)
        assert take("7D 3C", "10H", PLAIN) == (codes(cards("7D 3C")), "basra")
        assert take("7D", "JC", PLAIN) == (["7D"], None)


# --- tie-breaks ------------------------------------------------------------------------------


@pytest.mark.parametrize("rules", [Rules(card_points=True), Rules()])
@pytest.mark.parametrize(
    ("floor", "played", "taken"),
    [
        # Three cards either way: 5+A+A (two aces, 2 points) beats 4+2+A (one ace).
        ("AH 4S AC 5H 2H", "7C", "5H AC AH"),
        # 5+2C+A (3 points) beats 4+3+A (1 point).
        ("AD 3D 2C 5C 4D", "8H", "5C 2C AD"),
        # 5+3+A (the ace) beats 4+3+2S (no points).
        ("4C AC 5C 3C 2S", "9H", "5C 3C AC"),
        # Same ranks either way: of the twos, the 2C.
        ("2D 2C AH", "3S", "2C AH"),
        ("2H 2C AD AS", "4D", "2C AD AS"),
    ],
)
def test_card_points_break_ties_between_largest_sets(floor, played, taken, rules):
    # With card points off any deterministic tie-break is allowed; the engine uses the same one.
    assert take(floor, played, rules) == (codes(cards(taken)), None)


def test_tie_break_is_deterministic_whatever_the_floor_order():
    floor = list(cards("3H 3S 3C AD AH 2D 2H"))
    played = Card.from_code("6D")
    first = capture(played, floor)
    for rotation in range(len(floor)):
        assert capture(played, floor[rotation:] + floor[:rotation]) == first
        assert capture(played, list(reversed(floor[rotation:] + floor[:rotation]))) == first


# --- the search agrees with a brute force over subsets --------------------------------------

NUMBER_CARDS = [c for c in full_deck() if c.rank <= 10 and c.code != "7D"]


@settings(max_examples=150, deadline=None)
@given(
    played=st.sampled_from([c for c in NUMBER_CARDS]),
    floor=st.lists(st.sampled_from(full_deck()), min_size=1, max_size=9, unique=True),
)
def test_number_capture_is_the_largest_then_the_most_points(played, floor):
    floor = [c for c in floor if c is not played]
    for rules in (WILD, CLASSIC, PLAIN):
        result = capture(played, floor, rules)
        wild = rules.seven_diamonds == "wild"
        singles = {c for c in floor if c.rank == played.rank or (wild and c.code == "7D")}
        sums = [c for c in floor if c not in singles and c.rank <= 10]
        options = reference_packings(played.rank, sums)
        most = max(len(s) for s in options)
        best = max(sum(c.points for c in s) for s in options if len(s) == most)
        grouped = result.taken - singles
        assert singles <= result.taken
        assert grouped in options
        assert (len(grouped), sum(c.points for c in grouped)) == (most, best)
        assert (result.basra == "basra") == (bool(result.taken) and len(result.taken) == len(floor))


def _worst_floor(played: str) -> list[Card]:
    return [c for c in full_deck() if c.rank <= 10 and c.code != played]


@pytest.mark.parametrize("played", ["10H", "9H", "8S", "7C", "6D", "5S", "2H", "AS"])
def test_forty_number_cards_are_all_taken(played):
    # Four of each number: every value pairs with its complement, so a number takes them all
    # (the cards of its own value as singles).
    floor = _worst_floor(played)
    result = capture(played, floor, PLAIN)
    v = Card.from_code(played).rank
    assert result.taken == frozenset(c for c in floor if c.rank <= v)


def test_wild_seven_on_forty_number_cards_is_a_plain_sweep():
    floor = _worst_floor("7D")
    result = capture("7D", floor)
    # 4*55 - 7 = 213 is no multiple of 10, the only rank that could take a 10.
    assert result.taken == frozenset(floor) and result.basra is None
