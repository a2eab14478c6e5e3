"""Social benchmark: the lobby's friends online and the block check, with 100,000 players in
PostgreSQL (issue 38).

What it loads (once; ``--reload`` wipes the players and loads again), by ``COPY`` into the
database of ``DATABASE_URL`` (PostgreSQL only), migrated first:

- ``--players`` users (default 100,000), each following ``--follows`` others (default 50): the
  25 before and the 25 after them in a ring, so that every follow is returned and each player
  has 50 friends (the most work for the friends-online block);
- ``--online`` of them online (default 10,000: every tenth player, so about 5 of each one's 50
  friends are), one ``Online`` row each as a server process writes it;
- 5 blocks for each online player (random others), and a profile for one player in ten whose
  challenges and presence are for friends only.

What it prints, each the median of ``--repeat`` runs (default 7) after one warm-up, with the
number of queries:

- the lobby's friends-online block for an online player: the block's context
  (``games.people.doing.friends_online``) and its template, then the whole lobby page through
  Django's test client (signed in: URL routing, every slot, the template); target: the block
  under 100 ms of server time;
- the block check of a challenge (``games.core.relations.barriers("challenge", ...)``, the
  question ``create_challenge`` asks);
- the block check of a queue wave of ``--wave`` players (default 10,000; the question a wave asks
  once, ``games.queues.services.never_meet``).

Usage (under ``nice -n 19`` on a shared machine; a smaller ``--players`` first)::

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/basra_social nice -n 19 .venv/bin/python bench/social.py

Results (PostgreSQL on the same 2 cores, shared with other engineers' test runs: load average
9.8 during the run, this process at ``nice -n 19``; the load took 4 minutes, 5,000,000 follows):

    what                                         median ms  max ms  cpu ms queries
    lobby friends-online block (4 shown)              71.1    97.8    23.9      11
    whole lobby page, signed in                      205.2   269.7    66.7      18
    block check: a challenge                           6.5     8.3     1.4       2
    block check: a queue wave of 10000               120.0   436.3    21.6       1

The friends-online block costs 24 ms of this process's CPU and eleven queries, each on an index
and bounded by the player's 400 follows at most; the rest of its time is the database and
waiting for a core (a run at load average 17.8 gave 182 ms). The wave's check was 5.4 s with one
parameter per id (``IN (…)`` of 20,000 parameters); one array a side (``= ANY(%s)``,
``games.people.relations.blocks``) made it 0.12 s: PostgreSQL plans it in 33 ms and runs it in
23 ms (a hashed filter over the 50,000 blocks).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

PREFIX = "soc"


def load(connection, players: int, follows: int, online: int, seed: int) -> None:
    """Fill the tables by COPY (psycopg 3's ``cursor.copy``)."""
    rng = random.Random(seed)
    now = datetime.now(timezone.utc)
    raw = connection.connection
    with raw.cursor() as cur:
        cur.execute("SELECT coalesce(max(id), 0) FROM auth_user")
        first = cur.fetchone()[0] + 1
        started = time.perf_counter()
        with cur.copy("COPY auth_user (id, password, is_superuser, username, first_name, last_name, email,"
                      " is_staff, is_active, date_joined) FROM STDIN") as copy:
            for i in range(players):
                copy.write_row((first + i, "!", False, f"{PREFIX}{i:06d}", "", "", f"{PREFIX}{i}@example.com",
                                False, True, now))
        cur.execute("SELECT setval(pg_get_serial_sequence('auth_user', 'id'), %s)", (first + players,))
        print(f"  {players} users: {time.perf_counter() - started:.1f} s")
        started = time.perf_counter()
        half = follows // 2
        with cur.copy("COPY people_follow (follower_id, followed_id, created_at) FROM STDIN") as copy:
            for i in range(players):
                for d in range(1, half + 1):
                    copy.write_row((first + i, first + (i + d) % players, now))
                    copy.write_row((first + i, first + (i - d) % players, now))
        print(f"  {players * 2 * half} follows: {time.perf_counter() - started:.1f} s")
        started = time.perf_counter()
        step = max(1, players // online)
        online_ids = [first + i for i in range(0, players, step)][:online]
        with cur.copy("COPY games_online (user_id, process, seen_at) FROM STDIN") as copy:
            for user_id in online_ids:
                copy.write_row((user_id, "bench", now))
        blocks = set()
        for user_id in online_ids:
            for _ in range(5):
                other = first + rng.randrange(players)
                if other != user_id:
                    blocks.add((user_id, other))
        with cur.copy("COPY people_block (blocker_id, blocked_id, created_at) FROM STDIN") as copy:
            for blocker, blocked in blocks:
                copy.write_row((blocker, blocked, now))
        with cur.copy("COPY people_profile (user_id, bio, country, avatar, language, challenges, online,"
                      " notify_rated, notify_tournament) FROM STDIN") as copy:
            for i in range(3, players, 10):
                copy.write_row((first + i, "", "EG", "moon", "", "friends", "friends", True, True))
        print(f"  {len(online_ids)} online, {len(blocks)} blocks, profiles: {time.perf_counter() - started:.1f} s")


def timed(repeat: int, call):
    """``(median ms, max ms, median CPU ms of this process, queries)`` of ``call()`` run
    ``repeat`` times after a warm-up. The CPU time leaves out the waits for a core on a busy
    machine (and the database's own work, in its process)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    call()
    times, cpu = [], []
    for _ in range(repeat):
        with CaptureQueriesContext(connection) as queries:
            started, started_cpu = time.perf_counter(), time.process_time()
            call()
            times.append((time.perf_counter() - started) * 1000)
            cpu.append((time.process_time() - started_cpu) * 1000)
    return statistics.median(times), max(times), statistics.median(cpu), len(queries)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=100_000)
    parser.add_argument("--follows", type=int, default=50)
    parser.add_argument("--online", type=int, default=10_000)
    parser.add_argument("--wave", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--reload", action="store_true")
    args = parser.parse_args()
    from postgres_bench import setup_django

    setup_django("social")
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connection, transaction
    from django.template.loader import render_to_string
    from django.test import Client, RequestFactory
    from django.utils import timezone as dj_timezone

    settings.STORAGES["staticfiles"]["BACKEND"] = "django.contrib.staticfiles.storage.StaticFilesStorage"
    call_command("migrate", verbosity=0)
    users = get_user_model().objects
    loaded = users.filter(username__startswith=PREFIX).count()
    if args.reload and loaded:
        print("wiping the bench data")
        with connection.cursor() as cursor:
            cursor.execute("TRUNCATE people_follow, people_block, people_profile, people_notice, games_online")
        users.filter(username__startswith=PREFIX).delete()
        loaded = 0
    if not loaded:
        print(f"loading {args.players} players, {args.follows} follows each, {args.online} online, by COPY")
        connection.ensure_connection()
        with transaction.atomic():
            load(connection, args.players, args.follows, args.online, args.seed)
        # What autovacuum does soon after a bulk load: the visibility map and the statistics.
        with connection.cursor() as cursor:
            cursor.execute("VACUUM ANALYZE")
    else:
        print(f"using the {loaded} players loaded before (--reload to load again)")

    from games.core.models import Online
    from games.core.relations import barriers
    from games.people import doing, hooks
    from games.queues.services import never_meet

    # The bench's presence rows stay fresh, as a live process's refresh keeps them.
    Online.objects.filter(process="bench").update(seen_at=dj_timezone.now())
    me = users.filter(username=f"{PREFIX}{args.players // 2:06d}").get()
    other = users.filter(username=f"{PREFIX}{args.players // 2 + 7:06d}").get()
    request = RequestFactory().get("/")
    request.user = me

    def block() -> str:
        context = hooks.lobby_friends(request, {})
        return render_to_string("people/_lobby_friends.html", context, request=request)

    shown = len(doing.friends_online(me.pk))
    client = Client()
    client.force_login(me)

    def lobby() -> None:
        assert client.get("/").status_code == 200

    wave = list(Online.objects.filter(process="bench").values_list("user_id", flat=True)[: args.wave])
    rows = [
        (f"lobby friends-online block ({shown} shown)", block),
        ("whole lobby page, signed in", lobby),
        ("block check: a challenge", lambda: barriers("challenge", {me.pk}, {other.pk})),
        (f"block check: a queue wave of {len(wave)}", lambda: never_meet(wave)),
    ]
    print(f"load average before: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(f"{'what':<44} {'median ms':>9} {'max ms':>7} {'cpu ms':>7} {'queries':>7}")
    for name, call in rows:
        median, most, cpu, queries = timed(args.repeat, call)
        print(f"{name:<44} {median:>9.1f} {most:>7.1f} {cpu:>7.1f} {queries:>7}")
    print(f"load average after: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
