"""The one table of the live tables' error codes and their messages, for sockets and pages alike.

After Zulip's ``zerver/lib/exceptions.py`` (STYLE.md, "Write it like this"): a code is a stable
string that clients act on (``docs/protocol.md``, "error"); its message is the translated text a
person reads. A refused request raises :class:`GameError` before anything is written; a socket
sends ``{"type": "error", "code", "message"}``, a page shows the message. :class:`Refusal` is
the base of every refusal, the core's and the apps' (published in ``games.core.for_apps``): one
way to carry a code and its parameters, a message formatted when read, and its response.
:func:`from_engine` is the one place where the rules engine's reasons for refusing a play become
codes.
"""

from __future__ import annotations

from enum import StrEnum

from django.utils.translation import gettext_lazy as _

from games import engine
from games.engine import shuffle

#: How many tables that have not started yet one person may sit at when opening another: an
#: abandoned open table stays in the lobby, so one person must not be able to fill it.
MAX_OPEN_TABLES = 3
#: How many unfinished tables (waiting for players or being played, the person's seat not lost
#: to absence) one person may sit at when opening or joining another: computer tables start at
#: once, so the open-table limit alone would let one account keep dozens going. Generous for a
#: person (a table, a rematch waiting, a tournament, a challenge); accounts of computer players,
#: when they come, get a cap of their own beside this one.
MAX_TABLES = 5
#: The least target a rated table plays to (RULES.md, "Winning a match"), so that one round
#: cannot decide a rated match: a round is worth 30 points for the most cards and 10 a basra
#: (the default bonuses), so 61 takes a side two rounds, or one with the majority and four
#: basras. A match to 11 is a one-round sprint, a coin toss of the deal, and moved new
#: players' ratings by about 68 points (issue 35). As lichess refuses to rate a game too short
#: to say anything about its players. Tournaments' tables keep their organisers' targets
#: (``create_table(rated_target_min=None)``): the event, not the ratings, chose them.
RATED_TARGET_MIN = 61


