"""Live-table benchmark: N concurrent 2-player tables played over websockets against daphne.

What it measures (``shared/bench/BENCH.md``): the round trip a player feels, from sending a
``play`` to receiving the resulting ``state`` on the same socket, with every seat on its own
websocket (the ``websockets`` library), all sockets connecting within the first second, tables
starting staggered over the first second and a think time between plays. It prints, per N:
round trip p50 / p99 / max (ms), plays per second, errors (must be 0), the servers' resident
memory (current and peak, from ``/proc/<pid>/status``), their CPU time per play (connecting
and closing the sockets included), the one figure other load on the machine does not inflate,
and the machine's load average at the end of the run (other work competes for the cores). At the
end, how the servers wrote the plays: by compare-and-set on the ``seq`` they keep (no lock) or
locked (``games.core.actions.funnel``).

The servers are started here the way production runs them: daphne (``--servers`` processes,
sockets spread over them as a load balancer would, ``--route``), PostgreSQL (``DATABASE_URL``), the Redis
channel layer (``REDIS_URL``), ``DEBUG=0``; ``CONN_MAX_AGE`` is passed through. Users, sessions
and tables (the default: casual, 30 s clock) are created through the ORM and ``games.core.actions``
before each run.

``BASRA_FAST_PATH`` (``games.core.fastpath``) is passed on to the servers as any other setting:
``BASRA_FAST_PATH=0`` measures the site on the libraries' public APIs only.

``--relay`` also runs the floor after each table count (``shared/bench/BENCH.md``: the bare
Channels relay, ``relay_site.py`` + ``relay_load.py`` from ``--relay-dir``, on daphne with the
same Redis, under a prefix of its own, ``bench/relay_prefixed.py``) with the same tables, plays
and think time, and prints its CPU per message beside the site's CPU per play, and their ratio
(both over the whole run, connects included).

Usage::

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/basra_bench \\
    REDIS_URL=redis://127.0.0.1:6379/5 CONN_MAX_AGE=60 \\
    .venv/bin/python bench/live.py --tables 50 200 400 --plays 20 --think 1.0 --saturation 200 \\
        --servers 2

    BASRA_FAST_PATH=0 DATABASE_URL=… REDIS_URL=… \\
    .venv/bin/python bench/live.py --tables 200 --plays 20 --think 1.0 --relay
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def django_setup() -> None:
    """Configure Django in this process (for the fixtures), with the server's settings."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "basra_site.settings")
    import django

    django.setup()


def server_env() -> dict[str, str]:
    """The server's environment: the caller's, production-like (no debug)."""
    env = dict(os.environ)
    env.setdefault("DEBUG", "0")
    env.setdefault("SECRET_KEY", "bench-" + "x" * 50)
    env.setdefault("BASRA_SSL_REDIRECT", "0")  # spoken to over plain http
    env.setdefault("LOG_LEVEL", "WARNING")
    env.setdefault("DJANGO_SETTINGS_MODULE", "basra_site.settings")
    # The load client is no person: its saturation runs send far faster than the per-socket limit.
    env.setdefault("BASRA_SOCKET_BURST", "1000000")
    env.setdefault("BASRA_SOCKET_RATE", "1000000")
    return env


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def stats_file(log: Path) -> Path:
    """Where a server started with ``log`` writes how its plays were written, when it exits
    (``BASRA_STATS_FILE``, ``games.core.apps``)."""
    return log.with_suffix(".paths.json")


def play_paths(logs: list[Path]) -> str:
    """The servers' plays by write path: compare-and-set (no lock) against locked."""
    paths: dict[str, int] = {}
    for log in logs:
        try:
            for name, count in json.loads(stats_file(log).read_text())["paths"].items():
                paths[name] = paths.get(name, 0) + count
        except (OSError, ValueError, KeyError):
            return "play paths: not written (a server did not exit cleanly)"
    total = sum(paths.values())
    cas = paths.get("compare_and_set", 0)
    return (
        f"play paths (all runs): compare-and-set {cas} of {total} "
        f"({100 * cas / total if total else 0:.1f}%), locked {paths.get('locked', 0)}"
    )


