"""The sockets' session checks in batches (``games.core.sockets.auth.live_sessions``, ``games.core.sockets.beats``).

``live_sessions`` must decide exactly as Django's ``get_user`` does, one session at a time
(``games.core.sockets.auth.session_user_is``), for every way a session stops logging its user in; and a
table socket whose heartbeat checks its session does not check it again at each play, while a
session ended without the site's logout is told to the page without any action.
"""

from __future__ import annotations

from datetime import timedelta
from importlib import import_module
from types import SimpleNamespace

import pytest
from channels.db import database_sync_to_async
from django.conf import settings
from django.contrib import auth
from django.contrib.sessions.models import Session
from django.core.cache import caches
from django.test import Client
from django.utils import timezone

from games.core import fastpath
from games.core.sockets import auth as socket_auth, beats, table as table_socket
from tests.core.helpers import (
    VirtualClock,
    eventually,
    expect_error,
    log_size,
    seated_match,
    table_barrier,
    table_path,
)

db = database_sync_to_async

ENGINES = [
    "django.contrib.sessions.backends.db",
    "django.contrib.sessions.backends.cached_db",
    "django.contrib.sessions.backends.cache",
]


def one_by_one(pairs) -> set[str]:
    """The same question asked one session at a time, as a play asks it."""
    return {
        key for key, user in pairs
        if socket_auth.session_user_is({"session": SimpleNamespace(session_key=key)},
                                   SimpleNamespace(pk=user))
    }


def logged_in(user) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies[settings.SESSION_COOKIE_NAME].value


@pytest.fixture
def engine_settings(settings, request):
    """Sessions in the store ``request.param``, with a process-local cache when it needs one."""
    settings.SESSION_ENGINE = request.param
    settings.CACHES = {
        **settings.CACHES,
        "sessions-test": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
    }
    settings.SESSION_CACHE_ALIAS = "sessions-test"
    caches["sessions-test"].clear()
    yield settings
    caches["sessions-test"].clear()


@pytest.mark.django_db
@pytest.mark.parametrize("engine_settings", ENGINES, indirect=True)
def test_the_batch_decides_every_session_as_django_does_one_at_a_time(
    engine_settings, django_user_model
):
    """Alive; logged out; another user's; a changed password; a disabled user; a session made
    under a secret key now only among the fallbacks, and one no longer among them; and, for
    the database-backed stores, an expired row and a row the cache has lost."""
    User = django_user_model
    alice, bob, carol, dan, erin = (
        User.objects.create_user(username=n, email=f"{n}@example.com", password=None)
        for n in ("alice", "bob", "carol", "dan", "erin")
    )
    alive = logged_in(alice)
    out = logged_in(alice)
    import_module(settings.SESSION_ENGINE).SessionStore(session_key=out).delete()
    bobs = logged_in(bob)
    changed = logged_in(carol)
    carol.set_unusable_password()
    carol.save()
    disabled = logged_in(dan)
    User.objects.filter(pk=dan.pk).update(is_active=False)
    pairs = [
        (alive, alice.pk), (out, alice.pk), (bobs, alice.pk), (bobs, bob.pk),
        (changed, carol.pk), (disabled, dan.pk), ("no-such-session-key-at-all", alice.pk),
    ]
    if settings.SESSION_ENGINE != ENGINES[2]:
        expired = logged_in(erin)
        Session.objects.filter(session_key=expired).update(
            expire_date=timezone.now() - timedelta(seconds=1)
        )
        caches["sessions-test"].clear()  # what an expired cache entry is: gone
        only_in_db = logged_in(erin)
        caches["sessions-test"].clear()
        pairs += [(expired, erin.pk), (only_in_db, erin.pk)]
    found = socket_auth.live_sessions(pairs)
    assert found == one_by_one(pairs)
    expected = {alive, bobs} | ({only_in_db} if settings.SESSION_ENGINE != ENGINES[2] else set())
    assert found == expected


@pytest.mark.django_db
def test_sessions_made_under_a_secret_key_now_a_fallback_stay_alive(settings, django_user_model):
    """``SECRET_KEY_FALLBACKS`` (Django's key rotation): a session hashed with an old key that
    is still a fallback logs its user in; once the old key is dropped, it no longer does."""
    user = django_user_model.objects.create_user(username="alice", password=None)
    settings.SECRET_KEY = "old-" + "k" * 50
    key = logged_in(user)
    settings.SECRET_KEY = "new-" + "k" * 50
    settings.SECRET_KEY_FALLBACKS = ["old-" + "k" * 50]
    assert socket_auth.live_sessions([(key, user.pk)]) == {key}
    settings.SECRET_KEY_FALLBACKS = []
    assert socket_auth.live_sessions([(key, user.pk)]) == set() == one_by_one([(key, user.pk)])


def channels_decides(key: str):
    from channels.auth import get_user

    store = import_module(settings.SESSION_ENGINE).SessionStore
    return get_user.func({"session": store(session_key=key)})


