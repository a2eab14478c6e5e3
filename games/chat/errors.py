"""The chat's refusals: codes and their translated messages (``games.core.for_apps.Refusal``),
``docs/protocol.md`` "Chat". Nothing is stored or sent when one is raised."""

from __future__ import annotations

from enum import StrEnum

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
    """A refused chat line."""

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