def server_command(server: str, port: int) -> list[str]:
    """The command line of one server process: daphne (as ``make run`` and the README's
    production set-up run it), or uvicorn with its ``websockets`` protocol, lifespan events and
    no per-message compression (daphne negotiates none either; ``pip install uvicorn``)."""
    if server == "daphne":
        daphne = Path(sys.executable).with_name("daphne")
        return [str(daphne), "-b", "127.0.0.1", "-p", str(port), "basra_site.asgi:application"]
    return [
        sys.executable, "-m", "uvicorn", "basra_site.asgi:application",
        "--host", "127.0.0.1", "--port", str(port), "--ws", "websockets-sansio",
        "--ws-per-message-deflate", "false", "--lifespan", "on", "--log-level", "warning",
        "--no-access-log",
    ]


def start_server(port: int, log: Path, server: str = "daphne", wait: float = 20.0) -> subprocess.Popen:
    """Start a server process (:func:`server_command`) and wait until it accepts connections
    (at most ``wait`` seconds; then it is killed and ``RuntimeError`` raised)."""
    stats_file(log).unlink(missing_ok=True)
    process = subprocess.Popen(
        server_command(server, port),
        cwd=ROOT,
        env={**server_env(), "BASRA_STATS_FILE": str(stats_file(log))},
        stdout=log.open("w"),
        stderr=subprocess.STDOUT,
    )
    for _ in range(int(wait * 10)):
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return process
        except OSError:
            if process.poll() is not None:
                raise RuntimeError(f"daphne exited; see {log}") from None
            time.sleep(0.1)
    process.kill()
    process.wait()
    raise RuntimeError(f"daphne did not start; see {log}")


def memory(pid: int) -> tuple[int, int]:
    """(current, peak) resident memory of a process, in MiB."""
    values = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, rest = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            values[key] = int(rest.split()[0]) // 1024
    return values["VmRSS"], values["VmHWM"]


def cpu_split(pid: int) -> tuple[float, float]:
    """User and system CPU time a process (all its threads) has used so far, in seconds."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    tick = os.sysconf("SC_CLK_TCK")
    return int(fields[11]) / tick, int(fields[12]) / tick


def cpu_seconds(pid: int) -> float:
    """User + system CPU time a process (all its threads) has used so far, in seconds."""
    return sum(cpu_split(pid))


def phases(marks: list, sockets: int, plays: int) -> str:
    """The servers' CPU by phase: per socket while connecting and closing, per play between
    (user + system, ms; the system share in brackets)."""
    parts = []
    for (_, before), (phase, after) in zip(marks, marks[1:]):
        user = sum(a[0] - b[0] for a, b in zip(after, before))
        system = sum(a[1] - b[1] for a, b in zip(after, before))
        per, unit = (plays, "play") if phase == "play" else (sockets, "socket")
        parts.append(
            f"{phase} {(user + system) * 1000 / max(per, 1):.2f} ms/{unit} "
            f"(sys {system * 1000 / max(per, 1):.2f})"
        )
    return "  cpu by phase: " + "; ".join(parts)


def session(user) -> str:
    """A new logged-in session of ``user`` (its key, the ``sessionid`` cookie), written to the
    site's session store without a password."""
    from importlib import import_module

    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY

    s = import_module(settings.SESSION_ENGINE).SessionStore()
    s[SESSION_KEY] = str(user.pk)
    s[BACKEND_SESSION_KEY] = settings.AUTHENTICATION_BACKENDS[0]
    s[HASH_SESSION_KEY] = user.get_session_auth_hash()
    s.create()
    return s.session_key


def make_tables(count: int, rated: bool = False) -> list[tuple[int, str, str]]:
    """``count`` started 2-player tables: ``(match id, session cookie seat 0, seat 1)``;
    ``rated``: rated tables (their state carries the ratings' extras, ``games.ratings.table``).

    Bench users are created once (no password: they only need a session); every run gets new
    sessions and new tables.
    """
    from django.contrib.auth import get_user_model

    from games.core import actions

    User = get_user_model()
    names = [f"bench{i:04d}" for i in range(2 * count)]
    existing = set(User.objects.filter(username__in=names).values_list("username", flat=True))
    missing = []
    for name in names:
        if name not in existing:
            user = User(username=name, email=f"{name}@bench.invalid")
            user.set_unusable_password()
            missing.append(user)
    User.objects.bulk_create(missing)
    users = {u.username: u for u in User.objects.filter(username__in=names)}
    tables = []
    for i in range(count):
        first, second = users[names[2 * i]], users[names[2 * i + 1]]
        match = actions.create_table(user=first, players=2, rules={}, rated=rated)
        actions.join_table(user=second, match_id=match.pk)
        seats = {s.seat: s.user_id for s in match.seats.all()}
        cookie = {first.pk: session(first), second.pk: session(second)}
        tables.append((match.pk, cookie[seats[0]], cookie[seats[1]]))
    return tables


