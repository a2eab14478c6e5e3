"""What a play takes from the floor (RULES.md, "What a play takes" and "Basra").

:func:`capture` is the pure rule; :class:`~games.engine.round.Round` calls the same code.

A number card's capture is the largest set of floor cards that splits into disjoint groups, each a
single card of the played value or several number cards adding up to it. Cards of the played
value are always taken as singles, so the search is only over the smaller values, and it is a
search over the vector of *rank counts* (how many A, 2, 3, … lie on the floor), never over subsets
of cards: ``_pack`` is memoised on that vector, so a floor of 36 cards has at most a few hundred
states to visit and the common small floors are answered from the cache.

>>> from games.engine.cards import parse_cards
>>> sorted(map(str, capture(Card.from_code("6C"), parse_cards("AS 2H 3C 3D 4S 5H")).taken))
['2H', '3C', '3D', '4S', '5H', 'AS']
>>> capture(Card.from_code("6S"), parse_cards("3S 2H AD 4C 6H")).basra is None
True
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache
from operator import attrgetter

from .cards import JACK, SEVEN_OF_DIAMONDS, TWO_OF_CLUBS, Card, to_card
from .rules import Rules, SevenDiamonds

__all__ = ["Basra", "Capture", "capture"]


class Basra(StrEnum):
    """The bonus a play scores (RULES.md, "Basra"); a ``str`` enum, so it equals ``"basra"`` etc."""

    BASRA = "basra"
    JACK_BASRA = "jack_basra"


@dataclass(frozen=True, slots=True)
class Capture:
    """The outcome of one play (RULES.md, "The engine's public interface").

    ``taken``: the floor cards the play takes (the played card goes to the pile with them); empty
    when the played card stays on the floor. ``basra``: ``None``, ``Basra.BASRA`` or
    ``Basra.JACK_BASRA``.
    """

    taken: frozenset[Card]
    basra: Basra | None = None


_EMPTY: frozenset[Card] = frozenset()
NOTHING = Capture(_EMPTY, None)

_BASRA = Basra.BASRA
_JACK_BASRA = Basra.JACK_BASRA
_SEVEN = SEVEN_OF_DIAMONDS
_TWO_C = TWO_OF_CLUBS
_by_index = attrgetter("index")


# --- the search over rank counts -------------------------------------------------------------


def _partitions(total: int, largest: int) -> list[tuple[int, ...]]:
    """Partitions of ``total`` into parts of at most ``largest``, each non-increasing."""
    if total == 0:
        return [()]
    return [
        (part,) + rest
        for part in range(min(total, largest), 0, -1)
        for rest in _partitions(total - part, part)
    ]


def _group_table() -> dict[tuple[int, int], tuple[tuple[int, int, bool, tuple[tuple[int, int], ...]], ...]]:
    """For a played value ``v`` and a highest card ``h < v``: every group of ≥ 2 number cards
    summing to ``v`` whose largest card is ``h``, as ``(size, aces, has_two, need)`` where ``need``
    is ``((count index, how many), ...)``; largest groups first, so the search meets good packings
    early and its bound cuts the rest."""
    table = {}
    for v in range(2, 11):
        for h in range(1, v):
            groups = []
            for rest in _partitions(v - h, h):
                values = (h, *rest)
                need: dict[int, int] = {}
                for x in values:
                    need[x - 1] = need.get(x - 1, 0) + 1
                groups.append((len(values), need.get(0, 0), 2 in values, tuple(sorted(need.items()))))
            groups.sort(key=lambda g: -g[0])
            table[v, h] = tuple(groups)
    return table


_GROUPS = _group_table()


@lru_cache(maxsize=1 << 16)
def _bound(v: int, counts: tuple[int, ...], two_c: bool) -> tuple[int, int]:
    """An upper bound on ``(cards, card points)`` a packing of ``counts`` into ``v``-groups can reach.

    Cards: the groups' values add up to a multiple of ``v`` no larger than the total, and no set
    of that sum has more cards than the smallest cards do; and (below) the cards above ``v/2``
    are limited by the partners they need. Points: every ace, and the 2C's 2 if a two is left to
    take it with.
    """
    total = 0
    for i, n in enumerate(counts, 1):
        total += i * n
    budget = total - total % v
    cards = 0
    for i, n in enumerate(counts, 1):
        if n * i <= budget:
            cards += n
            budget -= n * i
        else:
            cards += budget // i
            break
    # Two cards above v/2 never share a group, and each needs partners worth v minus its
    # value from the cards at or below v/2: at most as many as that worth can pay for,
    # the highest (cheapest) first.
    half = v // 2
    small = 0
    worth = 0
    for i in range(1, min(half, len(counts)) + 1):
        small += counts[i - 1]
        worth += i * counts[i - 1]
    big = 0
    for i in range(len(counts), half, -1):
        n = counts[i - 1]
        if n:
            cost = v - i
            if n * cost <= worth:
                big += n
                worth -= n * cost
            else:
                big += worth // cost
                break
    if small + big < cards:
        cards = small + big
    return cards, counts[0] + (2 if two_c and len(counts) > 1 and counts[1] else 0)


@lru_cache(maxsize=1 << 16)
def _pack(v: int, counts: tuple[int, ...], two_c: bool) -> tuple[int, int, tuple[int, ...]]:
    """The best packing of floor number cards into disjoint groups summing to ``v``.

    ``counts[i]`` is how many cards of value ``i + 1`` (all below ``v``) lie on the floor;
    ``two_c`` says the 2C is among the twos and no two is taken yet. Returns
    ``(cards, points, used)``: the most cards any packing takes, then the most card points among
    those (aces, and 2 for the 2C when a two is taken: RULES.md's tie-break; the selection takes
    the 2C first among twos), and ``used[i]``, how many of value ``i + 1`` that packing takes.

    The highest remaining card either stays on the floor or is in a group made of it and cards
    no higher; both branches recurse on a smaller count vector. A branch whose bound cannot beat
    the best so far is skipped, and the search stops once the state's own bound is reached.
    """
    h = len(counts)
    while h and not counts[h - 1]:
        h -= 1
    best_score = (0, 0)
    best_used = (0,) * (v - 1)
    if not h:
        return 0, 0, best_used
    ceiling = _bound(v, counts, two_c)
    if ceiling[0] == 0:
        return 0, 0, best_used
    for size, aces, has_two, need in _GROUPS[v, h]:
        for i, n in need:
            if counts[i] < n:
                break
        else:
            rest = list(counts)
            for i, n in need:
                rest[i] -= n
            rest_t = tuple(rest)
            bonus = 2 if two_c and has_two else 0
            rest_two_c = two_c and not has_two
            rb = _bound(v, rest_t, rest_two_c)
            if (rb[0] + size, rb[1] + aces + bonus) <= best_score:
                continue
            sub_cards, sub_points, sub_used = _pack(v, rest_t, rest_two_c)
            score = (sub_cards + size, sub_points + aces + bonus)
            if score > best_score:
                used = list(sub_used)
                for i, n in need:
                    used[i] += n
                best_score, best_used = score, tuple(used)
                if score == ceiling:
                    return score[0], score[1], best_used
    # The highest card stays on the floor.
    rest = list(counts)
    rest[h - 1] -= 1
    rest_t = tuple(rest)
    if _bound(v, rest_t, two_c) > best_score:
        sub_cards, sub_points, sub_used = _pack(v, rest_t, two_c)
        if (sub_cards, sub_points) > best_score:
            best_score, best_used = (sub_cards, sub_points), sub_used
    return best_score[0], best_score[1], best_used


def clear_cache() -> None:
    """Forget every memoised packing (for benchmarks that time the search from cold)."""
    _pack.cache_clear()
    _bound.cache_clear()


# --- one play ----------------------------------------------------------------------------------


def _take(
    card: Card, floor: Sequence[Card], wild: bool, classic: bool, jack_basra: bool
) -> tuple[list[Card] | Sequence[Card], Basra | None]:
    """The floor cards ``card`` takes from a non-empty ``floor`` and the basra it makes.

    ``wild``/``classic``: the ``seven_diamonds`` mode; ``jack_basra``: jack basras score
    (``jack_basra_points > 0``). Returns the taken cards (empty when the card stays) and the basra.
    """
    rank = card.rank
    if rank == JACK:
        if (
            jack_basra
            and len(floor) == 1
            and (floor[0].rank == JACK or (wild and floor[0] is _SEVEN))
        ):
            return floor, _JACK_BASRA
        return floor, None
    if card is _SEVEN and (wild or classic):
        if wild:
            return floor, _wild_seven_basra(floor, jack_basra)
        # Classic: always sweeps; a basra on number cards totalling 10 or less (Pagat, Parlett).
        total = 0
        for c in floor:
            if c.rank > 10:
                return floor, None
            total += c.rank
        return floor, (_BASRA if total <= 10 else None)
    if rank > 10:
        # Queen or King: the same rank only; a wild 7D on the floor is that rank too.
        taken = [c for c in floor if c.rank == rank or (wild and c is _SEVEN)]
    else:
        taken = []
        low = []
        counts = [0] * rank
        two_c = False
        for c in floor:
            r = c.rank
            if r == rank or (wild and c is _SEVEN):
                taken.append(c)
            elif r < rank:
                counts[r] += 1
                low.append(c)
                if c is _TWO_C:
                    two_c = True
        if len(low) > 1:
            cards, _points, used = _pack(rank, tuple(counts[1:]), two_c)
            if cards == len(low):
                taken += low
            elif cards:
                # Which cards of a value: the lowest suits first (C D H S), which takes the 2C
                # first among twos, as the card-points tie-break wants.
                need = list(used)
                low.sort(key=_by_index)
                for c in low:
                    if need[c.rank - 1]:
                        need[c.rank - 1] -= 1
                        taken.append(c)
    return taken, (_BASRA if taken and len(taken) == len(floor) else None)


def _wild_seven_basra(floor: Sequence[Card], jack_basra: bool) -> Basra | None:
    """The basra of the 7D played in ``wild`` mode on a non-empty floor it sweeps (seeds rules 5, 7).

    A basra if some rank among A..10, Q, K would take the whole floor; a jack basra on a lone
    Jack; otherwise none (a plain sweep).
    """
    ranks = [c.rank for c in floor]
    if len(ranks) == 1 and ranks[0] == JACK:
        return _JACK_BASRA if jack_basra else None
    top = max(ranks)
    if top > 10:
        # Only a Queen or King takes a court card, and then only a floor of that rank alone.
        return _BASRA if top != JACK and min(ranks) == top else None
    total = sum(ranks)
    for r in range(top, 11):
        # Groups below r add up to a multiple of r; that cheap test skips most ranks.
        singles = ranks.count(r)
        if (total - r * singles) % r:
            continue
        counts = [0] * r
        for x in ranks:
            if x < r:
                counts[x] += 1
        if _pack(r, tuple(counts[1:]), False)[0] == len(ranks) - singles:
            return _BASRA
    return None


def capture(played: Card | str, floor: Iterable[Card | str], rules: Rules | None = None) -> Capture:
    """What ``played`` takes from ``floor`` under ``rules`` (default ``Rules()``), and its basra.

    Pure: nothing is changed. ``played`` and the floor's cards may be ``Card``\\ s or card codes.
    The floor is taken as given (the function does not check it could occur in a game).
    RULES.md, "What a play takes" and "Basra"; the examples there hold:

    >>> from games.engine.cards import parse_cards
    >>> capture("9S", parse_cards("5S 4H 2D 7C")).basra
    <Basra.BASRA: 'basra'>
    >>> capture("8C", parse_cards("QS KH 9D")).taken
    frozenset()

    :raises CardError: (a ``ValueError``) for something that is not a card or a card code.
    :raises TypeError: if ``rules`` is not a ``Rules``.
    """
    card = to_card(played)
    cards = tuple(to_card(c) for c in floor)
    if rules is None:
        rules = _DEFAULT_RULES
    elif not isinstance(rules, Rules):
        raise TypeError(f"rules must be a Rules, not {type(rules).__name__}")
    if not cards:
        return NOTHING
    mode = rules.seven_diamonds
    taken, basra = _take(
        card,
        cards,
        mode is SevenDiamonds.WILD,
        mode is SevenDiamonds.CLASSIC,
        rules.jack_basra_points > 0,
    )
    if not taken:
        return NOTHING
    return Capture(frozenset(taken), basra)


_DEFAULT_RULES = Rules()