class ErrorCode(StrEnum):
    """Every code a live table or a lobby action may answer with (``docs/protocol.md``)."""

    # The frame itself (sockets only).
    BAD_JSON = "bad_json"
    BAD_MESSAGE = "bad_message"
    TOO_MANY_SOCKETS = "too_many_sockets"
    UNKNOWN_TYPE = "unknown_type"
    RATE_LIMITED = "rate_limited"
    # The server cannot reach its database now (games.core.state.outages): retry later.
    UNAVAILABLE = "unavailable"
    # Who may act.
    NOT_FOUND = "not_found"
    LOGIN_REQUIRED = "login_required"
    NOT_SEATED = "not_seated"
    # The match's stage.
    NOT_STARTED = "not_started"
    MATCH_OVER = "match_over"
    # A play.
    STALE = "stale"
    TIMED_OUT = "timed_out"
    NOT_YOUR_TURN = "not_your_turn"
    BAD_CARD = "bad_card"
    CARD_NOT_IN_HAND = "card_not_in_hand"
    # Seating.
    TABLE_FULL = "table_full"
    SEAT_TAKEN = "seat_taken"
    BAD_SEAT = "bad_seat"
    ALREADY_SEATED = "already_seated"
    CANNOT_LEAVE = "cannot_leave"
    BAD_RULES = "bad_rules"
    RULES_NO_POINTS = "rules_no_points"
    RATED_TARGET_TOO_LOW = "rated_target_too_low"
    BAD_CLOCK = "bad_clock"
    BAD_BOT = "bad_bot"
    BOT_NOT_RATED = "bot_not_rated"
    # A moderator barred a player of the table from rated play (games/core/standing.py).
    RANKED_BANNED = "ranked_banned"
    BAD_WATCHERS = "bad_watchers"
    TOO_MANY_OPEN_TABLES = "too_many_open_tables"
    TOO_MANY_TABLES = "too_many_tables"
    # A client seed of the fair shuffle (RULES.md, "Provably fair shuffle" 2).
    CLIENT_SEED_EMPTY = "client_seed_empty"
    CLIENT_SEED_TOO_LONG = "client_seed_too_long"
    CLIENT_SEED_NEWLINE = "client_seed_newline"
    CLIENT_SEED_NOT_PRINTABLE = "client_seed_not_printable"
    SEEDS_FIXED = "seeds_fixed"
    # The computer, absence and endings.
    NOT_BOT_SEAT = "not_bot_seat"
    REPLACED_BY_BOT = "replaced_by_bot"
    CLAIM_NOT_ALLOWED = "claim_not_allowed"
    OPPONENT_RETURNED = "opponent_returned"
    RESIGN_OFFERED = "resign_offered"
    ABORT_NOT_ALLOWED = "abort_not_allowed"
    MORE_TIME_NOT_ALLOWED = "more_time_not_allowed"
    MORE_TIME_NOT_YET = "more_time_not_yet"
    BAD_WINNER = "bad_winner"
    # Analyses of finished matches (the replays app, games/replays/jobs.py).
    ANALYSIS_LOGIN_REQUIRED = "analysis_login_required"
    ANALYSIS_TOO_LONG = "analysis_too_long"
    TOO_MANY_ANALYSES = "too_many_analyses"
    # Watching (``Match.watchers``).
    WATCH_NOBODY = "watch_nobody"
    WATCH_LOGIN_REQUIRED = "watch_login_required"
    # Playing with friends: private tables, challenges, rematches.
    PRIVATE_TABLE = "private_table"
    CHALLENGE_NOT_FOUND = "challenge_not_found"
    PLAYER_NOT_FOUND = "player_not_found"
    CHALLENGE_SELF = "challenge_self"
    CHALLENGE_OWN = "challenge_own"
    CHALLENGE_NOT_YOURS = "challenge_not_yours"
    CHALLENGE_NOT_SENDER = "challenge_not_sender"
    CHALLENGE_ANSWERED = "challenge_answered"
    CHALLENGE_EXPIRED = "challenge_expired"
    CHALLENGE_TWO_PLAYERS = "challenge_two_players"
    CHALLENGE_PENDING = "challenge_pending"
    CHALLENGE_TOO_MANY = "challenge_too_many"
    CHALLENGE_NOT_ACCEPTED = "challenge_not_accepted"
    REMATCH_NOT_OVER = "rematch_not_over"
    REMATCH_GONE = "rematch_gone"
    REMATCH_DECIDED = "rematch_decided"
    REMATCH_NOT_OFFERED = "rematch_not_offered"
    # Quick phrases at a table (games/core/state/phrases.py; sockets only).
    BAD_PHRASE = "bad_phrase"
    PHRASE_TOO_SOON = "phrase_too_soon"


