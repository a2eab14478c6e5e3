"""One Swiss round by a maximum-weight matching (``networkx``) with lexicographic weights."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

import networkx as nx

from .errors import PairingError, _check_count, _check_unique

__all__ = ["EXACT_SPLIT_MAX", "SwissEntrant", "swiss_round"]

#: Up to this many entrants paired, rule 5's rating split is proven the least possible; above
#: it, the first pass that is ideal in rules 1-4 stands (its split only near the least), since
#: the proof's wide pass over every pair within the answer's total took seconds at 1,000
#: entrants (``bench/tournament_sheet.py``): "in rating-sorted groups within score groups if a
#: single matching is too slow", as the issue allows.
EXACT_SPLIT_MAX = 400


# --- Swiss -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class SwissEntrant:
    """An entrant as the Swiss pairing sees it before a round.

    ``score``: points so far (1 a win, ½ a draw, byes included) and a multiple of ½;
    ``rating``: the entrant's rating (any unit, higher is stronger); ``opponents``: the ids
    already met (withdrawn ones may be among them); ``had_bye``: whether the entrant already
    had a bye (or any unplayed win given by the pairing); ``met``: ``(opponent id, round)``
    of every round it was paired against an opponent, to choose among rematches when one
    cannot be avoided (an opponent in ``opponents`` but not in ``met`` counts as met once,
    before round 1).
    """

    id: int
    score: float
    rating: float
    opponents: frozenset[int] = field(default_factory=frozenset)
    had_bye: bool = False
    met: tuple[tuple[int, int], ...] = ()


def swiss_round(entrants: Sequence[SwissEntrant]) -> tuple[list[tuple[int, int]], int | None]:
    """Pair one Swiss round: ``(pairs, bye)``.

    ``pairs`` are ``(higher, lower)`` in ranking order (score, then rating, then the smaller id
    first), listed from the top board down; ``bye`` is the entrant without an opponent this
    round, or ``None`` when the count is even. The rules, in the issue's order:

    1. every entrant is in exactly one pair or is the bye;
    2. with an odd count, the bye goes to the lowest-scored entrant who has not had one (ties:
       the lowest rating, then the larger id); if everyone has had one, to the lowest-scored of
       all. The bye is decided first, as the issue orders it: if giving it to that entrant
       forces a rematch among the others (or a larger score difference), the rematch is taken,
       and rule 3 makes it as few as possible among the rest;
    3. as few rematches as possible (none when that is possible), and among pairings with as
       many, the least total of each rematch's meetings so far, then the meetings longest ago
       (a pair that met once, in round 1, before one that met in round 3, before one that met
       twice);
    4. then the smallest total of |score difference| over the pairs;
    5. then, within a score group, pairing by rating: top half against bottom half (the
       Dutch system's S1-S2 split, FIDE Handbook C.04.3). Across score groups the pair of
       nearest rank is preferred, so the lowest of a group floats down to the highest of the
       next, and a group's half counts only the members left after such floats. Colours,
       float histories and the rest of C.04.3 are not applied.

    The pairs are a maximum-weight matching (``networkx.max_weight_matching`` with
    ``maxcardinality=True``), Edmonds' blossom algorithm (Galil, "Efficient algorithms for
    finding maximum matching in graphs", 1986). Each possible pair ``e`` gets an integer cost

        ``cost(e) = rematch(e) * M1 + diff(e) * M2 + split(e)``

    with ``rematch`` 0 for a first meeting, else ``B + k * (R + 1) + last`` for a pair that met
    ``k`` times, last in round ``last`` (``R`` the latest round in the history, ``B`` above the
    total of the rest over any pairing, so the count of rematches comes first), ``diff`` the
    score difference in half points and ``split`` the
    rating term of rule 5 (``||p - q| - h|`` for members ranked ``p`` and ``q`` by rating in
    a group whose members paired inside number ``2h``; the ranking distance minus one across
    groups), and the weight
    ``C - cost(e)`` with ``C`` above every cost. Every perfect matching has the same number of
    pairs, so the heaviest one is the one of least total cost; ``M2`` exceeds any possible total
    of ``split`` and ``M1`` any possible total of ``diff * M2 + split``, so the least total cost
    is lexicographically the fewest rematches, then the least score difference, then the best
    rating split (the proof is in ``_match``).

    To keep a 500-entrant round well under a second, the matching is first run on fewer pairs:
    those that can belong to a pairing with no rematch and the least possible score difference
    (a bound computed from the score groups alone), and of those only the ones whose rating
    term is small. Each such pass stops only when its answer is provably the optimum over all
    pairs; otherwise a wider pass follows, and the last one holds every pair (the argument is
    in ``_swiss_matching``). With more than :data:`EXACT_SPLIT_MAX` entrants, a first pass with
    no rematch and the least score difference stands: rules 1-4 are met exactly, rule 5 nearly
    (a 1,000-entrant round in under 0.4 s of CPU instead of 2).

    :raises PairingError: fewer than 2 entrants, a duplicate id, an entrant among its own
        opponents, a score that is not a multiple of ½, or a rating that is not a finite number.
    """
    entrants = list(entrants)
    _check_count(len(entrants))
    _check_unique(e.id for e in entrants)
    for e in entrants:
        if e.id in e.opponents:
            raise PairingError(f"entrant {e.id} is among its own opponents")
        if not math.isfinite(e.rating):
            raise PairingError(f"entrant {e.id}'s rating is not a finite number")
        if not math.isfinite(e.score) or (2 * Fraction(e.score)).denominator != 1:
            raise PairingError(f"entrant {e.id}'s score {e.score!r} is not a multiple of 1/2")
    bye = None
    if len(entrants) % 2:
        fresh = [e for e in entrants if not e.had_bye] or entrants
        bye = min(fresh, key=lambda e: (e.score, e.rating, -e.id))
    ranked = sorted((e for e in entrants if e is not bye), key=lambda e: (-e.score, -e.rating, e.id))
    pairs = _swiss_matching(ranked)
    return pairs, (bye.id if bye is not None else None)


def _line_bound(sizes: Sequence[int], units: Sequence[int]) -> int:
    """The least total score difference of any pairing, rematches allowed: pair down the ranking.

    ``sizes[k]`` entrants have ``units[k]`` half points, ``units`` falling. A gap between two
    neighbouring score groups is crossed by at least one pair when an odd number of entrants
    lie above it, and pairing neighbours in the ranking crosses each gap exactly that often.
    """
    total, above = 0, 0
    for k in range(len(sizes) - 1):
        above += sizes[k]
        if above % 2:
            total += units[k] - units[k + 1]
    return total


def _swiss_matching(ranked: list[SwissEntrant]) -> list[tuple[int, int]]:
    """Pair ``ranked`` (even count, in ranking order) by the rules of :func:`swiss_round`.

    Every pass below is the same lexicographic matching (:func:`_match`) over a set of allowed
    pairs; the later passes allow more, and each stops only when its answer is provably the
    optimum over all pairs.

    *Tight pairs.* ``L`` (:func:`_line_bound`) is the least total score difference of any
    pairing. A pair across groups ``X`` and ``Y`` (or within one group) lies in some pairing of
    total ``L`` only if ``diff + L(the others) = L``, which depends on the two groups alone; a
    pairing of total ``L`` uses tight pairs only. So if a pass finds a perfect pairing with no
    rematch and total ``L``, nothing beats it in rules 3-4, and every pairing as good in rules
    3-4 uses only tight, non-rematch pairs.

    *Window.* Among those, a pass may also leave out the pairs whose rating term ``split``
    exceeds ``w``. If its answer has rating total ``T <= w + 1``, any pairing with a left-out
    pair has a total of at least ``w + 1 >= T`` (every term is ``>= 0``): the answer is an
    optimum. Otherwise a pass with window ``T - 1`` (a superset, so its own total is ``<= T``)
    is an optimum by the same argument.

    Pass 1: window 3. Pass 2: window ``T - 1`` (larger than 3, so a superset), or every tight
    pair when pass 1 found no ideal pairing; with more than :data:`EXACT_SPLIT_MAX` entrants an
    ideal pass 1 stands (rules 1-4 still exact, rule 5 only near its least). Last, when no pairing without a rematch at total
    ``L`` exists: every pair, rematches allowed.
    """
    units = [int(2 * e.score) for e in ranked]
    group_units = sorted(set(units), reverse=True)
    group_of = [0] * len(ranked)
    sizes = [0] * len(group_units)
    index = {u: k for k, u in enumerate(group_units)}
    for i, u in enumerate(units):
        group_of[i] = index[u]
        sizes[index[u]] += 1
    bound = _line_bound(sizes, group_units)

    def extra(gx: int, gy: int) -> int:
        rest = list(sizes)
        rest[gx] -= 1
        rest[gy] -= 1
        return abs(group_units[gx] - group_units[gy]) + _line_bound(rest, group_units) - bound

    tight = {
        (gx, gy)
        for gx in range(len(sizes))
        for gy in range(gx, len(sizes))
        if (gx != gy or sizes[gx] >= 2) and extra(gx, gy) == 0
    }
    # A gap between neighbouring groups with an odd count above it is crossed by one pair in a
    # pairing of total L: the group above sends its lowest down, the one below meets it with its
    # highest, so each group pairs (size - those crossings) members inside, half against half.
    crossed, above = [], 0
    for k in range(len(sizes) - 1):
        above += sizes[k]
        crossed.append(above % 2)
    first = [0] * len(sizes)
    for k, size in enumerate(sizes):
        first[k] = sum(sizes[:k])
    half = [
        (size - (crossed[k - 1] if k else 0) - (crossed[k] if k < len(crossed) else 0)) // 2
        for k, size in enumerate(sizes)
    ]
    terms = _Terms(ranked, group_of, first, half)

    def allowed(window: int | None):
        for i, j in terms.candidates(window):
            if (group_of[i], group_of[j]) in tight and not terms.rematch(i, j):
                split = terms.split(i, j)
                if window is None or split <= window:
                    yield (i, j), (0, units[i] - units[j], split)

    window: int | None = 3
    while True:
        pairs, rematches, diff, total = _match(ranked, dict(allowed(window)))
        ideal = 2 * len(pairs) == len(ranked) and rematches == 0 and diff == bound
        if ideal and (window is None or total <= window + 1 or len(ranked) > EXACT_SPLIT_MAX):
            return pairs
        if window is None:
            break  # no pairing without a rematch at the least score difference exists
        window = total - 1 if ideal else None
    costs = {
        (i, j): (terms.rematch_cost(i, j), units[i] - units[j], terms.split(i, j))
        for i, j in terms.candidates(None)
    }
    return _match(ranked, costs)[0]


class _Terms:
    """The rating term and the rematch test of a pair ``(i, j)``, ``i < j`` in ranking order."""

    def __init__(self, ranked: list[SwissEntrant], group_of: list[int], first: list[int], half: list[int]):
        self.ranked, self.group_of, self.first, self.half = ranked, group_of, first, half
        self.end = [f + n for f, n in zip(first, [group_of.count(k) for k in range(len(first))])]
        self.latest = max((r for e in ranked for _, r in e.met), default=0)
        # Above the staleness total of any pairing (len // 2 pairs): one rematch more always costs more.
        self.base = (len(ranked) // 2) * (len(ranked) * (self.latest + 1) + self.latest) + 1

    def rematch(self, i: int, j: int) -> bool:
        a, b = self.ranked[i], self.ranked[j]
        return b.id in a.opponents or a.id in b.opponents

    def rematch_cost(self, i: int, j: int) -> int:
        """Rule 3: 0 for a first meeting, else ``base + k * (latest + 1) + last`` (``k``
        meetings so far, the last in round ``last``)."""
        if not self.rematch(i, j):
            return 0
        a, b = self.ranked[i], self.ranked[j]
        rounds = {r for o, r in a.met if o == b.id} | {r for o, r in b.met if o == a.id}
        k = max(len(rounds), 1)
        return self.base + k * (self.latest + 1) + max(rounds, default=0)

    def split(self, i: int, j: int) -> int:
        """Rule 5: ``||p - q| - h|`` within a group (``h`` its half), rank distance - 1 across."""
        g = self.group_of[i]
        if g == self.group_of[j]:
            return abs(j - i - self.half[g])
        return j - i - 1

    def candidates(self, window: int | None):
        """All pairs, or those whose ``split`` can be at most ``window`` (a superset of them)."""
        n = len(self.ranked)
        if window is None:
            for i in range(n):
                for j in range(i + 1, n):
                    yield i, j
            return
        for i in range(n):
            g = self.group_of[i]
            # Across groups: split = j - i - 1 <= window.
            for j in range(max(i + 1, self.end[g]), min(n, i + window + 2)):
                yield i, j
            # Within the group: |j - i - h| <= window.
            lo = max(i + 1, i + self.half[g] - window)
            hi = min(self.end[g], i + self.half[g] + window + 1)
            for j in range(lo, hi):
                yield i, j


def _match(ranked, costs) -> tuple[list[tuple[int, int]], int, int, int]:
    """The lexicographically best matching over ``costs``: (pairs, rematches, diff, split) totals.

    ``costs`` maps a pair ``(i, j)`` of indices into ``ranked`` to its (rematch, diff, split).

    Why the weights are lexicographic. Let ``P`` be the pairs of a perfect matching (half the
    entrants) and, over the allowed pairs, ``t`` the largest split and ``s`` the largest diff.
    Take ``M2 = P*t + 1`` and ``M1 = P*(s*M2 + t) + 1``. For a perfect matching ``A`` with totals
    ``R_A, S_A, T_A`` the total cost is ``R_A*M1 + S_A*M2 + T_A``, with
    ``0 <= T_A <= P*t < M2`` and ``0 <= S_A*M2 + T_A <= P*(s*M2 + t) < M1``. If ``R_A < R_B``
    then ``cost_B - cost_A >= M1 - (S_A*M2 + T_A) > 0``; if ``R_A = R_B`` and ``S_A < S_B`` then
    ``cost_B - cost_A >= M2 - T_A > 0``; otherwise the costs compare as ``T``. So total costs
    order as ``(R, S, T)`` lexicographically, and since every maximum-cardinality matching has
    the same number of pairs, the maximum total weight ``pairs*C - cost`` is the least cost.
    """
    if not costs:
        return [], 0, 0, 0
    pairs_max = len(ranked) // 2
    t = max(c[2] for c in costs.values())
    s = max(c[1] for c in costs.values())
    m2 = pairs_max * t + 1
    m1 = pairs_max * (s * m2 + t) + 1
    cost = {e: r * m1 + d * m2 + sp for e, (r, d, sp) in costs.items()}
    top = max(cost.values()) + 1
    graph = nx.Graph()
    graph.add_weighted_edges_from((i, j, top - c) for (i, j), c in cost.items())
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    chosen = sorted(tuple(sorted(e)) for e in matching)
    totals = [sum(costs[e][k] for e in chosen) for k in range(3)]
    return [(ranked[i].id, ranked[j].id) for i, j in chosen], totals[0], totals[1], totals[2]
