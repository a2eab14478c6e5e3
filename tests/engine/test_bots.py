"""The computer opponents (games/engine/bots/): legal cards, greedy choices, no peeking, time, seeds."""

from __future__ import annotations

import doctest
import gc
import math
import random
import types

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import Card, Match, Round, Rules, full_deck
from games.engine import bots as bots_module
from games.engine.bots import BOTS, ExpertBot, GreedyBot, RandomBot, StrongBot, hidden_cards
from tests.engine.helpers import FakeClock, cards, make_view, still

MODES = ("wild", "classic", "plain")
FEW = settings(max_examples=40, deadline=None)


def fast(name: str, seed: int = 1) -> bots_module.Bot:
    """A bot as the tests use it: the strong one with a small sample cap, the expert with a
    small iteration cap, so they are quick."""
    if name == "strong":
        return StrongBot(seed=seed, time_limit=1.0, samples=3, clock=still)
    if name == "expert":
        return ExpertBot(seed=seed, time_limit=1.0, iterations=30, clock=still)
    return BOTS[name](seed=seed, time_limit=1.0)


def position(players: int, mode: str, card_points: bool, seed: int) -> Match:
    """A match part-way through a round: a random deck, a random dealer, random plays."""
    rng = random.Random(seed)
    m = Match(Rules(players=players, seven_diamonds=mode, card_points=card_points),
              dealer=rng.randrange(players))
    deck = full_deck()
    rng.shuffle(deck)
    m.start_round(deck)
    for _ in range(rng.randrange(48)):
        m.play(rng.choice(m.round.legal_plays()))
    return m


# --- every bot plays a card of its own hand -------------------------------------------------


@pytest.mark.parametrize("name", sorted(BOTS))
@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("mode", MODES)
@FEW
@given(seed=st.integers(0, 2**32), card_points=st.booleans())
def test_every_bot_returns_a_card_of_the_hand(name, players, mode, seed, card_points):
    m = position(players, mode, card_points, seed)
    view = m.view(m.round.turn)
    card = fast(name, seed).choose(view)
    assert card.__class__ is Card
    assert card in view.hand


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("mode", MODES)
def test_bots_play_whole_matches(players, mode):
    """Strong against expert (two players), with greedy and random partners (four), whole
    short matches: every play is legal."""
    rng = random.Random(players * 10 + MODES.index(mode))
    m = Match(Rules(players=players, seven_diamonds=mode, target=40), dealer=0)
    seats = [fast("strong", 1), fast("expert", 2), fast("greedy", 3), fast("random", 4)]
    while not m.over:
        deck = full_deck()
        rng.shuffle(deck)
        m.start_round(deck)
        while not m.round.over:
            seat = m.round.turn
            m.play(seats[seat].choose(m.view(seat)), seat=seat)
    assert m.winner in (0, 1)


def test_a_bot_refuses_an_empty_hand():
    view = make_view("", "5H")
    for name in BOTS:
        with pytest.raises(ValueError):
            fast(name).choose(view)


# --- what a bot may know -------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("mode", MODES)
@FEW
@given(seed=st.integers(0, 2**32))
def test_hidden_cards_are_exactly_the_other_hands_and_the_stock(players, mode, seed):
    m = position(players, mode, False, seed)
    rnd = m.round
    seat = rnd.turn
    expected = set(rnd.stock)
    for s, hand in enumerate(rnd.hands):
        if s != seat:
            expected.update(hand)
    assert set(hidden_cards(m.view(seat))) == expected


@pytest.mark.parametrize("players", [2, 4])
@FEW
@given(seed=st.integers(0, 2**32))
def test_the_last_capturer_is_read_from_public_facts(players, seed):
    m = position(players, "wild", False, seed)
    assert bots_module._last_capturer(m.view(m.round.turn)) == m.round.last_capturer


def _reachable(root: object) -> list[object]:
    """Every object reachable from ``root`` through ``gc.get_referents``, not entering classes,
    modules or functions (from a class, its methods' globals reach the module's tables)."""
    seen: dict[int, object] = {}
    stack = [root]
    while stack:
        obj = stack.pop()
        if id(obj) in seen:
            continue
        seen[id(obj)] = obj
        if isinstance(obj, (type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType)):
            continue
        stack.extend(gc.get_referents(obj))
    return list(seen.values())


@pytest.mark.parametrize("players", [2, 4])
def test_a_view_holds_no_round_no_match_and_no_other_hand(players):
    for seed in range(20):
        m = position(players, "wild", False, seed)
        rnd = m.round
        seat = rnd.turn
        objects = _reachable(m.view(seat))
        assert not [o for o in objects if isinstance(o, (Round, Match))]
        others = {c for s, hand in enumerate(rnd.hands) if s != seat for c in hand}
        others.update(rnd.stock)
        reached = {o for o in objects if o.__class__ is Card}
        assert set(rnd.hands[seat]) <= reached  # the walk does reach the cards of the view
        assert not reached & others