#: The message of each code, translated when it is read (``gettext_lazy``).
MESSAGES = {
    ErrorCode.BAD_JSON: _("The message is not a JSON object."),
    ErrorCode.BAD_MESSAGE: _("The message is missing a field or has a wrong one."),
    ErrorCode.TOO_MANY_SOCKETS: _(
        "Too many pages of this site are open for you: close some of them, then reload this one."
    ),
    ErrorCode.UNKNOWN_TYPE: _("Unknown message type."),
    ErrorCode.RATE_LIMITED: _("Too many messages at once: wait a moment, then try again."),
    ErrorCode.UNAVAILABLE: _(
        "Connection trouble on the server: nothing was done. Trying again in a moment…"
    ),
    ErrorCode.NOT_FOUND: _("This table does not exist."),
    ErrorCode.LOGIN_REQUIRED: _("Log in to play."),
    ErrorCode.NOT_SEATED: _("You do not have a seat at this table."),
    ErrorCode.NOT_STARTED: _("The match has not started: the table is waiting for players."),
    ErrorCode.MATCH_OVER: _("The match is over."),
    ErrorCode.STALE: _(
        "The table has changed since your last update; here is the current state."
    ),
    ErrorCode.TIMED_OUT: _("Too late: your time ran out and the server already played for you."),
    ErrorCode.NOT_YOUR_TURN: _("It is not your turn."),
    ErrorCode.BAD_CARD: _("That is not a card."),
    ErrorCode.CARD_NOT_IN_HAND: _("That card is not in your hand."),
    ErrorCode.TABLE_FULL: _("This table is full."),
    ErrorCode.SEAT_TAKEN: _("That seat is taken."),
    ErrorCode.BAD_SEAT: _("That is not a seat of this table."),
    ErrorCode.ALREADY_SEATED: _("You already have a seat at this table."),
    ErrorCode.CANNOT_LEAVE: _("The match has started: you can no longer leave the table."),
    ErrorCode.BAD_RULES: _("These rules are not valid."),
    ErrorCode.RULES_NO_POINTS: _(
        "Under these rules nobody could ever score, so the match would never end: give points "
        "for the most cards, a basra or a jack basra, or count card points."
    ),
    ErrorCode.RATED_TARGET_TOO_LOW: _(
        "A rated table plays to at least %(count)s points: choose a higher target, or a casual "
        "table."
    ),
    ErrorCode.BAD_CLOCK: _(
        "Choose a time per play of 10, 20, 30 or 60 seconds; only a casual table may have no "
        "clock."
    ),
    ErrorCode.BAD_BOT: _("Choose a computer level (random, greedy, strong or expert) for a free seat."),
    ErrorCode.BOT_NOT_RATED: _("A match with a computer player cannot be rated."),
    ErrorCode.RANKED_BANNED: _(
        "A player of this match may not play rated matches for now (a moderator's decision): "
        "play a casual match instead."
    ),
    ErrorCode.BAD_WATCHERS: _("Choose who may watch: everyone, registered players or nobody."),
    ErrorCode.TOO_MANY_OPEN_TABLES: _(
        "You already sit at %(count)s tables waiting for players: start or leave one of them "
        "before opening another."
    ),
    ErrorCode.TOO_MANY_TABLES: _(
        "You already sit at %(count)s unfinished tables: finish or leave one of them before "
        "sitting at another."
    ),
    ErrorCode.CLIENT_SEED_EMPTY: _("Your client seed is empty: type at least one character."),
    ErrorCode.CLIENT_SEED_TOO_LONG: _("Your client seed is too long: at most 64 characters."),
    ErrorCode.CLIENT_SEED_NEWLINE: _("Your client seed must be on one line, without a line break."),
    ErrorCode.CLIENT_SEED_NOT_PRINTABLE: _(
        "Your client seed may hold only plain ASCII letters, digits, punctuation and spaces."
    ),
    ErrorCode.SEEDS_FIXED: _("The match has started: the client seeds can no longer change."),
    ErrorCode.NOT_BOT_SEAT: _("That seat is not played by the computer."),
    ErrorCode.REPLACED_BY_BOT: _(
        "You were away too long: the computer plays your seat for the rest of this match."
    ),
    ErrorCode.CLAIM_NOT_ALLOWED: _(
        "You can claim the win only when your opponent has left a two-player match."
    ),
    ErrorCode.OPPONENT_RETURNED: _("Your opponent is back: the win can no longer be claimed."),
    ErrorCode.RESIGN_OFFERED: _(
        "You already offered to resign; your side resigns when your partner does too."
    ),
    ErrorCode.ABORT_NOT_ALLOWED: _(
        "The match can be aborted only before its first play; resign instead."
    ),
    ErrorCode.MORE_TIME_NOT_ALLOWED: _(
        "More time is given only at a casual table with a clock (a rated match keeps its clock)."
    ),
    ErrorCode.MORE_TIME_NOT_YET: _(
        "You already have more time: ask again when less than one time per play is left."
    ),
    ErrorCode.BAD_WINNER: _("The winner of a match is side 0 or side 1, or nobody."),
    ErrorCode.ANALYSIS_LOGIN_REQUIRED: _("Log in to ask for an analysis."),
    ErrorCode.ANALYSIS_TOO_LONG: _(
        "This record is too long to analyse: the analysis takes records of at most %(count)s "
        "plays."
    ),
    ErrorCode.TOO_MANY_ANALYSES: _(
        "You already have %(count)s analyses waiting or running: ask for another one when one "
        "of them is done."
    ),
    ErrorCode.WATCH_NOBODY: _("The players of this table do not allow anyone to watch it."),
    ErrorCode.WATCH_LOGIN_REQUIRED: _(
        "Only registered players may watch this table: log in to watch it."
    ),
    ErrorCode.PRIVATE_TABLE: _(
        "This table is private: only its invite link lets you take a seat."
    ),
    ErrorCode.CHALLENGE_NOT_FOUND: _("This challenge does not exist."),
    ErrorCode.PLAYER_NOT_FOUND: _("There is no player by that name."),
    ErrorCode.CHALLENGE_SELF: _("You cannot challenge yourself."),
    ErrorCode.CHALLENGE_OWN: _("This is your own challenge: the other player answers it."),
    ErrorCode.CHALLENGE_NOT_YOURS: _("This challenge is addressed to another player."),
    ErrorCode.CHALLENGE_NOT_SENDER: _("Only the player who sent a challenge can cancel it."),
    ErrorCode.CHALLENGE_ANSWERED: _("This challenge was already answered or cancelled."),
    ErrorCode.CHALLENGE_EXPIRED: _("This challenge has expired."),
    ErrorCode.CHALLENGE_TWO_PLAYERS: _(
        "A challenge is for a two-player match; for four players open a table in the lobby."
    ),
    ErrorCode.CHALLENGE_PENDING: _(
        "You already have a challenge waiting for this player's answer."
    ),
    ErrorCode.CHALLENGE_NOT_ACCEPTED: _("This player does not accept challenges from you."),
    ErrorCode.CHALLENGE_TOO_MANY: _(
        "You have sent too many challenges lately: wait a few minutes before sending another."
    ),
    ErrorCode.REMATCH_NOT_OVER: _("A rematch can be asked for only once the match is over."),
    ErrorCode.REMATCH_GONE: _("No rematch: a player has left the table."),
    ErrorCode.REMATCH_DECIDED: _("No rematch: this match was decided away from the table."),
    ErrorCode.REMATCH_NOT_OFFERED: _("No rematch at an event's table: the event opens your next table."),
    ErrorCode.BAD_PHRASE: _("That is not one of the table's phrases: nothing was sent."),
    ErrorCode.PHRASE_TOO_SOON: _("Wait a few seconds before sending another phrase."),
}

