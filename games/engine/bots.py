"""Computer opponents that see only a seat's view (RULES.md, "Matches, seat views and bots").

Every bot is built with keywords only, ``BOTS[name](seed=1, time_limit=1.0)``, and answers
``bot.choose(view) -> Card``, a card of ``view.hand``. The view is all a bot ever sees: it holds
no reference to the round, so a bot cannot read another seat's hand. Every capture a bot
predicts is asked of the engine's :func:`~games.engine.capture.capture`; the bots never
reimplement the rules of what a play takes.

- :class:`RandomBot` plays a card uniformly at random (a seeded ``random.Random``).
- :class:`GreedyBot` takes the best immediate capture and avoids leaving the next seat (always
  an opponent) a floor it could sweep for a basra with a card it may hold.
- :class:`StrongBot` is a determinized Monte-Carlo search: it deals the hidden cards at random
  many times, consistent with all the seat has seen, plays each card it could play and then a
  deal's worth of plays with a fast greedy policy for every seat, and plays the card with the
  best average round-points difference for its side (the majority estimated from the pile lead).

Strength (bench/bots.py, 500 two-player matches to 101): greedy beats random in 96.6% (95% CI
94.6-97.9%); strong beats greedy in 70.0% (65.8-73.9%) with 10 samples per move, 78.6%
(74.8-82.0%) with 100 samples (about 7 ms of CPU per move).

>>> from games.engine import Match, Rules, full_deck
>>> m = Match(Rules(), dealer=0)
>>> _ = m.start_round(full_deck())
>>> view = m.view(m.round.turn)
>>> all(BOTS[name](seed=1, time_limit=0.05).choose(view) in view.hand for name in BOTS)
True
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from math import comb, erf, sqrt
from typing import Any

from .capture import Basra, capture
from .cards import JACK, SEVEN_OF_DIAMONDS, Card, full_deck
from .rules import Rules, SevenDiamonds

__all__ = ["BOTS", "Bot", "GreedyBot", "RandomBot", "StrongBot", "hidden_cards", "same_class"]

_SEVEN = SEVEN_OF_DIAMONDS
_DECK = tuple(full_deck())
#: Never think longer than this per move, whatever the caller asks (the site's turn budget).
MAX_TIME_LIMIT = 1.0


# --- what a seat knows ---------------------------------------------------------------------


def hidden_cards(view: Any) -> list[Card]:
    """The cards ``view``'s seat has not seen this round, in card order: other hands and stock.

    Every card is one of: in the seat's hand, on the floor, played this round (``view.played``),
    on the first floor (``view.initial_floor``, which may since have been taken), or hidden.
    The Jacks and 7D buried under the stock at the deal (``view.buried``) were seen but their
    place is hidden, so they are in this list while they are unplayed and not in the seat's hand.
    Each round uses a fresh deck, so earlier rounds tell nothing.

    ``view``: a ``SeatView`` (or anything with the same fields) of a seat with a hand.
    """
    seen = set(view.hand)
    seen.update(view.floor)
    seen.update(card for _seat, card in view.played)
    seen.update(getattr(view, "initial_floor", ()))
    return [c for c in _DECK if c not in seen]


def _last_capturer(view: Any) -> int | None:
    """The side that captured last this round, or ``None``, from public facts only.

    A played card leaves the floor only by being captured (with the play that played it or by a
    later one). So the latest play whose card is no longer on the floor was itself a capture, and
    every later play left its card on the floor: that play's side captured last.
    """
    floor = set(view.floor)
    for seat, card in reversed(view.played):
        if card not in floor:
            return seat & 1
    return None


def _next_hand_size(view: Any) -> int:
    """How many cards the next seat holds when it plays after this seat (4 after a new deal)."""
    n = view.players
    nxt = (view.seat + 1) % n
    size = view.hand_sizes[nxt]
    if size:
        return size
    # Every hand is empty after this play: a new deal gives four, or the round ends.
    return 4 if view.stock_size else 0


def _bonus(basra: Basra | None, rules: Rules) -> int:
    if basra is None:
        return 0
    return rules.basra_points if basra is Basra.BASRA else rules.jack_basra_points


def _keep_value(card: Card, rules: Rules) -> tuple[int, int, int]:
    """How much a seat wants to keep ``card`` for later, for deterministic tie-breaks.

    The 7D (in ``wild``/``classic`` mode) and Jacks sweep a floor whenever they are played, so
    they are worth more later, on a bigger floor; card points are worth keeping when they count;
    then a higher card is kept rather than a low one (a low card dumped on the floor is cheap).
    """
    special = 0
    if card is _SEVEN and rules.seven_diamonds is not SevenDiamonds.PLAIN:
        special = 2
    elif card.rank == JACK:
        special = 1
    return special, card.points if rules.card_points else 0, card.index


# --- the greedy evaluation -----------------------------------------------------------------


def _gain(card: Card, floor: Sequence[Card], rules: Rules) -> tuple[int, list[Card]]:
    """What playing ``card`` on ``floor`` gains at once, and the floor it leaves.

    The gain: cards taken (the played card too), the basra bonus, card points when they count.
    """
    cap = capture(card, floor, rules)
    taken = cap.taken
    if not taken:
        return 0, [*floor, card]
    value = len(taken) + 1 + _bonus(cap.basra, rules)
    if rules.card_points:
        value += card.points + sum(c.points for c in taken)
    return value, [c for c in floor if c not in taken]


def _basra_danger(
    floor: Sequence[Card], pool: Sequence[Card], hand_size: int, rules: Rules
) -> float:
    """The basra bonus the next seat is expected to make on ``floor`` with ``hand_size`` cards from ``pool``.

    The chance it holds at least one card that sweeps ``floor`` for a (jack) basra is
    hypergeometric: ``1 - C(U - k, h) / C(U, h)`` for ``k`` such cards among ``U`` unseen; it is
    weighted by the mean bonus of those cards.
    """
    if not floor or not hand_size or not pool:
        return 0.0
    k = 0
    bonus = 0
    for card in pool:
        b = capture(card, floor, rules).basra
        if b is not None:
            k += 1
            bonus += _bonus(b, rules)
    if not k:
        return 0.0
    u = len(pool)
    h = min(hand_size, u)
    p_any = 1.0 - comb(u - k, h) / comb(u, h)
    return p_any * bonus / k


def greedy_values(view: Any) -> dict[Card, float]:
    """Each card of ``view.hand`` and its greedy value: gain now less the basra left to the next seat.

    Gain: cards taken (the played card too), the basra bonus, and card points when they count.
    Danger: :func:`_basra_danger` over the cards the next seat may hold (the hidden cards, less
    the buried ones still under the stock).
    """
    rules = view.rules
    floor = view.floor
    pool = hidden_cards(view)
    if view.stock_size and view.hand_sizes[(view.seat + 1) % view.players]:
        # The buried Jacks/7D are still at the bottom of the stock, not in any hand yet.
        buried = set(getattr(view, "buried", ()))
        pool = [c for c in pool if c not in buried]
    hand_size = _next_hand_size(view)
    values = {}
    for card in view.hand:
        gain, after = _gain(card, floor, rules)
        values[card] = gain - _basra_danger(after, pool, hand_size, rules)
    return values


# --- the bots ------------------------------------------------------------------------------


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


# --- the Monte-Carlo search ----------------------------------------------------------------


class _World:
    """One determinization: every hidden card given a place, and the round's state from here.

    ``hands`` by seat (lists), ``floor`` and ``mask`` (the floor's card bits, see
    :func:`_capture_code`), ``stock`` (top first), ``turn``, ``dealer``, ``piles`` (card counts
    per side), ``points`` (bonuses and card points made from here on, per side), ``last`` (side
    that captured last, or ``None``).
    """

    __slots__ = ("hands", "floor", "mask", "stock", "turn", "dealer", "piles", "points", "last")

    def __init__(self, hands, floor, mask, stock, turn, dealer, piles, points, last):
        self.hands = hands
        self.floor = floor
        self.mask = mask
        self.stock = stock
        self.turn = turn
        self.dealer = dealer
        self.piles = piles
        self.points = points
        self.last = last

    def copy(self) -> _World:
        return _World(
            [list(h) for h in self.hands],
            list(self.floor),
            self.mask,
            self.stock,  # never changed in place: dealing slices it
            self.turn,
            self.dealer,
            list(self.piles),
            list(self.points),
            self.last,
        )


def _sample_world(view: Any, hidden: Sequence[Card], rng: random.Random) -> _World:
    """Deal ``hidden`` at random to the other hands and the stock, as the view allows.

    Each other seat gets ``view.hand_sizes[seat]`` cards; the rest is the stock, top first. The
    buried Jacks/7D, while the stock is not empty, lie at its bottom in burial order (RULES.md,
    "Dealing" 2). If the view does not say which first-floor cards were taken (no
    ``initial_floor``), the surplus hidden cards are dropped at random among those that can lie
    on a first floor (no Jack, no 7D).
    """
    n = view.players
    seat = view.seat
    sizes = view.hand_sizes
    need = sum(sizes[s] for s in range(n) if s != seat) + view.stock_size
    buried = [c for c in getattr(view, "buried", ()) if c in hidden] if view.stock_size else []
    buried_set = set(buried)
    free = [c for c in hidden if c not in buried_set]
    rng.shuffle(free)
    surplus = len(free) + len(buried) - need
    if surplus > 0:
        droppable = [c for c in free if c.rank != JACK and c is not _SEVEN][:surplus]
        dropped = set(droppable)
        free = [c for c in free if c not in dropped]
        free = free[: need - len(buried)]
    hands: list[list[Card]] = []
    i = 0
    for s in range(n):
        if s == seat:
            hands.append(list(view.hand))
        else:
            k = sizes[s]
            hands.append(free[i : i + k])
            i += k
    stock = free[i:] + buried
    floor = list(view.floor)
    mask = 0
    for c in floor:
        mask |= 1 << c.index
    return _World(
        hands,
        floor,
        mask,
        stock,
        view.turn if view.turn is not None else seat,
        view.dealer,
        list(view.pile_sizes),
        [0, 0],
        _last_capturer(view),
    )


def _policy(
    hand: list[Card], floor: list[Card], mask: int, rules: Rules, danger: float, memo: dict
) -> tuple[Card, int]:
    """The rollout policy: the best immediate capture, else dump the card least worth keeping.

    A fast cousin of :class:`GreedyBot`: instead of the exact basra danger it charges ``danger``
    points for leaving exactly one card on the floor, the floor most easily swept. ``mask`` is
    the floor as a set of card bits. Returns the card and its capture code (:func:`_capture_code`).
    """
    best = hand[0]
    best_key = None
    best_code = 0
    nfloor = len(floor)
    basra_points = rules.basra_points
    jack_points = rules.jack_basra_points
    for card in hand:
        code = _capture_code(card, floor, mask, rules, memo) if nfloor else 0
        if code:
            taken = (code & _FULL).bit_count()
            value = taken + 1
            kind = code >> 52
            if kind:
                value += basra_points if kind == 1 else jack_points
            left = nfloor - taken
        else:
            value = 0
            left = nfloor + 1
        if left == 1:
            value -= danger
        # Ties: keep the 7D, Jacks and high cards (low index first).
        key = (value, -_special(card, rules), -card.index)
        if best_key is None or key > best_key:
            best, best_key, best_code = card, key, code
    return best, best_code


#: Every card's bit in a set of cards held as an int (bit ``card.index``).
_FULL = (1 << 52) - 1
_BASRA_CODE = {None: 0, Basra.BASRA: 1, Basra.JACK_BASRA: 2}


def _capture_code(card: Card, floor: list[Card], mask: int, rules: Rules, memo: dict) -> int:
    """:func:`capture` of ``card`` on a non-empty ``floor`` (``mask``: its card bits), as one int.

    The code is the taken cards' bits, plus ``1 << 52`` for a basra or ``2 << 52`` for a jack
    basra; 0 when the card takes nothing. ``memo`` keeps the answers by ``(card, floor)`` as one
    int: what a play takes depends on the set of floor cards, not their order, and the same
    floors come back in rollout after rollout. Ints and only ints, so the garbage collector has
    nothing to walk in a memo of a hundred thousand entries.
    """
    key = (card.index << 52) | mask
    code = memo.get(key)
    if code is None:
        cap = capture(card, floor, rules)
        code = 0
        for c in cap.taken:
            code |= 1 << c.index
        if code:
            code |= _BASRA_CODE[cap.basra] << 52
        memo[key] = code
    return code


def _special(card: Card, rules: Rules) -> int:
    if card is _SEVEN and rules.seven_diamonds is not SevenDiamonds.PLAIN:
        return 2
    return 1 if card.rank == JACK else 0


def _play(world: _World, card: Card, code: int | None, rules: Rules, n: int, memo: dict) -> None:
    """Play ``card`` for the seat to move (``code``: its capture code if known); deal when hands are empty."""
    seat = world.turn
    world.hands[seat].remove(card)
    floor = world.floor
    if code is None:
        code = _capture_code(card, floor, world.mask, rules, memo) if floor else 0
    if code:
        side = seat & 1
        taken = code & _FULL
        world.piles[side] += taken.bit_count() + 1
        kind = code >> 52
        if kind:
            world.points[side] += rules.basra_points if kind == 1 else rules.jack_basra_points
        if rules.card_points:
            world.points[side] += card.points + sum(
                c.points for c in floor if taken >> c.index & 1
            )
        world.mask &= ~taken
        world.floor = [c for c in floor if not taken >> c.index & 1] if world.mask else []
        world.last = side
    else:
        floor.append(card)
        world.mask |= 1 << card.index
    world.turn = (seat + 1) % n
    if not world.hands[world.turn] and world.stock:
        # The next seat is out of cards, so is everyone: deal, the seat after the dealer first.
        stock = world.stock
        d = world.dealer
        for k in range(1, n + 1):
            world.hands[(d + k) % n] = stock[4 * (k - 1) : 4 * k]
        world.stock = stock[4 * n :]


def _rollout(
    world: _World,
    first: Card,
    rules: Rules,
    n: int,
    side: int,
    danger: float,
    memo: dict,
    horizon: int | None,
    spread: float,
) -> float:
    """Play ``first`` and on with :func:`_policy`; the round-points difference for ``side``.

    Points counted: the majority (RULES.md, "Scoring a round": piles including the cards left to
    the last capturer), and the basras and card points made from here on (those made before are
    the same whatever is played now). With a ``horizon``, the playout stops after that many more
    plays and the majority is estimated from the pile lead: ``majority_points * erf(lead /
    (spread * sqrt(2 R)))`` for ``R`` cards not yet in a pile, the expected difference if the
    rest of the round moved the lead by a normal amount of standard deviation
    ``spread * sqrt(R)``.
    """
    _play(world, first, None, rules, n, memo)
    hands = world.hands
    left = horizon if horizon is not None else 1 << 30
    while hands[world.turn]:
        if not left:
            piles = world.piles
            points = world.points
            rest = 52 - piles[0] - piles[1]
            lead = piles[side] - piles[1 - side]
            est = rules.majority_points * erf(lead / (spread * sqrt(2 * rest)))
            return points[side] - points[1 - side] + est
        left -= 1
        card, code = _policy(hands[world.turn], world.floor, world.mask, rules, danger, memo)
        _play(world, card, code, rules, n, memo)
    piles = world.piles
    if world.last is not None and world.floor:
        piles[world.last] += len(world.floor)
        if rules.card_points:
            world.points[world.last] += sum(c.points for c in world.floor)
    points = world.points
    if piles[0] > piles[1]:
        points[0] += rules.majority_points
    elif piles[1] > piles[0]:
        points[1] += rules.majority_points
    return points[side] - points[1 - side]


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


class StrongBot(Bot):
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
        self._memo: dict = {}
        self._memo_rules: Rules | None = None
        #: Determinizations used by the last :meth:`choose` (for tests and the benchmark).
        self.last_samples = 0

    def choose(self, view: Any) -> Card:
        """The card with the best mean round-points difference over the sampled deals.

        :raises ValueError: if the hand is empty.
        """
        hand = self._check(view)
        rules: Rules = view.rules
        candidates = _distinct(hand, rules)
        if len(candidates) == 1:
            self.last_samples = 0
            return candidates[0]
        if view.turn != view.seat:
            # Asked out of turn (a hint for a waiting seat): the search plays from the seat to
            # move, so answer with the greedy choice instead.
            self.last_samples = 0
            return GreedyBot().choose(view)
        totals = self.evaluate(view)
        if not self.last_samples:
            return GreedyBot().choose(view)
        order = greedy_values(view)
        return max(
            candidates,
            key=lambda c: (totals[c], round(order[c], 9), _negate(_keep_value(c, rules))),
        )

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
            world = _sample_world(view, hidden, rng)
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

    def _memo_for(self, rules: Rules) -> dict:
        """The capture memo for ``rules``: kept from move to move (later floors were often met in
        earlier rollouts), emptied when the rules change or it grows past ``_MEMO_SIZE``."""
        if rules != self._memo_rules or len(self._memo) > _MEMO_SIZE:
            self._memo = {}
            self._memo_rules = rules
        return self._memo


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


#: The bots by name, as the site and the benchmark pick them.
BOTS: dict[str, type[Bot]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "strong": StrongBot,
}
