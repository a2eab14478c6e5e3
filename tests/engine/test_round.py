"""A round: the deal, the burial of the floor's Jacks and 7D, turns, redeals, leftovers, scoring."""

from __future__ import annotations

import random

import pytest

from games.engine import (
    Card,
    CardError,
    DeckError,
    GameStateError,
    IllegalPlayError,
    Round,
    Rules,
    SeatError,
    capture,
    full_deck,
)
from tests.engine.helpers import cards, play_random_round, random_deck

# Found by playing the first card of the hand each turn: the piles end 26-26.
TIED_DECK_2P = (
    "5D 10S 8S 3H JC 3S AC 5S 4H KH 5C 3C 10H QC 9D QD 7C 8D 6H 4C 6D JS 8H 8C KD KS 2S KC "
    "5H 9S AD 10C JH 4S QH 7H 7S 2D AH 4D 9C QS 10D 6S 2H 9H 2C AS JD 7D 3D 6C"
)


def deck_with(positions: dict[int, str]) -> list[Card]:
    """The sorted deck with the given cards moved to the given positions (the rest in order)."""
    placed = {Card.from_code(code): pos for pos, code in positions.items()}
    rest = iter(c for c in full_deck() if c not in placed)
    return [
        Card.from_code(positions[i]) if i in positions else next(rest) for i in range(52)
    ]


# --- dealing ---------------------------------------------------------------------------------


def test_two_player_deal_starts_after_the_dealer():
    deck = random_deck(random.Random(1))
    deck = [c for c in deck if c.rank != 11 and c.code != "7D"] + [
        c for c in deck if c.rank == 11 or c.code == "7D"
    ]  # no Jack or 7D can reach the floor
    r = Round(Rules(), deck, dealer=0)
    assert r.hands == (tuple(deck[4:8]), tuple(deck[0:4]))
    assert r.floor == tuple(deck[8:12])
    assert r.stock == tuple(deck[12:])
    assert r.turn == 1 and r.dealer == 0

    r = Round(Rules(), deck, dealer=1)
    assert r.hands == (tuple(deck[0:4]), tuple(deck[4:8]))
    assert r.turn == 0


def test_four_player_deal_goes_round_from_the_seat_after_the_dealer():
    deck = [c for c in full_deck() if c.rank < 11] + [c for c in full_deck() if c.rank >= 11]
    r = Round(Rules(players=4), deck, dealer=2)
    assert r.hands == (
        tuple(deck[4:8]),
        tuple(deck[8:12]),
        tuple(deck[12:16]),
        tuple(deck[0:4]),
    )
    assert r.floor == tuple(deck[16:20])
    assert len(r.stock) == 32
    assert r.turn == 3


@pytest.mark.parametrize("mode", ["wild", "classic", "plain"])
def test_jacks_and_the_seven_of_diamonds_are_buried_from_the_first_floor(mode):
    # Floor positions 8..11: 2H JC 4H 7D; the stock starts JD 9S 9H.
    deck = deck_with({8: "2H", 9: "JC", 10: "4H", 11: "7D", 12: "JD", 13: "9S", 14: "9H"})
    r = Round(Rules(seven_diamonds=mode), deck, dealer=0)
    # Position 1: JC to the bottom, JD comes up, to the bottom too, then 9S. Position 3: 7D out, 9H in.
    assert r.floor == cards("2H 9S 4H 9H")
    assert r.stock == tuple(deck[15:]) + cards("JC JD 7D")
    assert len(r.stock) == 40


def test_the_first_floor_position_is_checked_too():
    deck = deck_with({8: "JS", 9: "2C", 10: "3C", 11: "4C", 12: "7D", 13: "JH", 14: "5C"})
    r = Round(Rules(), deck, dealer=1)
    assert r.floor == cards("5C 2C 3C 4C")
    assert r.stock[-3:] == cards("JS 7D JH")


def test_later_deals_give_four_to_each_seat_and_none_to_the_floor():
    deck = random_deck(random.Random(3))
    r = Round(Rules(), deck, dealer=0)
    stock = r.stock
    for _ in range(8):
        r.play(r.legal_plays()[0])
    assert r.hands == (stock[4:8], stock[0:4])
    assert r.stock == stock[8:]
    assert r.turn == 1


