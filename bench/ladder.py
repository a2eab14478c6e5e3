"""Ladder benchmark: the ladder, a search and a profile with 100,000 players in PostgreSQL.

What it loads (once; ``--reload`` wipes the players, matches and ratings and loads again), by
``COPY`` into the database of ``DATABASE_URL`` (PostgreSQL only), migrated first:

- ``--players`` users (default 100,000) with a 1v1 rating each: ratings N(1500, 250); 85% with
  an established deviation (45-109), 15% provisional (110-350); 90% active (a rated match in
  the last 20 days), 10% not (40-400 days ago, hidden from the ladder);
- ``--changes`` rating-history rows (default 1,000,000: ten per player), two per rated match,
  so ``--changes / 2`` finished rated matches with their two seats and their rated-match
  records.

What it prints: the server time (the whole request in this process through Django's test
client: URL routing, queries, template) of the ladder's first page, the page holding rank
50,000, a search, and a profile with its ten-point rating chart, each the median of
``--repeat`` requests (default 7) after one warm-up, signed in as a player in the middle of the
ladder (so the own-row lookup is included), with the number of queries. Target (issue 9):
each under 200 ms.

Usage::

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/basra_ratings .venv/bin/python bench/ladder.py

Results (PostgreSQL on the same 2 shared cores; the load took 25 s):

    page                             median ms  max ms queries
    ladder, first page                    38.5    45.0       7
    ladder, rank 50,000's page            38.2    47.7       7
    search 'lad0313'                      80.3    83.0       8
    profile                               16.8    19.5      10

Before the ladder's index carried the tab's columns (``INCLUDE``) and the page's ids were read
first, rank 50,000's page took 109 ms and the search 150 ms (max 202 ms).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
import uuid
from datetime import datetime, timedelta, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

PREFIX = "lad"


def load(connection, players: int, changes: int, seed: int) -> None:
    """Fill the tables by COPY (psycopg 3's ``cursor.copy``)."""
    rng = random.Random(seed)
    now = datetime.now(timezone.utc)
    raw = connection.connection  # the psycopg connection
    with raw.cursor() as cur:
        cur.execute("SELECT coalesce(max(id), 0) FROM auth_user")
        first_user = cur.fetchone()[0] + 1
        started = time.perf_counter()
        with cur.copy(
            "COPY auth_user (id, password, is_superuser, username, first_name, last_name, email,"
            " is_staff, is_active, date_joined) FROM STDIN"
        ) as copy:
            for i in range(players):
                copy.write_row((first_user + i, "!", False, f"{PREFIX}{i:06d}", "", "",
                                f"{PREFIX}{i}@example.com", False, True, now))
        cur.execute("SELECT setval(pg_get_serial_sequence('auth_user', 'id'), %s)",
                    (first_user + players,))
        print(f"  {players} users: {time.perf_counter() - started:.1f} s")

        started = time.perf_counter()
        ratings = {}
        with cur.copy(
            "COPY ratings_playerrating (user_id, pool, rating, deviation, volatility, matches,"
            " wins, losses, last_rated_at) FROM STDIN"
        ) as copy:
            for i in range(players):
                rating = max(400.0, rng.gauss(1500, 250))
                deviation = rng.uniform(45, 109) if rng.random() < 0.85 else rng.uniform(110, 350)
                days = rng.uniform(0, 20) if rng.random() < 0.9 else rng.uniform(40, 400)
                matches = changes * 2 // players // 2
                wins = rng.randint(0, matches)
                ratings[i] = rating
                copy.write_row((first_user + i, "1v1", rating, deviation, 0.06, matches, wins,
                                matches - wins, now - timedelta(days=days)))
        print(f"  {players} ratings: {time.perf_counter() - started:.1f} s")

        started = time.perf_counter()
        matches = changes // 2
        cur.execute("SELECT coalesce(max(id), 0) FROM games_match")
        first_match = cur.fetchone()[0] + 1
        pairs = []
        with cur.copy(
            "COPY games_match (id, created_by_id, players, rules, rated, status, seq, created_at,"
            " started_at, finished_at, scores, winner_side, result, move_seconds, cache_token,"
            " seating_token, client_seeds, server_seed, watchers, invite_token, private,"
            " early_abort, private_watchable) FROM STDIN"
        ) as copy:
            for m in range(matches):
                # Every player plays changes/players matches: player (m mod players) against
                # a random other.
                a = m % players
                b = (a + rng.randint(1, players - 1)) % players
                when = now - timedelta(minutes=matches - m)
                winner = rng.randint(0, 1)
                pairs.append((a, b, when, winner))
                copy.write_row((first_match + m, first_user + a, 2, '{"players": 2}', True,
                                "finished", 60, when, when, when,
                                "[101, 60]" if winner == 0 else "[60, 101]", winner, "target",
                                60, uuid.uuid4(), uuid.uuid4(), "[]", "", "everyone", "",
                                False, True, False))
        cur.execute("SELECT setval(pg_get_serial_sequence('games_match', 'id'), %s)",
                    (first_match + matches,))
        with cur.copy("COPY games_seat (match_id, seat, user_id, bot, absent, timeouts,"
                      " resign_offered, client_seed) FROM STDIN") as copy:
            for m, (a, b, _when, _winner) in enumerate(pairs):
                copy.write_row((first_match + m, 0, first_user + a, "", False, 0, False, ""))
                copy.write_row((first_match + m, 1, first_user + b, "", False, 0, False, ""))
        print(f"  {matches} matches and {2 * matches} seats: {time.perf_counter() - started:.1f} s")

        started = time.perf_counter()
        cur.execute("SELECT coalesce(max(id), 0) FROM ratings_ratedmatch")
        first_record = cur.fetchone()[0] + 1
        with cur.copy("COPY ratings_ratedmatch (id, match_id, pool, rated_at, seats)"
                      " FROM STDIN") as copy:
            for m, (_a, _b, when, _winner) in enumerate(pairs):
                copy.write_row((first_record + m, first_match + m, "1v1", when, "[]"))
        cur.execute("SELECT setval(pg_get_serial_sequence('ratings_ratedmatch', 'id'), %s)",
                    (first_record + matches,))
        with cur.copy(
            "COPY ratings_ratingchange (user_id, rated_id, match_id, pool, rated_at, score,"
            " rating_before, rating_after, deviation_before, deviation_after, volatility_after,"
            " stored_deviation_before, stored_volatility_before, voided) FROM STDIN"
        ) as copy:
            for m, (a, b, when, winner) in enumerate(pairs):
                for player, side in ((a, 0), (b, 1)):
                    delta = rng.uniform(2, 15) * (1 if side == winner else -1)
                    copy.write_row((first_user + player, first_record + m, first_match + m,
                                    "1v1", when, 1.0 if side == winner else 0.0,
                                    ratings[player] - delta, ratings[player], 80.0, 78.0, 0.06,
                                    80.0, 0.06, False))
        print(f"  {matches} rated matches and {changes} rating changes: "
              f"{time.perf_counter() - started:.1f} s")
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=100_000)
    parser.add_argument("--changes", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--reload", action="store_true")
    args = parser.parse_args()
    from postgres_bench import setup_django

    setup_django("ladder")
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connection, transaction
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    settings.STORAGES["staticfiles"]["BACKEND"] = (
        "django.contrib.staticfiles.storage.StaticFilesStorage"
    )
    call_command("migrate", verbosity=0)
    users = get_user_model().objects
    loaded = users.filter(username__startswith=PREFIX).count()
    if args.reload and loaded:
        print("wiping the bench data")
        with connection.cursor() as cursor:
            cursor.execute(
                "TRUNCATE ratings_ratingchange, ratings_ratedmatch, ratings_playerrating,"
                " games_event, games_seat, games_match CASCADE"
            )
        users.filter(username__startswith=PREFIX).delete()
        loaded = 0
    if not loaded:
        print(f"loading {args.players} players and {args.changes} rating changes by COPY")
        connection.ensure_connection()
        with transaction.atomic():
            load(connection, args.players, args.changes, args.seed)
        # What autovacuum does soon after a bulk load: the visibility map, so that index-only
        # scans need not visit the table.
        with connection.cursor() as cursor:
            cursor.execute("VACUUM ANALYZE ratings_playerrating")
    else:
        print(f"using the {loaded} players loaded before (--reload to load again)")

    client = Client()
    from games.ratings.ladder import PER_PAGE, ladder

    middle = ladder("1v1", "established")[25_000:25_001].select_related("user").get()
    client.force_login(middle.user)
    searched = middle.user.username[: len(PREFIX) + 4]  # matches about 100 players
    pages = [
        ("ladder, first page", "/ladder/1v1/", {}),
        ("ladder, rank 50,000's page", "/ladder/1v1/", {"page": (50_000 - 1) // PER_PAGE + 1}),
        (f"search {searched!r}", "/ladder/1v1/", {"q": searched}),
        ("profile", f"/players/{middle.user.username}/", {}),
    ]
    print(f"{'page':<32} {'median ms':>9} {'max ms':>7} {'queries':>7}")
    for name, url, params in pages:
        response = client.get(url, params)  # warm-up
        assert response.status_code == 200, (name, response.status_code)
        times = []
        for _ in range(args.repeat):
            with CaptureQueriesContext(connection) as queries:
                started = time.perf_counter()
                response = client.get(url, params)
                times.append((time.perf_counter() - started) * 1000)
            assert response.status_code == 200
        print(f"{name:<32} {statistics.median(times):>9.1f} {max(times):>7.1f} "
              f"{len(queries):>7}")
    page = client.get("/ladder/1v1/", {"page": (50_000 - 1) // PER_PAGE + 1}).content.decode()
    assert "<td>50000</td>" in page, "rank 50,000 is not on the page asked for"


if __name__ == "__main__":
    main()
