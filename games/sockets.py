"""The websocket base every socket of the site is built on, and what sockets share.

``JsonSocket``: JSON frames, a per-socket rate limit (``BASRA_SOCKET_BURST``/``RATE``), frames of
a closed socket dropped, a send to a gone client turned into its own disconnect. ``ServerBeat``:
the process's "a server is up" beat the clock reads. The session checks and the socket's
language. The lobby and table consumers (``games.consumers``) and any later socket (a player's
site-wide notices) subclass ``JsonSocket``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable, Collection
from importlib import import_module
from types import SimpleNamespace
from typing import Any

from channels.auth import AuthMiddleware
from channels.auth import get_user as channels_get_user
from channels.consumer import get_handler_name
from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.sessions import CookieMiddleware
from django.conf import settings
from django.contrib import auth
from django.contrib.auth.backends import ModelBackend
from django.contrib.sessions.backends.cached_db import SessionStore as CachedDbStore
from django.contrib.sessions.backends.db import SessionStore as DbStore
from django.core.cache import caches
from django.core.exceptions import ValidationError
from django.http import HttpRequest
from django.utils import timezone, translation
from django.utils.crypto import constant_time_compare
from django.utils.functional import LazyObject, empty

from basra_site.websocket import SEND_ON_CLOSED
from games import broadcast, errors, liveness
from games.queries import user_row
from games.workers import in_worker

logger = logging.getLogger(__name__)

#: The code of the ``websocket.disconnect`` a socket gives itself when a send finds its client
#: gone (RFC 6455 7.4.1: 1006, closed without a close frame).
CLOSE_ABNORMAL = 1006

def scope_language(scope: dict) -> str:
    """The language a socket's messages are written in: the language cookie, else Accept-Language.

    The same choice ``LocaleMiddleware`` makes for a page (Django's
    ``get_language_from_request``), from the handshake's cookies and headers.
    """
    request = HttpRequest()
    request.COOKIES = dict(scope.get("cookies") or {})
    for name, value in scope.get("headers") or ():
        if name.lower() == b"accept-language":
            request.META["HTTP_ACCEPT_LANGUAGE"] = value.decode("latin-1")
    return translation.get_language_from_request(request)


def scope_user(scope: dict) -> Any:
    """The handshake's user (``scope["user"]``, Channels' ``UserLazyObject``), unwrapped once it
    is resolved (``WorkerAuthMiddleware`` resolves it before the consumer runs).

    The sockets read their user on every message (its id, whether it is logged in): through the
    lazy proxy each read went through ``LazyObject.__getattribute__``, about 2% of a play's
    server CPU (py-spy, bench/live.py). An unresolved proxy is returned as it is; ``None``
    without a user.
    """
    user = scope.get("user")
    if isinstance(user, LazyObject):
        wrapped = user._wrapped
        if wrapped is not empty:
            return wrapped
    return user


class SessionEnded(Exception):
    """The session a table socket was opened with no longer exists (it was logged out)."""


def session_exists(scope: dict) -> bool:
    """Whether the socket's session is still in its store (one read; a logout deletes it)."""
    key = getattr(scope.get("session"), "session_key", None)
    return bool(key) and import_module(settings.SESSION_ENGINE).SessionStore().exists(key)


def session_user_is(scope: dict, user: Any) -> bool:
    """Whether the socket's session still belongs to ``user`` (it was not logged out since).

    The session is read afresh from its store: ``scope["session"]`` is the copy loaded at the
    handshake and would not see a logout in another tab.
    """
    session = scope.get("session")
    key = getattr(session, "session_key", None)
    if not key:
        return False
    store = import_module(settings.SESSION_ENGINE).SessionStore(session_key=key)
    current = auth.get_user(SimpleNamespace(session=store))
    return current.is_authenticated and current.pk == user.pk


