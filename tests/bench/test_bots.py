"""The bot bench's ceilings (``bench/bots.py``): what each is given of the true deal."""

from __future__ import annotations

import random

from bench.bots import CheatBot, HandsCheatBot, ModelExpertBot
from games.engine import Match, Rules, full_deck
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
