"""The fast path (``games.core.fastpath``): every library internal it leans on still exists and
behaves as relied on, or the test fails naming the library and its installed version; and its
switch, ``BASRA_FAST_PATH``, switches each piece."""

from __future__ import annotations

import inspect
from importlib import import_module
from importlib.metadata import version

import channels.auth
import channels.consumer
import channels.sessions
import psycopg
import pytest
from django.conf import settings as django_settings
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import ImproperlyConfigured
from django.db import connection
from django.db.models.sql.compiler import SQLCompiler
from django.test.utils import CaptureQueriesContext
from django.utils.functional import LazyObject

from games.core import fastpath
from games.core.models import Event, Match, Seat
from games.core.sockets.base import JsonSocket
from games.core.sockets.workers import in_worker
from tests.core.helpers import play_turn, seated_match

on_postgresql = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="the play statement's cursor is PostgreSQL's"
)


def changed(library: str, what: str) -> str:
    """The failure message of an internal that no longer is as ``games.core.fastpath`` relies
    on: the library (its distribution name), its installed version, and what changed."""
    return (
        f"{library} {version(library)}: {what}. games/core/fastpath.py relies on it: adapt the "
        f"piece, or turn it off (BASRA_FAST_PATH) and drop it."
    )


def logged_in_session(user) -> str:
    """A session logging ``user`` in, as ``bench/live.py`` makes them; its key."""
    from django.contrib import auth

    store = import_module(django_settings.SESSION_ENGINE).SessionStore()
    store[auth.SESSION_KEY] = str(user.pk)
    store[auth.BACKEND_SESSION_KEY] = django_settings.AUTHENTICATION_BACKENDS[0]
    store[auth.HASH_SESSION_KEY] = user.get_session_auth_hash()
    store.create()
    return store.session_key


# --- the internals -------------------------------------------------------------------------


def test_psycopgs_convert_query_is_there():
    """``PreparedCursor`` overrides psycopg's ``Cursor._convert_query(query, params)`` and sets
    the ``_query`` it returns (Django's query log reads ``cursor._query``)."""
    method = getattr(psycopg.Cursor, "_convert_query", None)
    assert callable(method), changed("psycopg", "Cursor._convert_query is gone")
    parameters = list(inspect.signature(method).parameters)
    assert parameters[:3] == ["self", "query", "params"], changed(
        "psycopg", f"Cursor._convert_query takes {parameters}, not (self, query, params)"
    )


@on_postgresql
@pytest.mark.django_db
def test_the_prepared_cursor_prepares_and_logs_its_statement(settings):
    """Through ``play_cursor`` on the fast path: the statement is prepared on the connection
    (``pg_prepared_statements``) and logged with its text (``connection.queries``), as Django's
    cursor would log it; Django opens its connections with preparing off."""
    settings.BASRA_FAST_PATH = True
    assert connection.get_connection_params()["prepare_threshold"] is None, changed(
        "Django", "its psycopg connections no longer open with prepare_threshold=None"
    )
    for name in ("make_cursor", "make_debug_cursor", "queries_logged"):
        assert hasattr(connection, name), changed("Django", f"DatabaseWrapper.{name} is gone")
    statement = "SELECT %s::integer + 1 AS fast_path_probe"
    with CaptureQueriesContext(connection) as logged, fastpath.play_cursor() as cursor:
        assert isinstance(cursor.cursor, fastpath.PreparedCursor)
        cursor.execute(statement, [41])
        assert cursor.fetchone() == (42,)
    assert "fast_path_probe" in logged.captured_queries[-1]["sql"], changed(
        "psycopg", "the cursor's _query no longer carries the statement Django logs"
    )
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        prepared = [row[0] for row in cursor.fetchall()]
    assert any("fast_path_probe" in text for text in prepared), changed(
        "psycopg", "Cursor.execute(prepare=True) with a threshold set no longer prepares"
    )


def test_the_compilers_internals_are_there():
    """``Compiled`` reads ``SQLCompiler.select`` (``(column, _, _)`` triples, after
    ``as_sql``) and calls ``get_converters(columns)`` and ``apply_converters(rows,
    converters)``."""
    for name in ("get_converters", "apply_converters", "as_sql"):
        assert callable(getattr(SQLCompiler, name, None)), changed(
            "Django", f"SQLCompiler.{name} is gone"
        )
    assert list(inspect.signature(SQLCompiler.get_converters).parameters) == [
        "self", "expressions"
    ], changed("Django", "SQLCompiler.get_converters no longer takes (expressions)")
    assert list(inspect.signature(SQLCompiler.apply_converters).parameters) == [
        "self", "rows", "converters"
    ], changed("Django", "SQLCompiler.apply_converters no longer takes (rows, converters)")
    compiler = Match.objects.filter(pk=1).query.get_compiler(connection=connection)
    compiler.as_sql()
    assert compiler.select and all(len(item) == 3 for item in compiler.select), changed(
        "Django", "SQLCompiler.select is no longer (column, sql, alias) triples after as_sql"
    )


