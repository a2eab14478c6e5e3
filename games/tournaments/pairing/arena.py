"""A lichess-style arena: one pairing wave of the waiting players, and a player's points."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import networkx as nx

from .errors import PairingError, _check_unique

__all__ = ["ARENA_GROUP_SIZE", "ARENA_WINDOW", "ArenaPlayer", "ArenaSheet", "arena_pairs", "arena_points"]


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
