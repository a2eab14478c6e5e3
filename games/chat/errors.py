"""The chat's refusals: codes and their translated messages (``games.core.for_apps.Refusal``),
``docs/protocol.md`` "Chat". Nothing is stored or sent when one is raised."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum

from django.utils import timezone
from django.utils.formats import date_format

from django.utils.translation import gettext_lazy as _

from games.core.for_apps import Refusal


class Code(StrEnum):
    """Every reason a chat line is refused."""

    CHAT_OFF = "chat_off"
    NOT_ALLOWED = "chat_not_allowed"
    TOO_LONG = "chat_too_long"
    RATE_LIMITED = "chat_rate_limited"
    TIMEOUT = "chat_timeout"
    BANNED = "chat_banned"


class ChatError(Refusal):
    """A refused chat line. A ``chat_timeout`` raised with ``until`` (a datetime: when the
    timeout ends) says until when, in the reader's language and the site's time format."""

    codes = Code
    messages = {
        Code.CHAT_OFF: _("Your chat is off: turn it on in the chat settings to talk."),
        Code.NOT_ALLOWED: _(
            "You cannot write in this room now: while a match runs the players talk among "
            "themselves and the spectators among themselves, and at a table of four only the "
            "quick phrases go between seats."
        ),
        Code.TOO_LONG: _("A chat line has at most %(count)s characters."),
        Code.RATE_LIMITED: _("You are writing too fast: wait a few seconds."),
        Code.TIMEOUT: _("You may not chat for a while: a moderator timed your chat out."),
        Code.BANNED: _("You may not chat: a moderator took your chat away."),
    }
    #: The messages of the codes raised with ``until``.
    until_messages = {
        Code.TIMEOUT: _("You may not chat until %(until)s: a moderator timed your chat out."),
    }

    @property
    def message(self) -> str:
        until = self.params.get("until")
        if self.code not in self.until_messages or not isinstance(until, datetime):
            return super().message
        return str(self.until_messages[self.code]) % {"until": until_text(until)}

    def as_json(self) -> dict[str, str]:
        payload = super().as_json()
        if isinstance(self.params.get("until"), datetime):
            payload["until"] = self.params["until"].isoformat()
        return payload


def until_text(until: datetime, now: datetime | None = None) -> str:
    """``until`` as the site writes a time (``TIME_FORMAT``, in the active language and time
    zone), with its date (``SHORT_DATETIME_FORMAT``) when it is not today."""
    local = timezone.localtime(until)
    today = timezone.localtime(timezone.now() if now is None else now).date()
    return date_format(local, "TIME_FORMAT" if local.date() == today else "SHORT_DATETIME_FORMAT")
