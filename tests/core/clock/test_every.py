"""The core's repeated job for the apps (games/core/clock/every.py, ``for_apps.run_every``):
at once, then every interval after each run, a failed run logged and the next one as planned,
nothing more once stopped. Time is virtual (``VirtualClock``)."""

from __future__ import annotations

import logging

import pytest

from games.core.for_apps import run_every
from tests.core.helpers import VirtualClock, eventually


@pytest.mark.asyncio
async def test_a_job_runs_at_once_then_every_interval_survives_a_failure_and_stops(caplog):
    clock, runs = VirtualClock(), []

    async def work():
        runs.append(clock())
        if len(runs) == 2:
            raise RuntimeError("the database went away")

    with caplog.at_level(logging.ERROR, logger="games.core.clock.every"):
        stop = run_every(5.0, work, name="app: tick", sleep=clock.sleep)
        await eventually(lambda: clock.sleeping() == 1)
        assert runs == [1000.0]
        await clock.advance(10.0)
        assert runs == [1000.0, 1005.0, 1010.0]  # the failed run at 1005 did not stop it
    assert [r.getMessage() for r in caplog.records] == ["app: tick failed"]
    await stop()
    assert clock.sleeping() == 0
    await clock.advance(10.0)
    assert len(runs) == 3
