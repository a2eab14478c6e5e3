"""The strong bot: a determinized Monte-Carlo search over the rest of the round."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from typing import Any

from ..cards import SEVEN_OF_DIAMONDS, Card
from ..rules import Rules
from .playout import _World, _rollout, _sample_world
from .seat import _keep_value, greedy_values, hidden_cards
from .simple import Bot, GreedyBot, _negate

__all__ = ["SearchBot", "StrongBot", "same_class"]

_SEVEN = SEVEN_OF_DIAMONDS


def _view_key(view: Any) -> str:
    """A stable text of what the view shows, to seed a search that depends on the view only."""
    return "|".join(
        (
            " ".join(c.code for c in view.hand),
            " ".join(c.code for c in view.floor),
            " ".join(f"{s}{c.code}" for s, c in view.played),
            " ".join(map(str, view.hand_sizes)),
            str(view.stock_size),
            " ".join(map(str, view.pile_sizes)),
            str(view.seat),
            str(view.dealer),
        )
    )


class SearchBot(Bot):
    """A bot whose :meth:`evaluate` values each card of the hand, in round points, and whose
    choice is the card of best value (the strong and expert bots).

    A subclass sets ``last_samples`` in ``evaluate`` (0 when the time ran out before the first
    sample) and may keep ``self._memo`` of captures through :meth:`_memo_for`.
    """

    def __init__(self, *, seed: int | str = 0, time_limit: float = 1.0) -> None:
        super().__init__(seed=seed, time_limit=time_limit)
        self._memo: dict = {}
        self._memo_rules: Rules | None = None
        #: Samples (or iterations) used by the last :meth:`evaluate`, for tests and the bench.
        self.last_samples = 0

    def evaluate(self, view: Any) -> dict[Card, float]:
        """Each card of ``view.hand`` (one of each class of :func:`_distinct`) and its value."""
        raise NotImplementedError

    def choose(self, view: Any) -> Card:
        """The card with the best value (:meth:`evaluate`); ties go to the greedy order.

        A hand of one class, or a view asked out of turn (a hint for a waiting seat: the search
        plays from the seat to move), is answered without searching, as the greedy bot would.

        :raises ValueError: if the hand is empty.
        """
        hand = self._check(view)
        rules: Rules = view.rules
        candidates = _distinct(hand, rules)
        if len(candidates) == 1:
            self.last_samples = 0
            return candidates[0]
        if view.turn != view.seat:
            self.last_samples = 0
            return GreedyBot().choose(view)
        totals = self.evaluate(view)
        if not self.last_samples:
            return GreedyBot().choose(view)
        order = greedy_values(view)
        rank = self._ranking(totals)
        return max(
            candidates,
            key=lambda c: (rank[c], round(order[c], 9), _negate(_keep_value(c, rules))),
        )

    def _ranking(self, totals: dict[Card, float]) -> dict[Card, Any]:
        """What :meth:`choose` maximizes for each card, from the last :meth:`evaluate`'s
        ``totals``: the values themselves here."""
        return totals

    def _memo_for(self, rules: Rules) -> dict:
        """The capture memo for ``rules``: kept from move to move (later floors were often met in
        earlier rollouts), emptied when the rules change or it grows past ``_MEMO_SIZE``."""
        if rules != self._memo_rules or len(self._memo) > _MEMO_SIZE:
            self._memo = {}
            self._memo_rules = rules
        return self._memo




class StrongBot(SearchBot):
    """Determinized Monte-Carlo search over the rest of the round (perfect-information Monte Carlo).

    Each iteration deals the hidden cards at random consistent with the view
    (:func:`_sample_world`), then, for each distinct card of the hand, plays it and the rest of
    the round with the rollout policy (:func:`_policy`) for every seat, and adds the round-points
    difference for the bot's side (the partner is on that side in a 4-player match). Every card
    is tried on the same deals, so the comparison is paired. The card with the best mean wins;
    ties go to the greedy order.

    ``clock``: the time source in seconds (a test passes a fake one).
    ``samples``: the most determinizations per move (a cap that makes the bot fast in tests and
    deterministic for a fixed seed while the time limit is not reached); ``time_limit``: it stops
    sampling once this many seconds have passed (at most :data:`MAX_TIME_LIMIT`). The search's
    random numbers come from ``seed`` and the view, so the same view gives the same card.
    Cards equal for the rules (same rank, neither the 7D nor worth card points) are tried once.
    ``horizon``: plays a playout makes after the tried card before it stops and estimates the
    majority from the pile lead (:func:`_rollout`; ``spread`` scales that estimate's standard
    deviation); ``None`` is one deal's worth, ``4 * players``; 48 plays every round to its end.
    Stopping early makes a playout three times cheaper and leaves out the noise of deals nobody
    has seen yet: with the same time, more samples and a better bot.

    Source: Ginsberg's "GIB" (perfect-information Monte Carlo, JAIR 2001); Long et al.,
    "Understanding the Success of Perfect Information Monte Carlo Sampling in Game Tree Search"
    (AAAI 2010).
    """

    name = "strong"

    def __init__(
        self,
        *,
        seed: int | str = 0,
        time_limit: float = 1.0,
        samples: int = 400,
        danger: float | None = None,
        clock: Callable[[], float] = time.perf_counter,
        horizon: int | None = None,
        spread: float = 1.0,
    ) -> None:
        super().__init__(seed=seed, time_limit=time_limit)
        if samples < 1:
            raise ValueError(f"samples must be at least 1, not {samples!r}")
        self.samples = samples
        self.danger = danger
        self._clock = clock
        self.horizon = horizon
        self.spread = spread

    def evaluate(self, view: Any) -> dict[Card, float]:
        """Each card the rules tell apart in ``view.hand`` and its mean round-points difference.

        The search :meth:`choose` runs (see the class), for the seat to move: the keys are one
        card of each class of :func:`_distinct` (a card equal for the rules to a key scores
        the same), the values the mean, over :attr:`last_samples` sampled deals, of the round
        points of the seat's side less the other side's from here on (majority estimated from
        the pile lead at the horizon), in points. ``last_samples`` is 0 (and every value 0.0)
        when the time ran out before the first deal was sampled.

        :raises ValueError: if the hand is empty or ``view`` is not the seat to move's.
        """
        clock = self._clock
        # A margin for the work after the last rollout (choosing, returning).
        deadline = clock() + self.time_limit * 0.9
        hand = self._check(view)
        if view.turn != view.seat:
            raise ValueError("the search runs for the seat to move only")
        self.last_samples = 0
        rules: Rules = view.rules
        candidates = _distinct(hand, rules)
        rng = random.Random(f"{self.seed}|{_view_key(view)}")
        hidden = hidden_cards(view)
        n = view.players
        side = view.seat & 1
        danger = self.danger if self.danger is not None else rules.basra_points * 0.3
        horizon = self.horizon if self.horizon is not None else 4 * n
        spread = self.spread
        totals = dict.fromkeys(candidates, 0.0)
        memo = self._memo_for(rules)
        done = 0
        while done < self.samples:
            world = self._deal(view, hidden, rng)
            results = []
            for card in candidates:
                results.append(
                    _rollout(world.copy(), card, rules, n, side, danger, memo, horizon, spread)
                )
                if clock() >= deadline:
                    break
            else:
                for card, r in zip(candidates, results):
                    totals[card] += r
                done += 1
                continue
            break  # out of time in the middle of a sample: that sample is not counted
        self.last_samples = done
        return {card: total / done if done else 0.0 for card, total in totals.items()}

    def _deal(self, view: Any, hidden: list[Card], rng: random.Random) -> _World:
        """One deal of ``hidden`` consistent with ``view``, at random (:func:`_sample_world`); a
        subclass may also make it consistent with what it infers (the expert's four-player search)."""
        return _sample_world(view, hidden, rng)


#: Captures remembered by a strong bot (about 100 bytes each).
_MEMO_SIZE = 300_000


def same_class(a: Card, b: Card, rules: Rules) -> bool:
    """Whether the rules tell ``a`` and ``b`` apart nowhere: same rank, neither (or both) the
    7D, the same card points when they count. :meth:`StrongBot.evaluate` scores one card of
    each class."""
    return _class_key(a, rules) == _class_key(b, rules)


def _class_key(card: Card, rules: Rules) -> tuple:
    return (card.rank, card is _SEVEN, card.points if rules.card_points else 0)


def _distinct(hand: Sequence[Card], rules: Rules) -> list[Card]:
    """One card of each class the rules tell apart: rank, the 7D, card points when they count."""
    seen = set()
    out = []
    for card in sorted(hand):
        key = _class_key(card, rules)
        if key not in seen:
            seen.add(key)
            out.append(card)
    return out
