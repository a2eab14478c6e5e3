"""A match to the target, the dealer's rotation, and the per-seat views (RULES.md, notes/view_spec.md)."""

from __future__ import annotations

import dataclasses
import json
import random

import pytest

from games.engine import (
    Card,
    GameStateError,
    IllegalPlayError,
    Match,
    Play,
    Rules,
    SeatError,
    SeatView,
    full_deck,
)
from tests.engine.helpers import cards, random_deck

# Playing the first card of the hand each turn with dealer 0, this round scores 30-30
# (27-25 cards: 30 to side 0; three basras: 30 to side 1).
LEVEL_DECK = cards(
    "3S JS 6D 2H 10S 6C JH 5D QC 3H 10H KC 7D AS KH 7H KS AD 7S 9C 8S 4D AC QH KD 8D 10D 2C 5S "
    "QD JD 7C 9S 6S 2D 2S 4S 10C AH 4C JC 5H 4H 9H 5C 8C 3C 6H QS 8H 9D 3D"
)


def play_out(match: Match, choose=lambda hand: hand[0]) -> None:
    """Play the current round to its end."""
    while not match.round.over:
        match.play(choose(match.round.legal_plays()))


def test_a_new_match_waits_for_its_first_deal():
    m = Match(Rules(), dealer=1)
    assert (m.round, m.rounds, m.round_number, m.scores) == (None, (), 0, (0, 0))
    assert m.dealer == 1 and m.needs_deal and not m.over and m.winner is None
    with pytest.raises(IllegalPlayError) as info:
        m.play("5H")
    assert info.value.reason == "no_round"


@pytest.mark.parametrize(("players", "dealer"), [(2, 2), (4, 4), (2, -1), (2, "1"), (2, None)])
def test_a_bad_dealer_is_refused(players, dealer):
    with pytest.raises(SeatError):
        Match(Rules(players=players), dealer=dealer)


def test_rules_must_be_rules():
    with pytest.raises(TypeError):
        Match({"players": 2})


def test_rounds_deal_from_the_given_deck_and_the_dealer_moves_on():
    m = Match(Rules(players=4, target=10_000), dealer=3)
    rng = random.Random(1)
    for number, dealer in enumerate([3, 0, 1, 2, 3], 1):
        deck = random_deck(rng)
        rnd = m.start_round([c.code for c in deck])
        assert rnd is m.round and m.round_number == number and len(m.rounds) == number
        assert rnd.dealer == dealer and rnd.deck == tuple(deck)
        assert m.dealer == dealer and not m.needs_deal  # moves only when the round ends
        play_out(m)
        assert m.dealer == (dealer + 1) % 4 and m.needs_deal
        assert m.round is rnd  # the finished round stays until the next deal


def test_totals_are_the_sum_of_the_rounds():
    m = Match(Rules(target=10_000))
    rng = random.Random(2)
    for _ in range(4):
        m.start_round(random_deck(rng))
        play_out(m, rng.choice)
    assert m.round_scores == tuple(r.score() for r in m.rounds)
    assert m.scores == tuple(sum(s[side] for s in m.round_scores) for side in (0, 1))


def test_one_deal_at_a_time():
    m = Match(Rules())
    m.start_round(full_deck())
    with pytest.raises(GameStateError):
        m.start_round(full_deck())
    play_out(m)
    with pytest.raises(IllegalPlayError) as info:
        m.play(full_deck()[0])
    assert info.value.reason == "round_over"


def test_the_match_is_won_at_the_target_by_the_higher_side():
    rng = random.Random(3)
    m = Match(Rules(target=1))
    while True:
        m.start_round(random_deck(rng))
        play_out(m, rng.choice)
        if m.scores[0] != m.scores[1]:
            break
    assert m.over and not m.needs_deal
    assert m.winner == (0 if m.scores[0] > m.scores[1] else 1)
    with pytest.raises(IllegalPlayError) as info:
        m.play("5H")
    assert info.value.reason == "match_over"
    with pytest.raises(GameStateError):
        m.start_round(full_deck())


def test_level_scores_at_the_target_play_another_round():
    m = Match(Rules(target=30), dealer=0)
    m.start_round(LEVEL_DECK)
    play_out(m)
    assert m.scores == (30, 30)
    assert not m.over and m.winner is None and m.needs_deal
    rng = random.Random(4)
    while not m.over:
        m.start_round(random_deck(rng))
        play_out(m, rng.choice)
    assert m.round_number >= 2 and m.scores[m.winner] > m.scores[1 - m.winner]


def test_below_the_target_the_match_goes_on():
    m = Match(Rules(target=10_000))
    m.start_round(random_deck(random.Random(5)))
    play_out(m)
    assert max(m.scores) > 0 and not m.over and m.needs_deal


def test_play_checks_the_seat_when_named():
    m = Match(Rules(), dealer=0)
    m.start_round(full_deck())
    card = m.round.legal_plays()[0]
    with pytest.raises(IllegalPlayError) as info:
        m.play(card, seat=0)
    assert info.value.reason == "not_your_turn"
    assert m.play(card.code, seat=1) is not None
    assert m.round.turn == 0


# --- views -----------------------------------------------------------------------------------


def _cards_in(view: SeatView) -> set[Card]:
    found = set(view.hand) | set(view.floor) | {c for _, c in view.played}
    found |= set(view.initial_floor)
    if view.last_play is not None:
        found |= {view.last_play.card, *view.last_play.taken}
    return found


