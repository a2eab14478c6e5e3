"""``manage.py serve`` (what ``make run`` starts): daphne, the table clock (in daphne's
process or next to it) and the tournaments' scheduler live and die together, the clock's
thinking workers with them; the scheduler starts an event at its time."""

from __future__ import annotations

import asyncio
import os
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest
import websockets

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def children_of(pid: int) -> list[int]:
    out = subprocess.run(["ps", "-o", "pid=", "--ppid", str(pid)], capture_output=True, text=True)
    return [int(line) for line in out.stdout.split()]


def gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    # A zombie is gone too: it only waits to be reaped.
    status = subprocess.run(["ps", "-o", "stat=", "-p", str(pid)], capture_output=True, text=True)
    return status.stdout.strip().startswith("Z") or not status.stdout.strip()


def wait_until(predicate, seconds: float = 60) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.2)
    return False


def descendants_of(pid: int) -> list[int]:
    """Every process below ``pid`` (children, their children...)."""
    found, pending = [], children_of(pid)
    while pending:
        child = pending.pop()
        found.append(child)
        pending += children_of(child)
    return found


def is_daphne(pid: int) -> bool:
    return "daphne" in Path(f"/proc/{pid}/cmdline").read_text()


def runs(pid: int, command: str) -> bool:
    return command in Path(f"/proc/{pid}/cmdline").read_text()


#: ``make run``'s set-up (no shared channel layer): the clock and its thinking workers, and the
#: tournaments' scheduler, run inside daphne: one child. With ``BASRA_CLOCK_IN_SERVER=0`` (the
#: default with Redis) ``run_clock`` and ``run_tournaments`` (``BASRA_SERVE_COMMANDS``) run next
#: to daphne: three.
SETUPS = {"clock_in_daphne": ("1", 1), "clock_apart": ("0", 3)}

#: Every server of this module on one xdist worker (``make test`` runs ``--dist loadgroup``):
#: the module-scoped servers are started once, not once per worker.
pytestmark = pytest.mark.xdist_group("serve")


def serve_env(database: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
    env["DATABASE_URL"] = f"sqlite:///{database}"
    return env


@pytest.fixture(scope="module")
def migrated(tmp_path_factory) -> Path:
    """A SQLite file migrated once for the module; each server gets a copy (a migration costs
    seconds, a copy milliseconds)."""
    database = tmp_path_factory.mktemp("serve") / "migrated.sqlite3"
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT,
                   env=serve_env(database), check=True)
    return database


@dataclass
class Served:
    """A running ``manage.py serve``: its process, port, SQLite file and set-up's name."""

    proc: subprocess.Popen
    port: int
    database: Path
    setup: str


