"""The public API's benchmark (issue 41): the NDJSON export and bots playing through their
streams, against daphne started as ``bench/live.py`` starts it (its helpers).

1. **Export**: ``--matches`` finished matches of one player (one real match played through the
   core's actions, its rows copied: a record is read from its events as any other), exported
   through ``GET /api/games/user/{name}``: matches per second, and the server's peak resident
   memory after exporting a tenth of them and after all of them (it must not grow with the
   count: the export reads 100 matches at a time).
2. **Bots**: ``--bots`` bot accounts, each against the site's computer (``challenge/ai``, level
   ``random``, 30 s a play), each reading its game stream and playing ``--plays`` cards: the round
   trip from sending a play to reading the ``gameState`` it made on the stream, p50 / p99, and the
   server's CPU per bot play (the computer's plays, made by the clock in the same process, are
   counted in: one computer play follows each bot play).
3. ``--live-tables N`` then runs ``bench/live.py --tables N`` (websocket players, the same
   settings and database) in the same session, and ``--relay`` makes it run the floor of
   ``../shared/bench`` too, so their figures print beside these.

Run it with the default connection pool (``DB_POOL_SIZE``; ``CONN_MAX_AGE`` unset): the API's
requests each run in a thread of their own under ASGI, and with ``CONN_MAX_AGE`` above 0 (no
pool) each keeps a connection: 100 bots then passed PostgreSQL's ``max_connections``.

Usage (the machine is shared: nice it)::

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/basra_bench_api REDIS_URL=redis://127.0.0.1:6379/11 \\
    nice -n 19 .venv/bin/python bench/api.py --matches 10000 --bots 100 --plays 10 \\
        --live-tables 100 --relay
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import live  # noqa: E402 - bench/live.py: the server's start, memory and CPU reads

#: The limits of one address raised: every bot comes from 127.0.0.1.
LIMITS = "play=10:100000:1000000,stream=60:100000:1000000,write=60:100000:1000000,export=60:1000:1000"


def seed_export(count: int) -> str:
    """A player with ``count`` finished matches (copies of one played match); its name."""
    from django.contrib.auth import get_user_model
    from django.db import transaction

    from games.core.models import Event, Match, Seat
    from tests.core.helpers import play_out, seated_match

    users = get_user_model().objects
    name = f"exporter{int(time.time())}"
    alice = users.create_user(name, password=None)
    bob = users.create_user(name + "b", password=None)
    model = seated_match([alice, bob], rules={"target": 11})
    play_out(model)
    model.refresh_from_db()
    seats = list(Seat.objects.filter(match=model).values())
    events = list(Event.objects.filter(match=model).values())
    made = 1
    while made < count:
        batch = min(500, count - made)
        with transaction.atomic():
            copies = []
            for _ in range(batch):
                copy = Match.objects.get(pk=model.pk)
                copy.pk = None
                copies.append(copy)
            copies = Match.objects.bulk_create(copies)
            Seat.objects.bulk_create(
                Seat(**{**s, "id": None, "match_id": m.pk}) for m in copies for s in seats
            )
            Event.objects.bulk_create(
                Event(**{**e, "id": None, "match_id": m.pk}) for m in copies for e in events
            )
        made += batch
    return name


def bench_export(url: str, pid: int, name: str, count: int) -> None:
    import requests

    for share in (max(1, count // 10), count):
        start = time.perf_counter()
        lines = 0
        with requests.get(f"{url}/api/games/user/{name}", params={"max": share}, stream=True, timeout=600) as answer:
            answer.raise_for_status()
            for line in answer.iter_lines():
                if line.strip():
                    lines += 1
        took = time.perf_counter() - start
        rss, peak = live.memory(pid)
        print(f"export {lines} matches: {lines / took:.0f} matches/s, server RSS {rss} MiB, peak {peak} MiB",
              flush=True)


def make_bots(count: int) -> list[str]:
    from django.contrib.auth import get_user_model

    from games.api.models import BotAccount
    from games.api.tokens import create_token

    tokens = []
    stamp = int(time.time())
    for i in range(count):
        user = get_user_model().objects.create_user(f"bench{stamp}bot{i}", password=None)
        BotAccount.objects.create(user=user)
        tokens.append(create_token(user, ["bot:play"])[0])
    return tokens


def bot(url: str, token: str, plays: int, trips: list[float], errors: list[str]) -> None:
    import json

    import requests

    http = requests.Session()
    http.headers["Authorization"] = f"Bearer {token}"
    game = http.post(f"{url}/api/challenge/ai", data={"level": "random", "target": "501"}, timeout=60).json()
    if "game" not in game:
        errors.append(str(game))
        return
    match_id = game["game"]["id"]
    sent_at, sent_seq, made = None, None, 0
    with http.get(f"{url}/api/bot/game/stream/{match_id}", stream=True, timeout=(10, 120)) as stream:
        for raw in stream.iter_lines():
            if not raw.strip():
                continue
            event = json.loads(raw)
            state = event.get("state", event)
            if "seq" not in state:
                continue
            if sent_at is not None and state["seq"] > sent_seq:
                trips.append(time.perf_counter() - sent_at)
                sent_at = None
            round_ = state.get("round") or {}
            if made >= plays or state["match"]["status"] != "playing":
                if made >= plays:
                    return
                continue
            if sent_at is None and round_.get("turn") == state["you"] and round_.get("hand"):
                sent_at, sent_seq = time.perf_counter(), state["seq"]
                answer = http.post(f"{url}/api/bot/game/{match_id}/play/{round_['hand'][0]}",
                                   params={"seq": state["seq"]}, timeout=60)
                if answer.status_code != 200:
                    errors.append(answer.text)
                    sent_at = None
                made += 1


def bench_bots(url: str, pid: int, count: int, plays: int) -> None:
    tokens = make_bots(count)
    trips: list[float] = []
    errors: list[str] = []
    cpu_before = live.cpu_seconds(pid)
    threads = [threading.Thread(target=bot, args=(url, t, plays, trips, errors)) for t in tokens]
    start = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    took = time.perf_counter() - start
    cpu = live.cpu_seconds(pid) - cpu_before
    trips.sort()
    ms = [t * 1000 for t in trips]
    p99 = ms[min(len(ms) - 1, int(len(ms) * 0.99))] if ms else float("nan")
    print(
        f"bots {count} x {plays} plays through their streams: {len(ms)} round trips, "
        f"p50 {statistics.median(ms) if ms else float('nan'):.1f} ms, p99 {p99:.1f} ms, "
        f"{len(ms) / took:.1f} plays/s, errors {len(errors)}; server CPU {1000 * cpu / max(1, len(ms)):.2f} ms "
        f"per bot play (its computer's reply included)",
        flush=True,
    )
    for error in errors[:3]:
        print("  error:", error[:200])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=10000)
    parser.add_argument("--bots", type=int, default=100)
    parser.add_argument("--plays", type=int, default=10, help="plays per bot")
    parser.add_argument("--live-tables", type=int, default=0)
    parser.add_argument("--relay", action="store_true")
    parser.add_argument("--log", type=Path, default=Path("/tmp/basra-bench-api-daphne.log"))
    args = parser.parse_args()
    os.environ.setdefault("BASRA_API_LIMITS", LIMITS)
    os.environ.setdefault("BASRA_CLOCK_IN_SERVER", "1")  # the computer plays in this server
    for key, value in live.server_env().items():
        os.environ.setdefault(key, value)
    live.django_setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    name = seed_export(args.matches) if args.matches else None
    port = live.free_port()
    server = live.start_server(port, args.log)
    url = f"http://127.0.0.1:{port}"
    try:
        if name is not None:
            bench_export(url, server.pid, name, args.matches)
        bench_bots(url, server.pid, args.bots, args.plays)
    finally:
        server.terminate()
        server.wait(timeout=30)
    if args.live_tables:
        command = [sys.executable, str(ROOT / "bench" / "live.py"), "--tables", str(args.live_tables),
                   "--plays", str(args.plays)] + (["--relay"] if args.relay else [])
        subprocess.run(command, cwd=ROOT, check=False)


if __name__ == "__main__":
    main()
