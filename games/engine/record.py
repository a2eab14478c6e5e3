"""Game records, ``basra-record/1`` (RULES.md, "Game record"): the one writer, the one walker.

A record holds the rules, the players' names by seat, and for every round its dealer, its whole
deck order and its plays (card codes, in order)::

    {"format": "basra-record/1",
     "rules": {"players": 2, "target": 101, ...every Rules field},
     "seats": ["alice", "bob"],
     "rounds": [{"dealer": 0, "deck": ["7D", "AS", ...52 codes], "plays": ["5H", "KD", ...]}]}

:func:`write_record` (defined beside :class:`~games.engine.match.Match`, whose ``to_record``
goes through it, as the site's log does) writes one. :func:`steps` walks one play by play, never shuffling
(STYLE.md, "In this project" 2), and :class:`Walk` is the same walk over a match already under
way (the site's catch-up of its log); :func:`replay` is the walk to its end. The last round may
be unfinished, so the site can rebuild a match in progress from its log; every earlier round
must be complete.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from .capture import Capture
from .cards import Card
from .errors import BasraError, RecordError
from .match import RECORD_FORMAT, Match, SeatView, round_view, write_record
from .round import Round
from .rules import Rules

__all__ = ["ReplayResult", "Step", "Steps", "Walk", "replay", "steps", "write_record", "RECORD_FORMAT"]


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



class Step(NamedTuple):
    """One play of a walked match, made: where it is, who played what, what it took.

    ``round``: the round's 0-based index in the match (``record["rounds"][round]``); ``play``:
    the play's 0-based index in its round; ``seat``: who played; ``card``: the :class:`Card`
    played; ``capture``: what it took (:class:`Capture`: ``taken``, the floor cards, empty when
    the card stayed; ``basra``: ``None``, ``"basra"`` or ``"jack_basra"``); ``walk``: the
    :class:`Walk` that made it. :meth:`view` is the seat's view before the play, computed only
    when asked: the site's catch-up of its log, on the live path, never asks. A named tuple, as
    :class:`~games.engine.round.Play` is, because the catch-up makes one per play it applies.
    """

    round: int
    play: int
    seat: int
    card: Card
    capture: Capture
    walk: Walk

    def view(self) -> SeatView:
        """The :class:`SeatView` of :attr:`seat` just before this play (as ``Match.view`` gave
        it then), computed on the first call and kept by the walk.

        The round is played again from its deck up to this play, a copy the walk keeps and
        moves on, so the views of a round's steps asked in order cost one more pass over it.
        """
        return self.walk._view_before(self.round, self.play, self.seat)

    def __repr__(self) -> str:
        return f"<Step round {self.round}, play {self.play}: seat {self.seat} {self.card}>"


_new_step = tuple.__new__  # a Step without the Python-level __new__ of a named tuple: the live path


class Walk:
    """A match walked forward move by move: each deal, each play making a :class:`Step`.

    ``Walk(match)`` starts wherever ``match`` stands (a match rebuilt earlier and kept in
    memory: the site's catch-up); :attr:`match` is that same object, changed by each move.
    """

    __slots__ = ("match", "_past")

    def __init__(self, match: Match) -> None:
        self.match = match
        # What the views of past plays need, made when the first is asked for: the live
        # catch-up makes a walk for every few events and asks for none.
        self._past: _Past | None = None

    def deal(self, deck: Sequence[Card | str]) -> Round:
        """Deal the next round from ``deck`` (``Match.start_round``; its errors)."""
        return self.match.start_round(deck)

    def play(self, card: Card | str) -> Step:
        """Play ``card`` for the seat to move (``Match.play``; its errors) and return the step.

        :raises IllegalPlayError: (a ``ValueError``) as ``Match.play``; nothing is changed.
        :raises CardError: (a ``ValueError``) if ``card`` is neither a card nor a card code.
        """
        match = self.match
        capture = match.play(card)
        rounds = match._rounds
        made = rounds[-1]._plays
        last = made[-1]
        return _new_step(
            Step, (len(rounds) - 1, len(made) - 1, last.seat, last.card, capture, self)
        )

    def _view_before(self, index: int, play: int, seat: int) -> SeatView:
        """``seat``'s view before play ``play`` of round ``index`` (both 0-based), kept."""
        past = self._past
        if past is None:
            past = self._past = _Past()
        view = past.views.get((index, play))
        if view is None:
            view = past.views[index, play] = past.view(self.match, index, play, seat)
        return view


class _Past:
    """The views a walk has given, and a copy of one round replayed to a past play (a
    ``Round`` from its deck: moved on for a later play of that round, made again otherwise)."""

    __slots__ = ("views", "round", "index", "at")

    def __init__(self) -> None:
        self.views: dict[tuple[int, int], SeatView] = {}
        self.round: Round | None = None
        self.index = -1
        self.at = 0

    def view(self, match: Match, index: int, play: int, seat: int) -> SeatView:
        live = match._rounds[index]
        copy = self.round
        if copy is None or self.index != index or self.at > play:
            copy = self.round = Round(match.rules, live.deck, live.dealer)
            self.index, self.at = index, 0
        made = live._plays
        while self.at < play:
            copy.play(made[self.at].card)
            self.at += 1
        # The totals before the round: the rounds before it are finished. A play was made, so
        # the match was not over before it.
        before = match._round_scores[:index]
        scores = (sum(s[0] for s in before), sum(s[1] for s in before))
        return round_view(match.rules, copy, index + 1, scores, seat)


class Steps:
    """The steps of a record, an iterator made by :func:`steps`.

    ``rules`` (:class:`Rules`) and ``seats`` (names by seat) are read when it is made;
    :attr:`match` is the :class:`Match` as it stands after the step last given (``None`` until
    the first round is dealt; after the last step, the match the record makes).
    """

    def __init__(
        self, record: Mapping[str, Any], on_deal: Callable[[Match], object] | None = None,
    ) -> None:
        if not isinstance(record, Mapping):
            raise RecordError(f"a record is a mapping, not {type(record).__name__}")
        fmt = record.get("format")
        if fmt != RECORD_FORMAT:
            raise RecordError(f"the record's format is {fmt!r}, not {RECORD_FORMAT!r}")
        try:
            self.rules = rules = Rules.from_dict(_field(record, "rules", {}))
        except BasraError as error:
            raise RecordError(f"rules: {error}") from error
        seats = _field(record, "seats", {})
        if len(seats) != rules.players or not all(isinstance(s, str) for s in seats):
            raise RecordError(f"'seats' must be {rules.players} names, one per seat")
        self.seats: tuple[str, ...] = tuple(seats)
        self.match: Match | None = None
        self._rounds = _field(record, "rounds", {})
        self._on_deal = on_deal
        self._steps = self._walk()

    def __iter__(self) -> Iterator[Step]:
        return self._steps  # the generator itself: a for loop resumes it with no call between

    def __next__(self) -> Step:
        return next(self._steps)

    def _walk(self) -> Iterator[Step]:
        rounds = self._rounds
        walk: Walk | None = None
        for number, data in enumerate(rounds, 1):
            where = {"round": number}
            if not isinstance(data, Mapping):
                raise RecordError("a round is a mapping of dealer, deck and plays", **where)
            dealer = _field(data, "dealer", where)
            deck = _field(data, "deck", where)
            plays = _field(data, "plays", where)
            if walk is None:
                try:
                    walk = Walk(Match(self.rules, dealer))
                except BasraError as error:
                    raise RecordError(str(error), **where) from error
                self.match = match = walk.match
            elif match.over:
                raise RecordError(
                    f"the match was won by side {match.winner} before this round", **where
                )
            elif dealer != match.dealer:
                raise RecordError(f"the dealer is seat {match.dealer}, not seat {dealer}", **where)
            try:
                rnd = walk.deal(deck)
            except BasraError as error:
                raise RecordError(f"deck: {error}", **where) from error
            if self._on_deal is not None:
                self._on_deal(match)
            play = walk.play
            for index, code in enumerate(plays, 1):
                try:
                    step = play(code)
                except BasraError as error:
                    raise RecordError(str(error), round=number, play=index) from error
                yield step
            if number < len(rounds) and not rnd.over:
                raise RecordError(
                    f"the round ends after {len(plays)} plays, but a round has 48", **where
                )
        if walk is None:
            # No round yet: the first dealer is unknown to the record, seat 0 stands in.
            self.match = Match(self.rules, 0)


def steps(
    record: Mapping[str, Any], *, on_deal: Callable[[Match], object] | None = None,
) -> Steps:
    """Walk a ``basra-record/1`` record play by play: a :class:`Step` for each play, in order.

    The record is checked as it is walked, as :func:`replay` checks it. ``on_deal``, if given,
    is called with the match each time a round has just been dealt (before its first play; also
    for a last round with no play yet). ``Steps.match`` follows the walk.

    :raises RecordError: (a ``ValueError``) at once for a malformed header (format, rules,
        seats, rounds); while walking for a round or a play that breaks the rules, the message
        naming the round and the play (1-based), as :func:`replay`'s.
    """
    return Steps(record, on_deal)


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
    walked = steps(record)
    for _ in walked:
        pass
    match = walked.match
    assert match is not None  # the walk's end always leaves one
    return ReplayResult(scores=match.scores, winner=match.winner, seats=walked.seats, match=match)
