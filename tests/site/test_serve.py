"""``manage.py serve`` (what ``make run`` starts): daphne and the table clock live and die together."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

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


def wait_until(predicate, seconds: float = 20) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.2)
    return False


@pytest.fixture
def served(tmp_path):
    """A running ``manage.py serve`` on its own SQLite file and port: (process, port)."""
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
    env["DATABASE_URL"] = f"sqlite:///{tmp_path / 'serve.sqlite3'}"
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT,
                   env=env, check=True)
    port = free_port()
    proc = subprocess.Popen([sys.executable, "manage.py", "serve", "--port", str(port)], cwd=ROOT,
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def listening() -> bool:
        with socket.socket() as sock:
            return sock.connect_ex(("127.0.0.1", port)) == 0

    assert wait_until(listening), "daphne did not start"
    assert wait_until(lambda: len(children_of(proc.pid)) == 2)
    yield proc, port
    for pid in [*children_of(proc.pid), proc.pid]:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    proc.wait()


def test_a_signal_to_serve_stops_daphne_and_the_clock(served):
    proc, _port = served
    kids = children_of(proc.pid)
    proc.send_signal(signal.SIGTERM)
    proc.wait(timeout=20)
    assert wait_until(lambda: all(gone(pid) for pid in kids))


def test_when_daphne_dies_the_clock_stops_too(served):
    proc, port = served
    kids = children_of(proc.pid)
    daphne = [pid for pid in kids if "daphne" in Path(f"/proc/{pid}/cmdline").read_text()]
    assert len(daphne) == 1
    os.kill(daphne[0], signal.SIGKILL)
    proc.wait(timeout=20)
    assert wait_until(lambda: all(gone(pid) for pid in kids))