@pytest.mark.parametrize(("players", "deals"), [(2, 6), (4, 3)])
def test_a_round_is_six_deals_for_two_and_three_for_four(players, deals):
    r = Round(Rules(players=players), random_deck(random.Random(players)), dealer=players - 1)
    dealt = 1
    plays = 0
    while not r.over:
        r.play(r.legal_plays()[0])
        plays += 1
        if not r.over and all(len(h) == 4 for h in r.hands):
            dealt += 1
    assert (dealt, plays, len(r.plays)) == (deals, 48, 48)
    assert r.stock == () and r.hands == ((),) * players


def test_turns_go_round_in_seat_order():
    r = Round(Rules(players=4), random_deck(random.Random(5)), dealer=1)
    seats = []
    while not r.over:
        seats.append(r.turn)
        r.play(r.legal_plays()[-1])
    assert seats == [(2 + i) % 4 for i in range(48)]
    assert [p.seat for p in r.plays] == seats


# --- bad input -------------------------------------------------------------------------------


def test_a_card_not_in_the_hand_of_the_seat_to_move_is_refused():
    r = Round(Rules(), random_deck(random.Random(6)), dealer=0)
    other = r.hands[0][0]  # seat 1 is to play
    before = (r.hands, r.floor, r.turn)
    with pytest.raises(IllegalPlayError) as info:
        r.play(other)
    assert info.value.reason == "not_in_hand" and str(other) in str(info.value)
    with pytest.raises(IllegalPlayError):
        r.play(r.floor[0])
    assert (r.hands, r.floor, r.turn) == before


def test_bad_codes_and_plays_after_the_end_are_refused():
    r = Round(Rules(), random_deck(random.Random(7)), dealer=0)
    with pytest.raises(CardError):
        r.play("11H")
    with pytest.raises(ValueError):
        r.play(None)
    r.play(r.legal_plays()[0].code)  # a code is accepted
    while not r.over:
        r.play(r.legal_plays()[0])
    with pytest.raises(IllegalPlayError) as info:
        r.play("5H")
    assert info.value.reason == "round_over"
    assert r.turn is None and r.legal_plays() == ()


@pytest.mark.parametrize(
    "deck",
    [
        full_deck()[:51],
        full_deck() + [Card.from_code("AS")],
        full_deck()[:51] + [Card.from_code("AS")],
        [],
        "AS 2S",
        None,
    ],
)
def test_a_deck_that_is_not_52_distinct_cards_is_refused(deck):
    with pytest.raises(DeckError):
        Round(Rules(), deck, 0)


def test_a_deck_with_a_bad_code_is_refused_and_codes_are_accepted():
    codes = [c.code for c in full_deck()]
    assert Round(Rules(), codes, 0).floor == tuple(full_deck()[8:12])
    with pytest.raises(CardError):
        Round(Rules(), codes[:51] + ["ZZ"], 0)


@pytest.mark.parametrize(("players", "dealer"), [(2, 2), (2, -1), (4, 4), (2, True), (2, "0"), (2, None)])
def test_a_bad_dealer_seat_is_refused(players, dealer):
    with pytest.raises(SeatError):
        Round(Rules(players=players), full_deck(), dealer)


def test_rules_must_be_rules():
    with pytest.raises(TypeError):
        Round({"players": 2}, full_deck(), 0)


# --- captures, basras, leftovers ---------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("mode", ["wild", "classic", "plain"])
def test_every_play_takes_what_capture_says(players, mode):
    rules = Rules(players=players, seven_diamonds=mode, card_points=True)
    rng = random.Random(players * 10 + len(mode))
    for _ in range(20):
        r = Round(rules, random_deck(rng), rng.randrange(players))
        while not r.over:
            floor = r.floor
            card = rng.choice(r.legal_plays())
            expected = capture(card, floor, rules)
            assert r.play(card) == expected
            play = r.plays[-1]
            assert (play.card, play.taken, play.basra) == (card, expected.taken, expected.basra)


