"""The engine's errors: a small tree under ``ValueError`` (STYLE.md, after python-chess).

Every error the engine raises for bad input is a :class:`BasraError`, so a caller that only wants
"this input was refused" catches that (or plain ``ValueError``); a caller that maps errors to
protocol codes (docs/protocol.md) looks at the subclass or at ``IllegalPlayError.reason``.
"""

from __future__ import annotations

__all__ = [
    "BasraError",
    "CardError",
    "DeckError",
    "SeatError",
    "RulesError",
    "IllegalPlayError",
    "GameStateError",
    "RecordError",
    "SeedError",
]


class BasraError(ValueError):
    """Base of every error the engine raises for bad input or a move it refuses."""


class CardError(BasraError):
    """Not a card: an unknown card code (``"1H"``, ``"11S"``, ``"5X"``) or a value that is not a card."""


class DeckError(BasraError):
    """A deck that is not exactly the 52 distinct cards."""


class SeatError(BasraError):
    """A seat number (dealer, view) that is not ``0 .. players - 1``."""


class RulesError(BasraError):
    """A ``Rules`` option that does not exist or has a value outside its range."""


class GameStateError(BasraError):
    """An action that is not possible now: dealing while a round is running, scoring an unfinished round."""


class IllegalPlayError(BasraError):
    """A play the rules refuse (RULES.md, "Names": a play is one card from the hand of the seat to move).

    ``reason`` is a stable code for callers that map errors to messages:
    ``"not_in_hand"`` (the card is not in the hand of the seat to move), ``"not_your_turn"``
    (a seat was named and it is not that seat's turn), ``"round_over"`` (the round has ended),
    ``"no_round"`` (no round has been dealt), ``"match_over"`` (the match has been won).
    """

    def __init__(self, message: str, *, reason: str) -> None:
        super().__init__(message)
        self.reason = reason


class RecordError(BasraError):
    """A game record (``basra-record/1``) that is malformed or breaks the rules.

    ``round`` and ``play`` are 1-based positions in the record (``None`` when the fault is not in
    a particular round or play); the message names them too.
    """

    def __init__(self, message: str, *, round: int | None = None, play: int | None = None) -> None:
        where = []
        if round is not None:
            where.append(f"round {round}")
        if play is not None:
            where.append(f"play {play}")
        super().__init__(f"{', '.join(where)}: {message}" if where else message)
        self.round = round
        self.play = play


class SeedError(BasraError):
    """Input the fair shuffle refuses (RULES.md, "Provably fair shuffle (``basra-shuffle/1``)").

    A server seed that is not 64 hex digits, a client seed that is not 1–64 printable ASCII
    characters without a newline (``""`` is allowed only for a computer seat), no seats at all,
    or a round number below 1 for a deck.

    ``reason`` is a stable code for callers that map errors to their own (translated) messages:
    ``"server_seed"`` (not 64 hex digits), ``"empty"`` (a person's client seed is empty),
    ``"too_long"`` (over 64 characters), ``"newline"`` (holds a line break), ``"not_printable"``
    (a character outside printable ASCII, space to ``~``), ``"seats"`` (the client seeds are not
    a sequence of strings, one per seat), ``"round_number"`` (not an integer ≥ 1).
    """

    def __init__(self, message: str, *, reason: str) -> None:
        super().__init__(message)
        self.reason = reason
