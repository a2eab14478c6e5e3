"""The expert bot: its last-deal solver against a brute force, its budget, its determinism."""

from __future__ import annotations

import copy
import dataclasses
import random

import pytest

from games.engine import Card, Match, Round, Rules, capture, full_deck
from games.engine.bots import ExpertBot, GreedyBot, StrongBot, hidden_cards, same_class, solve
from games.engine.bots import strong as strong_module
from games.engine.bots.expert import passed_over, unlikely_cards
from games.engine.bots.playout import _sample_world
from tests.engine.helpers import FakeClock, make_view, still


def last_deal(seed: int, rules: Rules, extra: int = 0) -> Match:
    """A two-player match in its first round at the last deal (stock empty), ``extra`` plays in,
    the plays before it made by the greedy bot."""
    rng = random.Random(seed)
    m = Match(rules, dealer=rng.randrange(2))
    deck = full_deck()
    rng.shuffle(deck)
    m.start_round(deck)
    greedy = GreedyBot()
    while m.round.stock or len(m.round.hands[m.round.turn]) < 4:
        m.play(greedy.choose(m.view(m.round.turn)))
    for _ in range(extra):
        m.play(greedy.choose(m.view(m.round.turn)))
    return m


def brute(rnd: Round, side: int) -> float:
    """Minimax over every order of play, by the engine itself: the final round-points
    difference for ``side`` (Round.score), both sides playing their best."""
    if rnd.over:
        score = rnd.score()
        return score[side] - score[1 - side]
    values = []
    for card in rnd.hands[rnd.turn]:
        child = copy.deepcopy(rnd, {id(rnd.rules): rnd.rules})
        child.play(card)
        values.append(brute(child, side))
    return max(values) if rnd.turn % 2 == side else min(values)


def made_so_far(rnd: Round, side: int) -> int:
    """Round points a side already holds before the last deal is played: bonuses, card points."""
    rules = rnd.rules
    def points(s: int) -> int:
        total = rnd.basras[s] * rules.basra_points + rnd.jack_basras[s] * rules.jack_basra_points
        if rules.card_points:
            total += sum(c.points for c in rnd.piles[s])
        return total
    return points(side) - points(1 - side)


@pytest.mark.parametrize(("mode", "card_points", "extra"), [
    ("wild", False, 0), ("wild", True, 3), ("classic", False, 3), ("classic", True, 0),
    ("plain", False, 3), ("plain", True, 3),
])
def test_the_last_deal_solver_matches_a_brute_force(mode, card_points, extra):
    rules = Rules(seven_diamonds=mode, card_points=card_points)
    for seed in range(2):
        m = last_deal(seed * 7 + extra, rules, extra)
        rnd = m.round
        seat = rnd.turn
        side = seat % 2
        view = m.view(seat)
        world = _sample_world(view, hidden_cards(view), random.Random(0))
        assert sorted(world.hands[1 - seat]) == sorted(rnd.hands[1 - seat])  # the view decides it
        offset = made_so_far(rnd, side)
        for card in rnd.hands[seat]:
            child = copy.deepcopy(rnd)
            child.play(card)
            assert solve(world, card, rules, side) + offset == brute(child, side), (seed, card)


def test_the_expert_plays_the_solved_best_card_in_the_last_deal():
    for seed in range(3):
        m = last_deal(seed, Rules(), extra=1)
        rnd = m.round
        seat = rnd.turn
        bot = ExpertBot(seed=1, iterations=5, clock=still)
        view = m.view(seat)
        values = bot.evaluate(view)
        assert bot.last_exact and bot.last_samples == 1
        exact = {}
        for card in rnd.hands[seat]:
            child = copy.deepcopy(rnd)
            child.play(card)
            exact[card] = brute(child, seat % 2)
        best = max(exact.values())
        assert exact[bot.choose(view)] == best
        for card, value in values.items():
            assert value + made_so_far(rnd, seat % 2) == exact[card]