def _setting(name: str) -> object:
    from django.conf import settings

    return getattr(settings, name)


def _analyses_per_user() -> dict[str, int]:
    from django.conf import settings

    return {"count": settings.BASRA_ANALYSIS_PER_USER}


#: Values some messages name (``%(count)s``): a dict, or a function giving one when the message
#: is read (for a setting).
_PARAMS = {
    ErrorCode.TOO_MANY_OPEN_TABLES: {"count": MAX_OPEN_TABLES},
    ErrorCode.TOO_MANY_TABLES: {"count": MAX_TABLES},
    ErrorCode.RATED_TARGET_TOO_LOW: {"count": RATED_TARGET_MIN},
    ErrorCode.TOO_MANY_ANALYSES: _analyses_per_user,
    ErrorCode.ANALYSIS_TOO_LONG: lambda: {"count": _setting("BASRA_ANALYSIS_MAX_PLAYS")},
}


def message(code: str) -> str:
    """The message of ``code`` in the active language.

    :raises ValueError: ``code`` is not an :class:`ErrorCode`.
    """
    return GameError(code).message


class Refusal(Exception):
    """A refused request, nothing changed: the one base of the core's and the apps' refusals.

    A subclass names its table: ``codes``, a ``StrEnum`` of stable codes clients act on, and
    ``messages``, each code's ``gettext_lazy`` text, which may name ``%(name)s`` parameters.
    ``code`` is one of ``codes``; ``params`` the values the message names, given when raised.
    :attr:`message` (and ``str(error)``) is formatted when it is read, in the language active
    then (the reader's: a page's request, a socket's ``translation.override``), not the one
    active where the refusal was raised (a worker thread, a management command).
    :meth:`as_json` is what a socket frame or a JSON response carries; :meth:`flash` what a page
    shows.

    :raises ValueError: ``code`` is not one of ``codes``.
    """

    codes: type[StrEnum]
    messages: dict

    def __init__(self, code: str, **params: object) -> None:
        self.code = self.codes(code)
        self.params = params
        # The code, never the text: a traceback or a log line reads the same in any language.
        super().__init__(self.code.value)

    def __reduce__(self):
        # Across processes (the clock's workers) with its parameters, not only its code.
        return _refusal, (type(self), self.code.value, self.params)

    def _params(self) -> dict:
        return self.params

    @property
    def message(self) -> str:
        """The message for a person, in the active language (a ``str``)."""
        text = str(self.messages[self.code])  # a lazy text is translated when it becomes a str
        params = self._params()
        return text % params if params else text

    def __str__(self) -> str:
        return self.message

    def as_json(self) -> dict[str, str]:
        """``{"code", "message"}``, the message in the active language (``docs/protocol.md``,
        "error"; the replays' JSON refusals)."""
        return {"code": str(self.code), "message": self.message}

    def flash(self, request: object) -> None:
        """Show the message on the page ``request`` leads to (``django.contrib.messages``)."""
        from django.contrib import messages

        messages.error(request, self.message)