def handshake_user(scope: dict) -> Any:
    """The user a websocket handshake's session logs in (``scope["session"]``, loaded here):
    Channels' ``get_user`` (Django's ``auth.get_user`` for sockets), with the user's row read
    through a compiled query (``games.queries.user_row``): the ORM's compiling was the
    largest part of a socket's opening (py-spy, bench/live.py).

    The common case is decided here, as Django decides it: the session names its user and one
    of ``AUTHENTICATION_BACKENDS``, a backend whose ``get_user`` is ``ModelBackend``'s; that
    backend lets the user in (``user_can_authenticate``); the session's hash is the user's
    under the current ``SECRET_KEY`` or, as Django's ``get_user`` and :func:`live_sessions`
    accept it, one of ``SECRET_KEY_FALLBACKS`` (Channels' own ``get_user`` flushes such a
    session: a key rotation would log every socket out). Django then moves the session to a
    new key; a socket cannot hand its browser a new cookie, so the session is left as it is
    and the next page does that. Anything else (no user, a wrong hash, which is flushed,
    another kind of backend) is left to Channels' ``get_user`` itself.

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
            if user is not None and _logs_in(session, user, backend):
                return user
    return channels_get_user.func(scope)


def _logs_in(session: Any, user: Any, backend: ModelBackend) -> bool:
    """Whether ``session`` (its data) still logs ``user`` in through ``backend``, as Django's
    ``get_user`` decides it: the backend lets the user in, and the session's hash is the user's
    under ``SECRET_KEY`` or one of ``SECRET_KEY_FALLBACKS``."""
    if not backend.user_can_authenticate(user):
        return False
    given = session.get(auth.HASH_SESSION_KEY)
    return bool(given) and any(
        constant_time_compare(given, expected)
        for expected in (user.get_session_auth_hash(), *user.get_session_auth_fallback_hash())
    )


def _sessions_data(keys: Collection[str]) -> dict[str, dict]:
    """The data of those of the sessions ``keys`` still in their store (not ended, not expired):
    ``{key: data}``.

    With the database-backed stores (``db``, ``cached_db``) in one cache read (``get_many``) and
    one query for the rest; any other store one session at a time (its ``exists`` and ``load``).
    """
    store = import_module(settings.SESSION_ENGINE).SessionStore
    data: dict[str, dict] = {}
    if issubclass(store, CachedDbStore):
        prefix = store.cache_key_prefix
        found = caches[settings.SESSION_CACHE_ALIAS].get_many([prefix + k for k in keys])
        data = {k: found[prefix + k] for k in keys if found.get(prefix + k) is not None}
    missing = [k for k in keys if k not in data]
    if missing and issubclass(store, DbStore):
        rows = store.get_model_class().objects.filter(
            session_key__in=missing, expire_date__gt=timezone.now()
        )
        decoder = store()
        data.update({key: decoder.decode(raw) for key, raw in rows.values_list(
            "session_key", "session_data"
        )})
    elif missing:
        for key in missing:
            one = store(session_key=key)
            if one.exists(key):
                data[key] = one.load()
    return data


def live_sessions(pairs: Collection[tuple[str, int]]) -> set[str]:
    """Which of the sessions ``(session key, user id)`` still log that user in: the batched
    form of :func:`session_user_is`, for many sockets at once (``games.table_beats``).

    Django's ``django.contrib.auth.get_user`` decides it one session at a time (the session,
    then the user's row); here, as it does, for each session: it is still in its store (not
    logged out, not expired), names this user and one of ``AUTHENTICATION_BACKENDS``, the
    backend lets the user in (``ModelBackend.user_can_authenticate``: an active user), and its
    ``HASH_SESSION_KEY`` is the user's session hash (the password unchanged) under the current
    ``SECRET_KEY`` or one of its fallbacks. The sessions' data in one cache read and one query
    (:func:`_sessions_data`), the users in one query. A backend that is not a ``ModelBackend``
    is asked one session at a time through :func:`session_user_is` itself.

    :returns: the keys of the sessions that pass.
    """
    pairs = list(pairs)
    data = _sessions_data({key for key, _ in pairs})
    model = auth.get_user_model()
    users = model._default_manager.in_bulk(
        {user_id for key, user_id in pairs if key in data}
    )
    alive = set()
    for key, user_id in pairs:
        session, user = data.get(key), users.get(user_id)
        if session is None or user is None:
            continue
        try:
            named = model._meta.pk.to_python(session[auth.SESSION_KEY])
            backend_path = session[auth.BACKEND_SESSION_KEY]
        except (KeyError, ValueError, TypeError):
            continue
        if named != user_id or backend_path not in settings.AUTHENTICATION_BACKENDS:
            continue
        backend = auth.load_backend(backend_path)
        if not isinstance(backend, ModelBackend):
            if session_user_is({"session": SimpleNamespace(session_key=key)}, user):
                alive.add(key)
            continue
        if _logs_in(session, user, backend):
            alive.add(key)
    return alive


def rate_clock() -> float:
    """The time a socket's rate limit is measured on (seconds): the running event loop's. Tests
    put a virtual clock here, so that tokens come back when the test moves time on, and a burst
    stays a burst however slow the machine."""
    return asyncio.get_running_loop().time()


class TokenBucket:
    """A socket's rate limit: ``burst`` frames at once, then ``rate`` a second (a token bucket:
    it holds up to ``burst`` tokens, gains ``rate`` a second, and a frame takes one).

    aiolimiter's ``AsyncLimiter`` meters the same way, but reads the loop's time itself (a test
    cannot move it without its private ``_leak``) and is built to make callers wait on the
    loop's timers, which a socket never does: a frame over the limit is dropped, not delayed.
    """

    __slots__ = ("burst", "rate", "_tokens", "_at")

    def __init__(self, burst: int, rate: float) -> None:
        self.burst, self.rate = float(burst), float(rate)
        self._tokens = self.burst
        self._at: float | None = None

    def take(self, now: float) -> bool:
        """Take a token at ``now`` (seconds, :func:`rate_clock`): ``True`` if there was one."""
        if self._at is not None:
            self._tokens = min(self.burst, self._tokens + max(0.0, now - self._at) * self.rate)
        self._at = now
        if self._tokens >= 1:
            self._tokens -= 1
            return True
        return False


#: Seconds between two ``WebTick`` writes of a running server process; well under
#: ``BASRA_CLOCK_OUTAGE_SECONDS`` (default 5), after which the clock takes the servers for down.
WEB_BEAT_SECONDS = 1.0


class ServerBeat:
    """Tells the clock that this server process is up, from its start for as long as it runs.

    One task per process (per event loop) writes ``WebTick`` every :data:`WEB_BEAT_SECONDS`
    (``liveness.web_seen``). :meth:`start` begins it when the server starts (daphne: once its
    reactor runs; an ASGI server: the lifespan startup; both ``basra_site.asgi``), whether or not
    any socket is open, so the clock tells "no server is running" (no beat: it stands still and
    gives the time back later) from "servers run, nobody is connected" (it goes on: a player
    who closed the tab is marked absent). A process where nothing called :meth:`start` (an ASGI
    server without lifespan events, the tests' communicators) beats at least while it has open
    sockets (:meth:`opened` to :meth:`closed`).

    ``sleep``: how the task waits ``WEB_BEAT_SECONDS`` between two beats (``asyncio.sleep``;
    tests give a virtual one, so that a beat comes when the test moves time on).
    """

    def __init__(self, *, sleep: Callable[[float], Awaitable[None]] = asyncio.sleep) -> None:
        self.sockets = 0
        self.task: asyncio.Task | None = None
        #: Beating from the server's start until :meth:`stop`, not only while sockets are open.
        self.lifelong = False
        self.sleep = sleep

    def _ensure(self) -> None:
        loop = asyncio.get_running_loop()
        if self.task is None or self.task.get_loop() is not loop or self.task.done():
            # Also a new event loop (each test has its own): the old state belonged to the old.
            self.sockets = 0
            self.lifelong = False
            self.task = loop.create_task(self._beat())

    def start(self) -> None:
        """The server process started: beat until :meth:`stop` (call on its event loop)."""
        self._ensure()
        self.lifelong = True

    async def stop(self) -> None:
        """The server process stops: no more beats."""
        task, self.task = self.task, None
        self.lifelong = False
        self.sockets = 0
        if task is not None and task.get_loop() is asyncio.get_running_loop():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    def opened(self) -> None:
        """A socket opened in this process (call on the event loop)."""
        self._ensure()
        self.sockets += 1

    async def closed(self) -> None:
        """A socket opened with :meth:`opened` closed; without :meth:`start`, the last one stops
        the beats."""
        self.sockets -= 1
        task = self.task
        if (
            self.sockets <= 0
            and not self.lifelong
            and task is not None
            and task.get_loop() is asyncio.get_running_loop()
        ):
            self.task = None
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def _beat(self) -> None:
        while True:
            try:
                await in_worker(liveness.web_seen)()
            except Exception:  # noqa: BLE001 - a database hiccup must not stop the beats
                logger.exception("server beat failed")
            await self.sleep(WEB_BEAT_SECONDS)


#: The one of this process.
server_beat = ServerBeat()


class JsonSocket(AsyncWebsocketConsumer):
    """Frames in and out as JSON objects; malformed frames get a ``bad_json`` error.

    Channels' consumers call ``close_old_connections`` on its one shared sync thread before every
    message they handle (each frame and each group message) and after a disconnect. These
    consumers touch the database only through ``games.workers``, whose threads look after their
    own connections (``in_worker``), so that hop would close nothing and only queue every socket's
    messages behind one thread: :meth:`dispatch` and :meth:`websocket_disconnect` leave it out.

    A socket takes the messages its server queues for it as they arrive (:meth:`__call__`), and
    handles them in order. So it knows at once when its client has gone: ``gone`` is set, the
    frames still waiting behind the one being handled are dropped unread, and so is the tables'
    news; the socket's own sends are then dropped too. A send that finds the client gone
    (:data:`basra_site.websocket.SEND_ON_CLOSED`, raised by the server before it queues the
    disconnect) counts the same: the socket queues itself a ``websocket.disconnect``
    (:data:`CLOSE_ABNORMAL`), so every ending goes through :meth:`websocket_disconnect`, once.

    Frames are also counted against a rate limit as they arrive (:meth:`_admit`).
    """

    #: The client has gone (or a send found it gone); see the class.
    gone = False
    #: The server is closing the socket (``_close``): nothing more is sent on it.
    closing = False

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        """Run the consumer (Channels' ``__call__``) over :meth:`_read`'s queue and a ``send``
        that takes a gone client for a disconnect (ASGI: ``scope``, ``receive``, ``send``)."""
        self.inbox: asyncio.Queue[dict] = asyncio.Queue()
        burst = settings.BASRA_SOCKET_BURST
        self.limiter = TokenBucket(burst, settings.BASRA_SOCKET_RATE)
        self.refused_told_at: float | None = None
        reader = asyncio.ensure_future(self._read(receive))

        async def send_unless_gone(message: dict) -> None:
            if self.gone:
                return
            try:
                await send(message)
            except SEND_ON_CLOSED:
                self._lost()

        try:
            await super().__call__(scope, self.inbox.get, send_unless_gone)
        finally:
            reader.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await reader

    async def _read(self, receive: Any) -> None:
        """Move the server's messages to ``inbox`` as they come, up to the disconnect."""
        while True:
            message = await receive()
            kind = message.get("type")
            if kind == "websocket.disconnect":
                self.gone = True
                self.inbox.put_nowait(message)
                return
            if kind == "websocket.receive":
                message = await self._admit(message)
                if message is None:
                    continue
            self.inbox.put_nowait(message)

    async def _admit(self, frame: dict) -> dict | None:
        """The frame itself if the socket's rate limit lets it through, else a
        ``socket.refused`` note (answered with ``rate_limited``), or nothing.

        A token bucket (:class:`TokenBucket`): a burst of
        ``settings.BASRA_SOCKET_BURST`` frames (default 8), then ``BASRA_SOCKET_RATE`` a second
        (default 4). Sized for the fastest person: the table page sends one ``play`` per state
        it receives (it locks the hand until the answer), a ``sync`` after an error, a gap or
        its opening, a claim or a resign; states come at most every 0.6 s (a computer's shortest
        delay, ``BASRA_BOT_DELAY_SECONDS``), so the page stays under 2 frames a second. A double
        click from a page without that lock, or a second tab, adds a frame or two at once: a
        burst of 8 covers that several times over, and 4 a second is twice the fastest page.
        A refused frame is dropped unread, so a flood costs the server neither parsing nor
        database work. One ``rate_limited`` at most is sent per refill interval (``1 / RATE``
        s): the page answers an error with a ``sync``, which would be refused and answered
        again, round after round.
        """
        now = rate_clock()
        if self.limiter.take(now):
            return frame
        if self.refused_told_at is not None and (
            now - self.refused_told_at < 1 / settings.BASRA_SOCKET_RATE
        ):
            return None
        self.refused_told_at = now
        return {"type": "socket.refused"}

    def _lost(self) -> None:
        """A send found the client gone: handle it as the disconnect the server will send."""
        if not self.gone:
            self.gone = True
            self.inbox.put_nowait({"type": "websocket.disconnect", "code": CLOSE_ABNORMAL})

    async def dispatch(self, message: dict) -> None:
        """Call the handler of ``message["type"]`` (Channels' ``dispatch`` without the
        connection cleanup; see the class). Once the client is gone, only the connect (which
        sets the socket up) and the disconnect (which takes it down) are handled.

        :raises ValueError: no handler for the type (as Channels does).
        """
        if self.gone and message["type"] not in ("websocket.connect", "websocket.disconnect"):
            return
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def websocket_disconnect(self, message: dict) -> None:
        """The socket closed: :meth:`disconnect`, then stop (the groups are left there)."""
        self.gone = True
        try:
            await self.disconnect(message["code"])
        finally:
            if getattr(self, "beating", False):
                self.beating = False
                await server_beat.closed()
        raise StopConsumer()

    async def socket_refused(self, message: dict) -> None:
        """A frame over the rate limit was dropped (:meth:`_admit`)."""
        await self.send_error("rate_limited")

    async def connect(self) -> None:
        self.language = scope_language(self.scope)
        self.beating = True
        server_beat.opened()
        await self.accept()

    async def send_json(self, content: dict) -> None:
        """Send one JSON text frame."""
        await self.send(text_data=broadcast.frame_text(content))

    async def send_error(self, code: str, message: str | None = None) -> None:
        """Send ``{"type": "error", "code", "message"}``; ``message`` defaults to the code's text
        (``games.errors``) in the socket's language."""
        if message is None:
            with translation.override(self.language):
                message = errors.message(code)
        await self.send_json({"type": "error", "code": code, "message": message})

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        try:
            message = json.loads(text_data if text_data is not None else bytes_data)
        except (TypeError, ValueError, UnicodeDecodeError, RecursionError):
            # RecursionError: a forged frame nested thousands deep must not kill the socket.
            message = None
        if not isinstance(message, dict):
            await self.send_error("bad_json")
            return
        await self.receive_message(message)

    async def receive_message(self, message: dict) -> None:
        """Handle one parsed frame (a JSON object)."""
        raise NotImplementedError


class WorkerAuthMiddleware(AuthMiddleware):
    """Channels' ``AuthMiddleware``, looking the session's user up on the worker threads.

    Channels does the lookup (the session row, then the user row) on its one shared database
    thread, opening and closing a connection each time, so a burst of sockets (800 within a
    second, ``shared/bench/BENCH.md``) queues there past daphne's handshake timeout. Here the
    same decision runs on the worker threads, which keep their connections
    (:func:`handshake_user`).
    """

    async def resolve_scope(self, scope: dict) -> None:
        scope["user"]._wrapped = await in_worker(handshake_user)(scope)


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


def AuthMiddlewareStack(inner: Any) -> Any:  # noqa: N802 - named like Channels' own
    """Channels' ``AuthMiddlewareStack`` (cookies, session, user) for websockets:
    :class:`SocketSessionMiddleware` and :class:`WorkerAuthMiddleware`."""
    return CookieMiddleware(SocketSessionMiddleware(WorkerAuthMiddleware(inner)))
