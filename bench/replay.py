"""Replay benchmark (issue 12, "Tests and speed"): the server time of a 10-round match's replay
page and of its record, and the analysis time of the whole match.

It plays a two-player match through the live core's actions (``games.core.actions``, greedy cards,
target 1000 so no side wins early), stops it by a resignation once ten rounds are played (the
eleventh is dealt, as the core deals at once), then measures, in this process, with Django's test
client (URL routing, views, queries, templates, JSON; no network):

- ``GET /match/<id>/replay/``: the median of ``--repeat`` requests (target under 300 ms);
- ``GET /match/<id>/record.json``: the same;
- the analysis of every play (``games.replays.jobs.run_analysis`` with the process pool it runs
  in on the site, ``--workers`` processes, started beforehand): wall time (target under 60 s).

The database: ``DATABASE_URL`` if set (e.g. ``postgres://postgres@127.0.0.1:5432/basra_NAME``;
the bench's rows are left there), else a temporary SQLite file. Usage::

    .venv/bin/python bench/replay.py
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/basra_replays .venv/bin/python bench/replay.py

Results (this machine, 2 cores shared with other work, PostgreSQL ``basra_replays``): the 10
rounds played in 2.7 s (506 events); replay page median 22.8 ms (169 kB); record.json median
4.8 ms (12 kB); the analysis of the 480 plays 15.7 s with 2 processes (the strong bot judging,
1,000 sampled deals a play); in the site's background thread, requested from a transaction,
13.1 s. With the expert judging (issue 42: at most 4,000 iterations or 0.25 s a play; forced
plays and two-player last deals need no search), SQLite, under ``nice -n 19`` on the loaded
machine: 480 plays in 35.1 s with 2 processes (target under 60 s).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def setup() -> None:
    if not os.environ.get("DATABASE_URL"):
        path = Path(tempfile.mkdtemp()) / "bench.sqlite3"
        os.environ["DATABASE_URL"] = f"sqlite:///{path}"
    os.environ.setdefault("DEBUG", "1")  # the site defaults to off; this bench runs as `make run`
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "basra_site.settings")
    os.environ.pop("REDIS_URL", None)
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def play_ten_rounds():
    """A finished match of ten played rounds, through the core's actions."""
    from django.contrib.auth import get_user_model

    from games.core import actions
    from games.core.models import Event, Match
    from games.core.state import reads
    from games.engine.bots import GreedyBot

    users = get_user_model()
    stamp = int(time.time() * 1000)
    alice = users.objects.create_user(f"bench-a-{stamp}", password=None)
    bob = users.objects.create_user(f"bench-b-{stamp}", password=None)
    match = actions.create_table(user=alice, players=2, rules={"target": 1000}, rated=False)
    actions.join_table(user=bob, match_id=match.pk)
    by_seat = {s.seat: s.user for s in match.seats.select_related("user")}
    greedy = GreedyBot()
    while Event.objects.filter(match=match, kind=Event.Kind.DEAL).count() <= 10:
        match.refresh_from_db()
        view = reads.turn_view(match, reads.seat_to_move(match))
        card = greedy.choose(view)
        actions.play_card(user=by_seat[view.seat], match_id=match.pk, card=card.code,
                          seq=match.seq)
    actions.resign(user=alice, match_id=match.pk)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    return match


def timed(client, url: str, repeat: int) -> tuple[float, int]:
    client.get(url)  # warm: templates compiled, translations loaded
    times = []
    size = 0
    for _ in range(repeat):
        start = time.perf_counter()
        response = client.get(url)
        times.append(time.perf_counter() - start)
        assert response.status_code == 200, (url, response.status_code)
        size = len(response.content)
    return statistics.median(times), size


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--workers", type=int, default=0, help="analysis processes (0: one per core)")
    parser.add_argument("--no-analysis", action="store_true")
    args = parser.parse_args()
    setup()
    from django.conf import settings
    from django.test import Client
    from django.urls import reverse

    from games.replays import jobs
    from games.replays.models import Analysis

    start = time.perf_counter()
    match = play_ten_rounds()
    print(f"match {match.pk}: 10 rounds played through the actions in "
          f"{time.perf_counter() - start:.1f} s; events {match.seq}")
    client = Client()
    page, page_size = timed(client, reverse("replays:match", kwargs={"match_id": match.pk}),
                            args.repeat)
    record, record_size = timed(client, reverse("match_record", kwargs={"match_id": match.pk}),
                                args.repeat)
    print(f"replay page: median {page * 1000:.1f} ms ({page_size / 1000:.0f} kB), target < 300 ms")
    print(f"record.json: median {record * 1000:.1f} ms ({record_size / 1000:.0f} kB)")
    if args.no_analysis:
        return
    settings.BASRA_ANALYSIS_IN_SERVER = False
    if args.workers:
        settings.BASRA_ANALYSIS_WORKERS = args.workers
    pool = jobs.pool()
    list(pool.map(abs, range(jobs.worker_count())))  # the workers are up
    row = jobs.request_analysis(user=match.seats.get(seat=0).user, match=match)
    start = time.perf_counter()
    jobs.run_analysis(row.pk, executor=pool)
    spent = time.perf_counter() - start
    row = Analysis.objects.get(pk=row.pk)
    print(f"analysis: {row.total} plays in {spent:.1f} s with {jobs.worker_count()} processes "
          f"({row.status}), target < 60 s")
    for player in row.result["players"]:
        print(f"  seat {player['seat']}: accuracy {player['accuracy']}, mean loss "
              f"{player['mean_loss']} points per play, {player['inaccuracies']} inaccuracies, "
              f"{player['mistakes']} mistakes, {player['blunders']} blunders")
    print(f"  luck per side (points): {row.result['luck']}")
    pool.shutdown()


if __name__ == "__main__":
    main()
