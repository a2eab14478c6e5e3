"""Shared fixtures: users, their session cookies, websocket connections, a known deck.

Websocket tests run the real ASGI application (``basra_site.asgi.application``: origin check,
session auth, routing) through ``channels.testing.WebsocketCommunicator``, logged in with a real
session cookie, so they test what a browser would meet.
"""

from __future__ import annotations

import functools
import gc
import os
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from django.conf import settings
from django.test import Client

ORIGIN = "http://testserver"


def pytest_configure(config):
    """Settings for the whole run, before any test (the fast password hasher is in
    ``tests/settings.py``, which the servers the tests start read too)."""
    _redis_database_of_this_worker()


#: Folders whose every test is a live-table test, as if its module's ``pytestmark`` named
#: ``pytest.mark.live``: the sockets' room, so that a new module there is one too.
LIVE_FOLDERS = (Path(__file__).resolve().parent / "core" / "sockets",)


def pytest_generate_tests(metafunc):
    """Every live-table test (marked ``live``, or in :data:`LIVE_FOLDERS`) runs twice: with the
    live core's fast path on (``[fast]``) and off (``[public]``: the libraries' public APIs
    alone, ``games/core/fastpath.py``), both marked ``live`` (``pytest -m live``)."""
    definition = metafunc.definition
    path = Path(definition.path).resolve()
    if definition.get_closest_marker("live") or any(f in path.parents for f in LIVE_FOLDERS):
        metafunc.parametrize("fast_path", [
            pytest.param(True, id="fast", marks=pytest.mark.live),
            pytest.param(False, id="public", marks=pytest.mark.live),
        ], indirect=True)


@pytest.fixture(autouse=True)
def fast_path(request):
    """Whether the live core's fast path is on for this test (``BASRA_FAST_PATH``): as the
    environment sets it, unless :func:`pytest_generate_tests` chose. Every piece asks the
    setting when it runs (``games.core.fastpath.enabled``), so the override reaches them all;
    autouse, it is in force before the test's other fixtures of its scope."""
    if not hasattr(request, "param"):
        yield settings.BASRA_FAST_PATH
        return
    from django.test.utils import override_settings

    with override_settings(BASRA_FAST_PATH=request.param):
        yield request.param


def _redis_database_of_this_worker() -> None:
    """Under pytest-xdist (``make test``), each worker on a Redis database of its own, so on a
    channel prefix of its own (``basra_site.settings.redis_settings``).

    Each worker has its own test database (pytest-django's ``_gw0``, ``_gw1`` suffixes), so the
    same table ids; on one Redis database the workers' sockets would hear each other's tables,
    and a test's ``cache.clear()`` would empty another worker's sessions. Worker ``gwK`` takes
    database N + K of ``REDIS_URL``'s N (mod 16, Redis's default count).
    """
    from urllib.parse import urlsplit, urlunsplit

    from django.test.utils import override_settings

    from basra_site.settings import redis_layer_hosts, redis_settings, redis_site_prefix

    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    url = settings.REDIS_URL
    if not (url and worker.startswith("gw")):
        return
    parts = urlsplit(url)
    path = parts.path.strip("/")
    database = (int(path) if path.isdigit() else 0) + int(worker[2:])
    url = urlunsplit(parts._replace(path=f"/{database % 16}"))
    prefix = redis_site_prefix(url)
    # The layer stays on its own servers when it has some (REDIS_LAYER_URLS, REDIS_SENTINELS):
    # the worker's prefix keeps its names apart there.
    hosts = redis_layer_hosts(
        url, settings.REDIS_LAYER_URLS, settings.REDIS_SENTINELS, settings.REDIS_SENTINEL_MASTER
    )
    layers, caches = redis_settings(url, prefix, hosts)
    override_settings(
        REDIS_URL=url, BASRA_CHANNEL_PREFIX=prefix, CHANNEL_LAYERS=layers, CACHES=caches
    ).enable()
    os.environ["REDIS_URL"] = url


@pytest.fixture(autouse=True)
def _english():
    """Every test starts in English, whatever language an earlier test's request left active in
    this thread (Django's LocaleMiddleware activates the request's language)."""
    from django.utils import translation

    with translation.override("en"):
        yield


@pytest.fixture(autouse=True)
def _fresh_channel_layer_and_cache():
    """A fresh channel layer and an empty live-state cache for every test.

    The in-memory layer's queues belong to the event loop that first used them, and each async
    test has its own loop; the cache must not carry one test's matches into the next.
    """
    from channels.layers import channel_layers

    channel_layers.backends.clear()
    from games.core.state.cache import clear_caches

    clear_caches()
    yield
    channel_layers.backends.clear()
    clear_caches()


@pytest.fixture(autouse=True)
def _close_worker_thread_connections(request):
    """Close the database connections that consumers' worker threads keep.

    ``games.core.sockets.workers`` threads keep their connection between calls, and ``channels.testing``
    turns Channels' ``close_old_connections`` into a no-op while a communicator runs. Ending the
    threads and collecting their connection objects (held in reference cycles) closes them, so
    the next test's flush and the final drop of the test database are not blocked.
    """
    marker = request.node.get_closest_marker("django_db")
    if marker or {"db", "transactional_db"} & set(request.fixturenames):
        request.getfixturevalue("_other_connections_ended_before_the_drop")
    yield
    if marker and marker.kwargs.get("transaction"):
        from games.core.sockets import workers

        workers.stop()
        gc.collect()


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_teardown(item, nextitem):
    """After the last test of a process, before the session's fixtures go (the test database is
    dropped with them): end the consumers' worker threads, whose kept connections would block
    the drop ("being accessed by other users") and leave the database behind."""
    if nextitem is None:
        from games.core.sockets import workers

        workers.stop()
        gc.collect()