def test_the_solver_needs_an_empty_stock():
    rng = random.Random(1)
    m = Match(Rules(), dealer=0)
    deck = full_deck()
    rng.shuffle(deck)
    m.start_round(deck)
    view = m.view(m.round.turn)
    world = _sample_world(view, hidden_cards(view), rng)
    with pytest.raises(ValueError, match="empty stock"):
        solve(world, view.hand[0], Rules(), 0)


def two_player_view(seed: int = 4):
    """A two-player view a few plays into a round, of a seat holding cards of two classes or
    more (so that the expert searches)."""
    rng = random.Random(seed)
    m = Match(Rules(), dealer=0)
    deck = full_deck()
    rng.shuffle(deck)
    m.start_round(deck)
    for _ in range(5):
        m.play(GreedyBot().choose(m.view(m.round.turn)))
    while len({c.rank for c in m.round.hands[m.round.turn]}) < 2:
        m.play(GreedyBot().choose(m.view(m.round.turn)))
    return m.view(m.round.turn)


@pytest.mark.parametrize("time_limit", [0.05, 0.3, 1.0])
def test_the_expert_stops_within_its_time_limit(time_limit):
    view = two_player_view()
    clock = FakeClock(0.0005)  # every iteration reads the clock once: half a millisecond each
    bot = ExpertBot(seed=1, time_limit=time_limit, iterations=10**6, clock=clock)
    start = clock.now
    assert bot.choose(view) in view.hand
    assert clock.now - start <= time_limit
    assert 0 < bot.last_samples < 10**6


def test_the_expert_never_thinks_more_than_a_second():
    clock = FakeClock(0.0005)
    bot = ExpertBot(seed=1, time_limit=30.0, iterations=10**6, clock=clock)
    assert bot.time_limit == 1.0
    view = two_player_view()
    start = clock.now
    bot.choose(view)
    assert clock.now - start <= 1.0


def test_the_expert_stops_at_its_iteration_cap_and_is_deterministic_for_a_seed():
    view = two_player_view()
    first = ExpertBot(seed=3, iterations=200, clock=still)
    again = ExpertBot(seed=3, iterations=200, clock=still)
    assert first.evaluate(view) == again.evaluate(view)
    assert first.last_samples == 200
    assert first.choose(view) == again.choose(view)


def test_the_expert_values_every_card_it_could_play():
    view = two_player_view()
    values = ExpertBot(seed=3, iterations=200, clock=still).evaluate(view)
    for card in view.hand:
        assert sum(same_class(card, key, view.rules) for key in values) == 1


def test_the_expert_takes_an_obvious_basra():
    view = make_view("9C 2D 3H 6S", "5S 4H")
    assert ExpertBot(seed=3, iterations=300, clock=still).choose(view) == Card.from_code("9C")


def test_bad_expert_settings_are_refused():
    with pytest.raises(ValueError):
        ExpertBot(iterations=0)
    with pytest.raises(ValueError):
        ExpertBot(time_limit=-1)
    view = two_player_view()
    with pytest.raises(ValueError, match="seat to move"):
        ExpertBot(clock=still).evaluate(dataclasses.replace(view, turn=1 - view.seat))


def greedy_round(seed: int, players: int = 2) -> Match:
    """A match in its first round, dealt from ``seed``, with nothing played yet."""
    rng = random.Random(seed)
    m = Match(Rules(players=players), dealer=0)
    deck = full_deck()
    rng.shuffle(deck)
    m.start_round(deck)
    return m


def test_a_seat_that_passed_up_a_basra_is_taken_not_to_hold_the_cards_that_made_it():
    rules = Rules()
    fired = 0
    for seed in range(12):
        m = greedy_round(seed)
        greedy = GreedyBot()
        while not m.round.over:
            seat = m.round.turn
            view = m.view(seat)
            absent = unlikely_cards(view)
            assert set(absent) <= {1 - seat}
            other = 1 - seat
            # The greedy bot takes every basra it has: what is inferred is never in its hand.
            assert not absent.get(other, set()) & set(m.round.hands[other])
            assert absent.get(other, set()) <= set(hidden_cards(view))
            for card in absent.get(other, ()):
                fired += 1
                # Each inferred card would have made a basra on a floor of this deal that the
                # other seat played on without one.
                start = len(view.played) // 8 * 8  # the deal began: 4 plays a seat
                assert any(
                    s == other and capture(card, floor, rules).basra is not None
                    and capture(played, floor, rules).basra is None
                    for s, played, floor in floors_before(view)[start:]
                )
            m.play(greedy.choose(view))
    assert fired > 20