def test_piles_basras_and_leftovers_follow_from_the_plays():
    rng = random.Random(11)
    for players in (2, 4):
        for _ in range(30):
            r = play_random_round(Rules(players=players), random_deck(rng), 0, rng)
            piles = ([], [])
            basras = [0, 0]
            jack_basras = [0, 0]
            last = None
            for play in r.plays:
                if play.taken:
                    side = play.seat % 2
                    piles[side].extend([*play.taken, play.card])
                    last = side
                    basras[side] += play.basra == "basra"
                    jack_basras[side] += play.basra == "jack_basra"
                else:
                    assert play.basra is None
            assert r.last_capturer == last
            assert set(r.leftover).isdisjoint(piles[0] + piles[1])
            piles[last].extend(r.leftover)
            assert [sorted(p) for p in r.piles] == [sorted(p) for p in piles]
            assert (r.basras, r.jack_basras) == (tuple(basras), tuple(jack_basras))
            assert r.floor == ()
            assert sum(map(len, r.piles)) == 52


def test_leftovers_are_never_a_basra():
    # Deal the last deal so that the last card played leaves the floor to the last capturer.
    rng = random.Random(12)
    for _ in range(50):
        r = play_random_round(Rules(), random_deck(rng), 1, rng)
        if r.leftover:
            last = r.plays[-1]
            # Counting basras from the plays alone gives the round's counts: leftovers add none.
            assert r.basras == (
                sum(p.basra == "basra" and p.seat % 2 == 0 for p in r.plays),
                sum(p.basra == "basra" and p.seat % 2 == 1 for p in r.plays),
            )
            assert last.taken.isdisjoint(r.leftover)
            return
    pytest.fail("no round ended with cards on the floor")


def test_a_play_on_an_empty_floor_stays_and_is_never_a_basra():
    rng = random.Random(13)
    seen = 0
    for _ in range(20):
        r = Round(Rules(), random_deck(rng), 0)
        while not r.over:
            empty = not r.floor
            card = rng.choice(r.legal_plays())
            result = r.play(card)
            if empty:
                seen += 1
                assert result.taken == frozenset() and result.basra is None
                assert r.floor == (card,) or r.over
    assert seen > 0


# --- scoring ---------------------------------------------------------------------------------


def test_score_before_the_end_is_refused():
    r = Round(Rules(), full_deck(), 0)
    with pytest.raises(GameStateError):
        r.score()
    with pytest.raises(ValueError):
        r.score_breakdown()


def test_a_26_26_tie_gives_the_majority_to_nobody():
    r = Round(Rules(), cards(TIED_DECK_2P), 0)
    while not r.over:
        r.play(r.legal_plays()[0])
    b = r.score_breakdown()
    assert b.cards == (26, 26)
    assert b.majority == (0, 0)
    assert b.total == tuple(b.basras[s] + b.jack_basras[s] for s in range(2))
    assert r.score() == b.total


@pytest.mark.parametrize("players", [2, 4])
def test_round_points_add_up_per_side(players):
    rules = Rules(
        players=players, majority_points=7, basra_points=3, jack_basra_points=11, card_points=True
    )
    rng = random.Random(20 + players)
    for _ in range(40):
        r = play_random_round(rules, random_deck(rng), rng.randrange(players), rng)
        b = r.score_breakdown()
        piles = r.piles
        assert b.cards == (len(piles[0]), len(piles[1]))
        big = max(b.cards)
        assert b.majority == tuple(
            7 if n == big and b.cards[0] != b.cards[1] else 0 for n in b.cards
        )
        assert b.basras == tuple(3 * n for n in r.basras)
        assert b.jack_basras == tuple(11 * n for n in r.jack_basras)
        # J 1, A 1, 2C 2, 10D 3: 13 points in the deck.
        worth = {"J": 1, "A": 1}
        expected_points = tuple(
            sum(worth.get(c.code[0], 0) + {"2C": 2, "10D": 3}.get(c.code, 0) for c in pile)
            for pile in piles
        )
        assert b.card_points == expected_points and sum(expected_points) == 13
        assert b.total == tuple(
            b.majority[s] + b.basras[s] + b.jack_basras[s] + b.card_points[s] for s in (0, 1)
        )


def test_card_points_are_zero_when_the_option_is_off():
    rng = random.Random(30)
    r = play_random_round(Rules(), random_deck(rng), 0, rng)
    assert r.score_breakdown().card_points == (0, 0)


def test_partners_share_one_pile():
    rng = random.Random(31)
    r = play_random_round(Rules(players=4), random_deck(rng), 3, rng)
    side_of = {p.card: p.seat % 2 for p in r.plays if p.taken}
    for card, side in side_of.items():
        assert card in r.piles[side]
    assert len(r.piles) == 2
