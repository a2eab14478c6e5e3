"""The live core's fast path: every use the site makes of a library's private or undocumented
internals, each beside the plain public-API path taken when it is off (issue 20).

The switch is ``settings.BASRA_FAST_PATH`` (environment ``BASRA_FAST_PATH``): ``1``, the
default, turns every piece on; ``0`` turns the whole fast path off, and the site runs on the
libraries' public APIs only; a comma-separated list of :data:`PIECES` turns on those alone (to
measure one piece). Callers ask :func:`enabled` at the moment they choose (the sockets' middleware as each
connection opens, :class:`AuthStacks`), so a test's ``override_settings`` switches it too.

The pieces, what each leans on, and its public path:

``cursor``
    The play's compare-and-set statement (``games.core.actions.store``) on a psycopg cursor that
    binds server-side and prepares the statement on the connection (:func:`play_cursor`):
    a ``psycopg.Cursor`` subclass overriding psycopg's private ``_convert_query`` (and setting
    its ``_query``, for Django's query log); ``prepare_threshold`` changed on the psycopg
    connection Django opened (Django sets ``None``, preparing nothing); Django's undocumented
    ``make_cursor``, ``make_debug_cursor`` and ``queries_logged`` to wrap it as
    ``connection.cursor()`` would. Off: ``connection.cursor()``, Django's own client-side
    binding cursor, the same one statement.
``queries``
    The reads of a socket's opening and of a table's log, compiled once per connection
    (:class:`Compiled`): the ORM compiler's undocumented ``select``, ``get_converters`` and
    ``apply_converters``. Off: the ``QuerySet`` itself, compiled by the ORM on every run.
``auth``
    The handshake's user (:func:`auth_middleware_stack`): cookies, then
    :class:`SocketSessionMiddleware` in place of Channels' ``SessionMiddleware`` (whose wrapper
    looks at the session on every frame sent), then :class:`WorkerUserMiddleware`, which decides
    the user on the sockets' database threads (:func:`handshake_user`: Django's ``get_user``
    decided again, the user's row read by a :class:`Compiled` query, and Channels' ``get_user``
    called through its undocumented ``SyncToAsync.func`` for the uncommon cases) and puts the
    plain user object in the scope (public: a middleware of the site's own; nothing is
    unwrapped). Off: Channels' ``AuthMiddlewareStack``: its ``SessionMiddleware``, and its
    ``get_user`` on Channels' database thread; ``scope["user"]`` is then Channels'
    ``UserLazyObject``.
``dispatch``
    ``JsonSocket``'s handling of each message without Channels' ``close_old_connections`` hop
    to its one shared thread, before every message and after the disconnect (:func:`dispatch`,
    using ``channels.consumer.get_handler_name``, undocumented). Off: Channels' own
    ``dispatch`` and ``websocket_disconnect``.

``close``
    Not for speed: the 1001 "going away" of a graceful stop (``games.core.sockets.drain``)
    under daphne, which sends an application's ``websocket.close`` through autobahn's
    ``sendClose``, and that refuses every code but 1000 and 3000-4999 (daphne issue 374), though
    RFC 6455 (7.4.1) gives 1001 to a server going down. :func:`let_daphne_go_away` wraps daphne's
    undocumented ``WebSocketProtocol.serverClose`` so that a close with 1001 goes through
    autobahn's ``sendCloseFrame`` (which ``sendClose`` calls after its check, and daphne itself
    calls for its 1011), the close handshake otherwise the same. Installed once, by
    ``basra_site.asgi`` under daphne, so the setting is read when the server starts. Off: daphne
    refuses the 1001, and the socket closes with 1000 (``JsonSocket.server_going_away``): the
    pages then reconnect after their first backoff (0.25-0.5 s), not at once. No gain was
    measured: without it there is no 1001 under daphne at all.

Kept on either way, being public: the compare-and-set write itself (one statement), the
sockets' connection-keeping database threads (``games.core.sockets.workers``) and ``orjson``.

``tests/core/test_fastpath.py`` checks that every internal relied on here still exists and
behaves as relied on, and fails naming the library and its installed version when one does not;
it also checks that the switch switches. ``make test`` runs each live-table test twice, with the
fast path on and off (``tests/conftest.py``, ``fast_path``).

With the fast path off, Channels' ``get_user`` also flushes a session made under a key now in
``SECRET_KEY_FALLBACKS`` (Django's ``get_user`` accepts it; :func:`handshake_user` does): a key
rotation logs every socket out.

Measured (2026-12-02, ``bench/live.py --tables 200 --plays 20 --think 1.0 --relay``, one daphne
process, PostgreSQL and Redis, ``CONN_MAX_AGE=60``, on and off alternating in one session, each
run beside the bare relay; server CPU per play over the whole run, connects included, against
the relay's CPU per message; on a 2-core machine shared with other test suites), in the order run:

===========  ========  =======  =====  =============  =======  =====
load         on        relay    ratio  off            relay    ratio
===========  ========  =======  =====  =============  =======  =====
12 to 19     5.22 ms   2.45 ms  2.13x  7.33 ms (a)    2.39 ms  3.07x
2 to 3       4.71 ms   2.61 ms  1.80x  6.33 ms        2.70 ms  2.34x
1 to 2.5     3.86 ms   2.23 ms  1.73x  4.70 ms        2.57 ms  1.83x
===========  ========  =======  =====  =============  =======  =====

The fast path saves 18-26% of a play's server CPU at a quiet load (0.84-1.62 ms a play); the
play phase alone 3.10-3.59 ms on against 3.46-4.75 off, a socket's opening 5.95-9.28 ms of CPU
against 10.10-12.95. p99 102-893 ms on, 241-463 ms off (the p99 is what other load inflates).
With the fast path on, CPU per play is within 2x the relay's CPU per message at a quiet load.
(a) Under load 12-19 both sides lost handshakes to daphne's timeout (27 of 400 sockets off; a
later pair, 75 on and 198 off, is left out: too few plays to divide by); Channels' one shared
database thread, which the off path's handshakes and every message's
``close_old_connections`` queue behind, lost more. Each piece alone was not measured: it
is kept on the figures of the py-spy profiles in its docstring.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from importlib import import_module
from typing import Any

import psycopg
from channels.auth import AuthMiddlewareStack as ChannelsAuthMiddlewareStack
from channels.auth import get_user as channels_get_user
from channels.consumer import get_handler_name
from channels.sessions import CookieMiddleware
from django.conf import settings
from django.contrib import auth
from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.core.exceptions import ImproperlyConfigured, ValidationError
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import QuerySet

from games.core.logins import logs_in

#: The fast path's pieces (see the module).
PIECES = frozenset({"cursor", "queries", "auth", "dispatch", "close"})


def enabled(piece: str) -> bool:
    """Whether ``piece`` (one of :data:`PIECES`) of the fast path is on
    (``settings.BASRA_FAST_PATH``: ``True``, ``False`` or a set of pieces).

    :raises ImproperlyConfigured: the setting names a piece that does not exist.
    :raises ValueError: ``piece`` is not one of :data:`PIECES`.
    """
    if piece not in PIECES:
        raise ValueError(f"no fast-path piece {piece!r}")
    value = settings.BASRA_FAST_PATH
    if isinstance(value, bool):
        return value
    unknown = set(value) - PIECES
    if unknown:
        raise ImproperlyConfigured(
            f"BASRA_FAST_PATH names {sorted(unknown)}; the pieces are {sorted(PIECES)}"
        )
    return piece in value


# --- cursor ---------------------------------------------------------------------------------

#: The ``prepare_threshold`` set on Django's psycopg connections: no statement run through
#: another server-binding cursor reaches it, so only :class:`PreparedCursor`'s are prepared.
UNREACHED_THRESHOLD = 2**31 - 1


@contextmanager
def play_cursor() -> Iterator[Any]:
    """A cursor of the default connection (PostgreSQL) to run the play's statement on, Django's
    wrapper around it (errors, the query log) either way.

    On: a :class:`PreparedCursor` (parameters bound server-side by psycopg's C dumpers; the
    statement prepared once per connection). Off: ``connection.cursor()``.
    """
    # The thread's connection looked up once (each ``connection.`` is a lookup in a Local).
    db = connections[DEFAULT_DB_ALIAS]
    if not enabled("cursor"):
        with db.cursor() as cursor:
            yield cursor
        return
    db.ensure_connection()
    if db.connection.prepare_threshold is None:
        # Django turns psycopg's preparing off (``prepare_threshold=None``), which also makes
        # psycopg ignore ``prepare=True``. Django's own cursors bind client-side and never
        # prepare whatever the threshold.
        db.connection.prepare_threshold = UNREACHED_THRESHOLD
    raw = PreparedCursor(db.connection)
    with (db.make_debug_cursor(raw) if db.queries_logged else db.make_cursor(raw)) as cursor:
        yield cursor


class PreparedCursor(psycopg.Cursor):
    """A psycopg cursor with server-side binding whose statements are prepared on the connection.

    Django's cursors bind client-side (the parameters quoted into the SQL text in Python) and
    never prepare. The play statement runs on every play with about twenty parameters: quoting
    them was about 4% of a play's server CPU (py-spy, bench/live.py), and PostgreSQL parsed and
    planned it each time. psycopg keys prepared statements by text and parameter types
    ("Prepared statements", psycopg 3 docs). Connections are Django's own (direct, or Django's
    pool): no transaction-pooling proxy is in between, which would not keep a prepared
    statement.
    """

    def execute(self, query: Any, params: Any = None, *, prepare: bool | None = None,
                binary: bool | None = None) -> Any:
        return super().execute(query, params, prepare=True, binary=binary)

    def _convert_query(self, query: Any, params: Any = None) -> Any:
        # Kept, as a client-side cursor keeps it, for Django's query log (``connection.queries``,
        # ``last_executed_query``): the statement's text, with ``$n`` placeholders.
        self._query = super()._convert_query(query, params)
        return self._query


# --- queries --------------------------------------------------------------------------------

#: Parameter values that mark where the caller's values go in a compiled statement: integers
#: no constant of these queries equals, within every integer field's range (Django compiles a
#: comparison with a value out of its field's range away, parameter and all).
MARKERS = (2_147_301_941, 2_147_301_942, 2_147_301_943)


class Compiled:
    """A read-only query, ``build(*values)``, compiled once per database connection on the fast
    path (connections are per thread), built and run by the ORM each time off it.

    Django compiles a ``QuerySet`` into SQL each time it runs; for the reads a socket makes on
    opening the compiling cost more than the query: ``Match.objects.get`` took 0.49 ms of CPU,
    the same statement run by hand 0.16 ms, the round trip included (PostgreSQL, a
    micro-benchmark); a burst of 400 sockets opening read each twice. Compiled, the query is
    ``build(*MARKERS)``'s SQL with the caller's values in the markers' places, its rows
    converted by the compiler's converters, as the ORM's would be
    (``tests/core/state/test_queries.py`` compares them on SQLite and PostgreSQL).

    :param build: returns the ``QuerySet`` (plain columns or ``values_list``, no
        ``select_related``/``prefetch_related``) for ``count`` values (integers); each must
        reach the SQL as one parameter.
    :param count: how many values it is run with (at most ``len(MARKERS)``).
    """

    def __init__(self, build: Callable[..., QuerySet], count: int = 1) -> None:
        self._build = build
        self._count = count
        self._local = threading.local()

    def _compiled(self, connection: Any) -> tuple:
        kept = getattr(self._local, "kept", None)
        if kept is not None and kept[0] is connection:
            return kept[1]
        markers = MARKERS[: self._count]
        queryset = self._build(*markers)
        compiler = queryset.query.get_compiler(connection=connection)
        sql, params = compiler.as_sql()
        params = list(params)
        if any(params.count(marker) != 1 for marker in markers):
            raise ValueError("each marker must reach the SQL once")
        places = [params.index(marker) for marker in markers]
        columns = [column for column, _, _ in compiler.select]
        converters = compiler.get_converters(columns)
        names = [getattr(getattr(c, "target", None), "attname", None) for c in columns]
        compiled = (sql, params, places, compiler, converters, names, queryset.model)
        self._local.kept = (connection, compiled)
        return compiled

    def rows(self, *values: Any) -> list[list[Any]]:
        """The rows for ``values`` (a ``values_list`` query), each a list of column values
        converted as the ORM converts them (JSON decoded, dates, …)."""
        if not enabled("queries"):
            return [list(row) for row in self._build(*values)]
        connection = connections[DEFAULT_DB_ALIAS]
        sql, params, places, compiler, converters, _, _ = self._compiled(connection)
        params = list(params)
        for place, value in zip(places, values):
            params[place] = value
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            rows = cursor.fetchall()
        if converters:
            return [list(row) for row in compiler.apply_converters(rows, converters)]
        return [list(row) for row in rows]

    def instances(self, *values: Any) -> list[Any]:
        """The model instances for ``values`` (a query of whole rows), as the ORM builds them
        (``Model.from_db``)."""
        if not enabled("queries"):
            return list(self._build(*values))
        names, model = self._compiled(connections[DEFAULT_DB_ALIAS])[5:]
        return [model.from_db(DEFAULT_DB_ALIAS, names, row) for row in self.rows(*values)]


_user_row = Compiled(lambda pk: get_user_model()._default_manager.filter(pk=pk))


def user_row(user_id: Any) -> Any:
    """The user ``user_id`` as ``ModelBackend.get_user`` reads it (``_default_manager``), or
    ``None`` (:class:`Compiled`)."""
    found = _user_row.instances(user_id)
    return found[0] if found else None


# --- auth -----------------------------------------------------------------------------------


def handshake_user(scope: dict) -> Any:
    """The user a websocket handshake's session logs in (``scope["session"]``, loaded here):
    Channels' ``get_user`` (Django's ``auth.get_user`` for sockets), with the user's row read by
    :func:`user_row`: the ORM's compiling was the largest part of a socket's opening (py-spy,
    bench/live.py). Sync: run on the sockets' database threads.

    The common case is decided here, as Django decides it: the session names its user and one
    of ``AUTHENTICATION_BACKENDS``, a backend whose ``get_user`` is ``ModelBackend``'s; that
    backend lets the user in and the session's hash is the user's under ``SECRET_KEY`` or, as
    Django's ``get_user`` accepts it, one of ``SECRET_KEY_FALLBACKS``
    (``games.core.logins.logs_in``; Channels' own ``get_user`` flushes such a session: a key
    rotation would log every socket out). Django then moves the session to a new key; a socket
    cannot hand its browser a new cookie, so the session is left as it is and the next page does
    that. Anything else (no user, a wrong hash, which is flushed, another kind of backend) is
    left to Channels' ``get_user`` itself, called synchronously (``.func``).

    :returns: the user, or ``AnonymousUser``.
    """
    session = scope["session"]
    model = auth.get_user_model()
    try:
        user_id = model._meta.pk.to_python(session[auth.SESSION_KEY])
        backend_path = session[auth.BACKEND_SESSION_KEY]
    except (KeyError, ValidationError):
        return channels_get_user.func(scope)
    if backend_path in settings.AUTHENTICATION_BACKENDS:
        backend = auth.load_backend(backend_path)
        if type(backend).get_user is ModelBackend.get_user:
            user = user_row(user_id)
            if user is not None and logs_in(session, user, backend):
                return user
    return channels_get_user.func(scope)


class WorkerUserMiddleware:
    """``scope["user"]``: the handshake's user, decided by ``lookup(scope)`` (a coroutine
    function: :func:`handshake_user` on the sockets' database threads), a plain user object
    (no lazy proxy: the sockets read their user on every message, and each read through
    Channels' ``UserLazyObject`` cost about 2% of a play's server CPU; py-spy, bench/live.py).

    Channels does the lookup (the session row, then the user row) on its one shared database
    thread, opening and closing a connection each time, so a burst of sockets (800 within a
    second, ``shared/bench/BENCH.md``) queues there past daphne's handshake timeout. A user
    already in the scope is kept (as Channels' ``AuthMiddleware`` keeps it).
    """

    def __init__(self, inner: Any, lookup: Callable[[dict], Any]) -> None:
        self.inner = inner
        self.lookup = lookup

    async def __call__(self, scope: dict, receive: Any, send: Any) -> Any:
        if "user" not in scope:
            scope = dict(scope, user=await self.lookup(scope))
        return await self.inner(scope, receive, send)


class SocketSessionMiddleware:
    """Channels' ``SessionMiddleware`` for websockets: ``scope["session"]``, the Django
    ``SessionStore`` of the handshake's session cookie (it reads its store when first used).

    Channels' own also wraps every message sent, to save a changed session when an HTTP
    response starts; a websocket sends none, so on a socket the wrapper only looked at the
    session on every frame sent, about 1.5% of a play's server CPU (py-spy, bench/live.py).
    Sockets never save their session (a logout happens in a page's request).

    :raises ValueError: no cookies in the scope (``CookieMiddleware`` must come first).
    """

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    async def __call__(self, scope: dict, receive: Any, send: Any) -> Any:
        if "session" in scope:
            return await self.inner(scope, receive, send)
        if "cookies" not in scope:
            raise ValueError("No cookies in scope: SocketSessionMiddleware needs CookieMiddleware.")
        store = import_module(settings.SESSION_ENGINE).SessionStore
        key = scope["cookies"].get(settings.SESSION_COOKIE_NAME)
        return await self.inner(dict(scope, session=store(key)), receive, send)


class AuthStacks:
    """The sockets' cookies, session and user around ``inner`` (an ASGI application), chosen
    for each connection as it opens (:func:`enabled` ``("auth")`` then), as the other pieces
    choose when they run.

    ``fast``: ``CookieMiddleware``, :class:`SocketSessionMiddleware`,
    :class:`WorkerUserMiddleware` deciding :func:`handshake_user` through ``worker`` (which makes
    a sync function a coroutine function run on the sockets' database threads). ``public``:
    Channels' ``AuthMiddlewareStack``.
    """

    def __init__(self, inner: Any, worker: Callable[[Callable], Callable]) -> None:
        users = WorkerUserMiddleware(inner, worker(handshake_user))
        self.fast = CookieMiddleware(SocketSessionMiddleware(users))
        self.public = ChannelsAuthMiddlewareStack(inner)

    async def __call__(self, scope: dict, receive: Any, send: Any) -> Any:
        stack = self.fast if enabled("auth") else self.public
        return await stack(scope, receive, send)


def auth_middleware_stack(inner: Any, worker: Callable[[Callable], Callable]) -> AuthStacks:
    """The sockets' middleware around ``inner``: :class:`AuthStacks`."""
    return AuthStacks(inner, worker)


# --- dispatch -------------------------------------------------------------------------------


async def dispatch(consumer: Any, message: dict) -> None:
    """Call ``consumer``'s handler of ``message["type"]``: Channels' ``dispatch`` without its
    ``close_old_connections`` on Channels' shared thread (the sockets touch the database only on
    their own threads, which keep their connections, so that hop closed nothing and queued every
    socket's messages behind one thread).

    :raises ValueError: no handler for the type, or a malformed type (as Channels does).
    """
    handler = getattr(consumer, get_handler_name(message), None)
    if handler is None:
        raise ValueError(f"No handler for message type {message['type']}")
    await handler(message)


# --- close ----------------------------------------------------------------------------------

#: The close code :func:`let_daphne_go_away` lets through daphne: "going away" (RFC 6455 7.4.1).
GOING_AWAY = 1001


def let_daphne_go_away() -> bool:
    """Under daphne, with the ``close`` piece on: let an application close a websocket with
    :data:`GOING_AWAY` (see the module), by wrapping ``daphne.ws_protocol.WebSocketProtocol``'s
    ``serverClose(code)``: that code goes to autobahn's ``sendCloseFrame(code=…,
    isReply=False)``, every other as before. Idempotent; whether it is (now) installed.
    """
    if not enabled("close"):
        return False
    from daphne.ws_protocol import WebSocketProtocol

    server_close = WebSocketProtocol.serverClose
    if getattr(server_close, "lets_going_away", False):
        return True

    def serverClose(protocol: Any, code: int | None = None) -> None:  # noqa: N802 - daphne's name
        if code == GOING_AWAY:
            protocol.sendCloseFrame(code=code, isReply=False)
        else:
            server_close(protocol, code)

    serverClose.lets_going_away = True  # type: ignore[attr-defined]
    WebSocketProtocol.serverClose = serverClose
    return True
