"""The moderation app's refusals: codes and their translated messages (``games.core.for_apps.Refusal``;
``docs/protocol.md``, "Reports and moderation")."""

from __future__ import annotations

from enum import StrEnum

from django.utils.translation import gettext_lazy as _

from games.core.for_apps import Refusal


class Code(StrEnum):
    """Every reason a report or a moderator's action is refused; nothing is changed when it is."""

    LOGIN_REQUIRED = "login_required"
    NO_SUCH_PLAYER = "report_no_such_player"
    SELF = "report_self"
    CLOSED_ACCOUNT = "report_closed_account"
    TWICE = "report_twice"
    RATE_LIMITED = "report_rate_limited"
    BAD_REASON = "report_bad_reason"
    BAD_TEXT = "report_bad_text"
    BAD_MATCH = "report_bad_match"
    BAD_LINE = "report_bad_line"
    NOT_STAFF = "mod_not_staff"
    SELF_ACTION = "mod_self"
    BAD_MINUTES = "mod_bad_minutes"
    NOT_CONFIRMED = "mod_not_confirmed"
    REASON_REQUIRED = "mod_reason_required"
    BAD_ACTION = "mod_bad_action"
    ALREADY_CLOSED = "mod_already_closed"
    NOTHING_TO_LIFT = "mod_nothing_to_lift"


class ModerationError(Refusal):
    """A refused report or moderator's action."""

    codes = Code
    messages = {
        Code.LOGIN_REQUIRED: _("Log in first."),
        Code.NO_SUCH_PLAYER: _("There is no player of that name."),
        Code.SELF: _("You cannot report yourself."),
        Code.CLOSED_ACCOUNT: _("This account is closed: there is nothing left to report."),
        Code.TWICE: _(
            "You already reported this player for this reason: the moderators have your report."
        ),
        Code.RATE_LIMITED: _(
            "You have sent many reports lately: wait a while before you send another."
        ),
        Code.BAD_REASON: _("Choose a reason for your report."),
        Code.BAD_TEXT: _(
            "Your text was not sent: at most %(limit)s characters, without control characters."
        ),
        Code.BAD_MATCH: _("This player did not play that match: nothing was sent."),
        Code.BAD_LINE: _("This player did not write that chat line: nothing was sent."),
        Code.NOT_STAFF: _("Only the moderators may do this."),
        Code.SELF_ACTION: _(
            "You cannot act on your own account: another moderator handles reports about you."
        ),
        Code.BAD_MINUTES: _("A chat timeout lasts from 1 to %(most)s minutes: nothing was done."),
        Code.NOT_CONFIRMED: _("Closing an account cannot be undone: confirm it first. Nothing was done."),
        Code.REASON_REQUIRED: _("Say why: every action is logged with its reason."),
        Code.BAD_ACTION: _("That is not an action the moderators can take here."),
        Code.ALREADY_CLOSED: _("This account is closed already."),
        Code.NOTHING_TO_LIFT: _("This player has no such sanction running."),
    }
