"""Fixtures of the live-table tests."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _socket_rate_limit_lifted(settings):
    """No socket rate limit for the protocol tests, which play at machine speed.

    A test client answers at once: one socket sends a frame every few milliseconds (a whole match
    in a second or two), far beyond a person's ``BASRA_SOCKET_BURST`` and ``BASRA_SOCKET_RATE``.
    The limit has its own tests (``test_socket_faults.py``), which put the site's defaults back.
    """
    settings.BASRA_SOCKET_BURST = 1_000_000
    settings.BASRA_SOCKET_RATE = 1_000_000.0
