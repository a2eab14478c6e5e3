"""The tournaments' error codes and their translated messages (one table for services and pages,
after ``games.core.errors``, whose ``Refusal`` is the base of :class:`TournamentError`)."""

from __future__ import annotations

from enum import StrEnum

from django.utils.translation import gettext_lazy as _

from games.core.for_apps import Refusal


class Code(StrEnum):
    """Every reason a tournament service refuses a request; nothing is changed when it does."""

    LOGIN_REQUIRED = "login_required"
    NOT_FOUND = "not_found"
    NOT_ORGANISER = "not_organiser"
    OWN_PAIRING = "own_pairing"
    BAD_SETTINGS = "bad_settings"
    ALREADY_REGISTERED = "already_registered"
    PARTNER_REGISTERED = "partner_registered"
    PARTNER_REQUIRED = "partner_required"
    PARTNER_NOT_ALLOWED = "partner_not_allowed"
    PARTNER_SELF = "partner_self"
    REGISTRATION_CLOSED = "registration_closed"
    EVENT_FULL = "event_full"
    NOT_INVITED = "not_invited"
    ALREADY_ACCEPTED = "already_accepted"
    NOT_REGISTERED = "not_registered"
    NOT_ABSENT = "not_absent"
    ALREADY_STARTED = "already_started"
    TOO_FEW_ENTRANTS = "too_few_entrants"
    NOT_RUNNING = "not_running"
    ALREADY_PAUSED = "already_paused"
    NOT_PAUSED = "not_paused"
    RESULT_REPORTED = "result_reported"
    NOT_FINISHED = "not_finished"
    BAD_WINNER = "bad_winner"
    ROUND_NOT_OVER = "round_not_over"
    NEXT_ROUND_PAIRED = "next_round_paired"
    SAME_RESULT = "same_result"
    WITHDREW = "withdrew"
    PARTNER_INVITED = "partner_invited"
    NO_ROUNDS = "no_rounds"
    TOO_MANY_EVENTS = "too_many_events"
    CONFIRM_NEEDED = "confirm_needed"
    NO_RESULT_CHOSEN = "no_result_chosen"
    BAD_SEEDS = "bad_seeds"
    LIMIT_BELOW_ENTRANTS = "limit_below_entrants"
    FIXED_ONCE_REGISTERED = "fixed_once_registered"
    NOT_EVENT_ORGANISER = "not_event_organiser"
    ALREADY_ARBITER = "already_arbiter"
    ARBITER_IS_ORGANISER = "arbiter_is_organiser"
    NOT_ARBITER = "not_arbiter"
    EVENT_OVER = "event_over"
    CONFIRM_CANCEL = "confirm_cancel"
    CONFIRM_REMOVE = "confirm_remove"
    BOT = "tournament_bot"
    RANKED_BANNED = "tournament_ranked_banned"


MESSAGES = {
    Code.LOGIN_REQUIRED: _("Log in first."),
    Code.NOT_FOUND: _("There is no such tournament, entrant or pairing."),
    Code.NOT_ORGANISER: _("Only the organiser, an arbiter or staff may do this."),
    Code.OWN_PAIRING: _(
        "You play in this pairing: a result of your own is decided by an arbiter (or staff), "
        "not by you."
    ),
    Code.NOT_EVENT_ORGANISER: _("Only the organiser (or staff) names and removes the arbiters."),
    Code.ALREADY_ARBITER: _("This player is already an arbiter of the event."),
    Code.ARBITER_IS_ORGANISER: _("The organiser decides already: name another player as arbiter."),
    Code.NOT_ARBITER: _("This player is not an arbiter of the event."),
    Code.EVENT_OVER: _("The tournament is over: nothing was changed."),
    Code.CONFIRM_CANCEL: _(
        "Cancelling the event is final: nothing was changed. Confirm it when you are asked."
    ),
    Code.CONFIRM_REMOVE: _(
        "Removing an entrant needs your confirmation: nothing was changed. Confirm it when "
        "you are asked."
    ),
    Code.BOT: _("Bot accounts play challenges, never tournaments: tournaments are for people."),
    Code.RANKED_BANNED: _(
        "A moderator has barred you or your partner from rated play and tournaments for now."
    ),
    Code.BAD_SETTINGS: _("These tournament settings are not valid."),
    Code.ALREADY_REGISTERED: _("You are already registered for this tournament."),
    Code.PARTNER_REGISTERED: _("Your partner is already registered for this tournament."),
    Code.PARTNER_REQUIRED: _("This is a partnership event: name a partner."),
    Code.PARTNER_NOT_ALLOWED: _("This event is for single players: no partner."),
    Code.PARTNER_SELF: _("You cannot be your own partner."),
    Code.REGISTRATION_CLOSED: _("Registration for this tournament is closed."),
    Code.EVENT_FULL: _("This tournament is full."),
    Code.NOT_INVITED: _("This invitation is not addressed to you."),
    Code.ALREADY_ACCEPTED: _("This invitation has already been accepted."),
    Code.NOT_REGISTERED: _("You are not registered for this tournament."),
    Code.NOT_ABSENT: _("You are not marked absent: you are paired as usual."),
    Code.ALREADY_STARTED: _("The tournament has already started."),
    Code.TOO_FEW_ENTRANTS: _("At least two entrants are needed to start."),
    Code.NOT_RUNNING: _("The tournament is not running."),
    Code.ALREADY_PAUSED: _("The tournament is already paused."),
    Code.NOT_PAUSED: _("The tournament is not paused."),
    Code.RESULT_REPORTED: _("This result has already been recorded."),
    Code.NOT_FINISHED: _("This pairing has no result yet."),
    Code.BAD_WINNER: _("The winner must be one of the pairing's entrants."),
    Code.ROUND_NOT_OVER: _("The current round has not ended yet."),
    Code.NEXT_ROUND_PAIRED: _("The next round is already paired on this result."),
    Code.NO_ROUNDS: _("An arena has no rounds to pair."),
    Code.TOO_MANY_EVENTS: _(
        "You already organise 5 events that have not started: start or cancel one before "
        "creating another."
    ),
    Code.SAME_RESULT: _("That is already the result."),
    Code.CONFIRM_NEEDED: _(
        "This ends a table being played: nothing was changed. Confirm it when you are asked."
    ),
    Code.NO_RESULT_CHOSEN: _("Choose who wins (or that both lose): nothing was changed."),
    Code.BAD_SEEDS: _(
        "Give every entrant a different seed from 1 to the number of entrants: nothing was changed."
    ),
    Code.LIMIT_BELOW_ENTRANTS: _(
        "More entrants are registered than this entrant limit: remove some first. Nothing was changed."
    ),
    Code.FIXED_ONCE_REGISTERED: _(
        "The format and the players at a table cannot change once anyone has registered: "
        "nothing was changed."
    ),
    Code.WITHDREW: _("You withdrew from this tournament and cannot enter it again."),
    Code.PARTNER_INVITED: _(
        "Your partner has a pending invitation from another player for this tournament: "
        "they must decline it first."
    ),
}


class TournamentError(Refusal):
    """A refused tournament request: ``code`` (:class:`Code`) and its ``message``, translated
    when read (``games.core.for_apps.Refusal``)."""

    codes = Code
    messages = MESSAGES