@pytest.mark.django_db
def test_a_compiled_query_gives_the_orms_rows(settings, make_player):
    """A whole-row query and a ``values_list`` with a JSON column, compiled (fast path on)
    and through the ORM (off): the same instances and values."""
    alice, bob = make_player("alice"), make_player("bob")
    match = seated_match([alice.user, bob.user], rules={"target": 61})
    play_turn(match)
    whole = fastpath.Compiled(lambda pk: Match.objects.filter(pk=pk))
    payloads = fastpath.Compiled(
        lambda pk: Event.objects.filter(match_id=pk).order_by("seq").values_list("kind", "payload")
    )

    def fields(row: Match) -> dict:
        return {f.attname: getattr(row, f.attname) for f in Match._meta.concrete_fields}

    read = {}
    for on in (True, False):
        settings.BASRA_FAST_PATH = on
        read[on] = ([fields(m) for m in whole.instances(match.pk)], payloads.rows(match.pk))
    assert read[True] == read[False], changed(
        "Django", "a query compiled once no longer gives the ORM's rows"
    )
    assert read[True][0][0]["rules"]["target"] == 61 and isinstance(read[True][1][-1][1], dict)


def test_channels_get_handler_name_is_there():
    """``dispatch`` finds a message's handler by ``channels.consumer.get_handler_name``."""
    name = getattr(channels.consumer, "get_handler_name", None)
    assert callable(name), changed("channels", "channels.consumer.get_handler_name is gone")
    assert name({"type": "websocket.receive"}) == "websocket_receive", changed(
        "channels", "get_handler_name no longer maps a.b to a_b"
    )
    with pytest.raises(ValueError):
        name({"type": "_private.thing"})


@pytest.mark.django_db
def test_channels_get_user_runs_synchronously_through_func(make_player):
    """``handshake_user`` calls Channels' ``get_user`` on a worker thread through its
    ``SyncToAsync`` wrapper's ``func``: the plain function, giving the session's user."""
    func = getattr(channels.auth.get_user, "func", None)
    assert callable(func) and not inspect.iscoroutinefunction(func), changed(
        "channels", "channels.auth.get_user.func is no longer the synchronous get_user"
    )
    user = make_player("alice").user
    store = import_module(django_settings.SESSION_ENGINE).SessionStore
    assert func({"session": store(session_key=logged_in_session(user))}).pk == user.pk, changed(
        "channels", "get_user.func(scope) no longer gives the session's user"
    )
    assert isinstance(func({"session": store()}), AnonymousUser)


class _Wire:
    """Stands in for daphne's websocket protocol (an autobahn one): records the close calls."""

    def __init__(self):
        self.calls = []

    def sendClose(self, code=None, reason=None):  # noqa: N802 - autobahn's name
        self.calls.append(("sendClose", code))

    def sendCloseFrame(self, code=None, reasonUtf8=None, isReply=False):  # noqa: N802, N803
        self.calls.append(("sendCloseFrame", code, isReply))


def test_daphne_refuses_1001_and_the_close_piece_lets_it_through(settings, monkeypatch):
    """``let_daphne_go_away`` wraps daphne's ``WebSocketProtocol.serverClose(code)``, which
    closes through autobahn's ``sendClose(code=…)``; that still refuses 1001 (else the piece is
    not needed), and its ``sendCloseFrame(code, reasonUtf8, isReply)`` is what sends the frame."""
    from autobahn.websocket.protocol import WebSocketProtocol as Autobahn
    from daphne.ws_protocol import WebSocketProtocol as Daphne

    parameters = list(inspect.signature(Autobahn.sendCloseFrame).parameters)
    assert parameters[:4] == ["self", "code", "reasonUtf8", "isReply"], changed(
        "autobahn", f"WebSocketProtocol.sendCloseFrame takes {parameters}"
    )
    refused = Autobahn.__new__(Autobahn)
    with pytest.raises(Exception, match="1001"):
        refused.sendClose(code=1001)
    assert list(inspect.signature(Daphne.serverClose).parameters) == ["self", "code"], changed(
        "daphne", "WebSocketProtocol.serverClose no longer takes (self, code)"
    )
    monkeypatch.setattr(Daphne, "serverClose", Daphne.serverClose)  # put back afterwards
    wire = _Wire()
    Daphne.serverClose(wire, 4404)
    assert wire.calls == [("sendClose", 4404)], changed(
        "daphne", "WebSocketProtocol.serverClose no longer closes through sendClose(code=…)"
    )
    settings.BASRA_FAST_PATH = frozenset({"cursor"})
    assert not fastpath.let_daphne_go_away()
    settings.BASRA_FAST_PATH = True
    assert fastpath.let_daphne_go_away() and fastpath.let_daphne_go_away()
    wire = _Wire()
    Daphne.serverClose(wire, 1001)
    Daphne.serverClose(wire, 4404)
    assert wire.calls == [("sendCloseFrame", 1001, False), ("sendClose", 4404)]


# --- the switch ----------------------------------------------------------------------------