async def open_table_socket(port: int, match_id: int, cookie: str):
    """A seat's table socket (``/ws/table/<match_id>/``) on the server at ``port``, logged in by
    the session ``cookie`` (:func:`session`), with the page's own ``Origin``; a
    ``websockets`` client connection. Raises what ``websockets.connect`` raises (``OSError``,
    ``websockets.InvalidStatus``, ``TimeoutError``)."""
    import websockets

    return await websockets.connect(
        f"ws://127.0.0.1:{port}/ws/table/{match_id}/",
        origin=f"http://127.0.0.1:{port}",
        additional_headers={"Cookie": f"sessionid={cookie}"},
        max_queue=None,
    )


@dataclass
class Figures:
    latencies: list[float] = field(default_factory=list)
    starts: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


async def play_tables(
    ports: list[int], tables, plays: int, think: float, route: str = "table",
    mark=lambda phase: None,
) -> tuple[Figures, float, float]:
    """Play ``plays`` moves at every table; returns figures, connect time and play time (s).

    ``mark(phase)`` is called as each phase ends (``"connect"``, ``"play"``, ``"close"``).

    With several servers, ``route`` says where a socket goes, as a load balancer in front of
    them would send it: ``"table"``, every socket of table ``i`` to ``ports[i % len(ports)]``
    (a balancer hashing the socket's path, ``/ws/table/<id>/``; the table's state stays warm in
    one process); ``"seat"``, socket ``k`` of table ``i`` to ``ports[(2 * i + k) % len(ports)]``
    (round robin: the two seats of a table on different processes, each play written by one and
    replayed from the log by the other).
    """
    figures = Figures()

    async def connect(port: int, match_id: int, cookie: str):
        # The burst: every socket connects at a random moment of the first second.
        await asyncio.sleep(random.random())
        sock = await open_table_socket(port, match_id, cookie)
        first = json.loads(await sock.recv())
        if first.get("type") != "state":
            raise RuntimeError(f"first message {first}")
        return sock, first

    async def next_state(sock, after: int) -> dict:
        while True:
            message = json.loads(await asyncio.wait_for(sock.recv(), 30))
            if message["type"] == "state" and message["seq"] > after:
                return message
            if message["type"] == "error":
                figures.errors.append(message["code"])

    def port_of(table: int, seat: int) -> int:
        if route == "table":
            return ports[table % len(ports)]
        return ports[(2 * table + seat) % len(ports)]

    started = time.perf_counter()
    pairs = await asyncio.gather(
        *(
            asyncio.gather(connect(port_of(i, 0), m, a), connect(port_of(i, 1), m, b))
            for i, (m, a, b) in enumerate(tables)
        ),
        return_exceptions=True,
    )
    connect_time = time.perf_counter() - started
    mark("connect")

    async def table(pair) -> None:
        (sock_a, state_a), (sock_b, state_b) = pair
        socks, states = [sock_a, sock_b], [state_a, state_b]
        await asyncio.sleep(random.random() * max(think, 1.0))
        for _ in range(plays):
            if states[0]["result"] is not None:
                break
            turn = states[0]["round"]["turn"]
            mine = states[turn]
            start = time.perf_counter()
            await socks[turn].send(
                json.dumps({"type": "play", "card": mine["round"]["hand"][0], "seq": mine["seq"]})
            )
            states[turn] = await next_state(socks[turn], mine["seq"])
            figures.latencies.append(time.perf_counter() - start)
            figures.starts.append(start)
            states[1 - turn] = await next_state(socks[1 - turn], mine["seq"])
            if think:
                await asyncio.sleep(think)

    good = []
    for pair in pairs:
        if isinstance(pair, BaseException):
            figures.errors.append(f"connect: {pair!r}")
        else:
            good.append(pair)
    started = time.perf_counter()
    results = await asyncio.gather(*(table(pair) for pair in good), return_exceptions=True)
    play_time = time.perf_counter() - started
    mark("play")
    figures.errors += [f"table: {r!r}" for r in results if isinstance(r, BaseException)]
    await asyncio.gather(
        *(sock.close() for pair in good for sock, _ in pair), return_exceptions=True
    )
    await asyncio.sleep(1.0)  # the servers' disconnect work
    mark("close")
    return figures, connect_time, play_time


