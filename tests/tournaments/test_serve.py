"""``manage.py serve`` (``make run``) runs the tournaments' scheduler next to daphne, so a
newcomer's site starts its events on time (issue 13)."""

from __future__ import annotations

from django.core.management import get_commands

from games.management.commands import serve


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


def test_serve_starts_the_tournament_scheduler(monkeypatch, settings):
    settings.BASRA_CLOCK_IN_SERVER = True
    started = run_serve(monkeypatch)
    assert started[0][0].endswith("daphne") and "8765" in started[0]
    assert [args[-1] for args in started[1:]] == ["run_tournaments"]
    # The name serve starts is the tournaments app's scheduler command.
    assert get_commands()["run_tournaments"] == "games.tournaments"


def test_serve_with_redis_runs_the_clock_and_the_scheduler(monkeypatch, settings):
    settings.BASRA_CLOCK_IN_SERVER = False
    started = run_serve(monkeypatch)
    assert sorted(args[-1] for args in started[1:]) == ["run_clock", "run_tournaments"]


def test_the_commands_serve_runs_are_a_setting(monkeypatch, settings):
    settings.BASRA_CLOCK_IN_SERVER = True
    settings.BASRA_SERVE_COMMANDS = ()
    assert len(run_serve(monkeypatch)) == 1  # daphne alone
