"""Who meets whom in one wave of a quick-pairing queue: pure functions, standard library plus
``networkx``; no Django. ``games.queues.services`` calls them with what waits in a queue.

- :func:`allowed_gap`: the rating gap a waiting player accepts, narrow at first, widening with
  the wait.
- :func:`pair_wave`: one wave of a 1v1 queue (or of units of two, for tables of four): a
  maximum-weight matching (``networkx.max_weight_matching``) on the rating gap, in
  rating-sorted groups when the wave is big; a group whose pairing in rating order is provably
  such a matching (:func:`_adjacent_is_best`) is paired so without running one
  (``bench/queues.py``: a wave of 10,000 in 0.06 s of CPU, 0.7 s when every group needs
  networkx).
- :func:`table_wave`: one wave of a partnership queue: single players formed into sides, sides
  (and pairs who came together) into tables of four, balanced by rating; then
  :func:`full_house`: those the gap left waiting are seated at once, as evenly as they can be,
  when they fill whole tables and nobody else waits who could take a seat (four players alone
  in the queue, none blocking another, sit down at the next wave, whatever their ratings).

When the gap holds: a crowded queue (someone could take another's seat, or more than two
tables' players are left) waits for the gap, lila's way, so that close ratings meet. A queue
of exactly the players who fill its tables has nobody better to wait for: a partnership
table is seated at once, as evenly as its players allow (:func:`full_house` says why); two
players alone in a 1v1 queue meet once the longer waiter accepts their gap (400 apart: after
30 s), and at the latest once the gap is at its widest (:data:`WIDEST_AFTER`, 40 s), however
far apart (:func:`_meets`): in a 1v1 the gap is the match's own imbalance, worth waiting a
while for a closer opponent, but not for ever.

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
#: Seconds of waiting after which the gap is at its widest (:data:`MAX_GAP`): 40.
WIDEST_AFTER = (MAX_GAP - BASE_GAP) / GAP_PER_SECOND
#: A wave of at most this many units is one matching, every allowed pair a candidate.
WHOLE_WAVE = 48
#: A bigger wave is split into consecutive groups of the rating order of this many units, each
#: matched on its own, a unit a candidate of the next :data:`WINDOW` of its group only: the work
#: then grows linearly with the wave (bench/queues.py: 10,000 in one wave; groups of 8 or a
#: window of 4 cost a third more where networkx runs).
GROUP_SIZE = 6
WINDOW = 3
#: A pair's weight before its rating gap is taken off: more than any allowed gap (two ratings
#: :data:`MAX_GAP` apart are at most a point more apart once rounded), so every weight is positive and a
#: maximum-weight matching prefers more pairs to fewer when their gaps are alike.
PAIR_WEIGHT = round(MAX_GAP) + 2
#: Weight per second waited (counted up to :data:`WAIT_CAP` seconds): between two pairings of
#: the same gaps, the one that seats those who waited longest wins.
WAIT_WEIGHT = 2
WAIT_CAP = 600.0
#: Weight of a unit put back at the front of the queue (its opponent did not come).
FRONT_WEIGHT = 400
#: The most players :func:`full_house` seats at once whatever their gaps: two tables (at most
#: 70 sets of four to try). A wave that leaves more waiting is a crowded queue, the gap's to
#: decide.
FULL_HOUSE_PLAYERS = 8


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


#: A table's two sides as waiting units (a pair alone, or two singles).
_Sides = tuple[tuple[Waiter, ...], tuple[Waiter, ...]]
#: A possible table of :func:`full_house`: its cost (mean difference, spread, unit ids), its
#: units, its sides.
_Candidate = tuple[tuple[int, int, tuple[int, ...]], tuple[Waiter, ...], _Sides]


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


def _blocks(a: Waiter, b: Waiter) -> bool:
    """Whether a member of ``a`` blocked one of ``b`` or the other way round (never together)."""
    return bool(a.blocked.intersection(b.members) or b.blocked.intersection(a.members))


def _met(a: Waiter, b: Waiter) -> bool:
    """Whether a member of ``a`` was a last queue opponent of one of ``b`` or the other way."""
    return bool(a.recent.intersection(b.members) or b.recent.intersection(a.members))


def _meets(a: Waiter, b: Waiter, alone: bool) -> bool:
    """Whether ``a`` and ``b`` may meet: no member blocked by the other (ever), no member the
    other's last opponent (unless ``alone``: nobody else waits), within the gap that the one
    who waited longer accepts (the patient one widens the search for both).

    ``alone``, the two the only ones waiting, once the longer waiter has waited the whole
    widening (:data:`WIDEST_AFTER`, 40 s): they meet whatever the gap. Nobody closer came in
    that time and nobody else waits, and lila's range would keep two players more than
    :data:`MAX_GAP` apart waiting for ever, the page counting up with no end.
    """
    if _blocks(a, b):
        return False
    if alone and max(a.waited, b.waited) >= WIDEST_AFTER:
        return True
    if not alone and _met(a, b):
        return False
    return abs(a.rating - b.rating) <= max(allowed_gap(a.waited), allowed_gap(b.waited))


def _bonus(u: Waiter) -> int:
    """A unit's share of the weight of any pair it is in: :data:`WAIT_WEIGHT` per second waited
    (counted up to :data:`WAIT_CAP`) and :data:`FRONT_WEIGHT` when put back at the front."""
    return round(WAIT_WEIGHT * min(u.waited, WAIT_CAP)) + FRONT_WEIGHT * u.front


def _check_partnership(units: Sequence[Waiter]) -> None:
    _check(units, None)
    for u in units:
        if len(u.members) not in (1, 2):
            raise MatchingError(f"unit {u.id} has {len(u.members)} members")


def _groups(n: int) -> list[range]:
    """Index ranges of the rating order that are matched on their own: all of it up to
    :data:`WHOLE_WAVE`, else consecutive runs of :data:`GROUP_SIZE` (a last run of fewer than 4
    joins the one before)."""
    if n <= WHOLE_WAVE:
        return [range(n)]
    starts = list(range(0, n, GROUP_SIZE))
    if n - starts[-1] < 4:
        starts.pop()
    return [range(s, e) for s, e in zip(starts, starts[1:] + [n])]


def _adjacent_is_best(points: Sequence[int]) -> bool:
    """Whether pairing a group in rating order (1st with 2nd, 3rd with 4th, ...), every one of
    those pairs allowed to meet, is a maximum-weight matching of it, provably, without running
    one. ``points``: the group's rounded ratings, sorted.

    Holds when the group is of an even size and spans at most :data:`PAIR_WEIGHT` points. Proof: a pair's weight is ``PAIR_WEIGHT - gap + bonus(a) +
    bonus(b)`` (bonuses at least 0). (1) On a line the adjacent pairing ``P`` has the least
    summed gap of all perfect matchings: for each odd ``j`` the ``j`` lowest points are odd in
    number, so some pair spans the interval from the ``j``-th point to the next, and those
    intervals are disjoint and sum to ``P``'s gaps. (2) A perfect matching's bonuses are all of
    the group's, so ``P`` weighs the most of those. (3) A matching ``M`` that leaves the set
    ``U`` (at least 2) unpaired: pairing ``U`` in order adds gaps of at most the span, giving a
    perfect matching, so gaps(P) <= gaps(M) + span; and ``P`` has ``|U|/2`` pairs more, each
    worth :data:`PAIR_WEIGHT`, and the bonuses of ``U``: weight(P) - weight(M) >=
    PAIR_WEIGHT - span >= 0.
    """
    return len(points) % 2 == 0 and points[-1] - points[0] <= PAIR_WEIGHT


def pair_wave(units: Sequence[Waiter], *, size: int | None = None) -> list[tuple[int, int]]:
    """One wave: pairs of unit ids, each pair within its allowed gap, as close in rating as the
    wave allows; the units left out wait for the next wave.

    The units are sorted by rating (then id). A wave of at most :data:`WHOLE_WAVE` is one
    maximum-weight matching over every pair that may meet (:func:`_meets`); a bigger one is
    matched in consecutive groups of :data:`GROUP_SIZE` of that order (:func:`_groups`), a unit
    a candidate of the next :data:`WINDOW` of its group. A pair's weight is
    :data:`PAIR_WEIGHT` less its rating gap (ratings rounded to whole points: integer weights,
    for which networkx's blossom algorithm is exact), plus each unit's :func:`_bonus` (its wait,
    and :data:`FRONT_WEIGHT` for a unit put back at the front). A group whose adjacent pairing
    is provably a maximum-weight matching (:func:`_adjacent_is_best`) is paired so without
    running one. Two units whose members met last time meet again only when they are the only
    two waiting; two alone meet whatever their gap once the longer waiter has waited
    :data:`WIDEST_AFTER` (:func:`_meets`). ``size``: when given, the number of members every unit must have. Pairs are
    ``(lower id, higher id)``, sorted.

    :raises MatchingError: a duplicate id, a rating or wait that is not finite, a unit of
        another size than ``size``.
    """
    units = list(units)
    _check(units, size)
    ranked = sorted(units, key=lambda u: (u.rating, u.id))
    if len(ranked) < 2:
        return []
    alone = len(ranked) == 2
    if alone:
        # One possible pair (whose weight may be below zero, past the widest gap).
        a, b = ranked
        return [tuple(sorted((a.id, b.id)))] if _meets(a, b, alone) else []
    points = [round(u.rating) for u in ranked]
    bonus = [_bonus(u) for u in ranked]
    window = len(ranked) if len(ranked) <= WHOLE_WAVE else WINDOW
    pairs: list[tuple[int, int]] = []
    for group in _groups(len(ranked)):
        lo, hi = group.start, group.stop
        if _adjacent_is_best(points[lo:hi]) and all(
            _meets(ranked[i], ranked[i + 1], alone) for i in range(lo, hi, 2)
        ):
            matched = [(i, i + 1) for i in range(lo, hi, 2)]
        else:
            graph = nx.Graph()
            graph.add_weighted_edges_from(
                (i, j, PAIR_WEIGHT - (points[j] - points[i]) + bonus[i] + bonus[j])
                for i in group for j in range(i + 1, min(i + 1 + window, hi))
                if _meets(ranked[i], ranked[j], alone)
            )
            matched = nx.max_weight_matching(graph)
        pairs.extend(tuple(sorted((ranked[i].id, ranked[j].id))) for i, j in matched)
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
    partner, so it meets a pair or two singles. The units the gap left out are then seated at
    once if they are a full house (:func:`full_house`: they fill whole tables, nobody who could
    take a seat left over; their tables as even as possible); otherwise they wait for the next
    wave, a made side dissolving back into its two players. Tables are in order of their units.

    :raises MatchingError: as :func:`pair_wave`, or a unit of neither one nor two members.
    """
    units = list(units)
    _check_partnership(units)
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
    seated = {i for t in tables for i in t.units}
    tables += full_house([u for u in units if u.id not in seated], alone=not tables)
    return sorted(tables, key=lambda t: t.units)


def full_house(units: Sequence[Waiter], *, alone: bool = True) -> list[Table]:
    """The tables of four that seat ``units`` (single players and pairs of a partnership
    queue's wave, those the rating gap left waiting) at once, whatever their gaps, when they
    are a full house: every one of them that could sit at any table with the others is seated,
    nobody such left waiting. Otherwise ``[]``: the widening gap decides who waits.

    Why: four players the gap keeps apart may make an even table. After a first rated match
    the winners are near 1741 and the losers near 1259 (Glicko-2 from 1500 and a deviation of
    500); the gap rule pairs the closest ratings into sides (the winners together), then
    meets sides by their means, 482 apart, so the four waited for the gap to widen, about 40
    s, to be seated winner with loser, two sides of 1500. When nobody else waits, no newcomer
    of the wave could make a better table: waiting only keeps them from playing. A queue with
    someone who could take another's seat is not a full house; there lila's widening gap
    stands.

    Among the ways to seat them the tables are as even as possible: the least summed
    difference of the two sides' mean ratings, then the least summed spread of each table's
    ratings (players of a level together), then the lowest unit ids. A pair keeps its
    partner; a blocked player never sits at a table with the one they blocked (nor the other
    way round); last opponents are not opponents again (they may be partners) unless
    ``alone`` (nobody else was in the wave) and ``units`` make one table. A unit that could
    sit at no table with the others (blocked by them) waits, and does not stop the others'
    full house. Only a house of at most :data:`FULL_HOUSE_PLAYERS` players is searched: a
    bigger one is a crowded queue, where the gap soon seats most.

    Side 0 of a table holds its best-rated player (as :func:`balanced_sides`); a side of two
    singles lists the better first, a pair keeps its order.

    :raises MatchingError: as :func:`table_wave`.
    """
    units = list(units)
    _check_partnership(units)
    count = sum(len(u.members) for u in units)
    if count < 4 or count > FULL_HOUSE_PLAYERS:
        return []
    rematch = alone and count == 4
    candidates = [t for combo in _table_units(units) if (t := _best_split(combo, rematch)) is not None]
    seatable = {u.id for _cost, combo, _sides in candidates for u in combo}
    best = _cover(frozenset(seatable), candidates)
    if best is None:
        return []
    return sorted((_table(combo, sides) for _cost, combo, sides in best[1]), key=lambda t: t.units)


def _table_units(units: list[Waiter]) -> list[tuple[Waiter, ...]]:
    """Every set of ``units`` that seats exactly four players (two pairs, a pair and two
    singles, four singles), in id order."""
    ranked = sorted(units, key=lambda u: u.id)
    out: list[tuple[Waiter, ...]] = []

    def grow(start: int, chosen: tuple[Waiter, ...], seats: int) -> None:
        if seats == 4:
            out.append(chosen)
            return
        for k in range(start, len(ranked)):
            if seats + len(ranked[k].members) <= 4:
                grow(k + 1, chosen + (ranked[k],), seats + len(ranked[k].members))

    grow(0, (), 0)
    return out


def _best_split(combo: tuple[Waiter, ...], rematch: bool) -> _Candidate | None:
    """The most even split of ``combo`` (four players) into two sides that is allowed: nobody
    blocked at the table, no last opponents facing each other unless ``rematch``. ``None``
    when none is. The cost is ``(mean difference, spread, unit ids)``, ratings rounded to
    whole points."""
    if any(_blocks(a, b) for k, a in enumerate(combo) for b in combo[k + 1:]):
        return None
    pairs = [u for u in combo if len(u.members) == 2]
    singles = [u for u in combo if len(u.members) == 1]
    if len(pairs) == 2:
        splits = [((pairs[0],), (pairs[1],))]
    elif pairs:
        splits = [((pairs[0],), tuple(singles))]
    else:
        first, *others = singles
        splits = [((first, o), tuple(x for x in others if x is not o)) for o in others]
    ratings = [u.rating for u in combo for _m in u.members]
    spread = round(max(ratings) - min(ratings))
    ids = tuple(u.id for u in combo)
    best: _Candidate | None = None
    for side0, side1 in splits:
        if not rematch and any(_met(a, b) for a in side0 for b in side1):
            continue
        cost = (round(abs(_side_mean(side0) - _side_mean(side1))), spread, ids)
        if best is None or cost < best[0]:
            best = (cost, combo, (side0, side1))
    return best


def _side_mean(side: tuple[Waiter, ...]) -> float:
    """The mean rating of a side's two players (a pair's rating is its players' mean)."""
    return sum(u.rating * len(u.members) for u in side) / 2


def _cover(left: frozenset[int], candidates: list[_Candidate]) -> tuple[tuple, list[_Candidate]] | None:
    """The cheapest tables among ``candidates`` that seat every unit of ``left`` once: ``(summed
    cost, tables)``, or ``None``."""
    if not left:
        return (0, 0, ()), []
    first = min(left)
    best = None
    for candidate in candidates:
        cost, combo, _sides = candidate
        ids = {u.id for u in combo}
        if first not in ids or not ids <= left:
            continue
        rest = _cover(left - ids, candidates)
        if rest is None:
            continue
        total = (rest[0][0] + cost[0], rest[0][1] + cost[1], cost[2] + rest[0][2])
        if best is None or total < best[0]:
            best = (total, [candidate] + rest[1])
    return best


def _table(combo: tuple[Waiter, ...], sides: _Sides) -> Table:
    """The :class:`Table` of a split: side 0 the side of the best-rated player."""
    def players(side: tuple[Waiter, ...]) -> list[tuple[float, int]]:
        if len(side) == 1:
            return [(side[0].rating, m) for m in side[0].members]
        return sorted(((u.rating, u.members[0]) for u in side), key=lambda p: (-p[0], p[1]))

    def top(side: list[tuple[float, int]]) -> tuple[float, int]:
        return max((r, -m) for r, m in side)  # the best, then the lowest id

    one, two = players(sides[0]), players(sides[1])
    if top(two) > top(one):
        one, two = two, one
    return Table(side0=tuple(m for _r, m in one), side1=tuple(m for _r, m in two),
                 units=tuple(sorted(u.id for u in combo)))


def _no_recent(u: Waiter) -> Waiter:
    return Waiter(id=u.id, rating=u.rating, waited=u.waited, members=u.members,
                  blocked=u.blocked, front=u.front)
