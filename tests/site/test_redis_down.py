"""With Redis down the site goes on from the database (basra_site/redis_cache.py, issue 36).

The cache is pointed at a closed port (``redis://127.0.0.1:1/0``: connection refused at once),
the sessions kept by ``cached_db`` as with ``REDIS_URL`` set.
"""

from __future__ import annotations

import logging

import pytest
from allauth.account.models import EmailAddress
from django.core.cache import caches
from django.test import Client
from django.urls import reverse

from basra_site import redis_cache
from basra_site.redis_cache import DegradingRedisCache
from tests.core.helpers import VirtualClock, log_records

pytestmark = pytest.mark.django_db

DOWN = "redis://127.0.0.1:1/0"


@pytest.fixture
def fresh(monkeypatch):
    """The module's outage state as at a process's start, its clock virtual; yields the records
    of its logger."""
    monkeypatch.setattr(redis_cache, "_down", False)
    monkeypatch.setattr(redis_cache, "_retry_at", 0.0)
    monkeypatch.setattr(redis_cache, "_stale", set())
    monkeypatch.setattr(redis_cache, "_stale_overflow", False)
    clock = VirtualClock()
    monkeypatch.setattr(redis_cache, "clock", clock)
    with log_records(redis_cache.logger) as records:
        yield records


@pytest.fixture
def redis_down(settings, fresh):
    """The site's cache (sessions, allauth's limits, the default cache) on a Redis that is down."""
    settings.CACHES = {
        "default": {
            "BACKEND": "basra_site.redis_cache.DegradingRedisCache",
            "LOCATION": DOWN,
            "KEY_PREFIX": "down",
        }
    }
    settings.SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"
    return fresh


def test_a_logged_in_page_answers_from_the_database_backed_session(redis_down, django_user_model):
    user = django_user_model.objects.create_user("omar", "omar@example.com", "pw-Basra-123")
    client = Client()
    client.force_login(user)
    for _ in range(2):
        response = client.get(reverse("lobby"))
        assert response.status_code == 200
        assert response.wsgi_request.user == user


def test_log_in_and_log_out_work(redis_down, django_user_model):
    user = django_user_model.objects.create_user("omar", "omar@example.com", "pw-Basra-123")
    EmailAddress.objects.create(user=user, email=user.email, primary=True, verified=True)
    client = Client()
    response = client.post(reverse("account_login"), {"login": "omar", "password": "pw-Basra-123"})
    assert response.status_code == 302
    assert client.get(reverse("lobby")).wsgi_request.user.username == "omar"
    assert client.post(reverse("account_logout")).status_code == 302
    assert not client.get(reverse("lobby")).wsgi_request.user.is_authenticated


def test_the_outage_is_logged_once(redis_down, fresh):
    cache = caches["default"]
    assert cache.get("a", "missed") == "missed"
    cache.set("a", 1)
    assert cache.add("a", 1) is True
    assert cache.get_many(["a", "b"]) == {}
    assert "a" not in cache
    with pytest.raises(ValueError):
        cache.incr("a")
    assert [r.levelno for r in fresh] == [logging.WARNING]


class FakeClient:
    """A Redis cache client (``RedisCacheClient``'s methods used here) on a dict, ``down`` or up."""

    def __init__(self) -> None:
        self.data: dict[str, object] = {}
        self.down = False
        self.calls = 0

    def _reach(self) -> None:
        self.calls += 1
        if self.down:
            raise redis_cache.RedisConnectionError("Error 111 connecting. Connection refused.")

    def get(self, key, default):
        self._reach()
        return self.data.get(key, default)

    def set(self, key, value, timeout):
        self._reach()
        self.data[key] = value

    def delete(self, key):
        self._reach()
        return self.data.pop(key, None) is not None

    def delete_many(self, keys):
        self._reach()
        for key in keys:
            self.data.pop(key, None)


class OnFake(DegradingRedisCache):
    client = FakeClient()

    @property
    def _cache(self):
        return self.client


@pytest.fixture
def on_fake(fresh):
    OnFake.client = FakeClient()
    return OnFake(DOWN, {}), OnFake.client


def test_a_key_written_during_the_outage_is_deleted_first_when_redis_is_back(on_fake, fresh):
    """A session logged out while Redis was down stays in Redis as it was; it must not come
    back with Redis."""
    cache, client = on_fake
    cache.set("session", {"user": 1})
    client.down = True
    cache.delete("session")  # the log-out: the delete fails, Redis keeps the old value
    assert cache.get("session") is None
    client.down = False
    assert cache.get("session") is None  # one second has not passed: not tried yet
    before = client.calls
    redis_cache.clock.now += redis_cache.RETRY_SECONDS

    assert cache.get("session") is None
    assert client.calls == before + 2  # the stale keys deleted, then the read
    assert [r.levelno for r in fresh] == [logging.WARNING, logging.INFO]
    assert not redis_cache.cache_is_down()


def test_while_down_redis_is_tried_at_most_once_a_retry_interval(on_fake):
    cache, client = on_fake
    client.down = True
    for _ in range(5):
        cache.get("a")
    assert client.calls == 1
    redis_cache.clock.now += redis_cache.RETRY_SECONDS
    cache.get("a")
    cache.get("a")
    assert client.calls == 2
