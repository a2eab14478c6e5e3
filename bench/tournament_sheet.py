"""What an arbiter publishes, for a 1,000-entrant Swiss (issue 24, "Speed"): the round's
pairing, the standings with every tie-break, the crosstable and the TRF16 export, each timed in
CPU seconds (``time.process_time``) beside the wall time. Target: each under 1 s.

The event is simulated in memory first (``bench/tournament.py``'s ``SwissSim``: ``--rounds``
rounds of ``pairing.swiss_round``, the higher rated winning with the Elo chance), then written
to a database (``--database-url``, default a new SQLite file, migrated) as the site's rows
(entrants, rounds, pairings with their results; no tables are played), and read back by the
site's own code: ``standings.standings`` (all five tie-breaks), ``crosstable.build``,
``exports.trf16``, ``exports.standings_csv`` and ``exports.event_json``.

Run: ``.venv/bin/python bench/tournament_sheet.py`` (``--entrants 1000 --rounds 9 --seed 1``).

Measured here (2026-12-02, SQLite, load average 2-3, seed 1), CPU seconds:

    pairing round 9 (swiss_round)          0.28   (2.14 before ``swiss.EXACT_SPLIT_MAX``)
    standings, all five tie-breaks         0.29-0.40
    crosstable (its standings included)    0.51-0.77
    TRF16 export                           0.02-0.03 (0.42 before it reused the sheet's standings)
    standings CSV, JSON read               0.01, 0.02
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from datetime import timedelta

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from tournament import SwissSim, setup_django, timed  # noqa: E402


def simulate(n: int, rounds: int, rng: random.Random) -> tuple[SwissSim, list]:
    """``rounds`` Swiss rounds of ``n`` entrants; the last round's pairing is timed."""
    from games.tournaments.pairing import swiss_round

    sim = SwissSim({i: min(2400.0, max(600.0, rng.gauss(1500, 250))) for i in range(1, n + 1)})
    paired = []
    for number in range(1, rounds + 1):
        entrants = sim.entrants()
        if number == rounds:
            with timed(f"pairing round {number} (swiss_round, {n} entrants)"):
                pairs, bye = swiss_round(entrants)
        else:
            pairs, bye = swiss_round(entrants)
        paired.append((pairs, bye))
        sim.play(rng, pairs, bye)
    return sim, paired


def write(sim: SwissSim, rounds: int):
    """The simulated event as the site's rows; returns the ``Tournament``."""
    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from games.tournaments.models import Entrant, Pairing, Round, Tournament
    from games.tournaments.pairing import TieBreak

    now = timezone.now()
    users = get_user_model().objects.bulk_create(
        get_user_model()(username=f"s{i:04d}", email=f"s{i}@example.com") for i in sim.ratings
    )
    t = Tournament.objects.create(
        organiser=users[0], name="Bench Swiss", format="swiss", swiss_rounds=rounds,
        starts_at=now, started_at=now, status="running", current_round=rounds,
        tiebreaks=[k.value for k in TieBreak], rules={"target": 101},
    )
    order = sorted(sim.ratings, key=lambda i: -sim.ratings[i])
    seed = {i: k for k, i in enumerate(order, start=1)}
    entrants = Entrant.objects.bulk_create(
        Entrant(tournament=t, user=u, rating=sim.ratings[i], seed=seed[i])
        for i, u in zip(sim.ratings, users)
    )
    pk = {i: e.pk for i, e in zip(sim.ratings, entrants)}
    rows = {n: Round.objects.create(tournament=t, number=n, started_at=now, finished_at=now)
            for n in range(1, rounds + 1)}
    pairings, boards = [], {}
    for r in sim.results:
        boards[r.round] = boards.get(r.round, 0) + 1
        win_a = r.score_a >= 1.0
        pairings.append(Pairing(
            tournament=t, round=rows[r.round], board=boards[r.round], a_id=pk[r.a],
            b_id=pk[r.b] if r.b is not None else None,
            winner_id=pk[r.a] if win_a else (pk[r.b] if r.b is not None else None),
            score_a=r.score_a, score_b=None if r.b is None else 1.0 - r.score_a,
            created_at=now, finished_at=now + timedelta(minutes=r.round),
        ))
    Pairing.objects.bulk_create(pairings, batch_size=1000)
    Tournament.objects.filter(pk=t.pk).update(status="finished", finished_at=now)
    return Tournament.objects.get(pk=t.pk)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entrants", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--database-url", default=None)
    args = parser.parse_args(argv)
    url = setup_django(args.database_url)
    print(f"Swiss, {args.entrants} entrants, {args.rounds} rounds (database {url.split(':')[0]})")
    start = time.perf_counter()
    sim, _ = simulate(args.entrants, args.rounds, random.Random(args.seed))
    t = write(sim, args.rounds)
    print(f"  simulated and written in {time.perf_counter() - start:.1f} s (not a target)")

    from games.tournaments import crosstable, exports, standings

    with timed("standings with all five tie-breaks (standings.standings)"):
        lines = standings.standings(t)
    with timed("crosstable (crosstable.build: the standings, every round's cell, performances)"):
        sheet = crosstable.build(t)
    with timed("TRF16 export (exports.trf16)"):
        trf = exports.trf16(sheet)
    with timed("standings CSV (exports.standings_csv)"):
        exports.standings_csv(sheet)
    with timed("JSON read (exports.event_json)"):
        exports.event_json(sheet)
    print(f"  {len(lines)} standings lines, TRF16 {len(trf.splitlines())} lines, {len(trf):,} bytes")


if __name__ == "__main__":
    main()
