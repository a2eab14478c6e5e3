"""Who a socket is: the handshake's session and user, and the checks that the session still
logs its user in (one socket at a time, or in batches for ``games.core.sockets.beats``); and
the receivers that tell a user's sockets when a session ended (a logout) or must be checked
again (a password changed), connected in ``GamesConfig.ready()``.

``AuthMiddlewareStack`` (cookies, session, user) is the sockets' own form of Channels', looking
the user up on the worker threads (``games.core.sockets.workers``); ``live_sessions`` decides,
for many sockets at once, what Django's ``auth.get_user`` decides for one request.
"""

from __future__ import annotations

from collections.abc import Collection
from importlib import import_module
from types import SimpleNamespace
from typing import Any

from channels.auth import AuthMiddleware
from channels.auth import get_user as channels_get_user
from channels.sessions import CookieMiddleware
from django.conf import settings
from django.contrib import auth
from django.contrib.auth.backends import ModelBackend
from django.contrib.sessions.backends.cached_db import SessionStore as CachedDbStore
from django.contrib.sessions.backends.db import SessionStore as DbStore
from django.core.cache import caches
from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.crypto import constant_time_compare
from django.utils.functional import LazyObject, empty

from games.core.sockets.workers import in_worker
from games.core.state import broadcast
from games.core.state.queries import user_row


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
    through a compiled query (``games.core.state.queries.user_row``): the ORM's compiling was the
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
    form of :func:`session_user_is`, for many sockets at once (``games.core.sockets.beats``).

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


def recheck_live_sockets(sender: Any, request: Any = None, user: Any = None, **kwargs: Any) -> None:
    """allauth's ``password_changed``, ``password_set`` and ``password_reset``: the user's other
    sessions end (Django checks each against the password hash), so every table socket of the
    user checks its session again before its next action (``docs/protocol.md`` "Sockets")."""
    if user is not None:
        broadcast.send_session_recheck(user.pk)


def end_live_sockets(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
    """``user_logged_out``: the table sockets opened with the session being logged out stop
    receiving their seat's views (``docs/protocol.md`` "Sockets": they become spectators' sockets).

    Django sends the signal before it flushes the session, so ``request.session`` still has the
    key the sockets were opened with. A logout of a request without a user or a session (an
    anonymous one) has no sockets to end.
    """
    key = getattr(getattr(request, "session", None), "session_key", None)
    if user is None or not key:
        return
    broadcast.send_session_ended(user.pk, key)
