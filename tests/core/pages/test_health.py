"""``GET /health/`` (games/core/pages/health.py, issue 36): database, layer, clock."""

from __future__ import annotations

from datetime import timedelta

import pytest
from channels.layers import InMemoryChannelLayer, get_channel_layer
from django.conf import settings
from django.contrib.sessions.models import Session
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.utils import OperationalError
from django.urls import reverse
from django.utils import timezone
from redis.exceptions import ConnectionError as RedisConnectionError

from games.core.state import broadcast, liveness

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _layer_thought_up(monkeypatch):
    monkeypatch.setattr(broadcast, "_layer_down", False)
    # The stand-in layers here are one server's, whatever the run's REDIS_LAYER_URLS says.
    monkeypatch.setattr(broadcast, "layer_hosts", lambda: [])


def working_layer() -> str:
    """What a working layer of this run is reported as: the suite runs on the in-memory layer,
    or on Redis with ``REDIS_URL`` set (CI)."""
    return "in-memory" if isinstance(get_channel_layer(), InMemoryChannelLayer) else "ok"


def ticked(seconds_ago: float) -> None:
    liveness.clock_ran(until=timezone.now() - timedelta(seconds=seconds_ago))


class SharedLayer:
    """A stand-in for the Redis layer: ``send`` works, or raises as with Redis down."""

    def __init__(self, down: bool = False) -> None:
        self.down = down
        self.sent: list[tuple[str, dict]] = []

    async def send(self, channel: str, message: dict) -> None:
        if self.down:
            raise RedisConnectionError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")
        self.sent.append((channel, message))


def test_all_fine_is_200_without_a_session(client):
    ticked(1)
    response = client.get(reverse("health"))
    assert response.status_code == 200
    assert response.json() == {"database": "ok", "layer": working_layer(), "clock": "ok"}
    assert settings.SESSION_COOKIE_NAME not in response.cookies
    assert response["Cache-Control"].startswith("max-age=0")
    assert not Session.objects.exists()


def test_a_logged_in_visit_writes_no_session(client, django_user_model):
    client.force_login(django_user_model.objects.create_user("omar"))
    before = list(Session.objects.values_list("session_key", "session_data", "expire_date"))
    ticked(1)
    response = client.get(reverse("health"))
    assert response.status_code == 200
    assert settings.SESSION_COOKIE_NAME not in response.cookies
    assert list(Session.objects.values_list("session_key", "session_data", "expire_date")) == before


def test_a_clock_that_never_ran_is_unknown_and_503(client):
    response = client.get(reverse("health"))
    assert response.status_code == 503
    assert response.json()["clock"] == "unknown"


def test_a_late_clock_is_503(client):
    ticked(liveness.outage_after().total_seconds() + 1)
    response = client.get(reverse("health"))
    assert response.status_code == 503
    assert response.json() == {"database": "ok", "layer": working_layer(), "clock": "late"}


def test_a_shared_layer_that_answers_is_ok(client, monkeypatch):
    layer = SharedLayer()
    monkeypatch.setattr(broadcast, "get_channel_layer", lambda: layer)
    ticked(1)
    response = client.get(reverse("health"))
    assert response.status_code == 200
    assert response.json()["layer"] == "ok"
    assert layer.sent == [(broadcast.PROBE_CHANNEL, {"type": "health.probe"})]


def test_a_layer_down_is_503_until_it_answers(client, monkeypatch):
    layer = SharedLayer(down=True)
    monkeypatch.setattr(broadcast, "get_channel_layer", lambda: layer)
    ticked(1)
    response = client.get(reverse("health"))
    assert response.status_code == 503
    assert response.json() == {"database": "ok", "layer": "down", "clock": "ok"}
    assert broadcast.layer_is_down()
    layer.down = False
    assert client.get(reverse("health")).status_code == 200
    assert not broadcast.layer_is_down()


def test_a_database_down_is_503(client, monkeypatch):
    ticked(1)

    def refused(self, *args, **kwargs):
        raise OperationalError("connection refused")

    monkeypatch.setattr(BaseDatabaseWrapper, "cursor", refused)
    response = client.get(reverse("health"))
    assert response.status_code == 503
    assert response.json() == {"database": "down", "layer": working_layer(), "clock": "unknown"}