@pytest.mark.django_db
@pytest.mark.parametrize("engine_settings", ENGINES, indirect=True)
def test_the_handshake_finds_the_user_channels_finds(engine_settings, django_user_model,
                                                      monkeypatch):
    """``fastpath.handshake_user`` against Channels' ``get_user``, for every way a session can
    stop logging its user in; the common case is decided without Channels' ``get_user``."""
    User = django_user_model
    alice, carol, dan = (
        User.objects.create_user(username=n, email=f"{n}@example.com", password=None)
        for n in ("alice", "carol", "dan")
    )
    alive = logged_in(alice)
    out = logged_in(alice)
    import_module(settings.SESSION_ENGINE).SessionStore(session_key=out).delete()
    changed = logged_in(carol)
    carol.set_unusable_password()
    carol.save()
    disabled = logged_in(dan)
    User.objects.filter(pk=dan.pk).update(is_active=False)
    gone = logged_in(User.objects.create_user(username="erin", password=None))
    User.objects.filter(username="erin").delete()
    store = import_module(settings.SESSION_ENGINE).SessionStore
    for key in (alive, out, changed, disabled, gone, "no-such-session-key-at-all"):
        ours = fastpath.handshake_user({"session": store(session_key=key)})
        theirs = channels_decides(key)
        assert (ours.is_authenticated, ours.pk) == (theirs.is_authenticated, theirs.pk), key
    asked = []
    monkeypatch.setattr(fastpath.channels_get_user, "func", lambda scope: asked.append(scope))
    assert fastpath.handshake_user({"session": store(session_key=alive)}).pk == alice.pk
    assert asked == []


@pytest.mark.django_db
def test_the_handshake_keeps_a_session_made_under_a_fallback_key(settings, django_user_model):
    """A session hashed under a secret key now among ``SECRET_KEY_FALLBACKS`` opens a socket
    as its user, as Django's ``get_user`` and the heartbeat's check accept it (Channels' own
    ``get_user`` would flush it), and stays as it is; once the old key is dropped, it does not."""
    user = django_user_model.objects.create_user(username="alice", password=None)
    settings.SECRET_KEY = "old-" + "k" * 50
    key = logged_in(user)
    old_hash = user.get_session_auth_hash()
    settings.SECRET_KEY = "new-" + "k" * 50
    settings.SECRET_KEY_FALLBACKS = ["old-" + "k" * 50]
    store = import_module(settings.SESSION_ENGINE).SessionStore
    session = store(session_key=key)
    assert fastpath.handshake_user({"session": session}).pk == user.pk
    assert session.session_key == key and not session.modified
    assert store(session_key=key)[auth.HASH_SESSION_KEY] == old_hash
    settings.SECRET_KEY_FALLBACKS = []
    assert not fastpath.handshake_user({"session": store(session_key=key)}).is_authenticated


def end_session_by_hand(cookie: str) -> None:
    """The session is removed from its store without the site's logout (expiry, an admin)."""
    import_module(settings.SESSION_ENGINE).SessionStore(session_key=cookie).delete()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_the_heartbeat_checks_sessions_so_plays_do_not(
    make_player, open_socket, known_decks, settings, monkeypatch, beats_clock
):
    """With a 1.2 s window, sockets that stay open for 3 s (of the beats' virtual time) have had
    their sessions checked by the process's heartbeat (in batches) and still trusted: the plays
    after that check nothing themselves."""
    settings.BASRA_SESSION_RECHECK_SECONDS = 1.2
    one, batched = [], []
    real_one, real_batch = table_socket.session_user_is, socket_auth.live_sessions

    def counted_one(scope, user):
        one.append(user.username)
        return real_one(scope, user)

    def counted_batch(pairs):
        batched.append(len(pairs))
        return real_batch(pairs)

    monkeypatch.setattr(table_socket, "session_user_is", counted_one)
    monkeypatch.setattr("games.core.sockets.beats.live_sessions", counted_batch)
    alice, bob = await db(make_player)("alice"), await db(make_player)("bob")
    match = await db(seated_match)([bob.user, alice.user])  # known decks: seat 1 plays first
    a = await open_socket(table_path(match.pk), alice.cookie)
    b = await open_socket(table_path(match.pk), bob.cookie)
    view_a, view_b = await a.receive_json_from(), await b.receive_json_from()
    await eventually(lambda: beats_clock.sleeping() == 1)  # the beats' task waits for time
    await beats_clock.advance(3.0)  # more than twice the window
    await a.send_json_to(
        {"type": "play", "card": view_a["round"]["hand"][0], "seq": view_a["seq"]}
    )
    after = await a.receive_json_from()
    assert after["type"] == "state" and after["seq"] > view_a["seq"]
    view_b = await b.receive_json_from()
    await b.send_json_to(
        {"type": "play", "card": view_b["round"]["hand"][0], "seq": view_b["seq"]}
    )
    assert (await b.receive_json_from())["seq"] > view_b["seq"]
    assert one == []
    assert sum(batched) >= 2  # both sockets' sessions, checked by the beat


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_session_ended_by_hand_is_told_to_the_page_without_an_action(
    make_player, open_socket, known_decks, settings, beats_clock
):
    """A session removed from its store without the site's logout (no push reaches the
    socket): within the window (of the beats' virtual time) the heartbeat finds it, and the
    page is told (``logged_out``) and sent the spectators' view, no hand, before the player
    does anything; a play then is refused and writes nothing."""
    settings.BASRA_SESSION_RECHECK_SECONDS = 1.2
    alice, bob = await db(make_player)("alice"), await db(make_player)("bob")
    match = await db(seated_match)([bob.user, alice.user])
    a = await open_socket(table_path(match.pk), alice.cookie)
    view = await a.receive_json_from()
    assert view["you"] == 1 and view["round"]["hand"]
    await db(end_session_by_hand)(alice.cookie)
    # Time stands still: no look yet, nothing told. Barrier: removing the session returned
    # after anything it could have pushed was in the socket's channel; a broadcast sent now is
    # behind it (channels deliver in order) and must be the next frame.
    await table_barrier(match.pk, [a])
    await eventually(lambda: beats_clock.sleeping() == 1)
    await beats_clock.advance(1.2)
    told = await a.receive_json_from(timeout=30)  # real seconds: only a bound on a hang
    assert told == {"type": "logged_out"}
    gone = await a.receive_json_from()
    assert gone["type"] == "state" and gone["you"] is None and gone["round"]["hand"] == []
    before = await log_size(match.pk)
    await a.send_json_to({"type": "play", "card": view["round"]["hand"][0], "seq": gone["seq"]})
    await expect_error(a, "login_required")
    assert await log_size(match.pk) == before


