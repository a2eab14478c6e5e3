"""An event's standings: round robin and Swiss by ``pairing.standings`` with the organiser's
FIDE C.07 tie-breaks, knockout places, the arena leaderboard (``games.tournaments.services``)."""

from __future__ import annotations

from dataclasses import dataclass, replace

from django.utils.translation import pgettext

from games.tournaments import pairing
from games.tournaments.arena import arena_results
from games.tournaments.bracket import round_name
from games.tournaments.checks import Format
from games.tournaments.models import Entrant, Pairing, Tournament


@dataclass(frozen=True)
class Line:
    """One line of an event's standings: ``rank``, the ``entrant``, its ``score`` (arena:
    points), the tie-break values in the event's order, and for an arena each match's points
    and whether the entrant is on fire (two wins in a row: the next win counts double), for a
    knockout the furthest round reached, by name."""

    rank: int
    entrant: Entrant
    score: float
    tiebreaks: list[float | None]
    points: tuple[int, ...] = ()
    on_fire: bool = False
    reached: str = ""  # knockout: the name of the furthest round reached (``bracket.round_name``)


def standings(t: Tournament) -> list[Line]:
    """The event's standings so far (round robin and Swiss: ``pairing.standings`` with the
    organiser's tie-breaks, FIDE C.07, a game still being played left out of them, so they are
    provisional until its round ends; knockout: :func:`knockout_places`; arena:
    :func:`arena_board`), withdrawn entrants last (:func:`withdrawn_last`)."""
    entrants = {e.pk: e for e in t.entrants.exclude(status=Entrant.Status.INVITED).select_related("user", "partner")}
    if t.format == Format.ARENA:
        return withdrawn_last(arena_board(t, entrants))
    if t.format == Format.KNOCKOUT:
        return withdrawn_last(knockout_places(t, entrants))
    results = []
    pending: set[int] = set()
    for p in Pairing.objects.filter(tournament=t).select_related("round"):
        if p.finished_at is None:
            pending.update(x for x in (p.a_id, p.b_id) if x is not None)
            continue
        results.append(pairing.MatchResult(
            round=p.round.number, a=p.a_id, b=p.b_id, score_a=p.score_a,
            score_b=p.score_b, forfeit=p.forfeit,
        ))
    order = t.tiebreak_order()
    lines = pairing.standings(
        results, order, entrants=entrants, rounds=t.current_round or None,
        predetermined=t.format == Format.ROUND_ROBIN, pending=pending,
        withdrawn=[i for i, e in entrants.items() if e.status == Entrant.Status.WITHDRAWN],
    )
    return withdrawn_last([
        Line(rank=s.rank, entrant=entrants[s.id], score=s.score,
             tiebreaks=[s.tiebreaks.get(k) for k in order])
        for s in lines if s.id in entrants
    ])


def withdrawn_last(lines: list[Line]) -> list[Line]:
    """``lines`` with the withdrawn entrants moved after every entrant still in the event, each
    part in its own order, ranks numbered again (lines that shared a rank still share one).

    A withdrawn entrant keeps the points of its matches already decided (they count for its
    opponents' tie-breaks too, FIDE C.07 16.3), but it is shown withdrawn and never placed
    above an entrant who played on, nor named the winner (prize rules of chess events commonly
    do the same: a player who withdraws forfeits any place).
    """
    staying = [line for line in lines if line.entrant.status != Entrant.Status.WITHDRAWN]
    gone = [line for line in lines if line.entrant.status == Entrant.Status.WITHDRAWN]
    out: list[Line] = []
    for part in (staying, gone):
        for k, line in enumerate(part):
            shared = k > 0 and part[k - 1].rank == line.rank
            out.append(replace(line, rank=out[-1].rank if shared else len(out) + 1))
    return out


def arena_board(t: Tournament, entrants: dict[int, Entrant]) -> list[Line]:
    """The arena leaderboard: ``pairing.arena_points`` totals (2 a win, doubled on a streak),
    highest first; ties share a rank."""
    results = arena_results(t)
    sheets = {i: pairing.arena_points(results.get(i, [])) for i in entrants}
    ordered = sorted(entrants, key=lambda i: (-sheets[i].total, -entrants[i].rating, i))
    lines: list[Line] = []
    for i in ordered:
        rank = lines[-1].rank if lines and lines[-1].score == sheets[i].total else len(lines) + 1
        lines.append(Line(rank=rank, entrant=entrants[i], score=sheets[i].total, tiebreaks=[],
                          points=sheets[i].points, on_fire=sheets[i].on_fire))
    return lines


def knockout_places(t: Tournament, entrants: dict[int, Entrant]) -> list[Line]:
    """Knockout places: the further an entrant went the better; the final's winner first, then
    its loser, then the third-place match's winner and loser; entrants out in the same round
    share a place. ``score`` is the number of the last round the entrant was in, ``reached``
    its name, and "Winner" for the final's winner once the event is finished."""
    reached: dict[int, int] = {}
    out_in: dict[int, int] = {}
    final_order: dict[int, int] = {}
    pairings = list(Pairing.objects.filter(tournament=t).select_related("round"))
    last_round = max((p.round.number for p in pairings), default=0)
    for p in pairings:
        n = p.round.number
        for e in (p.a_id, p.b_id):
            if e is not None and not p.third_place:
                reached[e] = max(reached.get(e, 0), n)
        if p.finished and p.b_id is not None and not p.third_place:
            out_in[p.loser.pk if p.loser else p.a_id] = n
        if p.finished and n == last_round and p.b_id is not None and p.winner_id is not None:
            base = 2 if p.third_place else 0
            final_order[p.winner_id] = base
            final_order[p.loser.pk] = base + 1
    champion = next((i for i, place in final_order.items() if place == 0), None)
    if t.status != Tournament.Status.FINISHED:
        champion = None
    def key(i: int):
        if t.status == Tournament.Status.FINISHED and i in final_order:
            return (0, final_order[i])
        return (1, -reached.get(i, 0), 0 if i not in out_in else 1)
    ordered = sorted(entrants, key=lambda i: (key(i), entrants[i].seed or 0))
    rounds = t.planned_rounds(sum(1 for e in entrants.values() if e.seed)) or 0
    lines: list[Line] = []
    for i in ordered:
        rank = lines[-1].rank if lines and key(ordered[len(lines) - 1]) == key(i) else len(lines) + 1
        n = reached.get(i, 0)
        name = round_name(n, rounds) if n and rounds else ""
        if i == champion:  # the final reached and won: a place of its own, not the final's name
            name = pgettext("the knockout's champion", "Winner")
        lines.append(Line(rank=rank, entrant=entrants[i], score=n, tiebreaks=[], reached=name))
    return lines
