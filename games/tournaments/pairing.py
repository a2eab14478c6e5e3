"""Tournament pairing, arena scoring and standings: pure functions (issue 13, STYLE.md 7).

Standard library plus ``networkx``; no Django. The Django app calls these when a round is due or
a match has finished; nothing here reads the database, the clock or a random generator.

- :func:`round_robin`: FIDE's Berger tables (FIDE Handbook C.05, Annex 1).
- :func:`swiss_round`: one Swiss round by a maximum-weight matching (``networkx``) whose integer
  weights make the issue's rules strictly lexicographic.
- :func:`knockout_bracket`: the first round of a seeded bracket, byes to the top seeds.
- :func:`arena_pairs` and :func:`arena_points`: a lichess-style arena wave and its scoring
  (lila ``modules/tournament/src/main/arena/``: ``AntmaPairing.scala``, ``PairingSystem.scala``,
  ``ArenaSheet.scala``).
- :func:`standings`: score, then the organiser's order of FIDE tie-breaks (FIDE Handbook C.07).

Entrants are ``int`` ids (seeds 1..n for the tables and brackets). Bad input raises
:class:`PairingError`, a ``ValueError``.

>>> round_robin(4)
[[(1, 4), (2, 3)], [(4, 3), (1, 2)], [(2, 4), (3, 1)]]
>>> knockout_bracket(6)
[(1, None), (4, 5), (2, None), (3, 6)]
>>> arena_points(["win", "win", "win", "loss", "win"]).total
10
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction

import networkx as nx

__all__ = [
    "ARENA_GROUP_SIZE",
    "ARENA_WINDOW",
    "ArenaPlayer",
    "ArenaSheet",
    "MatchResult",
    "PairingError",
    "Standing",
    "SwissEntrant",
    "TieBreak",
    "arena_pairs",
    "arena_points",
    "knockout_bracket",
    "round_robin",
    "standings",
    "swiss_round",
]


class PairingError(ValueError):
    """Bad input to a pairing or standings function: too few entrants, a duplicate id, a bad score."""


def _check_count(n: int, what: str = "entrants") -> None:
    if isinstance(n, bool) or not isinstance(n, int):
        raise PairingError(f"the number of {what} must be an int, not {n!r}")
    if n < 2:
        raise PairingError(f"at least 2 {what} are needed, not {n}")


def _check_unique(ids: Iterable[int]) -> None:
    seen: set[int] = set()
    for i in ids:
        if i in seen:
            raise PairingError(f"entrant {i} appears twice")
        seen.add(i)


# --- round robin -----------------------------------------------------------------------------


def round_robin(n: int) -> list[list[tuple[int, int | None]]]:
    """The rounds of FIDE's Berger tables for entrants ``1..n``.

    Returns ``n - 1`` rounds for even ``n`` (``n`` rounds for odd ``n``), each a list of boards
    ``(first, second)``: the first-named entrant has the first seat ("white" in the published
    tables). For odd ``n`` the table of ``n + 1`` is used and the entrant who would meet
    ``n + 1`` has the bye, written ``(entrant, None)``. A double round robin plays the rounds
    again with each pair reversed.

    Source: FIDE Handbook C.05 (General Regulations for Competitions), Annex 1, "Berger Tables
    for Round-Robin Tournaments", with an odd field using the next table and the highest number
    as the bye (the tables compared here are the ones reproduced at c.w.fox.tripod.com/chess/
    berger.html and devenezia.com's round-robin forum). The tables are built the way they are
    published: round 1 is
    ``1-n, 2-(n-1), …``; each next round adds ``n/2`` to every number but ``n`` (counting
    ``1..n-1`` round and round), and ``n`` changes seat every round. The tests compare the
    result with the published tables for 4, 6 and 8 entrants.

    :raises PairingError: ``n`` is not an int or is below 2.
    """
    _check_count(n)
    m = n + (n % 2)  # the table's size: n, or n + 1 with the top number a bye
    half = m // 2
    board = [(k, m + 1 - k) for k in range(1, half + 1)]
    rounds: list[list[tuple[int, int | None]]] = []
    for _ in range(m - 1):
        rounds.append([_bye_or_pair(a, b, n) for a, b in board])
        shift = [(_rotate(a, half, m), _rotate(b, half, m)) for a, b in board]
        # The top number alternates seats: second in round 1, first in round 2, …
        board = [(b, a) if m in (a, b) else (a, b) for a, b in shift]
    return rounds


def _rotate(x: int, half: int, m: int) -> int:
    return x if x == m else (x - 1 + half) % (m - 1) + 1


def _bye_or_pair(a: int, b: int, n: int) -> tuple[int, int | None]:
    if a > n:
        return (b, None)
    if b > n:
        return (a, None)
    return (a, b)


# --- knockout --------------------------------------------------------------------------------


def knockout_bracket(n: int) -> list[tuple[int | None, int | None]]:
    """The first-round pairs of seeds ``1..n`` in bracket order, for the next power of two.

    The bracket of size ``2**k >= n`` is built the standard way: ``[1, 2]``, then each seed
    ``s`` of a bracket of size ``m`` is replaced by the pair ``s, 2m+1-s`` (so 8 gives
    ``1-8, 4-5, 2-7, 3-6``). Every first-round pair sums to ``size + 1``; a seed above ``n`` is
    ``None``, a bye, so the byes fall to the top seeds. The winners of neighbouring pairs meet
    next. Seeds 1 and 2 are in opposite halves (they can meet only in the final) and seeds 1-4
    in different quarters (they can meet only from the semi-finals).

    Source: the usual seeded single-elimination draw, in which every first-round pair of seeds
    sums to the bracket size plus one and the top seed meets the last; no FIDE table was
    consulted, so the tests check the properties above for every ``n`` up to 64.

    :raises PairingError: ``n`` is not an int or is below 2.
    """
    _check_count(n)
    order = [1]
    size = 1
    while size < n:
        size *= 2
        order = [x for s in order for x in (s, size + 1 - s)]
    return [
        (a if a <= n else None, b if b <= n else None) for a, b in zip(order[::2], order[1::2])
    ]


# --- Swiss -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class SwissEntrant:
    """An entrant as the Swiss pairing sees it before a round.

    ``score``: points so far (1 a win, ½ a draw, byes included) and a multiple of ½;
    ``rating``: the entrant's rating (any unit, higher is stronger); ``opponents``: the ids
    already met (withdrawn ones may be among them); ``had_bye``: whether the entrant already
    had a bye (or any unplayed win given by the pairing).
    """

    id: int
    score: float
    rating: float
    opponents: frozenset[int] = field(default_factory=frozenset)
    had_bye: bool = False


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
    3. as few rematches as possible (none when that is possible);
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

    with ``rematch`` 0 or 1, ``diff`` the score difference in half points and ``split`` the
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
    in ``_swiss_matching``).

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
    pair when pass 1 found no ideal pairing. Last, when no pairing without a rematch at total
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
        if ideal and (window is None or total <= window + 1):
            return pairs
        if window is None:
            break  # no pairing without a rematch at the least score difference exists
        window = total - 1 if ideal else None
    costs = {
        (i, j): (int(terms.rematch(i, j)), units[i] - units[j], terms.split(i, j))
        for i, j in terms.candidates(None)
    }
    return _match(ranked, costs)[0]


class _Terms:
    """The rating term and the rematch test of a pair ``(i, j)``, ``i < j`` in ranking order."""

    def __init__(self, ranked: list[SwissEntrant], group_of: list[int], first: list[int], half: list[int]):
        self.ranked, self.group_of, self.first, self.half = ranked, group_of, first, half
        self.end = [f + n for f, n in zip(first, [group_of.count(k) for k in range(len(first))])]

    def rematch(self, i: int, j: int) -> bool:
        a, b = self.ranked[i], self.ranked[j]
        return b.id in a.opponents or a.id in b.opponents

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


# --- arena -----------------------------------------------------------------------------------

#: Waiting players are matched in groups of at most this many neighbours in the standings
#: (lila's ``PairingSystem.maxGroupSize`` is 100). 50 keeps a wave of 1,000 under a second on a
#: slow 2-core machine: 1.16-1.48 s of CPU with 100, 0.74 s with 50, for pairings as close in
#: standing (mean score gap 0.032 either way, bench/tournament.py and a random wave).
ARENA_GROUP_SIZE = 50
#: Within a group, a player may be paired with the next this many players in the ranking.
ARENA_WINDOW = 10


@dataclass(frozen=True)
class ArenaPlayer:
    """A player waiting for a pairing in an arena.

    ``score``: arena points so far (:func:`arena_points`); ``rating``: the player's rating;
    ``last_opponent``: the id of the player's previous opponent in this arena, or ``None``.
    """

    id: int
    score: int
    rating: float
    last_opponent: int | None = None


def arena_pairs(waiting: Sequence[ArenaPlayer]) -> list[tuple[int, int]]:
    """One arena pairing wave: pairs of waiting players, close in standing, no immediate rematch.

    The waiting players are ranked by score, then rating, then id. Two players are never paired
    when either was the other's last opponent. Among the rest, as many pairs as possible are
    made, and of those the pairing of least total cost, a pair costing
    ``|rank difference| * factor + |rating difference|`` where ``factor`` falls from 2000 for
    the leader to 300 for the last (pairing leaders with leaders matters more than pairing the
    bottom tightly). Ranks are counted among the waiting players, which keeps the tournament's
    order since everyone else is playing. A player left out (odd count, or only a last opponent
    to meet) keeps waiting for the next wave. Pairs are ``(higher, lower)`` in rank order.

    More than :data:`ARENA_GROUP_SIZE` waiting players are split into consecutive groups of the
    ranking of at most that many (even) players, each matched on its own (a last group of fewer
    than 4 joins the one before), and within a group a player may meet only the next
    :data:`ARENA_WINDOW` players of the ranking (a pair further apart would cost at least
    ``11 * 300``), so the work grows linearly with the wave: a wave of 1,000 takes 0.4-0.75 s of
    CPU (bench/tournament.py, on machines that differ by 2-3x).

    Source: lila (lichess) ``modules/tournament/src/main/arena/AntmaPairing.scala`` (the cost
    and the "just played together" exclusion) and ``PairingSystem.scala`` (``rankFactorFor``,
    ``maxGroupSize``), matched here with ``networkx.max_weight_matching`` instead of lila's
    ``WMMatching``. lila pairs only the first two groups of a large wave and leaves the rest
    for the next; this pairs every group.

    :raises PairingError: a duplicate id, a player who is its own last opponent, or a rating
        that is not a finite number.
    """
    waiting = list(waiting)
    _check_unique(p.id for p in waiting)
    for p in waiting:
        if p.last_opponent == p.id:
            raise PairingError(f"player {p.id} is its own last opponent")
        if not math.isfinite(p.rating):
            raise PairingError(f"player {p.id}'s rating is not a finite number")
    ranked = sorted(waiting, key=lambda p: (-p.score, -p.rating, p.id))
    if len(ranked) < 2:
        return []
    last = len(ranked) - 1
    groups: list[list[int]] = []
    for start in range(0, len(ranked), ARENA_GROUP_SIZE):
        groups.append(list(range(start, min(start + ARENA_GROUP_SIZE, len(ranked)))))
    if len(groups) > 1 and len(groups[-1]) < 4:
        groups[-2].extend(groups.pop())
    pairs: list[tuple[int, int]] = []
    for idx in groups:
        graph = nx.Graph()
        edges = []
        for x, i in enumerate(idx):
            a = ranked[i]
            factor = 300 + 1700 * (last - i) // last
            for j in idx[x + 1 : x + 1 + ARENA_WINDOW]:
                b = ranked[j]
                if a.last_opponent == b.id or b.last_opponent == a.id:
                    continue
                edges.append((i, j, (j - i) * factor + round(abs(a.rating - b.rating))))
        if not edges:
            continue
        top = max(c for _, _, c in edges) + 1
        graph.add_weighted_edges_from((i, j, top - c) for i, j, c in edges)
        for i, j in sorted(tuple(sorted(e)) for e in nx.max_weight_matching(graph, maxcardinality=True)):
            pairs.append((ranked[i].id, ranked[j].id))
    return pairs


@dataclass(frozen=True)
class ArenaSheet:
    """A player's arena record: ``points`` per match in order, their ``total``, and whether the
    player is ``on_fire`` (the last two matches were wins, so the next win counts double)."""

    points: tuple[int, ...]
    total: int
    on_fire: bool


_ARENA_BASE = {"win": 2, "draw": 1, "loss": 0}


def arena_points(results: Sequence[str]) -> ArenaSheet:
    """Score an arena player's matches, in the order played: each ``"win"``, ``"draw"`` or ``"loss"``.

    A win is 2 points, a draw 1, a loss 0. After two wins in a row the player is on fire: every
    result counts double (a win 4, a draw 2) until the player fails to win; a draw counts
    double but, not being a win, ends the streak like a loss. A new streak needs two new wins.

    Source: lichess arena rules and lila ``modules/tournament/src/main/arena/ArenaSheet.scala``
    (``isOnFire``: the two previous results are wins; ``Double`` flag for wins and draws).
    Berserk is not part of Basra's arenas.

    >>> arena_points(["win", "win", "draw", "win", "win", "win"]).points
    (2, 2, 2, 2, 2, 4)

    :raises PairingError: a result that is not ``"win"``, ``"draw"`` or ``"loss"``.
    """
    points: list[int] = []
    streak = 0  # wins in a row just before this result
    for res in results:
        if res not in _ARENA_BASE:
            raise PairingError(f"an arena result is 'win', 'draw' or 'loss', not {res!r}")
        value = _ARENA_BASE[res]
        points.append(value * 2 if streak >= 2 else value)
        streak = streak + 1 if res == "win" else 0
    return ArenaSheet(points=tuple(points), total=sum(points), on_fire=streak >= 2)


# --- standings and tie-breaks ----------------------------------------------------------------


class TieBreak(StrEnum):
    """The tie-breaks an organiser may order (FIDE Handbook C.07, articles 6-9 and 14)."""

    BUCHHOLZ = "buchholz"  # BH, C.07 8.1
    BUCHHOLZ_CUT1 = "buchholz_cut1"  # BH-C1, C.07 14.1 (and 16.5 for unplayed rounds)
    SONNEBORN_BERGER = "sonneborn_berger"  # SB, C.07 9.1
    DIRECT_ENCOUNTER = "direct_encounter"  # DE, C.07 6
    WINS = "wins"  # WIN, C.07 7.1


@dataclass(frozen=True)
class MatchResult:
    """One pairing's result in one round.

    ``b`` is ``None`` for a bye (or a round ``a`` did not play for lack of an opponent);
    ``score_a`` is the points ``a`` was given, ``score_b`` ``b``'s (by default a win's points
    minus ``score_a``). ``forfeit`` marks a paired match that was not played (the points are
    awarded; a double forfeit is ``score_a = score_b = 0``). A round with no result for an
    entrant (late entry, withdrawal) counts as a zero-point bye.
    """

    round: int
    a: int
    b: int | None
    score_a: float
    score_b: float | None = None
    forfeit: bool = False


@dataclass(frozen=True)
class Standing:
    """One line of the standings: ``rank`` (shared when everything ties), ``id``, ``score`` and
    the value of each requested tie-break (``Direct encounter`` is the value within the group
    tied when it was applied, ``None`` when not all of that group met)."""

    rank: int
    id: int
    score: float
    tiebreaks: dict[str, float | None]


@dataclass
class _Round:
    opponent: int | None  # None: unplayed without an opponent (bye, missing round)
    points: float
    played: bool  # False: a bye, a missing round or a forfeit


def standings(
    results: Sequence[MatchResult],
    tiebreaks: Sequence[str | TieBreak] = (),
    *,
    entrants: Iterable[int] = (),
    rounds: int | None = None,
    win: float = 1.0,
    predetermined: bool = False,
) -> list[Standing]:
    """Order the entrants by score, then by the organiser's ``tiebreaks`` in turn.

    ``results``: every :class:`MatchResult` so far; ``entrants``: ids that may have no result
    yet (they score 0); ``rounds``: the rounds played (default: the highest round in
    ``results``); ``win``: a win's points (a draw is half); ``predetermined``: pairings fixed in
    advance (round robin, knockout) rather than Swiss. Each tie-break splits the entrants still
    tied after the previous ones (so direct encounter is counted within that group); entrants
    tied on everything share a rank and are listed by id.

    Tie-breaks (FIDE Handbook C.07, Play-off and Tie-Break Regulations; article numbers of the
    text in force from 1 March 2026, read as quoted in github.com/mormubis/buchholz SPEC.md):

    - Buchholz (8.1): the sum of the opponents' scores; Buchholz cut-1 (14.1) leaves out the
      least of them.
    - Sonneborn-Berger (9.1): the sum over rounds of the points scored times that opponent's
      final score.
    - Direct encounter (6): when all the tied entrants have met, the points each scored in the
      matches between them (forfeits included); when they have not all met it breaks nothing
      (C.07 6.2's partial case, an entrant ranked first whatever the missing results, is not
      applied).
    - Number of wins (7.1): rounds where the entrant got a win's points, played or not.

    Unplayed rounds (Swiss, C.07 article 16, which since the 2023 regulations replaces the 2009
    "virtual opponent" rule):
    an unplayed round is a bye, a forfeit or a round with no result. For the tie-breaks of
    the entrant's opponents, its score is adjusted (16.3): a requested bye (a bye of less than a
    win's points, or a missing round) followed only by unplayed requested byes or forfeit losses
    (or in the last round) counts as a draw, every other unplayed round as the points given.
    For the entrant's own Buchholz and Sonneborn-Berger (16.4), each unplayed round is a match
    against a dummy whose score is the entrant's own score, capped at the scheduled opponent's
    adjusted score for a forfeit and at a draw's points times ``rounds`` otherwise. For
    Buchholz cut-1 (16.5), an entrant with a voluntary unplayed round (a requested bye or a
    forfeit loss) has the least contribution of such rounds cut instead of its least overall.
    With ``predetermined`` (C.07 15.2) a forfeit counts as a played match against the scheduled
    opponent and a bye (the round-robin rest) adds nothing to Buchholz or Sonneborn-Berger.

    :raises PairingError: an unknown tie-break, an entrant paired with itself or twice in one
        round, a round below 1, or ``win`` not positive.
    """
    order = [_tiebreak(t) for t in tiebreaks]
    if not win > 0:
        raise PairingError(f"a win's points must be positive, not {win!r}")
    draw = win / 2
    ids = set(entrants)
    record: dict[int, dict[int, _Round]] = defaultdict(dict)
    for res in results:
        if res.round < 1:
            raise PairingError(f"round {res.round} is below 1")
        if res.a == res.b:
            raise PairingError(f"entrant {res.a} is paired with itself in round {res.round}")
        score_b = win - res.score_a if res.score_b is None else res.score_b
        for me, them, pts in ((res.a, res.b, res.score_a), (res.b, res.a, score_b)):
            if me is None:
                continue
            if res.round in record[me]:
                raise PairingError(f"entrant {me} has two results in round {res.round}")
            record[me][res.round] = _Round(them, pts, them is not None and not res.forfeit)
            ids.add(me)
    last_round = rounds if rounds is not None else max((r.round for r in results), default=0)
    for i in ids:
        for r in range(1, last_round + 1):
            record[i].setdefault(r, _Round(None, 0.0, False))
    score = {i: sum(x.points for x in record[i].values()) for i in ids}

    def voluntary(rd: _Round) -> bool:  # 16.1.2: a requested bye or a forfeit loss
        if rd.played:
            return False
        if rd.opponent is None:
            return rd.points < win
        return rd.points < draw

    def adjusted(i: int) -> float:  # 16.3
        total = 0.0
        rs = sorted(record[i].items())
        for k, (r, rd) in enumerate(rs):
            requested = not rd.played and rd.opponent is None and rd.points < win
            if requested and all(voluntary(later) for _, later in rs[k + 1 :]):
                total += draw
            else:
                total += rd.points
        return total

    adj = {i: adjusted(i) for i in ids}

    def contributions(i: int) -> list[tuple[float, float, bool]]:
        """(opponent's value, points scored, voluntary) per round, for BH and SB."""
        out = []
        for _, rd in sorted(record[i].items()):
            if rd.played or (predetermined and rd.opponent is not None):
                out.append((score[rd.opponent] if predetermined else adj[rd.opponent], rd.points, False))
            elif predetermined:
                continue
            else:
                cap = adj.get(rd.opponent, 0.0) if rd.opponent is not None else draw * last_round
                out.append((min(score[i], cap), rd.points, voluntary(rd)))
        return out

    def value(t: TieBreak, i: int, group: frozenset[int]) -> float | None:
        if t is TieBreak.BUCHHOLZ:
            return sum(v for v, _, _ in contributions(i))
        if t is TieBreak.BUCHHOLZ_CUT1:
            cs = contributions(i)
            if not cs:
                return 0.0
            vur = [v for v, _, vol in cs if vol]
            return sum(v for v, _, _ in cs) - (min(vur) if vur else min(v for v, _, _ in cs))
        if t is TieBreak.SONNEBORN_BERGER:
            return sum(v * p for v, p, _ in contributions(i))
        if t is TieBreak.WINS:
            return float(sum(1 for rd in record[i].values() if rd.points >= win))
        # Direct encounter: only when every two of the group met (C.07 6.1).
        met = {(i2, rd.opponent) for i2 in group for rd in record[i2].values() if rd.opponent in group}
        if len(group) < 2 or any((x, y) not in met for x in group for y in group if x != y):
            return None
        return sum(rd.points for rd in record[i].values() if rd.opponent in group)

    values: dict[int, dict[str, float | None]] = {i: {} for i in ids}

    def split(group: list[int], level: int) -> list[list[int]]:
        if len(group) < 2 or level == len(order):
            return [sorted(group)]
        t = order[level]
        frozen = frozenset(group)
        vals = {i: value(t, i, frozen) for i in group}
        for i in group:
            values[i][t.value] = vals[i]
        out: list[list[int]] = []
        keyed: dict[float, list[int]] = defaultdict(list)
        for i in group:
            keyed[vals[i] if vals[i] is not None else -math.inf].append(i)
        for key in sorted(keyed, reverse=True):
            out.extend(split(keyed[key], level + 1))
        return out

    by_score: dict[float, list[int]] = defaultdict(list)
    for i in ids:
        by_score[score[i]].append(i)
    lines: list[Standing] = []
    for s in sorted(by_score, reverse=True):
        for tied in split(by_score[s], 0):
            for i in tied:
                for t in order:
                    values[i].setdefault(t.value, value(t, i, frozenset([i])) if t is not TieBreak.DIRECT_ENCOUNTER else None)
            rank = len(lines) + 1
            for i in tied:
                lines.append(Standing(rank=rank, id=i, score=score[i], tiebreaks=values[i]))
    return lines


def _tiebreak(t: str | TieBreak) -> TieBreak:
    try:
        return TieBreak(t)
    except ValueError:
        known = ", ".join(x.value for x in TieBreak)
        raise PairingError(f"unknown tie-break {t!r}; known: {known}") from None
