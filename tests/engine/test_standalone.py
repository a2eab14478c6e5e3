"""The engine is standard-library Python: it imports with Django absent, and its doctests pass."""

from __future__ import annotations

import doctest
import importlib
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = """
import sys
for name in ("django", "channels", "daphne"):
    sys.modules[name] = None  # any import of them now raises ImportError
import games.engine as engine
from games.engine import Card, Rules, Round, capture, replay, IllegalPlayError, Match
deck = engine.full_deck()
m = Match(Rules(), dealer=0)
m.start_round(deck)
while not m.round.over:
    m.play(m.round.legal_plays()[0])
rec = m.to_record(["a", "b"])
assert replay(rec).scores == m.scores
loaded = sorted(n for n in sys.modules if n.split(".")[0] in ("django", "channels", "daphne")
                and sys.modules[n] is not None)
print("ok", loaded)
"""


def test_the_engine_imports_and_runs_with_django_absent():
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok []"


@pytest.mark.parametrize(
    "module", ["cards", "capture", "round", "match", "record", "rules", "errors"]
)
def test_doctests(module):
    mod = importlib.import_module(f"games.engine.{module}")
    failed, attempted = doctest.testmod(mod, optionflags=doctest.ELLIPSIS)
    assert failed == 0
    if module in ("cards", "capture", "round", "match"):
        assert attempted > 0
