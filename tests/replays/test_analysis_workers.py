"""The analysis pool's workers end with the process that started them (games.replays.jobs)."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# A server that starts an analysis, tells its worker's pid, and is killed outright mid-analysis
# (the worker is asleep in its task: it would sleep 120 s, then wait on its queue for ever).
SERVER = """
import os, signal, sys, time
import django
django.setup()
from django.test import override_settings
with override_settings(BASRA_ANALYSIS_WORKERS=1):
    from games.replays import jobs
    executor = jobs.pool()
    print(executor.submit(os.getpid).result(timeout=120), flush=True)
    executor.submit(time.sleep, 120)
    time.sleep(0.5)
    os.kill(os.getpid(), signal.SIGKILL)
"""


def _alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie, dead and waiting for its reaper, does not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state != "Z"


def test_a_killed_server_leaves_no_analysis_worker_behind():
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "tests.settings"}
    server = subprocess.run(
        [sys.executable, "-c", SERVER], cwd=ROOT, env=env, capture_output=True, text=True,
        timeout=180,
    )
    assert server.returncode == -signal.SIGKILL, server.stderr
    worker = int(server.stdout.split()[0])
    end = time.monotonic() + 60  # a bound on a hang, not a speed
    while _alive(worker):
        if time.monotonic() > end:
            os.kill(worker, signal.SIGKILL)
            raise AssertionError(f"analysis worker {worker} outlived its server")
        time.sleep(0.05)