def floors_before(view):
    """Each play of the round with the floor it was played on: ``(seat, card, floor)``."""
    floor = list(view.initial_floor)
    out = []
    for seat, card in view.played:
        out.append((seat, card, list(floor)))
        taken = capture(card, floor, view.rules).taken if floor else ()
        floor = [c for c in floor if c not in taken] if taken else floor + [card]
    return out


def test_determinizations_keep_the_inferred_cards_out_of_the_other_hand():
    for seed in range(12):
        m = greedy_round(seed)
        greedy = GreedyBot()
        while m.round.stock:
            view = m.view(m.round.turn)
            absent = unlikely_cards(view)
            if absent:
                bot = ExpertBot(seed=1, iterations=1, clock=still)
                bot._absent = absent
                rng = random.Random(seed)
                hidden = hidden_cards(view)
                for _ in range(30):
                    world = bot._determinize(view, hidden, rng)
                    other = 1 - view.seat
                    assert not set(world.hands[other]) & absent[other]
                    assert len(world.hands[other]) == view.hand_sizes[other]
                    dealt = set(world.stock) | set(world.hands[other])
                    assert dealt == set(hidden) and len(world.stock) == view.stock_size
                    buried = [c for c in getattr(view, "buried", ()) if c in dealt]
                    assert world.stock[len(world.stock) - len(buried):] == buried  # still at the bottom
                return
            m.play(greedy.choose(view))
    raise AssertionError("no view with an inference")


def test_without_a_first_floor_nothing_is_inferred():
    m = greedy_round(3)
    for _ in range(6):
        m.play(GreedyBot().choose(m.view(m.round.turn)))
    view = dataclasses.replace(m.view(m.round.turn), initial_floor=None)
    assert unlikely_cards(view) == {}



def clean_share(view, passed, likelihood: float, seed: int) -> float:
    """The share of 60 determinizations in which the other seat holds no card it passed over."""
    bot = ExpertBot(seed=1, iterations=1, likelihood=likelihood, clock=still)
    bot._passed = passed if likelihood < 1 else []
    rng = random.Random(seed)
    hidden = hidden_cards(view)
    union = 0
    for _seat, bits in passed:
        union |= bits
    other = 1 - view.seat
    hands = [bot._determinize(view, hidden, rng).hands[other] for _ in range(60)]
    return sum(not any(union >> c.index & 1 for c in hand) for hand in hands) / 60


def test_a_low_likelihood_keeps_the_passed_over_cards_out_of_the_other_hand():
    rules = Rules()
    danger = rules.basra_points * 0.3
    checked = 0
    for seed in range(12):
        m = greedy_round(seed)
        greedy = GreedyBot()
        while m.round.stock:
            view = m.view(m.round.turn)
            passed = passed_over(view, danger, {})
            assert all(seat == 1 - view.seat for seat, _bits in passed)
            for _seat, bits in passed:
                assert not bits & sum(1 << c.index for c in view.hand)  # hidden cards only
            if passed and view.stock_size >= 8:
                uniform = clean_share(view, passed, 1.0, seed)
                # Eight draws at most: a clean deal is found 94% of the time when one in three
                # is; at least half of the unclean deals must go.
                if 0.3 <= uniform < 0.8:
                    assert clean_share(view, passed, 0.0, seed) - uniform >= (1 - uniform) / 2
                    checked += 1
            m.play(greedy.choose(view))
    assert checked >= 3


def better(c, card, floor, rules) -> bool:
    """Whether the greedy policy's value prefers ``c`` to ``card`` on ``floor``."""
    theirs = capture(c, floor, rules) if floor else None
    mine = capture(card, floor, rules) if floor else None
    taken = len(theirs.taken) if theirs else 0
    gone = len(mine.taken) if mine else 0
    lone = len(floor) - gone + (0 if gone else 1) == 1
    lone_c = len(floor) - taken + (0 if taken else 1) == 1
    return bool(theirs and theirs.basra) and not (mine and mine.basra) or (
        (taken + bool(taken)) - 3 * lone_c > (gone + bool(gone)) - 3 * lone)


