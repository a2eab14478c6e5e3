"""The account, bot upgrades and the public reads."""

from __future__ import annotations

import json

import pytest

from games.api.models import BotAccount
from games.core.for_apps import Match
from tests.api.helpers import account, call, collect, error_code
from tests.core.helpers import play_out, seated_match

pytestmark = pytest.mark.django_db


def test_account_shape():
    _user, token = account("alice")
    body = call("get", "/api/account", token).json()
    assert body == {
        "username": "alice", "title": None, "language": "en",
        "ratings": {"1v1": None, "partnership": None},
    }


def test_a_fresh_account_becomes_a_bot_for_good():
    user, token = account("robot", "bot:play")
    answer = call("post", "/api/bot/account/upgrade", token)
    assert answer.status_code == 200 and answer.json() == {"ok": True}
    assert call("get", "/api/account", token).json()["title"] == "BOT"
    assert call("get", "/api/user/robot").json()["title"] == "BOT"
    assert BotAccount.objects.filter(user=user).exists()


def test_an_account_that_sat_at_a_table_cannot_become_a_bot():
    alice, token = account("alice", "bot:play")
    bob, _ = account("bob")
    seated_match([alice, bob])
    answer = call("post", "/api/bot/account/upgrade", token)
    assert answer.status_code == 400 and error_code(answer) == "has_played"
    assert not BotAccount.objects.exists()


def test_the_upgrade_needs_bot_play():
    _user, token = account("alice", "board:play")
    assert error_code(call("post", "/api/bot/account/upgrade", token)) == "missing_scope"
    assert not BotAccount.objects.exists()


def test_a_profile_and_its_counts():
    alice, _ = account("alice")
    bob, _ = account("bob")
    play_out(seated_match([alice, bob], rules={"target": 11}))
    body = call("get", "/api/user/alice").json()
    assert body["username"] == "alice" and body["title"] is None
    assert body["counts"]["matches"] == 1
    assert body["created_at"].startswith(str(alice.date_joined.year))
    assert call("get", "/api/user/nobody").status_code == 404
    assert error_code(call("get", "/api/user/nobody")) == "not_found"


def test_a_record_is_published_only_once_the_match_is_over():
    alice, _ = account("alice")
    bob, _ = account("bob")
    match = seated_match([alice, bob], rules={"target": 11})
    running = call("get", f"/api/match/{match.pk}/record")
    assert running.status_code == 404 and error_code(running) == "not_found"
    play_out(match)
    record = call("get", f"/api/match/{match.pk}/record").json()
    assert record["format"] == "basra-record/1"
    assert record["headers"]["id"] == match.pk
    assert record["headers"]["match"].endswith(f"/table/{match.pk}/") or str(match.pk) in record["headers"]["match"]


def _lines(answer) -> list[dict]:
    assert answer["Content-Type"] == "application/x-ndjson"
    text = collect(answer).decode()
    return [json.loads(line) for line in text.splitlines() if line]


@pytest.mark.django_db(transaction=True)  # an async view reads the token on another connection
def test_the_export_streams_each_finished_match_newest_first_with_its_filters():
    alice, _ = account("alice")
    bob, _ = account("bob")
    carol, _ = account("carol")
    first = seated_match([alice, bob], rules={"target": 11})
    play_out(first)
    second = seated_match([alice, carol], rules={"target": 11})
    play_out(second)
    seated_match([alice, bob], rules={"target": 11})  # being played: not exported
    ids = [r["headers"]["id"] for r in _lines(call("get", "/api/games/user/alice"))]
    assert ids == [second.pk, first.pk]
    assert [r["headers"]["id"] for r in _lines(call("get", "/api/games/user/alice?max=1"))] == [second.pk]
    assert [r["headers"]["id"] for r in _lines(call("get", "/api/games/user/alice?vs=bob"))] == [first.pk]
    assert _lines(call("get", "/api/games/user/alice?rated=true")) == []
    assert _lines(call("get", "/api/games/user/alice?pool=partnership")) == []
    until = int(Match.objects.get(pk=first.pk).finished_at.timestamp() * 1000)
    assert [r["headers"]["id"] for r in _lines(call("get", f"/api/games/user/alice?until={until}"))] == [first.pk]
    assert call("get", "/api/games/user/nobody").status_code == 404
    assert error_code(call("get", "/api/games/user/alice?pool=chess")) == "bad_request"


@pytest.mark.django_db(transaction=True)  # an async view reads the token on another connection
def test_the_export_reads_in_pages(monkeypatch):
    from games.api import exports

    monkeypatch.setattr(exports, "PAGE", 2)
    alice, _ = account("alice")
    bob, _ = account("bob")
    made = []
    for _ in range(5):
        match = seated_match([alice, bob], rules={"target": 11})
        play_out(match)
        made.append(match.pk)
    ids = [r["headers"]["id"] for r in _lines(call("get", "/api/games/user/alice"))]
    assert ids == made[::-1]


def test_a_tournament_read_and_none():
    assert call("get", "/api/tournament/999").status_code == 404


def test_the_ladder_shows_bots_apart_in_a_bots_tab():
    from django.test import Client
    from django.utils import timezone

    from games.ratings.models import PlayerRating

    person, _ = account("person")
    robot, _ = account("robot")
    BotAccount.objects.create(user=robot)
    for user in (person, robot):
        PlayerRating.objects.create(user=user, pool="1v1", rating=1600, deviation=60, matches=5,
                                    last_rated_at=timezone.now())
    people_tab = Client().get("/ladder/1v1/?tab=established").content.decode()
    bots_tab = Client().get("/ladder/1v1/?tab=bots").content.decode()
    assert ">person<" in people_tab and ">robot<" not in people_tab
    assert ">robot<" in bots_tab and ">person<" not in bots_tab and "BOT" in bots_tab
