"""The strong bot's playouts: a sampled deal of the hidden cards, played to the horizon fast."""

from __future__ import annotations

import random
from collections.abc import Sequence
from math import erf, sqrt
from typing import Any

from ..capture import Basra, capture
from ..cards import JACK, SEVEN_OF_DIAMONDS, Card
from ..rules import Rules, SevenDiamonds
from .seat import _last_capturer

_SEVEN = SEVEN_OF_DIAMONDS


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


def _sample_world(
    view: Any, hidden: Sequence[Card], rng: random.Random, depth: int | None = None
) -> _World:
    """Deal ``hidden`` at random to the other hands and the stock, as the view allows.

    Each other seat gets ``view.hand_sizes[seat]`` cards; the rest is the stock, top first. The
    buried Jacks/7D, while the stock is not empty, lie at its bottom in burial order (RULES.md,
    "Dealing" 2). If the view does not say which first-floor cards were taken (no
    ``initial_floor``), the surplus hidden cards are dropped at random among those that can lie
    on a first floor (no Jack, no 7D). ``depth``: when given, only the other hands and the
    stock's top ``depth`` cards are drawn at random (a partial Fisher-Yates shuffle, Knuth TAOCP
    vol. 2, 3.4.2, algorithm P stopped early); the stock below holds the remaining cards, a
    uniformly random set in no random order, which a playout that deals no further never sees.
    """
    n = view.players
    seat = view.seat
    sizes = view.hand_sizes
    need = sum(sizes[s] for s in range(n) if s != seat) + view.stock_size
    buried = [c for c in getattr(view, "buried", ()) if c in hidden] if view.stock_size else []
    buried_set = set(buried)
    free = [c for c in hidden if c not in buried_set]
    surplus = len(free) + len(buried) - need
    if depth is None or surplus > 0:
        rng.shuffle(free)
    else:
        size = len(free)
        rand = rng.random
        for i in range(min(size - 1, need - view.stock_size + depth)):
            j = i + int(rand() * (size - i))
            free[i], free[j] = free[j], free[i]
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
    return _playout(world, rules, n, side, danger, memo, horizon, spread)


def _playout(
    world: _World,
    rules: Rules,
    n: int,
    side: int,
    danger: float,
    memo: dict,
    horizon: int | None,
    spread: float,
) -> float:
    """Play ``world`` on with :func:`_policy` for at most ``horizon`` plays (``None``: to the
    round's end); the round-points difference for ``side``, estimated as :func:`_rollout` says."""
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
