"""Receivers of the authentication signals (connected in ``AccountsConfig.ready``)."""

from __future__ import annotations

from typing import Any

from games.core.state import broadcast


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
