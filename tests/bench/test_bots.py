"""The bot bench's ceilings (``bench/bots.py``): what each is given of the true deal."""

from __future__ import annotations

import random

from dataclasses import replace

from bench.bots import CheatBot, HandsCheatBot, ModelExpertBot, OracleExpertBot
from games.engine import Match, Rules, full_deck
from games.engine.bots import StrongBot, same_class
from games.engine.bots.seat import hidden_cards


def a_round_in_its_second_deal(seed: int = 3) -> Match:
    """A two-player round after the first deal's eight plays, with Jacks or the 7D buried."""
    rng = random.Random(seed)
    while True:
        m = Match(Rules(), dealer=0)
        deck = full_deck()
        rng.shuffle(deck)
        m.start_round(deck)
        if m.round.buried:
            break
    for _ in range(8):
        m.play(m.round.hands[m.round.turn][0], seat=m.round.turn)
    return m


def test_the_hands_ceiling_sees_every_hand_and_not_the_stocks_order():
    m = a_round_in_its_second_deal()
    seat = m.round.turn
    view = m.view(seat)
    bot = HandsCheatBot(seed=1, iterations=10)
    bot.see(m.round)
    rng = random.Random(0)
    stock = list(m.round.stock)
    buried = [c for c in m.round.buried if c in stock]
    assert buried
    orders = set()
    for _ in range(20):
        world = bot._determinize(view, [], rng)
        assert [list(h) for h in world.hands] == [list(h) for h in m.round.hands]
        assert sorted(world.stock) == sorted(stock)
        assert world.stock[len(stock) - len(buried):] == buried  # still at the bottom, in order
        orders.add(tuple(world.stock))
    assert len(orders) > 1  # the order of the deals to come is drawn again, not known


def test_the_full_ceiling_knows_the_stocks_order_too():
    m = a_round_in_its_second_deal()
    view = m.view(m.round.turn)
    bot = CheatBot(seed=1, iterations=10)
    bot.see(m.round)
    world = bot._determinize(view, [], random.Random(0))
    assert world.stock == list(m.round.stock)


def test_the_model_prototype_deals_hands_from_its_weighted_pool_and_keeps_every_card():
    m = a_round_in_its_second_deal()
    history = []
    # Two more plays of this deal, each view kept, as the bench keeps them.
    for _ in range(2):
        history.append(m.view(m.round.turn))
        m.play(m.round.hands[m.round.turn][0], seat=m.round.turn)
    view = m.view(m.round.turn)
    history.append(view)
    bot = ModelExpertBot(seed=1, iterations=10, pool=6, model=5)
    bot.history = history
    bot.evaluate(view)  # draws the pool and weights it
    assert len(bot._hands) == 6 and all(0 < w <= 1 for w in bot._weights)
    other = 1 - view.seat
    hidden = hidden_cards(view)
    rng = random.Random(0)
    for _ in range(20):
        world = bot._determinize(view, hidden, rng)
        assert tuple(world.hands[other]) in bot._hands
        assert sorted(world.hands[other] + list(world.stock)) == sorted(hidden)


def test_the_oracle_bound_keeps_only_hands_with_which_the_other_seats_bot_plays_as_it_did():
    # A strong bot at seat 1, with its hand sorted as the bench hands it, plays against first
    # cards at seat 0 into the second deal; the oracle at seat 0 then knows that bot's seed and
    # cap. ``history`` holds the view before each play of the round, as the bench keeps it.
    rng = random.Random(5)
    m = Match(Rules(), dealer=0)
    deck = full_deck()
    rng.shuffle(deck)
    m.start_round(deck)
    other = StrongBot(seed=7, samples=5, clock=lambda: 0.0)
    history = []
    while len(history) < 11:
        seat = m.round.turn
        view = m.view(seat)
        history.append(view)
        if seat == 1:
            card = other.choose(replace(view, hand=tuple(sorted(view.hand, key=lambda c: c.index))))
        else:
            card = m.round.hands[seat][0]
        m.play(card, seat=seat)
    view = m.view(0)
    assert m.round.turn == 0 and any(s == 1 for s, _ in view.played[8:])
    history.append(view)
    bot = OracleExpertBot(seed=1, iterations=10, pool=40, model=5, tries=40)
    bot.history, bot.model_seed = history, 7
    bot.evaluate(view)
    plays = [(history[i], c) for i, (s, c) in enumerate(view.played) if i >= 8 and s == 1]

    def agrees(hand):
        judge = StrongBot(seed=7, samples=5, clock=lambda: 0.0)
        later = [c for _, c in plays]
        for j, (then, card) in enumerate(plays):
            held = tuple(sorted(tuple(hand) + tuple(later[j:]), key=lambda c: c.index))
            if not same_class(judge.choose(replace(then, hand=held)), card, view.rules):
                return False
        return True

    assert len(plays) == 2 and agrees(m.round.hands[1])  # the truth agrees with every play
    # Of the 40 hands drawn some disagree and are left out; every hand kept agrees.
    assert 0 < len(bot._hands) < 40
    assert all(agrees(hand) for hand in bot._hands)
    kept = {frozenset(h) for h in bot._hands}
    # A judge with another seed keeps another pool: the seed is what it knows.
    wrong = OracleExpertBot(seed=1, iterations=10, pool=40, model=5, tries=40)
    wrong.history, wrong.model_seed = history, 8
    wrong.evaluate(view)
    assert {frozenset(h) for h in wrong._hands} != kept


def test_the_oracle_bound_draws_as_the_expert_before_the_other_seat_has_played_in_the_deal():
    m = a_round_in_its_second_deal()
    view = m.view(m.round.turn)
    assert all(i < 8 for i, _ in enumerate(view.played) if i >= 8) and len(view.played) == 8
    bot = OracleExpertBot(seed=1, iterations=10, pool=4, model=5, tries=8)
    bot.history = [view] * 9
    bot.evaluate(view)
    other = 1 - view.seat
    hidden = hidden_cards(view)
    rng = random.Random(0)
    hands = {frozenset(bot._determinize(view, hidden, rng).hands[other]) for _ in range(20)}
    assert len(hands) > 10  # a fresh deal each time, not one hand drawn once
