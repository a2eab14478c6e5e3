"""What the chat's tests share: tables at each stage, a line said through the chat's one write."""

from __future__ import annotations

from typing import Any

from games.chat import services
from games.core.for_apps import Match, abort_match
from tests.core.helpers import seated_match


def say(user: Any, match: Match, text: str, *, room: str = "player", seat: int | None = 0) -> dict:
    """``user`` says ``text`` at ``match`` (``seat``: ``None`` for a spectator)."""
    return services.post_line(user=user, match_id=match.pk, seat=seat, room=room, text=text)


def finished(users: list[Any]) -> Match:
    """A match of ``users`` called off before its first play: over."""
    match = seated_match(users)
    abort_match(user=users[0], match_id=match.pk)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    return match
