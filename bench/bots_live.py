"""Tables against the strong bot, played over websockets: how late each computer move arrives.

For N tables of one person against the strong computer (2 players, casual, 30 s clock), each
person's socket plays the first card of its hand as soon as it is its turn. For every computer
move it measures the *lateness*: the moment the state carrying the computer's play arrived on
the person's socket minus the ``deadline`` the state before it announced for the computer seat
(the server sets ``deadline = now + BASRA_BOT_DELAY_SECONDS`` when it is the computer's turn;
both are wall-clock times of this machine). A lateness of 0 means the card came exactly when
the configured delay was over. It also prints *click to card*: from sending the person's play to
the arrival of the computer's answer, what a player measures (configured delay + lateness +
the play's own round trip). Per N: computer moves, lateness p50/p99/max (ms), click to card
p50/p99 (ms), errors (must be 0) and the CPU time of the clock (its process and its thinking
workers; with ``--setup serve`` the whole of ``manage.py serve``) per computer move.

Set-ups (``--setup``):

- ``prod`` (default): the production way. PostgreSQL (``DATABASE_URL``) and Redis
  (``REDIS_URL``), one daphne (``bench.live.start_server``) and one ``manage.py run_clock``
  with its thinking workers, ``DEBUG=0``.
- ``serve``: ``manage.py serve`` with the caller's environment, e.g. ``make run``'s set-up:
  SQLite (``DATABASE_URL=sqlite:////tmp/x.sqlite3``) and no ``REDIS_URL``.

Users, sessions and tables are made through the ORM and ``games.core.actions`` in this process
(``bench.live``'s helpers), before each N.

Usage::

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/basra_botpool \\
    REDIS_URL=redis://127.0.0.1:6379/5 \\
    .venv/bin/python bench/bots_live.py --tables 10 50 100 --moves 20

    env -u REDIS_URL DATABASE_URL=sqlite:////tmp/bots.sqlite3 \\
    .venv/bin/python bench/bots_live.py --setup serve --tables 1 5 --moves 20

Figures (this machine: 2 cores shared with other work, PostgreSQL and Redis local; 20 computer
moves a table; strong bot 400 samples, about 25 ms of CPU a move; delay 0.6-1.5 s, so a click to
card of about 1.05 s is on time). Lateness p50 / p99, click to card p50 / p99, clock CPU per
computer move (its process and workers), the load average at the end:

Before (one ``run_clock`` process thinking in its tick, every 0.25 s)::

    tables=  10 late p50=  810ms p99= 2094ms  click->card 1939 / 2507ms  31 ms/move  load 2.1
    tables=  50 late p50= 1620ms p99= 2592ms  click->card 2703 / 3889ms  31 ms/move  load 2.6
    tables= 100 late p50= 2853ms p99= 5891ms  click->card 3915 / 6983ms  29 ms/move  load 2.3

  (Each move first waited for a web server's beat newer than its deadline, up to 1 s, then for
  the tick, then for the moves of the tables ahead of it in the same tick.)

After (the clock submits to its pool of thinking workers and sleeps until the next deadline)::

    tables=  10 late p50=   16ms p99=   43ms  click->card 1081 / 1518ms  30 ms/move  load 1.0
    tables=  50 late p50=   43ms p99=  115ms  click->card 1101 / 1565ms  27 ms/move  load 1.6
    tables= 100 late p50= 1317ms p99= 3973ms  click->card 2470 / 5067ms  29 ms/move  load 3.9

  Of the 27-30 ms, 5-8 ms are the clock's own process (reading the turn, which rebuilds the
  table from the log there, and writing the play), the rest the bot's search in the workers.
  At 100 tables the bots alone want about 1.8 of the 2 cores: the workers fall behind. With
  another benchmark running on the machine (load average 4-5), the same 50 tables gave p50
  338 ms, p99 1476 ms.

``make run``'s set-up (SQLite, in-memory layer, ``--setup serve``), 1 and 5 tables. Before (the
clock in a process of its own: its broadcasts never reached daphne's sockets, which read the
table themselves 0.5 s after the deadline, then 1 s later)::

    tables=   1 late p50= 1508ms p99= 1550ms  click->card 2163 / 3007ms
    tables=   5 late p50= 1508ms p99= 1539ms  click->card 2319 / 3002ms

After (the clock and its workers inside daphne)::

    tables=   1 late p50=   12ms p99=   27ms  click->card  916 / 1515ms
    tables=   5 late p50=   13ms p99=   29ms  click->card 1030 / 1513ms
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import live  # noqa: E402

#: The computer's seat at every bench table (the person sits at 0).
BOT_SEAT = 1


def tree_cpu(pid: int) -> float:
    """CPU seconds used so far by process ``pid`` and every live process below it."""
    total = 0.0
    pending = [pid]
    while pending:
        current = pending.pop()
        try:
            total += live.cpu_seconds(current)
            for task in Path(f"/proc/{current}/task").iterdir():
                pending += [int(c) for c in (task / "children").read_text().split()]
        except (FileNotFoundError, ProcessLookupError):
            continue
    return total


def make_tables(count: int, level: str) -> list[tuple[int, str]]:
    """``count`` started tables of a person against the computer ``level``:
    ``(match id, the person's session cookie)``. Bench users are made once."""
    from django.conf import settings
    from django.contrib.auth import (
        BACKEND_SESSION_KEY,
        HASH_SESSION_KEY,
        SESSION_KEY,
        get_user_model,
    )
    from importlib import import_module

    from games.core import actions

    User = get_user_model()
    names = [f"botbench{i:04d}" for i in range(count)]
    have = set(User.objects.filter(username__in=names).values_list("username", flat=True))
    User.objects.bulk_create(
        [User(username=n, email=f"{n}@bench.invalid", password="!") for n in names if n not in have]
    )
    store = import_module(settings.SESSION_ENGINE).SessionStore
    tables = []
    for user in User.objects.filter(username__in=names).order_by("username"):
        session = store()
        session[SESSION_KEY] = str(user.pk)
        session[BACKEND_SESSION_KEY] = settings.AUTHENTICATION_BACKENDS[0]
        session[HASH_SESSION_KEY] = user.get_session_auth_hash()
        session.create()
        match = actions.create_table(
            user=user, players=2, rules={}, rated=False, bots={BOT_SEAT: level}
        )
        tables.append((match.pk, session.session_key))
    return tables


def end_tables(tables: list[tuple[int, str]]) -> None:
    """The persons resign the tables still being played, so the clock leaves them alone."""
    from games.core import actions
    from games.core.models import Match, Seat

    playing = Match.objects.filter(pk__in=[m for m, _ in tables], status=Match.Status.PLAYING)
    for seat in Seat.objects.filter(match__in=playing, seat=0).select_related("user"):
        actions.resign(user=seat.user, match_id=seat.match_id)


@dataclass
class Figures:
    lateness: list[float] = field(default_factory=list)
    click_to_card: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


async def play_tables(port: int, tables, moves: int) -> Figures:
    """Every person plays as soon as it is their turn until the computer made ``moves`` moves."""
    import websockets

    figures = Figures()

    async def table(match_id: int, cookie: str) -> None:
        async with websockets.connect(
            f"ws://127.0.0.1:{port}/ws/table/{match_id}/",
            origin=f"http://127.0.0.1:{port}",
            additional_headers={"Cookie": f"sessionid={cookie}"},
            max_queue=None,
        ) as sock:
            last: dict | None = None
            clicked: float | None = None
            made = 0
            while made < moves:
                message = json.loads(await asyncio.wait_for(sock.recv(), 30))
                arrived = time.time()
                if message["type"] == "error":
                    figures.errors.append(message["code"])
                    continue
                if message["type"] != "state" or (last and message["seq"] <= last["seq"]):
                    continue
                play = (message["round"] or {}).get("last_play")
                if (
                    last is not None
                    and last["round"] is not None
                    and last["round"]["turn"] == BOT_SEAT
                    and last["deadline"] is not None
                    and play is not None
                    and play["seat"] == BOT_SEAT
                ):
                    deadline = datetime.fromisoformat(last["deadline"]).timestamp()
                    figures.lateness.append(arrived - deadline)
                    if clicked is not None:
                        figures.click_to_card.append(arrived - clicked)
                    made += 1
                    clicked = None
                last = message
                if message["result"] is not None:
                    break
                if message["round"] is not None and message["round"]["turn"] == message["you"]:
                    clicked = time.time()
                    await sock.send(json.dumps({
                        "type": "play", "card": message["round"]["hand"][0],
                        "seq": message["seq"],
                    }))

    results = await asyncio.gather(*(table(m, c) for m, c in tables), return_exceptions=True)
    figures.errors += [f"table: {r!r}" for r in results if isinstance(r, BaseException)]
    return figures


def quantiles(values: list[float]) -> tuple[float, float, float]:
    """p50, p99 and max in ms (``nan`` with fewer than two values)."""
    if len(values) < 2:
        return float("nan"), float("nan"), float("nan")
    q = statistics.quantiles(values, n=100)
    return q[49] * 1000, q[98] * 1000, max(values) * 1000


def report(n: int, figures: Figures, cpu: float, main_cpu: float) -> str:
    late = quantiles(figures.lateness)
    click = quantiles(figures.click_to_card)
    kinds = sorted(set(figures.errors))
    return (
        f"tables={n:4d} moves={len(figures.lateness):5d} "
        f"late p50={late[0]:6.0f}ms p99={late[1]:6.0f}ms max={late[2]:6.0f}ms "
        f"click->card p50={click[0]:6.0f}ms p99={click[1]:6.0f}ms "
        f"errors={len(figures.errors)}{' ' + str(kinds[:3]) if kinds else ''} "
        f"clock_cpu={cpu * 1000 / max(len(figures.lateness), 1):5.1f}ms/move "
        f"(its own process {main_cpu * 1000 / max(len(figures.lateness), 1):4.1f}) "
        f"load={os.getloadavg()[0]:.1f}"
    )


def start_clock(log: Path) -> subprocess.Popen:
    """``manage.py run_clock`` with the server's environment."""
    return subprocess.Popen(
        [sys.executable, str(ROOT / "manage.py"), "run_clock"], cwd=ROOT,
        env=live.server_env(), stdout=log.open("w"), stderr=subprocess.STDOUT,
    )


def start_serve(port: int, log: Path) -> subprocess.Popen:
    """``manage.py serve`` (``make run``'s command) with the caller's environment."""
    process = subprocess.Popen(
        [sys.executable, str(ROOT / "manage.py"), "serve", "--port", str(port)], cwd=ROOT,
        env={**os.environ, "LOG_LEVEL": "WARNING"}, stdout=log.open("w"),
        stderr=subprocess.STDOUT,
    )
    import socket

    for _ in range(300):
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return process
        except OSError:
            if process.poll() is not None:
                raise RuntimeError(f"serve exited; see {log}") from None
            time.sleep(0.1)
    raise RuntimeError(f"serve did not start; see {log}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, nargs="+", default=[10, 50, 100])
    parser.add_argument("--moves", type=int, default=20, help="computer moves per table")
    parser.add_argument("--level", default="strong", help="the computer's level")
    parser.add_argument("--setup", choices=["prod", "serve"], default="prod")
    parser.add_argument("--port", type=int, default=0, help="the server's port (0: a free one)")
    parser.add_argument("--log", type=Path, default=Path("/tmp/basra-bots-live.log"))
    args = parser.parse_args()
    if args.setup == "prod":
        if not os.environ.get("DATABASE_URL") or not os.environ.get("REDIS_URL"):
            sys.exit("Set DATABASE_URL (PostgreSQL) and REDIS_URL: --setup prod runs like production.")
        # The sessions' hashes depend on SECRET_KEY: this process must match the server's.
        os.environ.update(live.server_env())
    live.django_setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    port = args.port or live.free_port()
    if args.setup == "prod":
        processes = [
            live.start_server(port, args.log.with_suffix(".daphne.log")),
            start_clock(args.log.with_suffix(".clock.log")),
        ]
        measured = processes[1]
    else:
        processes = [start_serve(port, args.log)]
        measured = processes[0]
    time.sleep(3)  # let the clock (and its workers) start
    print(
        f"setup={args.setup} pids={[p.pid for p in processes]} level={args.level} "
        f"{os.cpu_count()} CPUs; load average before: {os.getloadavg()[0]:.1f}",
        flush=True,
    )
    try:
        for n in args.tables:
            tables = make_tables(n, args.level)
            cpu, main_cpu = tree_cpu(measured.pid), live.cpu_seconds(measured.pid)
            figures = asyncio.run(play_tables(port, tables, args.moves))
            cpu = tree_cpu(measured.pid) - cpu
            main_cpu = live.cpu_seconds(measured.pid) - main_cpu
            print(report(n, figures, cpu, main_cpu), flush=True)
            end_tables(tables)
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            try:
                process.wait(15)
            except subprocess.TimeoutExpired:
                process.kill()
    if args.setup == "prod":
        # The people's plays, written by daphne while the clock's process wrote the computer's:
        # how many daphne could still write by compare-and-set, caught up from the log.
        print(live.play_paths([args.log.with_suffix(".daphne.log")]), flush=True)


if __name__ == "__main__":
    main()
