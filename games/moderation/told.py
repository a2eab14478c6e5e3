"""What the moderators tell a player: a warning, rating points given back, the outcome of
their report. Each is kept (``Message``, read at ``/moderation/messages/``) and pushed at once
to the player's open pages through the core's notice socket (``send_notice``, kind
``mod_message``, after the commit); a player who had no page open is offered it on the next
page they open (the pending provider, kind ``mod_message`` while any is unread).
``static/moderation/notify.js`` shows it, linking to the messages page.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.urls import reverse
from django.utils import timezone

from games.core.for_apps import send_notice
from games.moderation.models import Message


def tell(user_id: int, kind: str, data: dict, now: datetime | None = None) -> Message:
    """Keep a message of ``kind`` (``Message.Kind``) for ``user_id`` and push it."""
    now = timezone.now() if now is None else now
    message = Message.objects.create(user_id=user_id, kind=kind, data=data, created_at=now)
    send_notice(user_id, "mod_message", {"kind": kind, "url": reverse("moderation:messages")})
    return message


def pending(user: Any) -> list[tuple[str, dict]]:
    """The core's pending provider: ``mod_message`` while ``user`` has an unread message."""
    if user is None or not user.is_authenticated:
        return []
    unread = Message.objects.filter(user_id=user.pk, read=False).count()
    if not unread:
        return []
    return [("mod_message", {"unread": unread, "url": reverse("moderation:messages")})]


def read_all(user_id: int) -> list[Message]:
    """``user_id``'s messages, newest first, every one marked read."""
    messages = list(Message.objects.filter(user_id=user_id).order_by("-created_at", "-pk")[:100])
    Message.objects.filter(user_id=user_id, read=False).update(read=True)
    return messages