def test_the_setting_names_pieces(settings):
    settings.BASRA_FAST_PATH = frozenset({"cursor"})
    assert fastpath.enabled("cursor") and not fastpath.enabled("dispatch")
    settings.BASRA_FAST_PATH = False
    assert not any(fastpath.enabled(piece) for piece in fastpath.PIECES)
    settings.BASRA_FAST_PATH = frozenset({"cursr"})
    with pytest.raises(ImproperlyConfigured, match="cursr"):
        fastpath.enabled("cursor")
    with pytest.raises(ValueError):
        fastpath.enabled("no-such-piece")


@on_postgresql
@pytest.mark.django_db
def test_off_the_play_cursor_is_djangos_own(settings):
    settings.BASRA_FAST_PATH = False
    with fastpath.play_cursor() as cursor:
        assert not isinstance(cursor.cursor, fastpath.PreparedCursor)
        assert isinstance(cursor.cursor, psycopg.ClientCursor)
        cursor.execute("SELECT %s::integer", [1])
        assert cursor.fetchone() == (1,)


@pytest.mark.django_db
def test_off_a_compiled_query_is_never_compiled(settings, monkeypatch, make_player):
    alice, bob = make_player("alice"), make_player("bob")
    match = seated_match([alice.user, bob.user])
    seats = fastpath.Compiled(
        lambda pk: Seat.objects.filter(match_id=pk).order_by("seat").values_list("seat")
    )

    def compiled(self, connection):
        raise AssertionError("compiled with the fast path off")

    settings.BASRA_FAST_PATH = False
    monkeypatch.setattr(fastpath.Compiled, "_compiled", compiled)
    assert seats.rows(match.pk) == [[0], [1]]
    settings.BASRA_FAST_PATH = True
    with pytest.raises(AssertionError, match="fast path off"):
        seats.rows(match.pk)


def test_off_the_sockets_middleware_is_channels_own():
    async def inner(scope, receive, send):
        pass

    stacks = fastpath.auth_middleware_stack(inner, in_worker)
    assert isinstance(stacks.public, channels.sessions.CookieMiddleware)
    assert isinstance(stacks.public.inner, channels.sessions.SessionMiddleware)
    assert isinstance(stacks.public.inner.inner, channels.auth.AuthMiddleware)
    assert isinstance(stacks.fast.inner, fastpath.SocketSessionMiddleware)
    assert isinstance(stacks.fast.inner.inner, fastpath.WorkerUserMiddleware)


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("on", [True, False])
async def test_the_handshakes_user(settings, make_player, on):
    """On: the scope holds the plain user (nothing to unwrap); off: Channels' lazy user, the
    same user once read; either chosen when the connection opens."""
    from channels.db import database_sync_to_async

    user = await database_sync_to_async(lambda: make_player("alice").user)()
    key = await database_sync_to_async(logged_in_session)(user)
    seen = {}

    async def inner(scope, receive, send):
        seen["user"] = scope["user"]
        seen["pk"] = await database_sync_to_async(lambda: scope["user"].pk)()

    # Built before the switch is set: each connection is given the stack the switch names as
    # it opens, as a test's settings override (tests/conftest.py, fast_path) relies on.
    stack = fastpath.auth_middleware_stack(inner, in_worker)
    settings.BASRA_FAST_PATH = on
    cookie = f"{django_settings.SESSION_COOKIE_NAME}={key}".encode()
    await stack({"type": "websocket", "headers": [(b"cookie", cookie)]}, None, None)
    assert seen["pk"] == user.pk
    assert isinstance(seen["user"], LazyObject) is (not on)


class _Probe(JsonSocket):
    async def probe_ping(self, message: dict) -> None:
        self.pinged = True


@pytest.mark.asyncio
@pytest.mark.parametrize("on", [True, False])
async def test_the_sockets_dispatch(settings, monkeypatch, on):
    """On: ``fastpath.dispatch``, no connection cleanup; off: Channels' ``dispatch``, which
    closes old connections first."""
    cleaned = []

    async def close_old_connections():
        cleaned.append(True)

    monkeypatch.setattr(channels.consumer, "aclose_old_connections", close_old_connections)
    settings.BASRA_FAST_PATH = on
    socket = _Probe()
    await socket.dispatch({"type": "probe.ping"})
    assert socket.pinged
    if on:
        assert cleaned == [], "the fast path's dispatch closed old connections"
    else:
        assert cleaned == [True], changed(
            "channels", "AsyncConsumer.dispatch no longer calls aclose_old_connections"
        )


@pytest.mark.live
def test_a_live_test_runs_once_with_every_piece_on_and_once_with_none(fast_path, request):
    """``tests/conftest.py`` runs each live-table test twice, ``[fast]`` and ``[public]``, and
    the second really runs on the public APIs alone."""
    assert request.node.callspec.params["fast_path"] is fast_path
    assert {piece: fastpath.enabled(piece) for piece in fastpath.PIECES} == dict.fromkeys(
        fastpath.PIECES, fast_path
    )
