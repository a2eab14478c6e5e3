"""The chat's lines as the moderation app reads them, through the readers the chat app
registers (``for_apps.provide_chat``; this app sits below the chat and never imports it).

Each line is ``{"id", "user_id", "match_id", "room", "text", "created"}``. Without a chat
registered there are no lines: a report naming one is refused (``report_bad_line``) and the
staff's page shows none.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

_readers: dict[str, Callable[..., Any]] = {}


def provide(lines_by: Callable[[int, int], list[dict]], line: Callable[[int], dict | None]) -> None:
    """Register the chat's readers (``lines_by(user_id, limit)``, ``line(line_id)``)."""
    _readers["lines_by"] = lines_by
    _readers["line"] = line


def registered() -> tuple[Callable[[int, int], list[dict]], Callable[[int], dict | None]] | None:
    """The readers registered, ``(lines_by, line)``, or ``None``."""
    return (_readers["lines_by"], _readers["line"]) if _readers else None


def forget() -> None:
    """Drop the registered readers (tests)."""
    _readers.clear()


def line(line_id: int) -> dict | None:
    """The line ``line_id``, or ``None`` (unknown, or no chat)."""
    reader = _readers.get("line")
    return reader(line_id) if reader is not None else None


def lines_by(user_id: int, limit: int = 30) -> list[dict]:
    """``user_id``'s last ``limit`` lines, newest first (``[]`` without a chat)."""
    reader = _readers.get("lines_by")
    return list(reader(user_id, limit)) if reader is not None else []
