"""What the chat publishes to the apps above it (the public API, ``games.api``).

- ``post_line(*, user, match_id, seat, room, text) -> dict``: a line said at a table, under the
  table socket's rules and refusals (``games.chat.services.post_line``).
- ``api_line(event, seat, user_id) -> dict | None``: a message of the table's group as the
  game stream's ``chatLine`` (``{"type": "chatLine", "room", "username", "text"}``,
  ``../shared/API.md``), or ``None`` when it is no chat line for that seat and user.
- ``ChatError``: the chat's refusals (codes ``chat_*``, ``docs/protocol.md`` "Chat").
"""

from __future__ import annotations

from games.chat.errors import ChatError
from games.chat.services import LINE_FRAME, post_line
from games.core.for_apps import table_frames


def api_line(event: dict, seat: int | None, user_id: int) -> dict | None:
    """The ``chatLine`` of a ``table.app`` group message for a stream of ``seat`` and ``user_id``."""
    frame = event.get("message") or {}
    if event.get("type") != "table.app" or frame.get("type") != LINE_FRAME:
        return None
    if not table_frames.reaches(event, seat, user_id):
        return None
    line = frame["line"]
    return {"type": "chatLine", "room": line["room"], "username": line["username"], "text": line["text"]}


__all__ = ["ChatError", "api_line", "post_line"]
