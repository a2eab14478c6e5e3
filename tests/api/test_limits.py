"""Rate limits per token and per address (an injected clock, not real load), and a database
that cannot answer: 503 with Retry-After."""

from __future__ import annotations

import pytest
from django.db import OperationalError
from django.test import override_settings

from games.api import limits, shapes
from games.core.for_apps import Match
from tests.api.helpers import account, call, error_code

pytestmark = pytest.mark.django_db


@pytest.fixture
def clock(monkeypatch):
    now = [3_000_000.0]  # the start of a 30 s window
    monkeypatch.setattr(limits, "clock", lambda: now[0])
    return now


def test_300_account_reads_in_30_s_then_429_with_retry_after(clock):
    _user, token = account("alice")
    for _ in range(300):
        assert call("get", "/api/account", token).status_code == 200
    clock[0] += 10
    over = call("get", "/api/account", token)
    assert over.status_code == 429 and error_code(over) == "rate_limited"
    assert over["Retry-After"] == "20"
    clock[0] += 20  # the next window
    assert call("get", "/api/account", token).status_code == 200


def test_each_token_has_its_own_count(clock):
    _a, a_token = account("alice")
    _b, b_token = account("bob")
    with override_settings(BASRA_API_LIMITS={"read": (30, 2, 100)}):
        assert call("get", "/api/account", a_token).status_code == 200
        assert call("get", "/api/account", a_token).status_code == 200
        assert call("get", "/api/account", a_token).status_code == 429
        assert call("get", "/api/account", b_token).status_code == 200


def test_an_address_has_a_count_over_its_tokens(clock):
    _a, a_token = account("alice")
    _b, b_token = account("bob")
    with override_settings(BASRA_API_LIMITS={"read": (30, 100, 3)}):
        for token in (a_token, b_token, a_token):
            assert call("get", "/api/account", token).status_code == 200
        assert call("get", "/api/account", b_token).status_code == 429
        assert call("get", "/api/account", b_token, REMOTE_ADDR="10.0.0.2").status_code == 200


def test_a_token_raises_the_limit_of_public_reads(clock):
    _a, token = account("alice")
    public = limits.LIMITS["public"].per_token
    for _ in range(public):
        assert call("get", "/api/user/alice").status_code == 200
    assert call("get", "/api/user/alice").status_code == 429
    assert call("get", "/api/user/alice", token).status_code == 200


def test_a_write_refused_by_the_limit_changes_nothing(clock):
    _a, token = account("alice")
    with override_settings(BASRA_API_LIMITS={"write": (60, 1, 10)}):
        assert call("post", "/api/challenge/ai", token, {"target": "11"}).status_code == 200
        over = call("post", "/api/challenge/ai", token, {"target": "11"})
    assert over.status_code == 429 and int(over["Retry-After"]) >= 1
    assert Match.objects.count() == 1


def test_a_database_that_cannot_answer_is_503_with_retry_after(monkeypatch):
    _a, token = account("alice")

    def down(user_id):
        raise OperationalError("the database system is shutting down")

    monkeypatch.setattr(shapes, "pool_standings", down)
    answer = call("get", "/api/account", token)
    assert answer.status_code == 503 and error_code(answer) == "unavailable"
    assert int(answer["Retry-After"]) > 0
    assert call("get", "/api/user/alice").status_code == 503