@pytest.mark.parametrize("players", [2, 4])
def test_a_view_never_shows_another_seats_hand(players):
    rng = random.Random(10 + players)
    m = Match(Rules(players=players))
    m.start_round(random_deck(rng))
    while not m.round.over:
        hands = m.round.hands
        for seat in range(players):
            view = m.view(seat)
            others = {c for s, h in enumerate(hands) if s != seat for c in h}
            assert view.hand == hands[seat]
            assert not (_cards_in(view) & others)
            text = json.dumps(view.to_dict())
            assert not any(f'"{c.code}"' in text for c in others)
        public = m.public_view()
        assert public.seat is None and public.hand == ()
        assert not (_cards_in(public) & {c for h in hands for c in h})
        m.play(rng.choice(m.round.legal_plays()))


def test_a_view_holds_the_public_facts():
    rng = random.Random(20)
    m = Match(Rules(players=4), dealer=2)
    m.start_round(random_deck(rng))
    for _ in range(21):
        m.play(rng.choice(m.round.legal_plays()))
    r = m.round
    v = m.view(1)
    assert isinstance(v, SeatView)
    assert (v.seat, v.players, v.rules, v.round_number, v.dealer) == (1, 4, m.rules, 1, 2)
    assert v.turn == r.turn == (2 + 1 + 21) % 4
    assert v.floor == r.floor
    assert v.hand_sizes == tuple(len(h) for h in r.hands) and sum(v.hand_sizes) == 16 - 21 % 16
    assert v.stock_size == len(r.stock) == 16
    assert v.pile_sizes == tuple(len(p) for p in r.piles)
    assert (v.basras, v.jack_basras, v.scores) == (r.basras, r.jack_basras, (0, 0))
    assert v.played == tuple((p.seat, p.card) for p in r.plays) and len(v.played) == 21
    assert isinstance(v.last_play, Play) and v.last_play == r.plays[-1]
    assert (v.round_over, v.match_over, v.winner, v.round_score) == (False, False, None, None)
    assert v.initial_floor == r.initial_floor
    assert not hasattr(v, "buried")  # buried cards end up in hands: never in a view
    # 52 cards: own hand, the others' hand sizes, the stock, and what every seat has seen.
    assert len(v.hand) + sum(v.hand_sizes) - v.hand_sizes[1] + v.stock_size + len(
        set(v.initial_floor) | {c for _, c in v.played}
    ) == 52


def test_a_view_is_a_frozen_value_detached_from_the_match():
    rng = random.Random(21)
    m = Match(Rules())
    m.start_round(random_deck(rng))
    view = m.view(1)
    copy = dataclasses.replace(view)
    for _ in range(10):
        m.play(rng.choice(m.round.legal_plays()))
    assert view == copy and view != m.view(1)
    with pytest.raises(dataclasses.FrozenInstanceError):
        view.turn = 0
    for field in dataclasses.fields(view):
        value = getattr(view, field.name)
        assert not isinstance(value, (list, dict, set, Match)), field.name


def test_view_before_the_first_deal_and_after_the_end():
    m = Match(Rules(target=1), dealer=1)
    v = m.view(0)
    assert (v.round_number, v.dealer, v.turn, v.hand, v.floor, v.hand_sizes) == (0, 1, None, (), (), (0, 0))
    assert v.last_play is None and not v.round_over and not v.match_over
    rng = random.Random(22)
    while not m.over:
        m.start_round(random_deck(rng))
        play_out(m, rng.choice)
    v = m.view(1)
    assert v.turn is None and v.round_over and v.match_over and v.winner == m.winner
    assert v.round_score == m.round.score_breakdown()
    assert v.hand_sizes == (0, 0) and v.stock_size == 0
    data = json.loads(json.dumps(v.to_dict()))
    assert data["round_score"]["total"] == list(m.round.score())
    assert data["winner"] == m.winner


@pytest.mark.parametrize("seat", [2, -1, None, "0", True])
def test_a_view_of_a_seat_that_does_not_exist_is_refused(seat):
    with pytest.raises(SeatError):
        Match(Rules()).view(seat)


def test_view_to_dict_is_json_with_codes():
    m = Match(Rules())
    m.start_round(full_deck())
    m.play(m.round.legal_plays()[0])
    d = m.view(0).to_dict()
    assert json.loads(json.dumps(d)) == d
    assert d["hand"] == [c.code for c in m.round.hands[0]]
    assert d["last_play"]["card"] == m.round.plays[0].card.code
    assert d["rules"] == Rules().to_dict()
    assert d["played"] == [{"seat": 1, "card": m.round.plays[0].card.code}]


def test_a_jack_buried_at_the_deal_is_not_named_once_it_is_in_a_hand():
    """The JH is buried from the first floor, later dealt to seat 0: seat 1's view never names it."""
    front = ["2C", "3C", "4C", "5C", "2D", "3D", "4D", "5D", "JH", "6C", "6D", "6H"]
    rest = [c for c in full_deck() if c.code not in front]
    m = Match(Rules(), dealer=0)
    m.start_round([Card.from_code(code) for code in front] + rest)
    jack = Card.from_code("JH")
    assert jack not in m.round.floor  # buried under the stock
    while not any(jack in hand for hand in m.round.hands):
        m.play(m.round.hands[m.round.turn][0])
    holder = next(seat for seat, hand in enumerate(m.round.hands) if jack in hand)
    for seat in range(2):
        if seat != holder:
            view = m.view(seat)
            assert jack not in _cards_in(view)
            assert '"JH"' not in json.dumps(view.to_dict())
