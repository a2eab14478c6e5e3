"""The API against a live server (daphne, as every browser test's): the example client in
``docs/api_client.py`` plays a whole match to 11 against the computer through the API only,
and two accounts play each other through the Board API.

The accounts and their tokens are made as an operator makes them (``manage.py shell`` and
``manage.py create_token`` on the server's database): everything after that goes through the
API. The computer's cards are played by the table clock inside daphne (README "The table
clock").
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import threading
import uuid

import pytest
import requests

from tests.e2e.conftest import ROOT

# In the first group (tests/e2e/pages.py: the two groups' balance).
pytestmark = pytest.mark.e2e

#: Real seconds a whole match may take: only a bound on a hang.
MATCH_SECONDS = 300


def _client_module():
    spec = importlib.util.spec_from_file_location("api_client", ROOT / "docs" / "api_client.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _manage(site, *args: str) -> str:
    done = subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=site.env, capture_output=True,
        text=True, timeout=120, check=True,
    )
    return done.stdout.strip()


def _account(site, *scopes: str) -> tuple[str, str]:
    name = "api" + uuid.uuid4().hex[:10]
    _manage(site, "shell", "-c",
            f"from django.contrib.auth import get_user_model; "
            f"get_user_model().objects.create_user({name!r}, password=None)")
    token = _manage(site, "create_token", name, *[part for s in scopes for part in ("--scope", s)])
    assert "\n" not in token
    return name, token


def _records(site, name: str) -> list[dict]:
    import json

    answer = requests.get(f"{site.url}/api/games/user/{name}", timeout=30)
    assert answer.status_code == 200
    return [json.loads(line) for line in answer.text.splitlines() if line.strip()]


def test_the_example_client_plays_a_whole_match_against_the_computer(site):
    name, token = _account(site)
    done = subprocess.run(
        [sys.executable, str(ROOT / "docs" / "api_client.py"), "--site", site.url,
         "--token", token, "--upgrade", "--ai", "greedy", "--target", "11", "--games", "1"],
        cwd=ROOT, capture_output=True, text=True, timeout=MATCH_SECONDS,
    )
    assert done.returncode == 0, done.stderr
    assert f"playing as {name} (BOT)" in done.stdout
    assert "over:" in done.stdout
    assert token not in site.log.read_text(errors="replace")
    records = _records(site, name)
    assert len(records) == 1
    assert records[0]["headers"]["termination"] == "target"
    assert records[0]["headers"]["winner"] in (0, 1)


def test_two_accounts_play_each_other_through_the_board_api(site):
    client = _client_module()
    alice, a_token = _account(site, "challenge:write", "board:play")
    bob, b_token = _account(site, "challenge:write", "board:play")
    a, b = client.Client(site.url, a_token, "board"), client.Client(site.url, b_token, "board")
    challenge = a.call("POST", f"/api/challenge/{bob}", data={"target": "11", "rated": "false"})
    assert challenge["challenge"]["status"] == "created", challenge
    assert b.call("POST", f"/api/challenge/{challenge['challenge']['id']}/accept") == {"ok": True}
    match_id = next(e for e in b.stream("/api/stream/event") if e["type"] == "gameStart")["game"]["id"]
    ends = {}

    def play(who, c):
        ends[who] = c.play_match(match_id)

    threads = [threading.Thread(target=play, args=(w, c)) for w, c in (("a", a), ("b", b))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(MATCH_SECONDS)
    assert ends["a"]["match"]["status"] == ends["b"]["match"]["status"] == "finished"
    assert ends["a"]["result"] == ends["b"]["result"]
    assert ends["a"]["you"] != ends["b"]["you"]
    assert [r["headers"]["id"] for r in _records(site, alice)] == [match_id]
