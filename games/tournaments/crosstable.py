"""What an arbiter publishes of an event, read once from the database: the starting rank list,
each entrant's round-by-round results and the crosstable built from them.

The pages (``export_views``), the CSV and TRF16 files and the JSON read (``exports``) all show
this one :class:`Sheet`, so a result reads the same everywhere. Basra has no colours: a match is
a game won or lost (``pairing.MatchResult``'s scores, a win 1 and a loss 0), and the board's
first-listed entrant is only that.

- **Starting rank**: the seed given at the start (1 the top seed); before the start, by rating
  (highest first), then by registration.
- **A round's cell** for an entrant (:class:`Cell`): the opponent, the result (:class:`Result`)
  and the Basra points of each of the pairing's matches (the entrant's first: "match scores").
- **Performance** (:func:`performance`): the rating at which the logistic expectation (Elo's,
  the 400-point scale the site's ratings use, ``games.ratings.glicko2`` before the Glicko-2
  scaling) of the entrant's played matches equals its score, kept within 800 points of the
  opponents' average as FIDE's table of ``dp`` is (FIDE Handbook B.02, 8.1(a): ``dp`` 800 at a
  score of 100 %, -800 at 0 %).
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass, field
from enum import StrEnum

from django.db import models

from games.tournaments import standings as standings_module
from games.tournaments.models import Entrant, Game, Pairing, Round, Tournament


class Result(StrEnum):
    """What an entrant's round was (TRF16's result codes beside each, ``exports.TRF_RESULT``)."""

    WIN = "win"
    LOSS = "loss"
    FORFEIT_WIN = "forfeit_win"  # the opponent did not play: a withdrawal, an organiser's forfeit
    FORFEIT_LOSS = "forfeit_loss"
    BYE = "bye"  # the pairing gave the entrant no opponent (its points: the bye's)
    ABSENT = "absent"  # not paired: before a late entry, after a withdrawal
    PENDING = "pending"  # paired, no result yet


#: The results that were played out at a table (the others are unplayed rounds, FIDE C.07 16).
PLAYED = (Result.WIN, Result.LOSS)

#: FIDE's cap on a performance's distance from the opponents' average (B.02 8.1(a)).
DP_CAP = 800.0

#: Halvings of the 1,600-point bracket: the performance to within 0.001 of a point.
BISECTIONS = 21


@dataclass(frozen=True)
class Cell:
    """One entrant's round: ``opponent`` (``None``: a bye or no pairing), ``first`` (the board
    lists this entrant first), ``result``, ``points`` awarded (``None`` until known) and
    ``scores``: ``(mine, theirs)`` Basra points of each match of the pairing that ended."""

    round: int
    result: Result
    opponent: Entrant | None = None
    first: bool = True
    points: float | None = None
    scores: tuple[tuple[int, int], ...] = ()


@dataclass
class Row:
    """One entrant's line: starting rank, place (``rank``, shared by a tie), score, tie-break
    values in the event's order, its cells by round number, and its performance."""

    start_rank: int
    entrant: Entrant
    rank: int = 0
    score: float = 0.0
    tiebreaks: list[float | None] = field(default_factory=list)
    cells: dict[int, Cell] = field(default_factory=dict)
    performance: int | None = None

    def cell(self, number: int) -> Cell:
        """The cell of round ``number`` (``absent`` when the entrant had none)."""
        return self.cells.get(number) or Cell(round=number, result=Result.ABSENT)


@dataclass
class Sheet:
    """An event's published results: ``rows`` in standings order, ``by_start`` in starting-rank
    order, ``rounds`` the round numbers paired so far, ``finished_rounds`` those with every
    result in, ``provisional`` while a round is being played."""

    tournament: Tournament
    rows: list[Row]
    by_start: list[Row]
    rounds: list[int]
    finished_rounds: list[int]
    provisional: bool


def starting_ranks(t: Tournament, entrants: list[Entrant]) -> list[Entrant]:
    """``entrants`` in starting-rank order (seed; before the start, rating then registration)."""
    return sorted(entrants, key=lambda e: (e.seed is None, e.seed or 0, -e.rating, e.pk))


