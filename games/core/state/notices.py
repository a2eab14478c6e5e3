"""Site-wide notices to one player, wherever they are on the site (``docs/protocol.md``,
"Notices").

Every page a signed-in player opens keeps a notice socket, ``/ws/me/``
(``games.core.sockets.notices.NoticeConsumer``, ``static/games/notices.js``). Anything on the server
tells a player something with::

    from games.core.state.notices import send_notice
    send_notice(user_id, "challenge", {"id": 7, ...})  # inside or outside a transaction

It is sent once the current transaction commits (nothing is sent for a rolled-back change), to
every notice socket of that user, as ``{"type": "notice", "kind": kind, "payload": payload}``.
``kind`` names what it is (the page script dispatches on it; unknown kinds are passed to the
page's listeners, ``document``'s ``basra:notice`` event); ``payload`` must be JSON.

A notice is not stored: a player who had no page open misses it. What must still be seen on the
next page (a challenge waiting for an answer) is offered by a *pending provider*: a function
``provider(user) -> list[(kind, payload)]`` registered with :func:`register_pending` (an app
does it in its ``AppConfig.ready()``); the socket sends what every provider returns when it
opens and on ``{"type": "sync"}``, as ``{"type": "pending", "notices": [{"kind", "payload"},
...]}``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db import transaction

from games.core.state import broadcast

#: A pending provider: ``provider(user) -> [(kind, payload), ...]`` (runs in a worker thread).
PendingProvider = Callable[[Any], list[tuple[str, dict]]]

_providers: list[PendingProvider] = []


def send_notice(user_id: int, kind: str, payload: dict) -> None:
    """Send ``{"type": "notice", "kind", "payload"}`` to every notice socket of ``user_id``
    once the current transaction commits (at once outside one).

    :param kind: a short name, ``[a-z_]+`` by convention (``"challenge"``, ``"table_ready"``).
    :param payload: JSON-serialisable.
    """
    transaction.on_commit(lambda: broadcast.send_notices([(user_id, kind, payload)]))


def register_pending(provider: PendingProvider) -> None:
    """Add a provider of the notices a socket is sent when it opens (see the module)."""
    if provider not in _providers:
        _providers.append(provider)


def pending(user: Any) -> list[dict]:
    """Every provider's pending notices for ``user``, ``[{"kind", "payload"}, ...]``."""
    return [
        {"kind": kind, "payload": payload}
        for provider in _providers
        for kind, payload in provider(user)
    ]