class SessionSocket:
    """What ``games.core.sockets.beats`` reads of a table socket, with a session window."""

    def __init__(self, user_id: int, window: float, clock: VirtualClock) -> None:
        self.match_id, self.user_id, self.seq = user_id, user_id, 0
        self.closing = self.gone = False
        self.window, self.clock = window, clock
        self.good_until = clock() + window
        self.lapsed = 0  # renewals that came after the window had run out
        self.checks = 0

    def seated_user(self):
        return self.user_id

    def watcher_channel(self):
        return None

    def table_moved(self):
        pass

    def session_due(self, by):
        return (f"key-{self.user_id}", self.user_id) if self.good_until <= by else None

    def session_checked(self, at, alive):
        self.checks += 1
        if self.clock() > self.good_until:
            self.lapsed += 1
        self.good_until = max(self.good_until, at + self.window)


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)  # the worker hop looks after the thread's connection
async def test_sessions_are_renewed_before_their_window_runs_out_even_when_beats_are_slow(
    settings, monkeypatch
):
    """On a loaded server every worker call of a beat waits behind the plays for the database
    thread (400 sockets: 8 heartbeat calls). Looks come on a fixed cadence, take the sessions
    due within two ticks, and check them before the heartbeat's calls, so no socket's window
    runs out before its session is checked again (it did in a benchmark: sessions checked
    along with the eighth heartbeat call came too late, and their plays checked them).

    On a virtual time line: each worker call takes 0.3 s of it, and 7 s of it go by."""
    from games.core import actions
    from games.core.state import liveness

    settings.BASRA_SESSION_RECHECK_SECONDS = 3.0
    clock = VirtualClock()

    def slow_sessions(pairs):
        clock.now += 0.3  # a worker call waiting behind plays
        return {key for key, _ in pairs}

    def slow_heartbeats(*, seated, tables, watching, now=None):
        clock.now += 0.3
        return {}

    monkeypatch.setattr(beats, "live_sessions", slow_sessions)
    monkeypatch.setattr(actions, "heartbeats", slow_heartbeats)
    monkeypatch.setattr(liveness, "HEARTBEAT_SECONDS", 1.0)
    monkeypatch.setattr(beats, "CHUNK", 3)
    ours = beats.TableBeats(clock=clock, sleep=clock.sleep)
    sockets = [SessionSocket(n, 3.0, clock) for n in range(9)]
    for socket in sockets:
        ours.add(socket)
    await eventually(lambda: clock.sleeping() == 1)
    await clock.advance(7.0)
    ours._task.cancel()
    assert all(s.checks >= 2 for s in sockets)
    assert [s.lapsed for s in sockets] == [0] * 9


@pytest.mark.asyncio
async def test_a_sockets_session_is_its_cookies_and_its_frames_go_out_unwrapped():
    """``SocketSessionMiddleware``: the cookie's session, read from its store only when used;
    the application sends with the server's own ``send`` (Channels' session middleware wrapped
    it, to look at the session on every frame)."""
    seen = {}

    async def inner(scope, receive, send):
        seen.update(scope=scope, send=send)

    async def server_send(message):
        pass

    middleware = fastpath.SocketSessionMiddleware(inner)
    await middleware({"type": "websocket", "cookies": {settings.SESSION_COOKIE_NAME: "k" * 32}},
                     None, server_send)
    session = seen["scope"]["session"]
    # The cookie's key, and nothing read from the store yet.
    assert session.session_key == "k" * 32 and not hasattr(session, "_session_cache")
    assert seen["send"] is server_send
    await middleware({"type": "websocket", "cookies": {}}, None, server_send)
    assert seen["scope"]["session"]._session_key is None
    with pytest.raises(ValueError):
        await middleware({"type": "websocket"}, None, server_send)
