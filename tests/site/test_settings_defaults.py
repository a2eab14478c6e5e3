"""The site's settings default to production's: ``DEBUG`` off, so a ``SECRET_KEY`` must be given
(``make run``, the tests and the benches set ``DEBUG=1`` themselves)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SHOW = "from basra_site import settings; print(settings.DEBUG, settings.SESSION_COOKIE_SECURE)"


def settings_with(**env: str) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items()
             if k not in {"DEBUG", "SECRET_KEY", "DJANGO_SETTINGS_MODULE"}}
    return subprocess.run([sys.executable, "-c", SHOW], cwd=ROOT, env=clean | env,
                          capture_output=True, text=True)


def test_without_debug_set_the_site_runs_as_production_and_needs_a_secret_key():
    refused = settings_with()
    assert refused.returncode != 0
    assert "SECRET_KEY must be set when DEBUG is off" in refused.stderr
    assert settings_with(SECRET_KEY="s" * 50).stdout.split() == ["False", "True"]


def test_debug_on_brings_its_development_key():
    assert settings_with(DEBUG="1").stdout.split() == ["True", "False"]


def test_make_run_and_make_test_turn_debug_on():
    shown = subprocess.run(
        ["make", "-s", "--no-print-directory", "--eval", "show-debug: ; @echo $$DEBUG",
         "show-debug"],
        cwd=ROOT, env={k: v for k, v in os.environ.items() if k != "DEBUG"},
        capture_output=True, text=True, check=True,
    ).stdout
    assert shown.strip() == "1"
