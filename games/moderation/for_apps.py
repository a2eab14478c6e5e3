"""What the moderation app publishes to the apps above it (the chat).

- ``chat_refusal(user) -> str | None``: the refusal code a line from ``user`` gets because of a
  sanction (``"chat_timeout"``: a chat timeout runs, 15 minutes by default; ``"chat_banned"``:
  a chat ban runs; a ban outranks a timeout), or ``None`` when the player may chat. One query.
- ``chat_timeout_until(user) -> datetime | None``: when ``user``'s running chat timeout ends
  (``None``: none runs), for the chat to say until when. One query.
- ``provide_chat(lines_by, line)``: the chat app hands over how to read its lines, so that a
  report can carry a line and the staff's queue can show a player's lines without this app
  importing the chat. ``lines_by(user_id, limit) -> list[dict]`` and
  ``line(line_id) -> dict | None``, each line ``{"id", "user_id", "match_id", "room", "text",
  "created"}``.
- The report form's address, which every chat line links to: URL name ``"moderation:report"``
  with the path argument ``username`` and the query ``?match=<id>&line=<id>``.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from games.moderation import chat, sanctions


def chat_refusal(user) -> str | None:
    """The sanction refusing ``user``'s chat lines, or ``None``."""
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    return sanctions.chat_refusal(user.pk)


def chat_timeout_until(user) -> datetime | None:
    """When ``user``'s running chat timeout ends, or ``None``."""
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    return sanctions.chat_timeout_until(user.pk)


def provide_chat(lines_by: Callable[[int, int], list[dict]], line: Callable[[int], dict | None]) -> None:
    """Register the chat's readers (called from the chat app's ``ready()``)."""
    chat.provide(lines_by, line)
