"""The sockets' tests are all live-table tests (``pytest.mark.live``): ``make test`` runs them a
second time with the fast path off (games/core/fastpath.py), a new module here included."""

from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent


def pytest_collection_modifyitems(items):
    """Mark ``live`` every test collected from this folder (the hook sees the whole run's items)."""
    for item in items:
        if HERE in Path(item.path).resolve().parents:
            item.add_marker(pytest.mark.live)