def report(n: int, think: float, figures: Figures, connect_time: float, play_time: float,
           rss: tuple[int, int], cpu: float) -> str:
    lat = sorted(figures.latencies)
    if len(lat) >= 2:
        q = statistics.quantiles(lat, n=100)
        p50, p99 = q[49] * 1000, q[98] * 1000
    else:
        p50 = p99 = float("nan")
    kinds = sorted(set(figures.errors))
    return (
        f"tables={n:4d} think={think:.1f}s plays={len(lat):6d} "
        f"p50={p50:7.1f}ms p99={p99:7.1f}ms max={(lat[-1] * 1000 if lat else 0):7.1f}ms "
        f"plays/s={len(lat) / play_time if play_time else 0:6.0f} errors={len(figures.errors)}"
        f"{' ' + str(kinds[:3]) if kinds else ''} connect={connect_time:.2f}s "
        f"server_rss={rss[0]}MiB peak={rss[1]}MiB "
        f"server_cpu={cpu * 1000 / max(len(lat), 1):.1f}ms/play "
        f"load={os.getloadavg()[0]:.1f}"
    )


def timeline(figures: Figures) -> str:
    """Round trips per second of the run (by when the play was sent): count, p50 and max (ms)."""
    first = min(figures.starts)
    seconds: dict[int, list[float]] = {}
    for start, latency in zip(figures.starts, figures.latencies):
        seconds.setdefault(int(start - first), []).append(latency)
    # Wall-clock time of t=0, to line the seconds up with the server's own logs.
    lines = [f"  t=0 is {time.time() - (time.perf_counter() - first):.1f} (Unix time)"]
    for second, values in sorted(seconds.items()):
        values.sort()
        lines.append(
            f"  t={second:3d}s plays={len(values):4d} p50={values[len(values) // 2] * 1000:7.1f}ms "
            f"max={values[-1] * 1000:7.1f}ms"
        )
    return "\n".join(lines)


