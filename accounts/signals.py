"""Receivers of the authentication signals (connected in ``AccountsConfig.ready``)."""

from __future__ import annotations

from typing import Any

from games import broadcast


def end_live_sockets(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
    """``user_logged_out``: the table sockets opened with the session being logged out stop
    receiving their seat's views (``docs/protocol.md`` "Sockets": closed with 4401).

    Django sends the signal before it flushes the session, so ``request.session`` still has the
    key the sockets were opened with. A logout of a request without a user or a session (an
    anonymous one) has no sockets to end.
    """
    key = getattr(getattr(request, "session", None), "session_key", None)
    if user is None or not key:
        return
    broadcast.send_session_ended(user.pk, key)