def _refusal(cls: type[Refusal], code: str, params: dict) -> Refusal:
    return cls(code, **params)


class GameError(Refusal):
    """A refused request of the live core: ``code`` an :class:`ErrorCode`, its message from
    :data:`MESSAGES` (see :class:`Refusal`).

    The values a code's message names come from :data:`_PARAMS` (read with the message, for a
    setting) unless given when raised.
    """

    codes = ErrorCode
    messages = MESSAGES

    def _params(self) -> dict:
        if self.params:
            return self.params
        params = _PARAMS.get(self.code)
        if callable(params):
            params = params()
        return params or {}

    @classmethod
    def of(cls, code: str) -> GameError:
        """The error for ``code`` (kept for callers that read better with it)."""
        return cls(code)


#: The engine's ``IllegalPlayError.reason`` values and the codes they become. A round that is
#: over or not dealt yet has no seat to move, so nobody's turn.
_ENGINE_REASONS = {
    "not_in_hand": ErrorCode.CARD_NOT_IN_HAND,
    "not_your_turn": ErrorCode.NOT_YOUR_TURN,
    "round_over": ErrorCode.NOT_YOUR_TURN,
    "no_round": ErrorCode.NOT_YOUR_TURN,
    "match_over": ErrorCode.MATCH_OVER,
}


#: The fair shuffle's ``SeedError.reason`` values for a person's client seed and their codes.
_SEED_REASONS = {
    "empty": ErrorCode.CLIENT_SEED_EMPTY,
    "too_long": ErrorCode.CLIENT_SEED_TOO_LONG,
    "newline": ErrorCode.CLIENT_SEED_NEWLINE,
    "not_printable": ErrorCode.CLIENT_SEED_NOT_PRINTABLE,
}


def check_client_seed(seed: object) -> str:
    """``seed`` if it is a valid client seed for a person (RULES.md, "Provably fair shuffle" 2).

    :raises GameError: ``client_seed_empty``, ``client_seed_too_long``, ``client_seed_newline`` or
        ``client_seed_not_printable``, from ``games.engine.shuffle.check_client_seed``'s reason.
    """
    try:
        shuffle.check_client_seed(seed)
    except engine.SeedError as error:
        code = _SEED_REASONS.get(error.reason, ErrorCode.CLIENT_SEED_NOT_PRINTABLE)
        raise GameError(code) from None
    return seed


def from_engine(error: engine.BasraError) -> GameError:
    """The :class:`GameError` for an error the rules engine raised on a play.

    ``CardError`` (not a card code, RULES.md "Names") is ``bad_card``; an ``IllegalPlayError`` maps
    by its ``reason`` (``games.engine.errors``); anything else the engine refuses is
    ``bad_card`` too (the request named no playable card).
    """
    if isinstance(error, engine.IllegalPlayError):
        return GameError(_ENGINE_REASONS.get(error.reason, ErrorCode.BAD_CARD))
    return GameError(ErrorCode.BAD_CARD)
