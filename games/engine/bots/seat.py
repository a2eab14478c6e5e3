"""What a seat knows of a round from its view, and the greedy value of each card it holds."""

from __future__ import annotations

from collections.abc import Sequence
from math import comb
from typing import Any

from ..capture import Basra, capture
from ..cards import JACK, SEVEN_OF_DIAMONDS, Card, full_deck
from ..rules import Rules, SevenDiamonds

__all__ = ["greedy_values", "hidden_cards"]

_SEVEN = SEVEN_OF_DIAMONDS
_DECK = tuple(full_deck())


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