@pytest.fixture(scope="session")
def _other_connections_ended_before_the_drop(django_db_setup, django_db_blocker):
    """On PostgreSQL, at the end of the run, this process's other sessions on its test database
    are ended before it is dropped (torn down before ``django_db_setup``, which it depends on):
    connections kept by the threads the tests ran sync code in (asgiref's executor threads, the
    consumers' ``database_sync_to_async``) blocked the drop ("being accessed by other users").
    No other process uses that database (pytest-django's ``_gwN`` suffix)."""
    yield
    from django.db import connection

    with django_db_blocker.unblock():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                    " WHERE datname = current_database() AND pid <> pg_backend_pid()"
                )


@pytest.fixture
def sent(monkeypatch):
    """Every notice that leaves after a commit (``broadcast.send_notices``), as ``(user id,
    kind, payload)``."""
    from games.core.state import broadcast

    out: list[tuple[int, str, dict]] = []
    monkeypatch.setattr(broadcast, "send_notices", lambda items: out.extend(items))
    return out


@dataclass
class Player:
    """A user with a logged-in session: ``cookie`` is the session id for a websocket handshake."""

    user: Any
    cookie: str

    @property
    def username(self) -> str:
        return self.user.username


@pytest.fixture
def make_player(django_user_model):
    """``make_player("alice")`` -> a ``Player`` (user created, logged in through a session)."""

    def make(username: str) -> Player:
        # No password: hashing one costs about a second here, and a session is all a socket needs.
        user = django_user_model.objects.create_user(
            username=username, email=f"{username}@example.com", password=None
        )
        client = Client()
        client.force_login(user)
        return Player(user=user, cookie=client.cookies[settings.SESSION_COOKIE_NAME].value)

    return make


@pytest.fixture
def players4(make_player) -> list[Player]:
    """alice, bob, carol, dave."""
    return [make_player(name) for name in ("alice", "bob", "carol", "dave")]


def ws_headers(
    cookie: str | None = None, *, origin: str | None = ORIGIN, language: str | None = None
) -> list[tuple[bytes, bytes]]:
    """Handshake headers: ``Origin``, the session cookie, ``Accept-Language``."""
    headers = [(b"host", b"testserver")]
    if origin is not None:
        headers.append((b"origin", origin.encode()))
    if cookie is not None:
        headers.append((b"cookie", f"{settings.SESSION_COOKIE_NAME}={cookie}".encode()))
    if language is not None:
        headers.append((b"accept-language", language.encode()))
    return headers


#: Real seconds a test waits for a frame, a handshake or an ending that must come: only a bound
#: on a hang. Channels' default is 1 s, which a loaded machine can take for one frame.
HANG_SECONDS = 30.0


@functools.cache
def patient_communicator() -> type:
    """Channels' ``WebsocketCommunicator`` with :data:`HANG_SECONDS` as the default timeout of
    its waits for what must come (how long a frame takes is asserted nowhere);
    ``receive_nothing`` keeps its own short wait. (Imported late: Channels needs settings.)"""
    from channels.testing import WebsocketCommunicator

    class PatientCommunicator(WebsocketCommunicator):
        async def connect(self, timeout=HANG_SECONDS):
            return await super().connect(timeout)

        async def receive_output(self, timeout=HANG_SECONDS):
            return await super().receive_output(timeout)

        async def receive_from(self, timeout=HANG_SECONDS):
            return await super().receive_from(timeout)

        async def receive_json_from(self, timeout=HANG_SECONDS):
            return await super().receive_json_from(timeout)

        async def disconnect(self, code=1000, timeout=HANG_SECONDS):
            return await super().disconnect(code, timeout)

        # ``wait`` keeps Channels' 1 s: it waits for the application to end *or cancels it*
        # (asgiref swallows its own timeout), so a longer default only makes every test of a
        # socket that lives on wait that long. A test that needs the end waits for it by name.

    return PatientCommunicator


def communicator(path: str, cookie: str | None = None, **kwargs):
    """A :func:`patient_communicator` on the site's ASGI application (not yet connected)."""
    from basra_site.asgi import application

    return patient_communicator()(application, path, headers=ws_headers(cookie, **kwargs))


@pytest_asyncio.fixture
async def open_socket():
    """``await open_socket(path, cookie)`` -> a connected communicator; all closed at the end."""
    opened = []

    async def open_(path: str, cookie: str | None = None, **kwargs):
        comm = communicator(path, cookie, **kwargs)
        connected, code = await comm.connect()
        assert connected, f"websocket {path} refused with {code}"
        opened.append(comm)
        return comm

    yield open_
    for comm in opened:
        try:
            await comm.disconnect()
        except Exception:  # noqa: BLE001 - the server may already have closed it
            pass


def seeded_deck(seed: int) -> list[str]:
    """A reproducible 52-card order for tests (the site itself shuffles with ``secrets``)."""
    from games.core.actions.seating import DECK_CODES

    deck = list(DECK_CODES)
    random.Random(seed).shuffle(deck)
    return deck


@pytest.fixture
def known_decks(monkeypatch):
    """Deal reproducible decks (seed 1, 2, ...) and let seat 0 deal the first round, in place of
    the fair shuffle (``seating.shuffled_deck`` and ``seating.first_dealer``, whose seeds are
    ignored here).

    :returns: the list of decks dealt so far, in order.
    """
    from games.core.actions import seating

    dealt: list[list[str]] = []

    def deck(server_seed: str, client_seeds: list[str], round_number: int) -> list[str]:
        dealt.append(seeded_deck(len(dealt) + 1))
        return list(dealt[-1])

    monkeypatch.setattr(seating, "shuffled_deck", deck)
    monkeypatch.setattr(seating, "first_dealer", lambda server_seed, client_seeds: 0)
    return dealt
