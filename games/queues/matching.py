"""Who meets whom in one wave of a quick-pairing queue: pure functions, standard library plus
``networkx``; no Django. ``games.queues.services`` calls them with what waits in a queue.

- :func:`allowed_gap`: the rating gap a waiting player accepts, narrow at first, widening with
  the wait.
- :func:`pair_wave`: one wave of a 1v1 queue (or of units of two, for tables of four): a
  maximum-weight matching (``networkx.max_weight_matching``) on the rating gap, in
  rating-sorted groups when the wave is big.
- :func:`table_wave`: one wave of a partnership queue: single players formed into sides, sides
  (and pairs who came together) into tables of four, balanced by rating.

Source: lila (lichess) ``modules/pool`` (``PoolList``: one pool per clock; ``PoolActor``: a
wave every few seconds, sooner once enough wait; ``MatchMaking.scala``: a maximum-weight
matching whose pair score is the rating gap, a rating range that widens with the wait, no
pairing with the last opponent while others wait), matched here with networkx instead of lila's
``WMMatching``; the rating-sorted groups of a big wave are this site's arena's
(``games.tournaments.pairing.arena_pairs``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import networkx as nx

#: The rating gap (Glicko points) a player accepts the moment they join.
BASE_GAP = 100.0
#: How much that gap widens per second waited.
GAP_PER_SECOND = 10.0
#: The widest gap, reached after (MAX_GAP - BASE_GAP) / GAP_PER_SECOND = 40 s of waiting.
MAX_GAP = 500.0
#: A wave of at most this many units is one matching, every allowed pair a candidate.
WHOLE_WAVE = 48
#: A bigger wave is split into consecutive groups of the rating order of this many units, each
#: matched on its own, a unit a candidate of the next :data:`WINDOW` of its group only: the work
#: then grows linearly with the wave (bench/queues.py: 10,000 in one wave).
GROUP_SIZE = 6
WINDOW = 3
#: Weight per second waited: between two pairings of the same gaps, the one that seats those who
#: waited longest wins.
WAIT_WEIGHT = 2
#: Weight of a unit put back at the front of the queue (its opponent did not come).
FRONT_WEIGHT = 400


class MatchingError(ValueError):
    """A wave that cannot be matched as given: a duplicate id, a rating or wait that is not a
    finite number, a unit of the wrong size."""


@dataclass(frozen=True)
class Waiter:
    """One unit waiting in a queue: a single player, or a pair who came together.

    ``id``: the unit's id (the queue entry's). ``rating``: its rating (a pair's: the mean of
    both). ``waited``: seconds since it joined (at least 0). ``members``: the user ids it seats
    (1 or 2). ``recent``: user ids of its members' last queue opponents (no rematch while others
    wait). ``blocked``: user ids its members never meet. ``front``: put back at the front (the
    opponent of its last pairing did not come).
    """

    id: int
    rating: float
    waited: float
    members: tuple[int, ...]
    recent: frozenset[int] = field(default_factory=frozenset)
    blocked: frozenset[int] = field(default_factory=frozenset)
    front: bool = False


@dataclass(frozen=True)
class Table:
    """A table of four made by :func:`table_wave`: ``side0`` and ``side1`` the user ids of each
    side (seats 0 and 2, seats 1 and 3), ``units`` the ids of the waiting units it seats."""

    side0: tuple[int, int]
    side1: tuple[int, int]
    units: tuple[int, ...]


def allowed_gap(waited: float) -> float:
    """The rating gap a unit that waited ``waited`` seconds accepts: :data:`BASE_GAP` plus
    :data:`GAP_PER_SECOND` a second, at most :data:`MAX_GAP` (lila's widening range)."""
    return min(MAX_GAP, BASE_GAP + GAP_PER_SECOND * max(waited, 0.0))


def _check(units: Sequence[Waiter], size: int | None) -> None:
    seen: set[int] = set()
    for u in units:
        if u.id in seen:
            raise MatchingError(f"unit {u.id} twice in one wave")
        seen.add(u.id)
        if not (math.isfinite(u.rating) and math.isfinite(u.waited)):
            raise MatchingError(f"unit {u.id}: rating and wait must be finite numbers")
        if size is not None and len(u.members) != size:
            raise MatchingError(f"unit {u.id} has {len(u.members)} members, expected {size}")


def _meets(a: Waiter, b: Waiter, alone: bool) -> bool:
    """Whether ``a`` and ``b`` may meet: no member blocked by the other (ever), no member the
    other's last opponent (unless ``alone``: nobody else waits), within the gap that the one
    who waited longer accepts (the patient one widens the search for both)."""
    if a.blocked.intersection(b.members) or b.blocked.intersection(a.members):
        return False
    if not alone and (a.recent.intersection(b.members) or b.recent.intersection(a.members)):
        return False
    return abs(a.rating - b.rating) <= max(allowed_gap(a.waited), allowed_gap(b.waited))


def _weight(a: Waiter, b: Waiter) -> int:
    # Integers: networkx's blossom algorithm is exact with them. Always positive, so a
    # maximum-weight matching also prefers more pairs to fewer when their gaps are alike.
    w = round(MAX_GAP - abs(a.rating - b.rating)) + 1
    w += round(WAIT_WEIGHT * (min(a.waited, 600.0) + min(b.waited, 600.0)))
    w += FRONT_WEIGHT * (a.front + b.front)
    return w


def pair_wave(units: Sequence[Waiter], *, size: int | None = None) -> list[tuple[int, int]]:
    """One wave: pairs of unit ids, each pair within its allowed gap, as close in rating as the
    wave allows; the units left out wait for the next wave.

    The units are sorted by rating (then id). A wave of at most :data:`WHOLE_WAVE` is one
    maximum-weight matching over every pair that may meet (:func:`_meets`); a bigger one is
    matched in consecutive groups of :data:`GROUP_SIZE` of that order (a last group of fewer
    than 4 joins the one before), a unit a candidate of the next :data:`WINDOW` of its group.
    A pair's weight falls with its rating gap and rises with both units' waits and
    :data:`FRONT_WEIGHT` for a unit put back at the front. Two units whose members met last
    time meet again only when they are the only two waiting. ``size``: when given, the number
    of members every unit must have. Pairs are ``(lower id, higher id)``, sorted.

    :raises MatchingError: a duplicate id, a rating or wait that is not finite, a unit of
        another size than ``size``.
    """
    units = list(units)
    _check(units, size)
    ranked = sorted(units, key=lambda u: (u.rating, u.id))
    alone = len(ranked) == 2
    if len(ranked) <= WHOLE_WAVE:
        groups = [list(range(len(ranked)))]
        window = len(ranked)
    else:
        groups = [list(range(s, min(s + GROUP_SIZE, len(ranked)))) for s in range(0, len(ranked), GROUP_SIZE)]
        if len(groups[-1]) < 4:
            groups[-2].extend(groups.pop())
        window = WINDOW
    pairs: list[tuple[int, int]] = []
    for idx in groups:
        graph = nx.Graph()
        for x, i in enumerate(idx):
            a = ranked[i]
            for j in idx[x + 1 : x + 1 + window]:
                b = ranked[j]
                if _meets(a, b, alone):
                    graph.add_edge(i, j, weight=_weight(a, b))
        for i, j in nx.max_weight_matching(graph):
            pairs.append(tuple(sorted((ranked[i].id, ranked[j].id))))
    return sorted(pairs)


def balanced_sides(ratings: dict[int, float]) -> tuple[tuple[int, int], tuple[int, int]]:
    """Four players (``{user id: rating}``) into two sides of two whose summed ratings are the
    closest: the best and the worst against the two between (of the three splits of four, the
    one of least difference). Side 0 holds the best player.

    :raises MatchingError: not four players.
    """
    if len(ratings) != 4:
        raise MatchingError(f"a table of four needs four players, got {len(ratings)}")
    r1, r2, r3, r4 = sorted(ratings, key=lambda u: (-ratings[u], u))
    return (r1, r4), (r2, r3)


def table_wave(units: Sequence[Waiter]) -> list[Table]:
    """One wave of a partnership queue: tables of four from single players (``members`` of one)
    and pairs who came together (``members`` of two, partners on one side).

    First the single players are paired into sides (:func:`pair_wave`: close ratings, the same
    gap rule; partners may have met as opponents); then the sides so made and the pairs are paired into tables (again
    :func:`pair_wave`, each side rated by its mean and waiting as long as its longer-waiting
    member). A table of two made sides is rebalanced (:func:`balanced_sides`); a pair keeps its
    partner, so it meets a pair or two singles. Units left out wait for the next wave, a made
    side dissolving back into its two players. Tables are in order of their units.

    :raises MatchingError: as :func:`pair_wave`, or a unit of neither one nor two members.
    """
    units = list(units)
    _check(units, None)
    for u in units:
        if len(u.members) not in (1, 2):
            raise MatchingError(f"unit {u.id} has {len(u.members)} members")
    by_id = {u.id: u for u in units}
    singles = [u for u in units if len(u.members) == 1]
    pairs = [u for u in units if len(u.members) == 2]
    sides: list[Waiter] = list(pairs)
    made: dict[int, tuple[int, int]] = {}
    # Made sides take ids past every unit's so they cannot collide with a pair's.
    next_id = max((u.id for u in units), default=0) + 1
    # Partners are not opponents: the rematch rule is for the table stage alone (where four
    # players in all make two sides, the only two waiting, so they may meet again).
    for a, b in pair_wave([_no_recent(u) for u in singles], size=1):
        ua, ub = by_id[a], by_id[b]
        made[next_id] = (a, b)
        sides.append(Waiter(
            id=next_id, rating=(ua.rating + ub.rating) / 2, waited=max(ua.waited, ub.waited),
            members=ua.members + ub.members, recent=ua.recent | ub.recent,
            blocked=ua.blocked | ub.blocked, front=ua.front or ub.front,
        ))
        next_id += 1
    ratings = {m: u.rating for u in units for m in u.members}
    side_of = {s.id: s for s in sides}
    tables = []
    for x, y in pair_wave(sides, size=2):
        sx, sy = side_of[x], side_of[y]
        if x in made and y in made:
            side0, side1 = balanced_sides({m: ratings[m] for m in sx.members + sy.members})
        else:
            side0, side1 = (sx.members, sy.members) if sx.rating >= sy.rating else (sy.members, sx.members)
        ids = tuple(sorted(i for s in (x, y) for i in made.get(s, (s,))))
        tables.append(Table(side0=tuple(side0), side1=tuple(side1), units=ids))
    return sorted(tables, key=lambda t: t.units)


def _no_recent(u: Waiter) -> Waiter:
    return Waiter(id=u.id, rating=u.rating, waited=u.waited, members=u.members,
                  blocked=u.blocked, front=u.front)
