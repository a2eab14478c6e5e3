"""Who a socket is: the handshake's session and user, and the checks that the session still
logs its user in (one socket at a time, or in batches for ``games.core.sockets.beats``); and
the receivers that tell a user's sockets when a session ended (a logout) or must be checked
again (a password changed), connected in ``GamesConfig.ready()``.

``AuthMiddlewareStack`` (cookies, session, user) is ``games.core.fastpath``'s: on the fast
path the sockets' own, looking the user up on the worker threads (``games.core.sockets.workers``),
off it Channels' own; ``live_sessions`` decides, for many sockets at once, what Django's
``auth.get_user`` decides for one request.
"""

from __future__ import annotations

from collections.abc import Collection
from importlib import import_module
from types import SimpleNamespace
from typing import Any

from django.conf import settings
from django.contrib import auth
from django.contrib.auth.backends import ModelBackend
from django.contrib.sessions.backends.cached_db import SessionStore as CachedDbStore
from django.contrib.sessions.backends.db import SessionStore as DbStore
from django.core.cache import caches
from django.utils import timezone

from games.core import fastpath
from games.core.logins import logs_in
from games.core.sockets.workers import in_worker
from games.core.state import broadcast


def scope_user(scope: dict) -> Any:
    """The handshake's user (``scope["user"]``): a plain user object on the fast path
    (``games.core.fastpath.WorkerUserMiddleware``), Channels' ``UserLazyObject`` off it;
    ``None`` without a user."""
    return scope.get("user")


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
        if logs_in(session, user, backend):
            alive.add(key)
    return alive


def AuthMiddlewareStack(inner: Any) -> Any:  # noqa: N802 - named like Channels' own
    """Channels' ``AuthMiddlewareStack`` (cookies, session, user) for websockets, as
    ``games.core.fastpath.auth_middleware_stack`` builds it (the fast path's user looked up on
    the worker threads)."""
    return fastpath.auth_middleware_stack(inner, in_worker)


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
