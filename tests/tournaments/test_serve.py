"""The tournaments' scheduler runs wherever the site is served, so a newcomer's site starts its
events on time (issue 13): with Redis ``manage.py serve`` starts ``run_tournaments`` next to
daphne; without (``make run``) it ticks inside daphne (the core's ``server_started`` signal)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import get_commands

from games.core.management.commands import serve
from games.tournaments import scheduler
from tests.core.helpers import VirtualClock, eventually

ROOT = Path(__file__).resolve().parents[2]


class FakeProcess:
    """A child that has already exited: ``serve`` stops at once and stops the others."""

    started: list[list[str]] = []

    def __init__(self, args, **kwargs):
        self.args = list(args)
        self.returncode = 0
        FakeProcess.started.append(self.args)

    def poll(self):
        return self.returncode

    def terminate(self):
        pass

    def wait(self, timeout=None):
        return self.returncode

    def kill(self):
        pass


def run_serve(monkeypatch) -> list[list[str]]:
    FakeProcess.started = []
    monkeypatch.setattr(serve.subprocess, "Popen", FakeProcess)
    monkeypatch.setattr(serve.signal, "signal", lambda *args: None)  # keep pytest's handlers
    serve.Command().handle(host="127.0.0.1", port=8765)
    return FakeProcess.started


def test_serve_starts_the_commands_of_the_setting(monkeypatch, settings):
    settings.BASRA_CLOCK_IN_SERVER = True
    settings.BASRA_SERVE_COMMANDS = ("run_tournaments",)
    started = run_serve(monkeypatch)
    assert started[0][0].endswith("daphne") and "8765" in started[0]
    assert [args[-1] for args in started[1:]] == ["run_tournaments"]
    # The name serve starts is the tournaments app's scheduler command.
    assert get_commands()["run_tournaments"] == "games.tournaments"


def test_serve_with_redis_runs_the_clock_and_the_scheduler(monkeypatch, settings):
    settings.BASRA_CLOCK_IN_SERVER = False
    settings.BASRA_SERVE_COMMANDS = ("run_tournaments",)
    started = run_serve(monkeypatch)
    assert sorted(args[-1] for args in started[1:]) == ["run_clock", "run_tournaments"]


def test_the_commands_serve_runs_are_a_setting(monkeypatch, settings):
    settings.BASRA_CLOCK_IN_SERVER = True
    settings.BASRA_SERVE_COMMANDS = ()
    assert len(run_serve(monkeypatch)) == 1  # daphne alone


def serve_commands(**env: str) -> str:
    """``BASRA_SERVE_COMMANDS`` as the settings compute it in a fresh process with ``env``."""
    clean = {k: v for k, v in os.environ.items()
             if k not in {"REDIS_URL", "BASRA_SERVE_COMMANDS", "BASRA_CLOCK_IN_SERVER"}}
    code = "import django; django.setup(); from django.conf import settings; " \
           "print(','.join(settings.BASRA_SERVE_COMMANDS))"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=clean | env,
                         capture_output=True, text=True, check=True)
    return out.stdout.strip()


def test_the_scheduler_is_a_process_of_its_own_only_with_redis():
    base = {"DJANGO_SETTINGS_MODULE": "basra_site.settings"}
    assert serve_commands(**base) == ""  # make run: it ticks inside daphne
    assert serve_commands(**base, REDIS_URL="redis://127.0.0.1:6379/15") == "run_tournaments"


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_without_a_shared_layer_the_scheduler_ticks_in_the_server(monkeypatch):
    # Its wait between ticks is on a virtual clock: a tick comes when the test moves time on.
    ticks = []
    monkeypatch.setattr(scheduler, "tick", lambda: ticks.append(1) or {})
    clock = VirtualClock()
    stop = scheduler.start_in_server(None, in_process=False, interval=0.02, sleep=clock.sleep)
    await clock.advance(1.0)
    assert ticks == [] and clock.sleeping() == 0  # with Redis, run_tournaments ticks
    await stop()
    stop = scheduler.start_in_server(None, in_process=True, interval=0.02, sleep=clock.sleep)
    await eventually(lambda: clock.sleeping() == 1)  # it ticked at once, and waits
    await clock.advance(0.05)
    assert len(ticks) == 3  # at the start, then every 0.02 s
    await stop()
    assert clock.sleeping() == 0  # nothing waits to tick again
    await clock.advance(1.0)
    assert len(ticks) == 3  # it stopped
