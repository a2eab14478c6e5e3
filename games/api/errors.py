"""The API's refusals: ``{"error": {"code", "message"}}`` with the status API.md gives each.

The core's refusals (``GameError``: the table socket's codes, ``docs/protocol.md``) keep their
code and message; the API's own are :class:`ApiError`.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from games.core.for_apps import GameError

#: The status of the codes that are not 400 (API.md, "Errors").
STATUS = {
    "unauthorized": 401,
    "missing_scope": 403,
    "not_bot": 403,
    "bot_account": 403,
    "not_found": 404,
    "challenge_not_found": 404,
    "player_not_found": 404,
    "people_no_such_player": 404,
    "stale": 409,
    "rate_limited": 429,
    "chat_rate_limited": 429,
    "unavailable": 503,
    "stream_limit": 429,
}

MESSAGES = {
    "unauthorized": _("A valid token is needed: Authorization: Bearer <token>."),
    "missing_scope": _("This token does not have the scope this call needs."),
    "token_in_query": _("Send the token in the Authorization header, never in the address."),
    "not_found": _("Not found."),
    "not_bot": _("Only a bot account plays through the Bot API."),
    "bot_account": _("A bot account plays through the Bot API, not the Board API."),
    "has_played": _("Only an account that has never sat at a table can become a bot."),
    "engaged": _("Leave your quick-pairing queue and your tournaments first: a bot plays in neither."),
    "rate_limited": _("Too many requests: try again after the Retry-After seconds."),
    "stream_limit": _("Too many streams open for this account."),
    "unavailable": _("The site cannot answer now: try again after the Retry-After seconds."),
    "bad_request": _("The request is not valid."),
    "bad_level": _("No such computer level."),
    "bad_target": _("The target is outside the tables' range."),
    "bad_players": _("A match has 2 or 4 players."),
    "too_many_tables": _("This account already plays at as many tables as it may."),
    "reserved_username": _("That name is reserved: challenge the computer with challenge/ai."),
}


class ApiError(Exception):
    """A refusal of the API: ``code`` (a key of :data:`MESSAGES`), its status, headers."""

    def __init__(self, code: str, *, status: int | None = None, headers: dict | None = None,
                 message: str | None = None) -> None:
        super().__init__(code)
        self.code = code
        self.status = status or STATUS.get(code, 400)
        self.headers = headers or {}
        self.message = message

    def body(self) -> dict:
        return {"error": {"code": self.code, "message": str(self.message or MESSAGES.get(self.code, self.code))}}


def from_game_error(error: Refusal) -> ApiError:
    """The core's refusal as the API answers it: the same code and message; a refusal whose
    parameters hold ``retry_after`` (whole seconds: the chat's flood limit) answers with a
    ``Retry-After`` header, as the API's own 429s do."""
    retry = error.params.get("retry_after")
    headers = {"Retry-After": str(retry)} if retry is not None else None
    return ApiError(error.code, message=error.message, headers=headers)
