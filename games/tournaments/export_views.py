"""What an arbiter publishes of an event, as chess-results does: the crosstable page (with its
print view), each entrant's card, and the files: CSV of the standings and of the pairings,
TRF16 (Swiss and round robin) and the JSON read (``docs/tournaments.md``).

Public, as the event page is, and read-only (GET). All of them show ``crosstable.build``'s one
reading of the event.
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.utils.text import slugify

from games.tournaments import crosstable, exports
from games.tournaments.models import TIEBREAK_NAMES, Tournament
from games.tournaments.pairing import TieBreak


def _event(tournament_id: int) -> Tournament:
    return get_object_or_404(Tournament.objects.select_related("organiser"), pk=tournament_id)


def _file(body: str, content_type: str, t: Tournament, suffix: str) -> HttpResponse:
    response = HttpResponse(body, content_type=content_type)
    name = slugify(t.name) or "event"
    response["Content-Disposition"] = f'attachment; filename="{name}-{t.pk}-{suffix}"'
    return response


def crosstable_page(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The starting rank list and the crosstable: a round-robin grid (rows and columns in
    standings order), or for the other formats a row per entrant with each round's opponent
    (by starting rank), result and points. ``?print=1``: the same without the site's header."""
    t = _event(tournament_id)
    sheet = crosstable.build(t)
    places = {row.entrant.pk: k for k, row in enumerate(sheet.rows, start=1)}
    grid = []
    if t.format == Tournament.Format.ROUND_ROBIN:
        for row in sheet.rows:
            cells: list[list] = [[] for _ in sheet.rows]
            for cell in row.cells.values():
                if cell.opponent is not None and cell.opponent.pk in places:
                    cells[places[cell.opponent.pk] - 1].append(cell)
            grid.append((row, cells))
    starts = {row.entrant.pk: row.start_rank for row in sheet.by_start}
    lines = [
        (row, [(cell, starts.get(cell.opponent.pk) if cell.opponent else None)
               for cell in (row.cell(n) for n in sheet.rounds)])
        for row in sheet.rows
    ]
    return render(request, "tournaments/crosstable.html", {
        "t": t, "sheet": sheet, "grid": grid, "lines": lines,
        "tiebreak_names": [TIEBREAK_NAMES[TieBreak(k)] for k in t.tiebreak_order()],
        "print_view": request.GET.get("print") == "1",
        "trf": t.format in exports.TRF_FORMATS,
    })


def entrant_card(request: HttpRequest, tournament_id: int, entrant_id: int) -> HttpResponse:
    """One entrant's card: its schedule round by round (opponent, result, points, the Basra
    points of each match and a link to each table) and its standing."""
    t = _event(tournament_id)
    sheet = crosstable.build(t)
    row = next((r for r in sheet.rows if r.entrant.pk == entrant_id), None)
    if row is None:
        raise Http404("no such entrant")
    matches = crosstable.matches_of(t, row.entrant)
    return render(request, "tournaments/entrant.html", {
        "t": t, "sheet": sheet, "row": row,
        "cells": [(row.cell(n), matches.get(n, [])) for n in sheet.rounds],
    })


def standings_csv(request: HttpRequest, tournament_id: int) -> HttpResponse:
    t = _event(tournament_id)
    return _file(exports.standings_csv(crosstable.build(t)), "text/csv; charset=utf-8", t, "standings.csv")


def pairings_csv(request: HttpRequest, tournament_id: int) -> HttpResponse:
    t = _event(tournament_id)
    return _file(exports.pairings_csv(crosstable.build(t)), "text/csv; charset=utf-8", t, "pairings.csv")


def trf(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The TRF16 file (404 for a knockout or an arena: the format has no place for them)."""
    t = _event(tournament_id)
    if t.format not in exports.TRF_FORMATS:
        raise Http404("a TRF16 file is written for Swiss and round-robin events")
    return _file(exports.trf16(crosstable.build(t)), "text/plain; charset=utf-8", t, "trf16.txt")


def event_json(request: HttpRequest, tournament_id: int) -> JsonResponse:
    t = _event(tournament_id)
    return JsonResponse(exports.event_json(crosstable.build(t)), json_dumps_params={"ensure_ascii": False})
