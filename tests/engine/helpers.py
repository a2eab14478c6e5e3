"""Shared helpers for the engine tests: card parsing, a reference capture search, random play."""

from __future__ import annotations

import itertools
import random

from games.engine import Card, Round, Rules, SeatView, full_deck, parse_cards


def cards(text: str) -> tuple[Card, ...]:
    """``"5H KS 5C"`` -> the cards."""
    return parse_cards(text)


def codes(collection) -> list[str]:
    """Card codes of a collection of cards, sorted by card order (for readable comparisons)."""
    return [c.code for c in sorted(collection)]


def reference_packings(value: int, floor: list[Card]) -> list[frozenset[Card]]:
    """Every set of ``floor`` cards that splits into disjoint groups of >= 2 cards summing to ``value``.

    Brute force over subsets of cards: the slow, obviously-correct definition the engine's rank
    count search must agree with. Only for small floors.
    """
    found: list[frozenset[Card]] = []

    def walk(remaining: list[Card], taken: list[Card]) -> None:
        found.append(frozenset(taken))
        if not remaining:
            return
        first, rest = remaining[0], remaining[1:]
        walk(rest, taken)  # the first card is in no group
        for k in range(1, len(rest) + 1):
            for combo in itertools.combinations(rest, k):
                if first.rank + sum(c.rank for c in combo) == value:
                    walk([c for c in rest if c not in combo], [*taken, first, *combo])

    walk([c for c in floor if c.rank < value], [])
    return found


def random_deck(rng: random.Random) -> list[Card]:
    """A shuffled deck from a seeded generator."""
    deck = full_deck()
    rng.shuffle(deck)
    return deck


def play_random_round(rules: Rules, deck, dealer: int, rng: random.Random) -> Round:
    """A round played to the end with uniformly random legal plays."""
    rnd = Round(rules, deck, dealer)
    while not rnd.over:
        rnd.play(rng.choice(rnd.legal_plays()))
    return rnd


def make_view(hand: str, floor: str, *, rules: Rules = Rules(), seat: int = 0) -> SeatView:
    """A 2-player view for ``seat`` on its turn with these cards: nothing played yet, both hands
    the same size, every other card in the stock (bots need not see a stock of 8k cards)."""
    hand_cards = cards(hand)
    floor_cards = cards(floor)
    other = 1 - seat
    return SeatView(
        seat=seat,
        players=2,
        rules=rules,
        round_number=1,
        dealer=other,
        turn=seat,
        hand=hand_cards,
        floor=floor_cards,
        hand_sizes=(len(hand_cards), len(hand_cards)),
        stock_size=52 - 2 * len(hand_cards) - len(floor_cards),
        pile_sizes=(0, 0),
        basras=(0, 0),
        jack_basras=(0, 0),
        scores=(0, 0),
        played=(),
        last_play=None,
        round_over=False,
        match_over=False,
        winner=None,
        initial_floor=floor_cards,
    )


def still() -> float:
    """A clock that stands still: a search bot's sample or iteration cap alone ends its search,
    whatever the machine's speed (its time limit would cut a loaded machine's search short)."""
    return 0.0


class FakeClock:
    """A clock that moves ``step`` seconds each time it is read, so time is counted, not waited."""

    def __init__(self, step: float) -> None:
        self.now = 100.0
        self.step = step
        self.reads = 0

    def __call__(self) -> float:
        self.now += self.step
        self.reads += 1
        return self.now
