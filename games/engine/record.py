"""Replaying a game record, ``basra-record/1`` (RULES.md, "Game record").

A record holds the rules, the players' names by seat, and for every round its dealer, its whole
deck order and its plays (card codes, in order)::

    {"format": "basra-record/1",
     "rules": {"players": 2, "target": 101, ...every Rules field},
     "seats": ["alice", "bob"],
     "rounds": [{"dealer": 0, "deck": ["7D", "AS", ...52 codes], "plays": ["5H", "KD", ...]}]}

:meth:`Match.to_record <games.engine.match.Match.to_record>` writes one; :func:`replay` plays it
again, never shuffling (STYLE.md, "In this project" 2). The last round may be unfinished, so the
site can rebuild a match in progress from its log; every earlier round must be complete.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .cards import Card
from .errors import BasraError, RecordError
from .match import RECORD_FORMAT, Match
from .rules import Rules

__all__ = ["ReplayResult", "replay", "RECORD_FORMAT"]


@dataclass(frozen=True)
class ReplayResult:
    """The outcome of :func:`replay`.

    ``scores``: match totals per side; ``winner``: 0, 1 or ``None`` (not decided yet);
    ``seats``: the players' names by seat; ``match``: the :class:`Match` after the last play,
    ready to go on if it is not over.
    """

    scores: tuple[int, int]
    winner: int | None
    seats: tuple[str, ...]
    match: Match


_KINDS: dict[str, tuple[tuple[type, ...], str]] = {
    "rules": ((Mapping,), "an object"),
    "seats": ((list, tuple), "a list"),
    "rounds": ((list, tuple), "a list"),
    "dealer": ((int,), "an integer"),
    "deck": ((list, tuple), "a list"),
    "plays": ((list, tuple), "a list"),
}


def _field(data: Mapping[str, Any], key: str, where: dict[str, int]) -> Any:
    """``data[key]`` if present and of the kind a record holds there."""
    if key not in data:
        raise RecordError(f"no {key!r} given", **where)
    value = data[key]
    kinds, name = _KINDS[key]
    # bool is an int, and no field of a record is a bool.
    if not isinstance(value, kinds) or isinstance(value, bool):
        raise RecordError(f"{key!r} must be {name}, not {type(value).__name__}", **where)
    return value


def replay(record: Mapping[str, Any]) -> ReplayResult:
    """Play a ``basra-record/1`` record again and return the match it makes.

    Every round must be dealt by the dealer the rules give it (the first round's dealer is the
    record's; then each next seat, RULES.md "Dealing" 4), every play must be a card in the hand
    of the seat to move, every round but the last must be played out, and no round may follow
    the end of the match.

    :raises RecordError: (a ``ValueError``) for a malformed record or one that breaks the
        rules; the message names the round and the play (1-based), e.g.
        ``"round 2, play 17: 5H is not in the hand of seat 1, the seat to play"``.
    """
    if not isinstance(record, Mapping):
        raise RecordError(f"a record is a mapping, not {type(record).__name__}")
    fmt = record.get("format")
    if fmt != RECORD_FORMAT:
        raise RecordError(f"the record's format is {fmt!r}, not {RECORD_FORMAT!r}")
    try:
        rules = Rules.from_dict(_field(record, "rules", {}))
    except BasraError as error:
        raise RecordError(f"rules: {error}") from error
    seats = _field(record, "seats", {})
    if len(seats) != rules.players or not all(isinstance(s, str) for s in seats):
        raise RecordError(f"'seats' must be {rules.players} names, one per seat")
    rounds = _field(record, "rounds", {})

    match: Match | None = None
    for number, data in enumerate(rounds, 1):
        where = {"round": number}
        if not isinstance(data, Mapping):
            raise RecordError("a round is a mapping of dealer, deck and plays", **where)
        dealer = _field(data, "dealer", where)
        deck = _field(data, "deck", where)
        plays = _field(data, "plays", where)
        if match is None:
            try:
                match = Match(rules, dealer)
            except BasraError as error:
                raise RecordError(str(error), **where) from error
        elif match.over:
            raise RecordError(
                f"the match was won by side {match.winner} before this round", **where
            )
        elif dealer != match.dealer:
            raise RecordError(f"the dealer is seat {match.dealer}, not seat {dealer}", **where)
        try:
            match.start_round(deck)
        except BasraError as error:
            raise RecordError(f"deck: {error}", **where) from error
        for index, code in enumerate(plays, 1):
            try:
                match.play(Card.from_code(code))
            except BasraError as error:
                raise RecordError(str(error), round=number, play=index) from error
        if number < len(rounds) and not match.round.over:  # type: ignore[union-attr]
            raise RecordError(
                f"the round ends after {len(plays)} plays, but a round has 48", **where
            )

    if match is None:
        # No round yet: the first dealer is unknown to the record, seat 0 stands in.
        match = Match(rules, 0)
    return ReplayResult(scores=match.scores, winner=match.winner, seats=tuple(seats), match=match)
