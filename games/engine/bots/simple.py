"""The bots' base class and the two simple bots: random and greedy."""

from __future__ import annotations

import random
from typing import Any

from ..cards import Card
from .seat import _keep_value, greedy_values

__all__ = ["MAX_TIME_LIMIT", "Bot", "GreedyBot", "RandomBot"]

#: Never think longer than this per move, whatever the caller asks (the site's turn budget).
MAX_TIME_LIMIT = 1.0


class Bot:
    """A computer player: ``choose(view)`` returns a card of ``view.hand``.

    ``seed``: any int or str seeding the bot's own randomness; ``time_limit``: seconds it may
    think per move, at most :data:`MAX_TIME_LIMIT` (a larger value is cut to it).

    :raises ValueError: if ``time_limit`` is not positive.
    """

    name = "bot"

    def __init__(self, *, seed: int | str = 0, time_limit: float = 1.0) -> None:
        if not time_limit > 0:
            raise ValueError(f"time_limit must be a positive number of seconds, not {time_limit!r}")
        self.seed = seed
        self.time_limit = min(float(time_limit), MAX_TIME_LIMIT)

    def choose(self, view: Any) -> Card:
        """The card to play from ``view.hand``.

        :raises ValueError: if the hand is empty (the seat has nothing to play).
        """
        raise NotImplementedError

    @staticmethod
    def _check(view: Any) -> tuple[Card, ...]:
        hand = tuple(view.hand)
        if not hand:
            raise ValueError("the seat has no card to play")
        return hand

    def __repr__(self) -> str:
        return f"<{type(self).__name__} seed={self.seed!r} time_limit={self.time_limit}>"


class RandomBot(Bot):
    """Plays a card of the hand uniformly at random, from a ``random.Random(seed)`` of its own."""

    name = "random"

    def __init__(self, *, seed: int | str = 0, time_limit: float = 1.0) -> None:
        super().__init__(seed=seed, time_limit=time_limit)
        self._rng = random.Random(seed)

    def choose(self, view: Any) -> Card:
        """A uniformly random card of ``view.hand`` (the hand in card order, so it is reproducible).

        :raises ValueError: if the hand is empty.
        """
        return self._rng.choice(sorted(self._check(view)))


class GreedyBot(Bot):
    """Takes the best immediate capture and avoids leaving the next seat an easy basra.

    The value of a card is :func:`greedy_values`; ties go to the card it least wants to keep
    (:func:`_keep_value`: Jacks and the 7D are kept for later, low cards dumped). Deterministic:
    ``seed`` is not used.
    """

    name = "greedy"

    def choose(self, view: Any) -> Card:
        """The card with the best greedy value (see the class).

        :raises ValueError: if the hand is empty.
        """
        hand = self._check(view)
        if len(hand) == 1:
            return hand[0]
        values = greedy_values(view)
        rules = view.rules
        return max(hand, key=lambda c: (round(values[c], 9), _negate(_keep_value(c, rules))))


def _negate(key: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(-x for x in key)
