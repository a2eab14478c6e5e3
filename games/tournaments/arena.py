"""The arena: each entrant's results in order, and the waves that pair whoever waits
(``pairing.arena_pairs``; ``games.tournaments.services``)."""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime

from games.tournaments import busy, pairing
from games.tournaments.models import Pairing, Tournament
from games.tournaments.tables import active, open_table


def arena_sheet(t: Tournament) -> tuple[dict[int, list[str]], set[int], dict[int, int]]:
    """One read of the arena's pairings: each entrant's results in the order they ended
    (``"win"``/``"loss"``), the entrants playing now, and each one's last opponent."""
    results: dict[int, list[str]] = defaultdict(list)
    playing: set[int] = set()
    last: dict[int, int] = {}
    rows = (
        Pairing.objects.filter(tournament=t)
        .order_by("finished_at", "pk")
        .values_list("a_id", "b_id", "winner_id", "finished_at")
    )
    for a, b, winner, finished_at in rows:
        if finished_at is None:
            playing.update(x for x in (a, b) if x is not None)
            continue
        for me in (a, b):
            if me is not None:
                results[me].append("win" if winner == me else "loss")
        if b is not None:
            last[a], last[b] = b, a
    return results, playing, last


def arena_results(t: Tournament) -> dict[int, list[str]]:
    """Each entrant's arena results in the order they ended (``"win"``/``"loss"``)."""
    return arena_sheet(t)[0]


def arena_wave(t: Tournament, now: datetime) -> None:
    """Pair the arena's waiting entrants (``pairing.arena_pairs``) and open their tables; an
    entrant engaged in another event (``busy.engaged``) is left for a later wave, a paused one
    (``Entrant.absent``: a no-show, ``noshow.mark_absent``) until it rejoins."""
    results, playing, last = arena_sheet(t)
    entrants = list(active(t).filter(absent=False).select_related("user", "partner"))
    waiting = [e for e in entrants if e.pk not in playing]
    # A player engaged in another event (at a table there, or wanted by a pairing there that
    # waits for its table) waits here until free: one tournament table at a time (``busy``).
    elsewhere = busy.engaged(
        [uid for e in waiting for uid in (e.user_id, e.partner_id) if uid is not None],
        tournament_id=t.pk,
    )
    waiting = [e for e in waiting if e.user_id not in elsewhere and e.partner_id not in elsewhere]
    if len(waiting) < 2:
        return
    # "Not the last opponent" keeps two players from meeting again while others may come free;
    # in an arena of two there is nobody else, and they would wait to the end, paired once.
    alone = len(entrants) == 2
    pairs = pairing.arena_pairs([
        pairing.ArenaPlayer(
            id=e.pk, score=pairing.arena_points(results.get(e.pk, [])).total, rating=e.rating,
            last_opponent=None if alone else last.get(e.pk),
        )
        for e in waiting
    ])
    if not pairs:
        return
    by_id = {e.pk: e for e in waiting}
    rnd = t.rounds.get(number=1)
    board = Pairing.objects.filter(tournament=t).count()
    for a, b in pairs:
        board += 1
        p = Pairing.objects.create(
            tournament=t, round=rnd, board=board, a=by_id[a], b=by_id[b], created_at=now
        )
        open_table(t, p, 1, now)