def run_relay(relay_dir: Path, tables: int, plays: int, think: float, log: Path) -> float | None:
    """Run the bare relay (daphne, ``relay_site`` under ``bench/relay_prefixed.py``) and its load
    client at ``tables``; print the client's line and return the relay's CPU per message (ms,
    user + system, the client's whole run), or ``None`` when the client failed."""
    port = free_port()
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "relay_site",
        "PYTHONPATH": os.pathsep.join([str(relay_dir), str(ROOT / "bench")]),
        "RELAY_PREFIX": f"relay{os.getpid()}",
    }
    daphne = Path(sys.executable).with_name("daphne")
    server = subprocess.Popen(
        [str(daphne), "-b", "127.0.0.1", "-p", str(port), "relay_prefixed:application"],
        cwd=relay_dir, env=env, stdout=log.open("w"), stderr=subprocess.STDOUT,
    )
    try:
        for _ in range(200):
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                    break
            except OSError:
                if server.poll() is not None:
                    raise RuntimeError(f"the relay exited; see {log}") from None
                time.sleep(0.1)
        before = cpu_seconds(server.pid)
        answer = subprocess.run(
            [sys.executable, str(relay_dir / "relay_load.py"), f"ws://127.0.0.1:{port}",
             str(tables), str(plays), str(think), str(server.pid)],
            capture_output=True, text=True, check=False,
        )
        used = cpu_seconds(server.pid) - before
    finally:
        server.terminate()
        server.wait(10)
    line = answer.stdout.strip() or answer.stderr.strip()[-500:]
    print(f"relay: {line}", flush=True)
    if answer.returncode != 0:
        return None
    # The relay's own CPU over its load client's whole run (every table plays all its plays),
    # to two decimals (the client prints one).
    return used * 1000 / (tables * plays)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, nargs="+", default=[50, 200])
    parser.add_argument("--plays", type=int, default=20, help="plays per table")
    parser.add_argument("--think", type=float, default=1.0, help="seconds between plays")
    parser.add_argument("--saturation", type=int, nargs="*", default=[],
                        help="table counts to run again with think time 0")
    parser.add_argument("--servers", type=int, default=1, help="server processes")
    parser.add_argument("--asgi-server", choices=["daphne", "uvicorn"], default="daphne",
                        help="the ASGI server the processes run")
    parser.add_argument("--route", choices=["table", "seat"], default="table",
                        help="with several servers: all of a table's sockets to one server "
                             "(table), or its seats to different ones (seat)")
    parser.add_argument("--timeline", action="store_true",
                        help="also print the round trips second by second")
    parser.add_argument("--log", type=Path, default=Path("/tmp/basra-bench-daphne.log"))
    parser.add_argument("--rated", action="store_true",
                        help="rated tables (each seat's rating and the chances in every state)")
    parser.add_argument("--relay", action="store_true",
                        help="also run the bare Channels relay after each table count and "
                             "print the ratio of CPU per play to its CPU per message")
    parser.add_argument("--relay-dir", type=Path, default=ROOT.parent / "shared" / "bench",
                        help="where relay_site.py and relay_load.py are")
    args = parser.parse_args()
    if not os.environ.get("DATABASE_URL") or not os.environ.get("REDIS_URL"):
        sys.exit("Set DATABASE_URL (PostgreSQL) and REDIS_URL: the bench runs like production.")

    # The fixtures' session hashes depend on SECRET_KEY: this process must match the server's.
    os.environ.update(server_env())
    django_setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    ports = [free_port() for _ in range(args.servers)]
    logs = [args.log.with_suffix(f".{index}.log") for index in range(args.servers)]
    servers = [start_server(port, log, args.asgi_server) for port, log in zip(ports, logs)]
    print(
        f"{args.servers} {args.asgi_server} process(es) {[s.pid for s in servers]}; "
        f"CONN_MAX_AGE={os.environ.get('CONN_MAX_AGE', '0')}; "
        f"BASRA_FAST_PATH={os.environ.get('BASRA_FAST_PATH', '1')}; {os.cpu_count()} CPUs; "
        f"load average before: {os.getloadavg()[0]:.1f}",
        flush=True,
    )
    try:
        runs = [(n, args.think) for n in args.tables] + [(n, 0.0) for n in args.saturation]
        for n, think in runs:
            tables = make_tables(n, rated=args.rated)
            cpu = sum(cpu_seconds(s.pid) for s in servers)
            marks = [("start", [cpu_split(s.pid) for s in servers])]
            figures, connect_time, play_time = asyncio.run(
                play_tables(
                    ports, tables, args.plays, think, args.route,
                    lambda phase: marks.append((phase, [cpu_split(s.pid) for s in servers])),
                )
            )
            cpu = sum(cpu_seconds(s.pid) for s in servers) - cpu
            rss = [memory(s.pid) for s in servers]
            total = (sum(r[0] for r in rss), sum(r[1] for r in rss))
            print(report(n, think, figures, connect_time, play_time, total, cpu), flush=True)
            print(phases(marks, 2 * n, len(figures.latencies)), flush=True)
            if args.timeline:
                print(timeline(figures), flush=True)
            if args.relay:
                floor = run_relay(args.relay_dir, n, args.plays, think,
                                  args.log.with_suffix(".relay.log"))
                per_play = cpu * 1000 / max(len(figures.latencies), 1)
                if floor:
                    print(f"  cpu per play {per_play:.2f} ms, relay {floor:.2f} ms a message: "
                          f"{per_play / floor:.2f}x the relay", flush=True)
    finally:
        for server in servers:
            # uvicorn re-raises the signal it stopped on: SIGTERM would then skip the atexit
            # hook that writes the play paths; an interrupt ends it as Ctrl-C does.
            server.send_signal(signal.SIGINT if args.asgi_server == "uvicorn" else signal.SIGTERM)
        for server in servers:
            server.wait(10)
    print(play_paths(logs), flush=True)


if __name__ == "__main__":
    main()