def test_a_passed_over_card_beats_the_card_played_on_that_floor():
    rules = Rules()
    m = greedy_round(2)
    greedy = GreedyBot()
    found = 0
    while m.round.stock:
        view = m.view(m.round.turn)
        start = len(view.played) // 8 * 8
        floors = [(s, c, f) for s, c, f in floors_before(view)[start:] if s != view.seat]
        for seat, bits in passed_over(view, 3.0, {}):
            for c in hidden_cards(view):
                if bits >> c.index & 1:
                    found += 1
                    # On some floor of this deal where the seat played: more cards taken, a
                    # basra, or no lone card left where the card played left one.
                    assert any(
                        better(c, card, floor, rules) for s, card, floor in floors if s == seat
                    )
        m.play(greedy.choose(view))
    assert found


def four_player_view_with_inference() -> tuple:
    """A four-player view (greedy plays, stock not empty) of a seat holding two classes of card
    or more, in which :func:`unlikely_cards` names cards another seat lacks; with the match."""
    for seed in range(30):
        m = greedy_round(seed, players=4)
        greedy = GreedyBot()
        while m.round.stock:
            view = m.view(m.round.turn)
            if unlikely_cards(view) and len({c.rank for c in view.hand}) > 1:
                return view, m
            m.play(greedy.choose(view))
    raise AssertionError("no four-player view with an inference")


def test_with_four_players_the_expert_runs_the_strong_search_at_its_budget():
    view, _ = four_player_view_with_inference()
    expert = ExpertBot(seed=5, iterations=200, clock=still, inference=False)
    strong = StrongBot(seed=5, samples=100, clock=still)
    assert expert.evaluate(view) == strong.evaluate(view)
    assert expert.last_search == "pimc" and expert.last_samples == 100
    assert expert.choose(view) == strong.choose(view)
    tree = ExpertBot(seed=5, iterations=200, clock=still, four="ismcts")
    tree.evaluate(view)
    assert tree.last_search == "ismcts" and tree.last_samples == 200
    with pytest.raises(ValueError):
        ExpertBot(four="tree")


def test_with_four_players_no_deal_gives_a_seat_a_card_it_passed_up_a_basra_with(monkeypatch):
    view, m = four_player_view_with_inference()
    absent = unlikely_cards(view)
    # The greedy bot takes every basra it has: the inference holds for the true hands.
    assert all(not cards & set(m.round.hands[seat]) for seat, cards in absent.items())
    dealt = []

    def spy(world, *args):
        dealt.append([list(hand) for hand in world.hands])
        return rollout(world, *args)

    rollout = strong_module._rollout
    monkeypatch.setattr(strong_module, "_rollout", spy)
    bot = ExpertBot(seed=2, iterations=120, clock=still)
    bot.evaluate(view)
    assert bot.last_search == "pimc" and bot.last_samples == 60
    assert len(dealt) >= 60
    for hands in dealt:
        for seat, cards in absent.items():
            assert not cards & set(hands[seat]), (seat, cards)
    # Uniform deals do give some seat such a card: the inference changes the deals.
    dealt.clear()
    ExpertBot(seed=2, iterations=120, clock=still, inference=False).evaluate(view)
    assert any(cards & set(hands[seat]) for hands in dealt for seat, cards in absent.items())


def test_with_four_players_the_expert_stops_within_its_time_limit():
    view, _ = four_player_view_with_inference()
    clock = FakeClock(0.0005)  # every rollout reads the clock once: half a millisecond each
    bot = ExpertBot(seed=1, time_limit=0.05, iterations=10**6, clock=clock)
    start = clock.now
    assert bot.choose(view) in view.hand
    assert clock.now - start <= 0.05
    assert bot.last_search == "pimc" and 0 < bot.last_samples < 10**6 // 2