@contextmanager
def serving(setup: str, migrated: Path, folder: Path):
    """Start ``manage.py serve`` in ``setup`` on a copy of ``migrated``; wait until daphne
    listens and the clock's thinking workers have started; kill the whole tree afterwards."""
    in_server, children = SETUPS[setup]
    database = folder / "serve.sqlite3"
    shutil.copyfile(migrated, database)
    env = serve_env(database)
    env["BASRA_CLOCK_IN_SERVER"] = in_server
    env["BASRA_BOT_WORKERS"] = "1"
    port = free_port()
    proc = subprocess.Popen([sys.executable, "manage.py", "serve", "--port", str(port)], cwd=ROOT,
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def listening() -> bool:
        with socket.socket() as sock:
            return sock.connect_ex(("127.0.0.1", port)) == 0

    try:
        # Generous waits: a loaded machine starts Python processes slowly.
        assert wait_until(listening, 90), "daphne did not start"
        assert wait_until(lambda: len(children_of(proc.pid)) == children, 60)
        # The clock's thinking workers (and multiprocessing's resource tracker) have started.
        assert wait_until(lambda: len(descendants_of(proc.pid)) >= children + 2, 60)
        yield Served(proc, port, database, setup)
    finally:
        for pid in [*descendants_of(proc.pid), proc.pid]:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        proc.wait()


@pytest.fixture(params=sorted(SETUPS))
def served(request, migrated, tmp_path):
    """A ``manage.py serve`` of the test's own, for the test that kills its daphne."""
    with serving(request.param, migrated, tmp_path) as running:
        yield running.proc, running.port


@pytest.fixture(scope="module", params=sorted(SETUPS))
def watched(request, migrated, tmp_path_factory):
    """One ``manage.py serve`` per set-up for the tests that look at it running, and then for
    the module's last test, which stops it with a signal."""
    with serving(request.param, migrated, tmp_path_factory.mktemp(request.param)) as running:
        yield running


async def lobby_close_code(port: int, stop) -> int | None:
    """Open a lobby socket on the server at ``port``, call ``stop()``, and return the code of
    the close frame the server sends (``None``: the connection dropped without one)."""
    url = f"127.0.0.1:{port}"
    async with websockets.connect(f"ws://{url}/ws/lobby/", origin=f"http://{url}") as lobby:
        await asyncio.wait_for(lobby.recv(), 60)  # the open tables: the socket is in
        stop()
        try:
            while True:
                await asyncio.wait_for(lobby.recv(), 60)
        except websockets.ConnectionClosed as closed:
            return closed.rcvd.code if closed.rcvd else None


def test_when_daphne_dies_the_clock_stops_too(served):
    proc, port = served
    kids = descendants_of(proc.pid)
    daphne = [pid for pid in children_of(proc.pid) if is_daphne(pid)]
    assert len(daphne) == 1
    # Killed outright: no shutdown of its own; its clock's workers must not outlive it.
    os.kill(daphne[0], signal.SIGKILL)
    proc.wait(timeout=60)
    assert wait_until(lambda: all(gone(pid) for pid in kids))


def test_daphne_beats_from_its_start_with_no_socket_open(watched):
    # The clock tells "servers run, nobody is connected" from "no server is running" by this.
    def beat() -> str | None:
        with sqlite3.connect(watched.database) as conn:
            row = conn.execute("SELECT last_seen FROM games_webtick").fetchone()
        return row and row[0]

    assert wait_until(lambda: beat() is not None)
    first = beat()
    assert wait_until(lambda: beat() != first)


def test_without_a_shared_layer_the_clock_and_its_workers_run_in_daphne(watched):
    proc = watched.proc
    daphne = [pid for pid in children_of(proc.pid) if is_daphne(pid)]
    workers = [
        pid for pid in descendants_of(daphne[0])
        if "spawn_main" in Path(f"/proc/{pid}/cmdline").read_text()
    ]
    others = [pid for pid in children_of(proc.pid) if pid not in daphne]
    if watched.setup == "clock_in_daphne":
        assert others == []  # the tournaments' scheduler ticks inside daphne too
        assert len(workers) == 1
    else:
        assert sorted(runs(pid, "run_clock") for pid in others) == [False, True]
        assert workers == []


def test_make_run_takes_the_port_and_host_the_readme_names():
    """``make run PORT=…`` (README, "Two commands") serves on that port, and the e-mails name
    that address (``BASRA_SITE_DOMAIN``) unless it is set."""
    readme = (ROOT / "README.md").read_text()
    assert "make run PORT=8080" in readme
    env = {k: v for k, v in os.environ.items() if k != "BASRA_SITE_DOMAIN"}
    out = subprocess.run(
        ["make", "-n", "--no-print-directory", "run", "PORT=8080", "HOST=0.0.0.0"],
        cwd=ROOT, env=env, capture_output=True, text=True, check=True,
    ).stdout
    assert "manage.py serve --host 0.0.0.0 --port 8080" in out
    # What the recipes' environment holds (the Makefile exports it).
    shown = subprocess.run(
        ["make", "-s", "--no-print-directory", "--eval",
         "show-domain: ; @echo $$BASRA_SITE_DOMAIN", "show-domain", "PORT=8080"],
        cwd=ROOT, env=env, capture_output=True, text=True, check=True,
    ).stdout
    assert shown.strip() == "127.0.0.1:8080"


#: Two players and an event of theirs that starts now (``manage.py shell -c``).
DUE_EVENT = """
from datetime import timedelta
from django.contrib.auth import get_user_model
from django.utils import timezone
from games.tournaments import services
from games.tournaments.models import Tournament
users = [get_user_model().objects.create_user(name, password=None) for name in ("ada", "bo")]
t = services.create_tournament(user=users[0], name="Due now", format="round_robin",
                               starts_at=timezone.now() + timedelta(hours=1))
for user in users:
    services.register(user=user, tournament_id=t.pk)
# Due once both are in: registration closes at the start, however slow the machine is.
Tournament.objects.filter(pk=t.pk).update(starts_at=timezone.now())
"""


def test_the_tournament_scheduler_starts_events_in_either_set_up(watched):
    """Without Redis the scheduler ticks inside daphne (its notices reach only that process's
    sockets); with Redis it is a process next to daphne."""
    scheduler = [pid for pid in children_of(watched.proc.pid) if runs(pid, "run_tournaments")]
    apart = watched.setup == "clock_apart"
    assert len(scheduler) == (1 if apart else 0)
    subprocess.run([sys.executable, "manage.py", "shell", "-c", DUE_EVENT], cwd=ROOT,
                   env=serve_env(watched.database), check=True)

    def status() -> str | None:
        with sqlite3.connect(watched.database) as conn:
            row = conn.execute("SELECT status FROM tournaments_tournament").fetchone()
        return row and row[0]

    # The scheduler ticks every 5 s: the event starts and its first round's table is opened.
    assert wait_until(lambda: status() == "running", 60)


def test_a_signal_to_serve_stops_daphne_and_the_clock(watched):
    """Last in the module: it stops the server the tests above looked at (pytest runs a
    module-scoped fixture's tests in the module's order), which saves starting one more."""
    proc, port = watched.proc, watched.port
    kids = descendants_of(proc.pid)
    # Gracefully (issue 36): daphne closes its sockets with 1001 "going away".
    assert asyncio.run(lobby_close_code(port, lambda: proc.send_signal(signal.SIGTERM))) == 1001
    # As long as wait_until's: a loaded machine (load 24 on two cores) took over 20 s.
    assert proc.wait(timeout=60) == 0
    assert wait_until(lambda: all(gone(pid) for pid in kids))
