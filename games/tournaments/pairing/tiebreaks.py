"""Standings: score, then the organiser's order of FIDE tie-breaks (FIDE Handbook C.07).

The text followed is the one the FIDE Handbook gives as "07. Tie-Break Regulations (effective
from 1 August 2024)", the Play-off and Tie-Break Regulations approved by FIDE Council on
29/07/2024 (handbook.fide.com/chapter/TieBreakRegulations082024): :data:`EDITION`, and each
tie-break's article in :data:`ARTICLES`.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum

from .errors import PairingError

__all__ = ["ARTICLES", "EDITION", "MatchResult", "Standing", "TieBreak", "standings"]


# --- standings and tie-breaks ----------------------------------------------------------------


class TieBreak(StrEnum):
    """The tie-breaks an organiser may order (FIDE Handbook C.07, articles 6-9 and 14)."""

    BUCHHOLZ = "buchholz"  # BH, C.07 8.1
    BUCHHOLZ_CUT1 = "buchholz_cut1"  # BH-C1, C.07 14.1 (and 16.5 for unplayed rounds)
    SONNEBORN_BERGER = "sonneborn_berger"  # SB, C.07 9.1
    DIRECT_ENCOUNTER = "direct_encounter"  # DE, C.07 6
    WINS = "wins"  # WIN, C.07 7.1


#: The edition of FIDE Handbook C.07 these tie-breaks follow (its title, as the Handbook names it).
EDITION = "FIDE Handbook C.07, Tie-Break Regulations effective from 1 August 2024"

#: Each tie-break's article of that edition (unplayed rounds: article 16).
ARTICLES = {
    TieBreak.BUCHHOLZ: "8.1",
    TieBreak.BUCHHOLZ_CUT1: "8.1, 14.1",
    TieBreak.SONNEBORN_BERGER: "9.1",
    TieBreak.DIRECT_ENCOUNTER: "6",
    TieBreak.WINS: "7.1",
}


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
    pending: Iterable[int] = (),
    withdrawn: Iterable[int] = (),
) -> list[Standing]:
    """Order the entrants by score, then by the organiser's ``tiebreaks`` in turn.

    ``results``: every :class:`MatchResult` so far; ``entrants``: ids that may have no result
    yet (they score 0); ``rounds``: the rounds played (default: the highest round in
    ``results``); ``win``: a win's points (a draw is half); ``predetermined``: pairings fixed in
    advance (round robin, knockout) rather than Swiss; ``pending``: entrants whose game of
    round ``rounds`` is still being played (that round is left out of their record, neither a
    result nor an unplayed round: the tie-breaks are provisional until it ends);
    ``withdrawn``: entrants who left the event (never in a direct-encounter group). Each
    tie-break splits the entrants still tied after the previous ones (so direct encounter is
    counted within that group); entrants tied on everything share a rank and are listed by id.

    Tie-breaks (:data:`EDITION`, articles in :data:`ARTICLES`):

    - Buchholz (8.1): the sum of the opponents' scores; Buchholz cut-1 (14.1) leaves out the
      least of them.
    - Sonneborn-Berger (9.1): the sum over rounds of the points scored times that opponent's
      final score.
    - Direct encounter (6): when all the tied entrants still in the event have met, the points
      each scored in the matches between them (forfeits included); when they have not all met
      it breaks nothing (6.2's partial case, an entrant ranked first whatever the missing
      results, is not applied).
    - Number of wins (7.1): rounds where the entrant got a win's points, played or not.

    Unplayed rounds (Swiss, article 16): an unplayed round is a bye, a forfeit or a round with
    no result; a voluntary one (16.2) is a requested bye (a bye of less than a win's points, or
    a round with no result: a late entry's, a withdrawal's) or a forfeit loss. For the
    tie-breaks of the entrant's opponents its score is adjusted (16.3): a requested bye
    followed only by voluntary unplayed rounds (or in the last round: it withdrew or stayed
    away) counts as a draw, every other round as the points given. For the entrant's own Buchholz
    and Sonneborn-Berger (16.4), each of its unplayed rounds, a bye or a forfeit either way, is
    a game against a dummy opponent whose score is the entrant's own score. For Buchholz cut-1
    (16.5), an entrant with a voluntary unplayed round has the least contribution of such rounds
    cut instead of its least overall. With ``predetermined`` (15.2) a forfeit counts as a
    played match against the scheduled opponent and a bye (the round-robin rest) adds nothing
    to Buchholz or Sonneborn-Berger.

    :raises PairingError: an unknown tie-break, an entrant paired with itself or twice in one
        round, a round below 1, or ``win`` not positive.
    """
    order = [_tiebreak(t) for t in tiebreaks]
    if not win > 0:
        raise PairingError(f"a win's points must be positive, not {win!r}")
    record, ids = _records(results, win)
    ids |= set(entrants)
    last_round = rounds if rounds is not None else max((r.round for r in results), default=0)
    waiting = set(pending)
    for i in ids:
        for r in range(1, last_round + 1):
            if not (r == last_round and i in waiting):
                record[i].setdefault(r, _Round(None, 0.0, False))
    book = _Book(record, ids, win, predetermined, frozenset(withdrawn))
    values: dict[int, dict[str, float | None]] = {i: {} for i in ids}

    def split(group: list[int], level: int) -> list[list[int]]:
        if len(group) < 2 or level == len(order):
            return [sorted(group)]
        t = order[level]
        frozen = frozenset(group)
        vals = {i: book.value(t, i, frozen) for i in group}
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
        by_score[book.score[i]].append(i)
    lines: list[Standing] = []
    for s in sorted(by_score, reverse=True):
        for tied in split(by_score[s], 0):
            for i in tied:
                for t in order:
                    alone = None if t is TieBreak.DIRECT_ENCOUNTER else book.value(t, i, frozenset([i]))
                    values[i].setdefault(t.value, alone)
            rank = len(lines) + 1
            for i in tied:
                lines.append(Standing(rank=rank, id=i, score=book.score[i], tiebreaks=values[i]))
    return lines


def _records(results: Sequence[MatchResult], win: float) -> tuple[dict[int, dict[int, _Round]], set[int]]:
    """Each entrant's rounds, ``{id: {round: _Round}}``, and the ids that have one.

    :raises PairingError: a round below 1, an entrant paired with itself or twice in a round.
    """
    record: dict[int, dict[int, _Round]] = defaultdict(dict)
    ids: set[int] = set()
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
    return record, ids


class _Book:
    """The tie-break values of one standings (see :func:`standings` for the articles)."""

    def __init__(self, record, ids, win: float, predetermined: bool, withdrawn: frozenset[int]):
        self.record, self.win, self.draw = record, win, win / 2
        self.predetermined, self.withdrawn = predetermined, withdrawn
        self.score = {i: sum(x.points for x in record[i].values()) for i in ids}
        self.adjusted = {i: self._adjusted(i) for i in ids}

    def voluntary(self, rd: _Round) -> bool:
        """16.2: a requested bye (less than a win's points, or no result) or a forfeit loss."""
        if rd.played:
            return False
        if rd.opponent is None:
            return rd.points < self.win
        return rd.points < self.draw

    def _adjusted(self, i: int) -> float:
        """16.3: a requested bye followed only by voluntary unplayed rounds counts as a draw."""
        total = 0.0
        rs = sorted(self.record[i].items())
        for k, (_, rd) in enumerate(rs):
            requested = not rd.played and rd.opponent is None and rd.points < self.win
            if requested and all(self.voluntary(later) for _, later in rs[k + 1:]):
                total += self.draw
            else:
                total += rd.points
        return total

    def contributions(self, i: int) -> list[tuple[float, float, bool]]:
        """(opponent's value, points scored, voluntary) per round, for BH and SB."""
        out = []
        for _, rd in sorted(self.record[i].items()):
            if self.predetermined:
                if rd.opponent is not None:  # 15.2: a forfeit as played, the rest adds nothing
                    out.append((self.score[rd.opponent], rd.points, False))
            elif rd.played:
                out.append((self.adjusted[rd.opponent], rd.points, False))
            else:  # 16.4: a dummy opponent with the entrant's own score
                out.append((self.score[i], rd.points, self.voluntary(rd)))
        return out

    def value(self, t: TieBreak, i: int, group: frozenset[int]) -> float | None:
        if t is TieBreak.BUCHHOLZ:
            return sum(v for v, _, _ in self.contributions(i))
        if t is TieBreak.BUCHHOLZ_CUT1:
            cs = self.contributions(i)
            if not cs:
                return 0.0
            vur = [v for v, _, vol in cs if vol]  # 16.5: a voluntary round is cut first
            return sum(v for v, _, _ in cs) - (min(vur) if vur else min(v for v, _, _ in cs))
        if t is TieBreak.SONNEBORN_BERGER:
            return sum(v * p for v, p, _ in self.contributions(i))
        if t is TieBreak.WINS:
            return float(sum(1 for rd in self.record[i].values() if rd.points >= self.win))
        return self.direct_encounter(i, group)

    def direct_encounter(self, i: int, group: frozenset[int]) -> float | None:
        """6.1: only when every two of the group still in the event met."""
        group = group - self.withdrawn
        if i not in group or len(group) < 2:
            return None
        met = {(x, rd.opponent) for x in group for rd in self.record[x].values() if rd.opponent in group}
        if any((x, y) not in met for x in group for y in group if x != y):
            return None
        return sum(rd.points for rd in self.record[i].values() if rd.opponent in group)


def _tiebreak(t: str | TieBreak) -> TieBreak:
    try:
        return TieBreak(t)
    except ValueError:
        known = ", ".join(x.value for x in TieBreak)
        raise PairingError(f"unknown tie-break {t!r}; known: {known}") from None
