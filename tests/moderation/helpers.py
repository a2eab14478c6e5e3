"""Helpers of the moderation tests: users, a fake chat registered as the real one registers,
rated matches through the core's real actions."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.utils import timezone

from games.moderation import chat


def users(*names: str, staff: tuple[str, ...] = ()) -> list:
    """Users named ``names`` (no password; ``staff``: those who are staff)."""
    model = get_user_model()
    return [
        model.objects.create_user(username=n, email=f"{n}@example.com", password=None, is_staff=n in staff)
        for n in names
    ]


class FakeChat:
    """Chat lines kept in a dict, read through the readers a chat registers
    (``games.moderation.for_apps.provide_chat``)."""

    def __init__(self) -> None:
        self.lines: dict[int, dict] = {}

    def say(self, user, text: str, match_id: int | None = None, room: str = "player") -> dict:
        line = {"id": len(self.lines) + 1, "user_id": user.pk, "match_id": match_id, "room": room,
                "text": text, "created": timezone.now().isoformat()}
        self.lines[line["id"]] = line
        return line

    def lines_by(self, user_id: int, limit: int) -> list[dict]:
        mine = [line for line in self.lines.values() if line["user_id"] == user_id]
        return mine[::-1][:limit]

    def line(self, line_id: int) -> dict | None:
        return self.lines.get(line_id)


def fake_chat() -> FakeChat:
    """A :class:`FakeChat` registered as the chat (``chat.forget()`` undoes it)."""
    from games.moderation.for_apps import provide_chat

    fake = FakeChat()
    provide_chat(fake.lines_by, fake.line)
    return fake
