"""Whether a session's data still logs its user in, as Django's ``auth.get_user`` decides it
(``django/contrib/auth/__init__.py``), for the sockets that decide it themselves: the batched
session checks (``games.core.sockets.auth.live_sessions``) and the fast path's handshake
(``games.core.fastpath.handshake_user``)."""

from __future__ import annotations

from typing import Any

from django.contrib import auth
from django.contrib.auth.backends import ModelBackend
from django.utils.crypto import constant_time_compare


def logs_in(session: Any, user: Any, backend: ModelBackend) -> bool:
    """Whether ``session`` (a session or its data, a mapping) still logs ``user`` in through
    ``backend``: the backend lets the user in (``user_can_authenticate``), and the session's
    ``HASH_SESSION_KEY`` is the user's session hash under ``SECRET_KEY`` or one of
    ``SECRET_KEY_FALLBACKS``."""
    if not backend.user_can_authenticate(user):
        return False
    given = session.get(auth.HASH_SESSION_KEY)
    return bool(given) and any(
        constant_time_compare(given, expected)
        for expected in (user.get_session_auth_hash(), *user.get_session_auth_fallback_hash())
    )
