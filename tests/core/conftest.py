"""Fixtures of the live-table tests."""

from __future__ import annotations

import pytest

from games.core.sockets import beats
from tests.core.helpers import VirtualClock


@pytest.fixture(autouse=True)
def _socket_rate_limit_lifted(settings):
    """No socket rate limit for the protocol tests, which play at machine speed.

    A test client answers at once: one socket sends a frame every few milliseconds (a whole match
    in a second or two), far beyond a person's ``BASRA_SOCKET_BURST`` and ``BASRA_SOCKET_RATE``.
    The limit has its own tests (``tests/core/sockets/test_faults.py``), which put the site's
    defaults back.
    """
    settings.BASRA_SOCKET_BURST = 1_000_000
    settings.BASRA_SOCKET_RATE = 1_000_000.0


@pytest.fixture
def beats_clock(monkeypatch) -> VirtualClock:
    """The process's table beats (``games.core.sockets.beats.table_beats``) and its sockets' session
    windows on a virtual time line: a beat comes, and a session's window runs out, when the test
    moves time on (``VirtualClock.advance``), never because this machine was slow."""
    clock = VirtualClock()
    monkeypatch.setattr(beats.table_beats, "clock", clock)
    monkeypatch.setattr(beats.table_beats, "sleep", clock.sleep)
    return clock


@pytest.fixture
def server_beat_clock(monkeypatch) -> VirtualClock:
    """The server's beat (``games.core.sockets.beats.server_beat``) waits on a virtual clock: the next
    ``WebTick`` write comes when the test moves time on."""
    clock = VirtualClock()
    monkeypatch.setattr(beats.server_beat, "sleep", clock.sleep)
    return clock
