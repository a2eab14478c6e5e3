"""Fixtures of the tournaments' tests."""

from __future__ import annotations

import pytest

from games.core.state import broadcast


@pytest.fixture
def sent(monkeypatch):
    """Every notice that reaches the broadcast (``broadcast.send_notices``), as ``(user id,
    kind, payload)``: what leaves after a commit."""
    out: list[tuple[int, str, dict]] = []
    monkeypatch.setattr(broadcast, "send_notices", lambda items: out.extend(items))
    return out
