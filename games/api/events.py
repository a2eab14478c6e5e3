"""What the event streams hear besides the notices: a match of the account started or ended.

Each account has a group of its own on the channel layer, ``api.user.<id>``; the core's
``match_started`` and ``match_finished`` signals (sent inside the transaction that starts or
ends a match) send it ``{"type": "api.game", "event": "gameStart" or "gameFinish",
"match_id"}`` after the commit (``games.core.for_apps.send_to_group``), and each event stream
reads the match for its account (``games.api.streams``). Each token has a group too,
``api.token.<id>``: a new event stream of the token tells the one before it to close.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from games.core.for_apps import Seat, match_finished, match_started, send_to_group


def user_group(user_id: int) -> str:
    """The group of the event streams of account ``user_id``."""
    return f"api.user.{user_id}"


def token_group(token_id: int) -> str:
    """The group of the event stream of token ``token_id`` (one at a time)."""
    return f"api.token.{token_id}"


def _tell(user_ids: list[int], event: str, match_id: int) -> None:
    def send() -> None:
        for user_id in user_ids:
            send_to_group(user_group(user_id), {"type": "api.game", "event": event, "match_id": match_id})

    transaction.on_commit(send)


def on_started(sender: Any, match: Any, people: list[int], **kwargs: Any) -> None:
    """``match_started``: a ``gameStart`` for each person seated. Never raises."""
    _tell([p for p in people if p is not None], "gameStart", match.pk)


def on_finished(sender: Any, match: Any, **kwargs: Any) -> None:
    """``match_finished``: a ``gameFinish`` for each person seated. One query."""
    people = list(
        Seat.objects.filter(match_id=match.pk, user_id__isnull=False).values_list("user_id", flat=True)
    )
    _tell(people, "gameFinish", match.pk)


def connect() -> None:
    """Listen to the core's signals (``ApiConfig.ready``)."""
    match_started.connect(on_started, dispatch_uid="api-game-start")
    match_finished.connect(on_finished, dispatch_uid="api-game-finish")
