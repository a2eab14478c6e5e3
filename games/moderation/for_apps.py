"""What the moderation app publishes to the apps above it (the chat).

- ``chat_refusal(user) -> str | None``: the refusal code a line from ``user`` gets because of a
  sanction (``"chat_timeout"``, ``"chat_banned"``), or ``None`` when the player may chat.
- ``provide_chat(lines_by, line)``: the chat app hands over how to read its lines, so that a
  report can carry a line and the staff's queue can show a player's lines without this app
  importing the chat. ``lines_by(user_id, limit) -> list[dict]`` and
  ``line(line_id) -> dict | None``, each line ``{"id", "user_id", "match_id", "room", "text",
  "created"}``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

_chat: dict[str, Callable[..., Any]] = {}


def chat_refusal(user) -> str | None:
    """The sanction refusing ``user``'s chat lines, or ``None``."""
    return None


def provide_chat(lines_by: Callable[[int, int], list[dict]], line: Callable[[int], dict | None]) -> None:
    """Register the chat's readers (called from the chat app's ``ready()``)."""
    _chat["lines_by"] = lines_by
    _chat["line"] = line