def build(t: Tournament) -> Sheet:
    """The event's :class:`Sheet`: four queries (entrants, pairings, their games and matches,
    rounds) plus the standings' own (``standings.standings``)."""
    entrants = list(
        t.entrants.exclude(status=Entrant.Status.INVITED).select_related("user", "partner")
    )
    by_id = {e.pk: e for e in entrants}
    pairings = list(Pairing.objects.filter(tournament=t).select_related("round"))
    games: dict[int, list[Game]] = defaultdict(list)
    for g in Game.objects.filter(pairing__tournament=t).select_related("match").order_by("number"):
        games[g.pairing_id].append(g)
    rows = {
        e.pk: Row(start_rank=k, entrant=e)
        for k, e in enumerate(starting_ranks(t, entrants), start=1)
    }
    for p in pairings:
        _fill(rows, by_id, p, games.get(p.pk, []))
    lines = standings_module.standings(t) if t.status != Tournament.Status.UPCOMING else []
    for line in lines:
        row = rows.get(line.entrant.pk)
        if row is not None:
            row.rank, row.score, row.tiebreaks = line.rank, line.score, list(line.tiebreaks)
    placed = {line.entrant.pk for line in lines}
    ordered = [rows[line.entrant.pk] for line in lines if line.entrant.pk in rows]
    ordered += [r for r in rows.values() if r.entrant.pk not in placed]
    ratings = {pk: e.rating for pk, e in by_id.items()}
    for row in rows.values():
        row.performance = performance(row, ratings)
    numbers = sorted({p.round.number for p in pairings})
    finished = list(
        Round.objects.filter(tournament=t, finished_at__isnull=False)
        .order_by("number").values_list("number", flat=True)
    )
    return Sheet(
        tournament=t, rows=ordered, by_start=sorted(rows.values(), key=lambda r: r.start_rank),
        rounds=numbers, finished_rounds=finished,
        provisional=any(p.finished_at is None for p in pairings)
        and t.status == Tournament.Status.RUNNING,
    )


def _fill(rows: dict[int, Row], by_id: dict[int, Entrant], p: Pairing, games: list[Game]) -> None:
    """Write pairing ``p``'s cell into the rows of both its entrants."""
    number = p.round.number
    if p.b_id is None:
        if p.a_id in rows:
            rows[p.a_id].cells[number] = Cell(
                round=number, result=Result.BYE if p.finished else Result.PENDING,
                points=p.score_a,
            )
        return
    for me, them, points, first in (
        (p.a_id, p.b_id, p.score_a, True), (p.b_id, p.a_id, p.score_b, False),
    ):
        if me not in rows:
            continue
        rows[me].cells[number] = Cell(
            round=number, result=_result(p, me), opponent=by_id.get(them), first=first,
            points=points if p.finished else None,
            scores=tuple(_scores(g, first) for g in games if g.winner_id is not None),
        )


def _result(p: Pairing, me: int) -> Result:
    if not p.finished:
        return Result.PENDING
    won = p.winner_id == me
    if p.forfeit:
        return Result.FORFEIT_WIN if won else Result.FORFEIT_LOSS
    return Result.WIN if won else Result.LOSS


def _scores(game: Game, first: bool) -> tuple[int, int]:
    """``(mine, theirs)``: the Basra points of ``game``'s match, for the pairing's first
    entrant (``first``) or its second; the first entrant holds side ``game.a_side``."""
    scores = list(game.match.scores or [0, 0])
    mine_side = game.a_side if first else 1 - game.a_side
    return (int(scores[mine_side]), int(scores[1 - mine_side]))


def performance(row: Row, ratings: dict[int, float]) -> int | None:
    """The entrant's performance rating over its matches played at a table (forfeits and byes
    left out, as FIDE rates only played games), ``None`` with none played.

    Solved by bisection for ``R`` in ``sum(1 / (1 + 10 ** ((R_j - R) / 400))) = score`` over
    the opponents' ratings ``R_j`` at registration, kept within :data:`DP_CAP` of their
    average (a score of 100 % or 0 % gives the cap, as FIDE's ``dp`` table does).
    """
    opponents = [
        ratings[c.opponent.pk] for c in row.cells.values()
        if c.result in PLAYED and c.opponent is not None and c.opponent.pk in ratings
    ]
    if not opponents:
        return None
    score = sum(1.0 for c in row.cells.values() if c.result == Result.WIN)
    average = sum(opponents) / len(opponents)
    low, high = average - DP_CAP, average + DP_CAP

    def expected(r: float) -> float:
        return sum(1.0 / (1.0 + math.pow(10.0, (rj - r) / 400.0)) for rj in opponents)

    if score <= expected(low):
        return round(low)
    if score >= expected(high):
        return round(high)
    for _ in range(BISECTIONS):
        mid = (low + high) / 2
        low, high = (mid, high) if expected(mid) < score else (low, mid)
    return round((low + high) / 2)


def matches_of(t: Tournament, entrant: Entrant) -> dict[int, list[Game]]:
    """``{round number: [games]}``: the tables ``entrant`` was paired at, for links."""
    out: dict[int, list[Game]] = defaultdict(list)
    games = Game.objects.filter(pairing__tournament=t).filter(
        models.Q(pairing__a=entrant) | models.Q(pairing__b=entrant)
    ).select_related("pairing__round").order_by("pairing__round__number", "number")
    for g in games:
        out[g.pairing.round.number].append(g)
    return dict(out)
