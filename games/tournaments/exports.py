"""An event's results as files: FIDE's Tournament Report File (TRF16), CSV of the standings and
of the pairings, and the JSON read of the event (``docs/tournaments.md`` describes all four).

All four are written from ``crosstable.build``'s :class:`~games.tournaments.crosstable.Sheet`.

TRF16 (FIDE Handbook C.04 Annex 2, "Data Exchange Format", the 2016 edition): the tournament
section's tags 012 (name), 042 and 052 (first and last day), 062 (entrants), 092 (type), 102
(the organiser as chief arbiter), 122 (the clock) and 132 (each round's date), then one 001
record per entrant, in starting-rank order, with the columns the specification fixes:

==========  ==========================================================================
columns     field
==========  ==========================================================================
1-3         ``001``
5-8         starting rank
10, 11-13   sex, title: blank (the site knows neither)
15-47       the entrant's name (a partnership: ``alice & bob``), cut at 33 characters
49-52       the entrant's rating at registration (the site's rating, not a FIDE rating)
54-56, ...  federation, FIDE number, birth date: blank
81-84       points (``11.5``), 86-89 rank
92-95 ...   per round (10 columns a round, round 1 at 92): the opponent's starting rank
            (``0000`` for none), a colour at 97, the result at 99
==========  ==========================================================================

A Basra match is a colourless game won or lost: the result is ``1`` or ``0`` (``+`` and ``-``
when it was decided away from the table: a forfeit or a withdrawal), and the colour letter only
says which entrant the board lists first (``w``) and second (``b``), since the format has no
colourless game. A bye given by the pairing is ``U`` (opponent ``0000``, colour ``-``), a round
without a pairing (before a late entry, after a withdrawal) ``Z``. Only finished rounds are
written, with the points and the ranks after them, so a file written mid-round is the event as
it stood after its last finished round.
"""

from __future__ import annotations

import csv
import io
from typing import Any

from django.utils import timezone

from games.tournaments import pairing
from games.tournaments.crosstable import Cell, Result, Row, Sheet
from games.tournaments.models import TIEBREAK_NAMES, Entrant, Pairing, Tournament
from games.tournaments.standings import Line, withdrawn_last

#: TRF16's result code of each :class:`~games.tournaments.crosstable.Result`.
TRF_RESULT = {
    Result.WIN: "1",
    Result.LOSS: "0",
    Result.FORFEIT_WIN: "+",
    Result.FORFEIT_LOSS: "-",
    Result.BYE: "U",
    Result.ABSENT: "Z",
    Result.PENDING: " ",
}

#: The formats a TRF16 file is written for (rounds of pairings, each entrant's score).
TRF_FORMATS = (Tournament.Format.SWISS, Tournament.Format.ROUND_ROBIN)

#: Width of TRF16's name field (columns 15-47).
TRF_NAME = 33


def _points(value: float) -> str:
    return f"{value:.1f}"


def trf16(sheet: Sheet) -> str:
    """The event as a TRF16 file (the module's docstring gives the layout), lines ending CR LF.

    :raises ValueError: the event's format is not one of :data:`TRF_FORMATS`.
    """
    t = sheet.tournament
    if t.format not in TRF_FORMATS:
        raise ValueError(f"a TRF16 file is written for Swiss and round-robin events, not {t.format}")
    rounds = sheet.finished_rounds
    points, ranks = _after(t, sheet, rounds)
    lines = [f"012 {t.name}"]
    first = t.started_at or t.starts_at
    lines.append(f"042 {timezone.localtime(first):%Y/%m/%d}")
    if t.finished_at:
        lines.append(f"052 {timezone.localtime(t.finished_at):%Y/%m/%d}")
    lines.append(f"062 {len(sheet.by_start)}")
    lines.append(f"092 {t.get_format_display()} (Basra)")
    lines.append(f"102 {t.organiser.get_username()}")
    if t.move_seconds:
        lines.append(f"122 {t.move_seconds} s per play")
    dates = dict(
        t.rounds.filter(number__in=rounds).values_list("number", "started_at")
    )
    if dates:
        lines.append(_dates_line(dates, rounds))
    starts = {row.entrant.pk: row.start_rank for row in sheet.by_start}
    for row in sheet.by_start:
        pk = row.entrant.pk
        head = (
            f"001 {row.start_rank:>4} {'':1}{'':>3} {row.entrant.name[:TRF_NAME]:<{TRF_NAME}} "
            f"{round(row.entrant.rating):>4} {'':>3} {'':>11} {'':>10} "
            f"{_points(points.get(pk, 0.0)):>4} {ranks.get(pk, 0):>4}"
        )
        lines.append((head + "".join(_trf_round(row.cell(n), starts) for n in rounds)).rstrip())
    return "\r\n".join(lines) + "\r\n"


def _dates_line(dates: dict, rounds: list[int]) -> str:
    """Tag 132: each round's date (``YY/MM/DD``) at columns 92-99, 102-109, ..."""
    line = "132" + " " * 88
    for n in rounds:
        line += f"{timezone.localtime(dates[n]):%y/%m/%d}  "
    return line.rstrip()


def _trf_round(cell: Cell, starts: dict[int, int]) -> str:
    """One round's 10 columns: two blanks, opponent (4), blank, colour, blank, result."""
    if cell.opponent is None:
        return f"  0000 - {TRF_RESULT[cell.result]}"
    colour = "w" if cell.first else "b"
    return f"  {starts[cell.opponent.pk]:>4} {colour} {TRF_RESULT[cell.result]}"