def _twin_matches() -> tuple[Match, Match]:
    """Two 2-player matches ten plays in, alike for seat 1 but with different hidden cards.

    Deck B is deck A with the last card of seat 0's second hand swapped with a card of the last
    deal. Both play the first card of the hand every turn, so seat 0 never plays the swapped
    card in these ten plays and every public fact stays the same.
    """
    rng = random.Random(7)
    while True:
        deck_a = full_deck()
        rng.shuffle(deck_a)
        # No Jack or 7D on the first floor, so nothing is buried and positions stay put.
        if not any(c.rank == 11 or c.code == "7D" for c in deck_a[8:12]):
            break
    deck_b = list(deck_a)
    deck_b[19], deck_b[48] = deck_b[48], deck_b[19]
    matches = []
    for deck in (deck_a, deck_b):
        m = Match(Rules(), dealer=0)
        m.start_round(deck)
        for _ in range(10):
            m.play(m.round.legal_plays()[0])
        matches.append(m)
    return matches[0], matches[1]


def test_changing_hidden_cards_does_not_change_a_bots_choice():
    a, b = _twin_matches()
    assert a.round.turn == b.round.turn == 1
    assert a.round.hands[0] != b.round.hands[0]  # the opponent holds another card
    assert a.round.stock != b.round.stock
    view_a, view_b = a.view(1), b.view(1)
    assert view_a == view_b
    for name in BOTS:
        for seed in range(5):
            strong = name == "strong"
            bot_a = StrongBot(seed=seed, samples=10, clock=still) if strong else fast(name, seed)
            bot_b = StrongBot(seed=seed, samples=10, clock=still) if strong else fast(name, seed)
            assert bot_a.choose(view_a) == bot_b.choose(view_b)


# --- greedy --------------------------------------------------------------------------------


def test_greedy_takes_a_basra_rather_than_a_plain_sweep():
    # 9S takes 5S 4H 2D 7C for a basra (RULES.md example); JD would sweep them with no bonus.
    view = make_view("JD 9S 3C KD", "5S 4H 2D 7C")
    assert GreedyBot().choose(view) == Card.from_code("9S")


def test_greedy_prefers_a_capture_to_no_capture():
    # 8C takes 8H and leaves K Q (no card sweeps them for a basra); 3D and 4S take nothing.
    view = make_view("3D 8C 4S", "8H KS QD")
    assert GreedyBot().choose(view) == Card.from_code("8C")


def test_greedy_prefers_the_larger_capture():
    # 10H takes 10C, 6S+4D: three floor cards; 6D takes 6S only.
    view = make_view("6D 10H", "10C 6S 4D KS")
    assert GreedyBot().choose(view) == Card.from_code("10H")


def test_greedy_does_not_leave_an_easy_basra():
    # Nothing captures. 5C would leave 4H 5C, which any of the four unseen 9s sweeps for a
    # basra; KD leaves 4H KD, which nothing sweeps for a bonus. Without the danger the tie-break
    # would dump the lower 5C.
    view = make_view("5C KD", "4H")
    values = bots_module.greedy_values(view)
    assert values[Card.from_code("5C")] < values[Card.from_code("KD")] == 0
    assert GreedyBot().choose(view) == Card.from_code("KD")


def test_the_basra_danger_is_the_chance_the_next_seat_holds_a_sweeping_card():
    # After 5C on 4H: the four 9s and the wild 7D sweep 4H 5C for a basra. 49 cards are unseen
    # and the next seat holds 2: it holds one of those 5 with chance 1 - C(44, 2) / C(49, 2).
    view = make_view("5C KD", "4H")
    chance = 1 - math.comb(44, 2) / math.comb(49, 2)
    assert bots_module.greedy_values(view)[Card.from_code("5C")] == pytest.approx(-10 * chance)
    # In plain mode the 7D is an ordinary 7 and does not sweep: 4 cards of 49.
    view = make_view("5C KD", "4H", rules=Rules(seven_diamonds="plain"))
    chance = 1 - math.comb(45, 2) / math.comb(49, 2)
    assert bots_module.greedy_values(view)[Card.from_code("5C")] == pytest.approx(-10 * chance)


def test_greedy_dumps_the_low_card_on_a_tie():
    # Nothing captures and, with a King and a Queen down, no card can sweep for a bonus.
    view = make_view("10S 3S", "KS QH 9D 8C")
    values = bots_module.greedy_values(view)
    assert values[Card.from_code("10S")] == values[Card.from_code("3S")] == 0
    assert GreedyBot().choose(view) == Card.from_code("3S")


def test_greedy_keeps_the_seven_of_diamonds_and_jacks_on_a_tie():
    # With jack basras off, a Jack or the 7D sweeping a lone Jack scores nothing; a Jack and the
    # 7D each take the lone JS, worth the same, so the tie keeps the 7D.
    view = make_view("7D JC", "JS", rules=Rules(jack_basra_points=0, seven_diamonds="wild"))
    values = bots_module.greedy_values(view)
    assert values[Card.from_code("7D")] == values[Card.from_code("JC")] == 2
    assert GreedyBot().choose(view) == Card.from_code("JC")


