"""The queues' error codes and their translated messages (one table for services and pages,
after ``games.core.errors``)."""

from __future__ import annotations

from enum import StrEnum

from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy


class Code(StrEnum):
    """Every reason a queue service refuses a request; nothing is changed when it does."""

    LOGIN_REQUIRED = "login_required"
    BAD_QUEUE = "bad_queue"
    SEATED = "queue_seated"
    IN_TOURNAMENT = "queue_in_tournament"
    COOLDOWN = "queue_cooldown"
    NO_SUCH_PLAYER = "queue_no_such_player"
    PARTNER_SELF = "queue_partner_self"
    PARTNER_BUSY = "queue_partner_busy"
    NOT_INVITED = "queue_not_invited"
    INVITATION_EXPIRED = "queue_invitation_expired"
    BOT = "queue_bot"
    RANKED_BANNED = "queue_ranked_banned"


MESSAGES = {
    Code.LOGIN_REQUIRED: _("Log in first."),
    Code.BAD_QUEUE: _("There is no such queue: choose 2 or 4 players and a time per play of 10, 20, 30 or 60 seconds."),
    Code.SEATED: _("You are seated at a table that is not over: finish it before you join a queue."),
    Code.IN_TOURNAMENT: _("You are playing in a tournament: join a queue once your event leaves you free."),
    Code.COOLDOWN: ngettext_lazy(
        "You did not come to your last queue table: you may join again in %(seconds)s second.",
        "You did not come to your last queue table: you may join again in %(seconds)s seconds.",
        "seconds",
    ),
    Code.NO_SUCH_PLAYER: _("There is no player of that name."),
    Code.PARTNER_SELF: _("You cannot be your own partner."),
    Code.PARTNER_BUSY: _("That player is already waiting in a queue or seated at a table."),
    Code.NOT_INVITED: _("There is no invitation from that player waiting for you."),
    Code.INVITATION_EXPIRED: _("That invitation has expired: ask your partner to invite you again."),
    Code.RANKED_BANNED: _(
        "A moderator has barred you or your partner from rated play for now: the queues are "
        "closed to you. Casual tables stay open."
    ),
    Code.BOT: _("Bot accounts play challenges, never quick pairing: quick pairing is for people."),
}


class QueueError(Exception):
    """A refused queue request: ``code`` (:class:`Code`), ``params`` for its message;
    ``table``, for ``queue_seated``, the table the player sits at
    (``games.core.for_apps.current_table``: ``{"match_id", "url", "playing"}``), so that the
    refusal can offer the way back to it."""

    def __init__(self, code: Code, *, table: dict | None = None, **params: object):
        self.code = code
        self.params = params
        self.table = table
        super().__init__(code.value)

    def as_json(self) -> dict:
        """``{"error", "message"}``, and ``"table"`` when the refusal names one (the JSON
        answer of ``games.queues.views``)."""
        out: dict = {"error": self.code.value, "message": self.message}
        if self.table is not None:
            out["table"] = self.table
        return out

    @property
    def message(self) -> str:
        """The translated message, in the active language."""
        # A plural message (ngettext_lazy with a key) picks its form from the params on %.
        return MESSAGES[self.code] % self.params if self.params else str(MESSAGES[self.code])
