"""Standings: score, then the organiser's order of FIDE tie-breaks (FIDE Handbook C.07)."""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum

from .errors import PairingError

__all__ = ["MatchResult", "Standing", "TieBreak", "standings"]


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
