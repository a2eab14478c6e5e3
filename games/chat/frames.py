"""The chat's frames on the table socket, through the core's one hook
(``games.core.for_apps.table_frames``; ``docs/protocol.md``, "Chat"):

- ``{"type": "chat", "room", "text"}``: a line (:func:`games.chat.services.post_line`); it
  comes back to its writer as to everyone who may read the room, as ``{"type": "chat",
  "line": {…}}``; a refusal is an ``error`` frame.
- ``{"type": "chat_history"}``: answered to this socket only with ``{"type": "chat_lines",
  "lines": [...], "on": bool, "sanction": code or null}``, the lines its reader may read
  (``on``: their chat is on; ``sanction``: ``chat_timeout`` or ``chat_banned`` when a
  moderator's sanction refuses their lines now, ``games.moderation.for_apps.chat_refusal``;
  ``sanction_until``: when a ``chat_timeout`` ends, an ISO time, else ``None``).
"""

from __future__ import annotations

from typing import Any

from games.chat import services
from games.moderation.for_apps import chat_refusal, chat_timeout_until


def on_line(*, user: Any, match_id: int, seat: int | None, message: dict) -> None:
    services.post_line(
        user=user, match_id=match_id, seat=seat, room=message.get("room"), text=message.get("text")
    )


def on_history(*, user: Any, match_id: int, seat: int | None, message: dict) -> list[dict]:
    on = user is None or services.chat_enabled(user.pk)
    lines = services.history(user=user, match_id=match_id, seat=seat)
    sanction = chat_refusal(user)
    until = chat_timeout_until(user) if sanction == "chat_timeout" else None
    return [{
        "type": services.LINES_FRAME, "lines": lines, "on": on, "sanction": sanction,
        "sanction_until": until.isoformat() if until else None,
    }]