@pytest.mark.parametrize("card_points, best", [(True, "10D"), (False, "9H")])
def test_greedy_counts_card_points_when_they_are_on(card_points, best):
    # 10D takes 10C and 9H takes 9S: two cards each, leaving a floor nobody sweeps for a bonus.
    # With card points the 10D is worth 3 more; without, the tie dumps the lower 9H.
    view = make_view("10D 9H", "10C 9S KS QD", rules=Rules(card_points=card_points))
    assert GreedyBot().choose(view) == Card.from_code(best)


# --- strong --------------------------------------------------------------------------------


@pytest.mark.parametrize("horizon", [1, 8, 48])
@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.sampled_from([2, 4]))
def test_strong_plays_a_card_of_the_hand_whatever_its_horizon(horizon, seed, players):
    m = position(players, "wild", False, seed)
    view = m.view(m.round.turn)
    assert StrongBot(seed=seed, samples=3, horizon=horizon, clock=still).choose(view) in view.hand


def test_a_bot_asked_out_of_turn_still_names_a_card_of_its_hand():
    m = position(2, "wild", False, 3)
    waiting = 1 - m.round.turn
    view = m.view(waiting)
    for name in BOTS:
        assert fast(name).choose(view) in view.hand


def test_strong_takes_an_obvious_basra():
    view = make_view("9C 2D 3H 6S", "5S 4H")
    assert StrongBot(seed=3, samples=20, clock=still).choose(view) == Card.from_code("9C")


@pytest.mark.parametrize("time_limit", [0.05, 0.3, 1.0])
def test_strong_stops_within_its_time_limit(time_limit):
    view = make_view("9C 2D 3H 6S", "5S KH")
    clock = FakeClock(0.001)  # every rollout takes a millisecond
    bot = StrongBot(seed=1, time_limit=time_limit, samples=10**6, clock=clock)
    start = clock.now
    assert bot.choose(view) in view.hand
    assert clock.now - start <= time_limit
    assert 0 < bot.last_samples < 10**6


def test_strong_never_thinks_more_than_a_second():
    clock = FakeClock(0.001)
    bot = StrongBot(seed=1, time_limit=30.0, samples=10**6, clock=clock)
    assert bot.time_limit == 1.0
    view = make_view("9C 2D 3H 6S", "5S 4H")
    start = clock.now
    bot.choose(view)
    assert clock.now - start <= 1.0


def test_strong_stops_at_its_sample_cap():
    bot = StrongBot(seed=1, samples=7, clock=still)
    bot.choose(make_view("9C 2D 3H 6S", "5S KH"))
    assert bot.last_samples == 7


def test_bad_bot_settings_are_refused():
    for name in BOTS:
        with pytest.raises(ValueError):
            BOTS[name](seed=1, time_limit=0)
    with pytest.raises(ValueError):
        StrongBot(samples=0)


# --- seeds ---------------------------------------------------------------------------------


def _play_match(names: tuple[str, str], seed: int, players: int = 2) -> dict:
    rng = random.Random(seed)
    m = Match(Rules(players=players, target=60), dealer=0)
    seats = [fast(names[s % 2], seed + s) if names[s % 2] != "strong"
             else StrongBot(seed=seed + s, samples=2, clock=still) for s in range(players)]
    while not m.over:
        deck = full_deck()
        rng.shuffle(deck)
        m.start_round(deck)
        while not m.round.over:
            seat = m.round.turn
            m.play(seats[seat].choose(m.view(seat)))
    return m.to_record([str(s) for s in range(players)])


@pytest.mark.parametrize("names", [("random", "greedy"), ("greedy", "random")])
@pytest.mark.parametrize("players", [2, 4])
def test_random_and_greedy_are_deterministic_for_a_seed(names, players):
    assert _play_match(names, 5, players) == _play_match(names, 5, players)


def test_the_random_bots_seed_matters():
    view = make_view("AC 2C 3C 4C", "KD")
    picks = {RandomBot(seed=s).choose(view) for s in range(30)}
    assert len(picks) > 1
    assert RandomBot(seed=4).choose(view) == RandomBot(seed=4).choose(view)


def test_strong_is_deterministic_for_a_seed_with_a_sample_cap():
    tried = 0
    for seed in range(40):
        m = position(2, "wild", False, seed)
        if len(bots_module._distinct(m.round.legal_plays(), m.rules)) < 2:
            continue  # one kind of card in hand: nothing to search
        tried += 1
        view = m.view(m.round.turn)
        first = StrongBot(seed=seed, samples=8, clock=still)
        again = StrongBot(seed=seed, samples=8, clock=still)
        picks = [first.choose(view), first.choose(view), again.choose(view)]
        assert first.last_samples == 8
        assert picks[0] == picks[1] == picks[2]
    assert tried >= 6


def test_doctests():
    failed, attempted = doctest.testmod(bots_module)
    assert attempted > 0 and failed == 0
