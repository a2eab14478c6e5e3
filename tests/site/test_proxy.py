"""Behind the README's proxy every visitor had the proxy's address (issue 36): one setting,
``BASRA_TRUSTED_PROXY_COUNT``, turns on daphne's ``--proxy-headers`` in ``manage.py serve`` and
sets allauth's ``ALLAUTH_TRUSTED_PROXY_COUNT``; with its default, 0, no proxy is trusted."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from games.core.management.commands.serve import daphne_command

ROOT = Path(__file__).resolve().parents[2]
SHOW = ("from basra_site import settings; "
        "print(settings.BASRA_TRUSTED_PROXY_COUNT, settings.ALLAUTH_TRUSTED_PROXY_COUNT)")


def counts_with(**env: str) -> list[str]:
    """The two counts as the settings compute them in a fresh process with ``env``."""
    clean = {k: v for k, v in os.environ.items() if k != "BASRA_TRUSTED_PROXY_COUNT"}
    out = subprocess.run([sys.executable, "-c", SHOW], cwd=ROOT, env=clean | env | {"DEBUG": "1"},
                         capture_output=True, text=True, check=True)
    return out.stdout.split()


def test_no_proxy_is_trusted_unless_the_setting_says_so():
    assert counts_with() == ["0", "0"]
    assert counts_with(BASRA_TRUSTED_PROXY_COUNT="1") == ["1", "1"]


def test_daphne_reads_the_proxy_headers_only_behind_a_trusted_proxy(settings):
    settings.BASRA_TRUSTED_PROXY_COUNT = 0
    alone = daphne_command("127.0.0.1", 8001)
    assert alone[0].endswith("daphne") and "--proxy-headers" not in alone
    assert alone[1:] == ["-b", "127.0.0.1", "-p", "8001", "basra_site.asgi:application"]
    settings.BASRA_TRUSTED_PROXY_COUNT = 1
    behind = daphne_command("127.0.0.1", 8001)
    assert behind[1:] == ["-b", "127.0.0.1", "-p", "8001", "--proxy-headers",
                          "basra_site.asgi:application"]
