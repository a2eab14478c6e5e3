"""Hypothesis properties of the engine (STYLE.md, "In this project" 9)."""

from __future__ import annotations

import json
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import Match, Round, Rules, full_deck, replay

rules_st = st.builds(
    Rules,
    players=st.sampled_from([2, 4]),
    target=st.integers(min_value=1, max_value=160),
    majority_points=st.integers(min_value=0, max_value=40),
    basra_points=st.integers(min_value=0, max_value=20),
    jack_basra_points=st.sampled_from([0, 20, 30]),
    card_points=st.booleans(),
    seven_diamonds=st.sampled_from(["wild", "classic", "plain"]),
)
deck_st = st.permutations(full_deck())
FEW = settings(max_examples=60, deadline=None)


def places(rnd: Round) -> Counter:
    """How many places each card is in: stock, hands, floor, piles."""
    seen = Counter(rnd.stock)
    for hand in rnd.hands:
        seen.update(hand)
    seen.update(rnd.floor)
    for pile in rnd.piles:
        seen.update(pile)
    return seen


@FEW
@given(rules=rules_st, deck=deck_st, dealer=st.integers(0, 3), seed=st.integers(0, 2**32))
def test_every_card_is_always_in_exactly_one_place(rules, deck, dealer, seed):
    rng = random.Random(seed)
    rnd = Round(rules, deck, dealer % rules.players)
    everything = Counter(full_deck())
    assert places(rnd) == everything
    while not rnd.over:
        rnd.play(rng.choice(rnd.legal_plays()))
        assert places(rnd) == everything


@FEW
@given(rules=rules_st, deck=deck_st, dealer=st.integers(0, 3), seed=st.integers(0, 2**32))
def test_random_legal_play_always_ends_after_48_plays(rules, deck, dealer, seed):
    rng = random.Random(seed)
    rnd = Round(rules, deck, dealer % rules.players)
    plays = 0
    while not rnd.over:
        assert plays < 48 and rnd.legal_plays()
        rnd.play(rng.choice(rnd.legal_plays()))
        plays += 1
    assert plays == 48 and rnd.turn is None
    assert sum(map(len, rnd.piles)) + len(rnd.floor) == 52
    assert rnd.floor == () or rnd.last_capturer is None


def random_match(rules: Rules, seed: int, max_rounds: int = 12) -> Match:
    rng = random.Random(seed)
    m = Match(rules, dealer=rng.randrange(rules.players))
    while not m.over and m.round_number < max_rounds:
        deck = full_deck()
        rng.shuffle(deck)
        m.start_round(deck)
        while not m.round.over:
            m.play(rng.choice(m.round.legal_plays()))
    return m


@FEW
@given(rules=rules_st, seed=st.integers(0, 2**32))
def test_replaying_the_record_gives_the_live_scores_and_winner(rules, seed):
    m = random_match(rules, seed)
    result = replay(m.to_record([f"p{s}" for s in range(rules.players)]))
    assert (result.scores, result.winner) == (m.scores, m.winner)
    assert result.match.round_scores == m.round_scores
    assert result.match.dealer == m.dealer


@FEW
@given(rules=rules_st, seed=st.integers(0, 2**32), cut=st.integers(0, 47))
def test_a_record_survives_a_json_round_trip(rules, seed, cut):
    m = random_match(rules, seed, max_rounds=2)
    if not m.over:
        # Leave the last round unfinished: a record of a match in progress.
        deck = full_deck()
        random.Random(seed).shuffle(deck)
        m.start_round(deck)
        for _ in range(cut):
            m.play(m.round.legal_plays()[0])
    record = m.to_record(["north", "east", "south", "west"][: rules.players])
    text = json.dumps(record)
    assert json.loads(text) == record
    again = replay(json.loads(text))
    assert (again.scores, again.winner) == (m.scores, m.winner)
    for seat in range(rules.players):
        assert again.match.view(seat) == m.view(seat)
    assert again.match.to_record(list(again.seats)) == record