def _after(t: Tournament, sheet: Sheet, rounds: list[int]) -> tuple[dict[int, float], dict[int, int]]:
    """Points and ranks after ``rounds`` only (``pairing.standings`` with the event's
    tie-breaks, withdrawn entrants last, as ``standings.standings`` ranks)."""
    if rounds == sheet.rounds and not sheet.provisional:
        # Every round paired so far is finished: the sheet's standings are the ones after them.
        return ({row.entrant.pk: row.score for row in sheet.rows if row.rank},
                {row.entrant.pk: row.rank for row in sheet.rows if row.rank})
    entrants = {row.entrant.pk: row.entrant for row in sheet.by_start}
    results = [
        pairing.MatchResult(round=p.round.number, a=p.a_id, b=p.b_id, score_a=p.score_a,
                            score_b=p.score_b, forfeit=p.forfeit)
        for p in Pairing.objects.filter(
            tournament=t, finished_at__isnull=False, round__number__in=rounds,
        ).select_related("round")
    ]
    if not rounds:
        return {}, {}
    lines = pairing.standings(
        results, t.tiebreak_order(), entrants=entrants, rounds=max(rounds),
        predetermined=t.format == Tournament.Format.ROUND_ROBIN,
    )
    ranked = withdrawn_last([
        Line(rank=s.rank, entrant=entrants[s.id], score=s.score, tiebreaks=[])
        for s in lines if s.id in entrants
    ])
    return (
        {line.entrant.pk: line.score for line in ranked},
        {line.entrant.pk: line.rank for line in ranked},
    )


def _csv(header: list[str], rows: list[list[Any]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(header)
    writer.writerows(rows)
    return out.getvalue()


def standings_csv(sheet: Sheet) -> str:
    """The standings: rank, starting rank, name, rating, points, each tie-break (by its
    name, in the event's order), performance, status, absent (``1``: marked absent, or paused
    in an arena, for not coming to its table: ``noshow.mark_absent``; else ``0``); one line an
    entrant."""
    t = sheet.tournament
    names = [str(TIEBREAK_NAMES[pairing.TieBreak(k)]) for k in t.tiebreak_order()]
    header = ["rank", "start_rank", "name", "rating", "points", *names, "performance", "status",
              "absent"]
    return _csv(header, [
        [row.rank or "", row.start_rank, row.entrant.name, round(row.entrant.rating),
         _points(row.score), *[("" if v is None else v) for v in row.tiebreaks],
         row.performance if row.performance is not None else "", row.entrant.status,
         int(row.entrant.absent)]
        for row in sheet.rows
    ])


def pairings_csv(sheet: Sheet) -> str:
    """The pairings: round, board, the two entrants (starting rank and name; a bye has none
    second), each one's points, the result (``crosstable.Result`` of the first entrant) and
    the Basra points of each match (``160-80;90-161``)."""
    rows: list[list[Any]] = []
    for number in sheet.rounds:
        board = 0
        for row in sheet.by_start:
            cell = row.cells.get(number)
            if cell is None or not cell.first:
                continue
            board += 1
            other = next((r for r in sheet.by_start if cell.opponent is not None
                          and r.entrant.pk == cell.opponent.pk), None)
            other_cell = other.cell(number) if other else None
            rows.append([
                number, board, row.start_rank, row.entrant.name,
                other.start_rank if other else "", other.entrant.name if other else "",
                "" if cell.points is None else _points(cell.points),
                "" if other_cell is None or other_cell.points is None else _points(other_cell.points),
                cell.result.value, ";".join(f"{a}-{b}" for a, b in cell.scores),
            ])
    header = ["round", "board", "start_rank_1", "name_1", "start_rank_2", "name_2",
              "points_1", "points_2", "result_1", "match_scores"]
    return _csv(header, rows)


def _entrant_json(row: Row) -> dict[str, Any]:
    e: Entrant = row.entrant
    return {
        "id": e.pk, "name": e.name, "members": [u.get_username() for u in e.members()],
        "start_rank": row.start_rank, "seed": e.seed, "rating": round(e.rating),
        "status": e.status, "absent": e.absent,
        "first_round": e.first_round, "withdrawn_round": e.withdrawn_round,
    }


def event_json(sheet: Sheet) -> dict[str, Any]:
    """The JSON read of an event (``docs/tournaments.md``, "JSON read", gives every field)."""
    t = sheet.tournament
    order = t.tiebreak_order()
    rounds = []
    for number in sheet.rounds:
        pairs = []
        for row in sheet.by_start:
            cell = row.cells.get(number)
            if cell is None or not cell.first:
                continue
            other = cell.opponent
            pairs.append({
                "a": row.entrant.pk, "b": other.pk if other else None,
                "result_a": cell.result.value, "points_a": cell.points,
                "match_scores": [list(s) for s in cell.scores],
            })
        rounds.append({
            "number": number, "finished": number in sheet.finished_rounds, "pairings": pairs,
        })
    return {
        "format": "basra-tournament/1",
        "id": t.pk, "name": t.name, "tournament_format": t.format, "status": t.status,
        "players_at_a_table": t.players, "rated": t.rated, "target": (t.rules or {}).get("target"),
        "move_seconds": t.move_seconds, "starts_at": t.starts_at.isoformat(),
        "started_at": t.started_at.isoformat() if t.started_at else None,
        "finished_at": t.finished_at.isoformat() if t.finished_at else None,
        "planned_rounds": t.planned_rounds(len(sheet.by_start)),
        "current_round": t.current_round, "tiebreaks": order,
        "entrants": [_entrant_json(row) for row in sheet.by_start],
        "rounds": rounds,
        "standings": {
            "provisional": sheet.provisional,
            "lines": [
                {"rank": row.rank, "entrant": row.entrant.pk, "points": row.score,
                 "tiebreaks": dict(zip(order, row.tiebreaks)), "performance": row.performance}
                for row in sheet.rows if row.rank
            ],
        },
    }
