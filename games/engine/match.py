"""A match: rounds until a side reaches the target, and what each seat may see (RULES.md).

>>> from games.engine.cards import full_deck
>>> m = Match(Rules(target=30), dealer=1)
>>> m.needs_deal, m.round_number
(True, 0)
>>> r = m.start_round(full_deck())
>>> while m.round.turn is not None:
...     _ = m.play(m.round.legal_plays()[0])
>>> m.dealer, m.needs_deal or m.over
(0, True)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .capture import Capture
from .cards import Card
from .errors import GameStateError, IllegalPlayError, SeatError
from .round import Play, Round, RoundScore, check_seat
from .rules import Rules

__all__ = ["Match", "SeatView", "RECORD_FORMAT", "write_record"]

#: The ``format`` of a game record (RULES.md, "Game record").
RECORD_FORMAT = "basra-record/1"


def _codes(cards: Sequence[Card]) -> list[str]:
    return [c.code for c in cards]


def _code(card: Card | str) -> str:
    return card.code if isinstance(card, Card) else card


def write_record(
    rules: Rules | Mapping[str, Any],
    seats: Sequence[str],
    rounds: Iterable[Mapping[str, Any]],
    *,
    headers: Mapping[str, Any] | None = None,
    shuffle: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """A ``basra-record/1`` record, JSON-ready: the one place its shape is written.

    :param rules: a :class:`Rules`, or its ``to_dict()`` as stored (kept as given).
    :param seats: the players' names by seat, one string per seat.
    :param rounds: per round ``{"dealer": seat, "deck": 52 cards or codes, "plays": cards or
        codes in order, "timeouts"?: indices of the plays the clock made}``; ``timeouts`` is
        written only when it names a play.
    :param headers: the optional ``"headers"`` (RULES.md, "Game record"), written when given.
    :param shuffle: the optional ``"shuffle"`` (``basra-shuffle/1``), written when given.
    :returns: ``{"format", "rules", "seats", "rounds": [{"dealer", "deck", "plays",
        "timeouts"?}], "headers"?, "shuffle"?}``, cards as codes.
    :raises SeatError: (a ``ValueError``) unless ``seats`` is one string per seat.
    """
    rules_dict = rules.to_dict() if isinstance(rules, Rules) else dict(rules)
    players = rules_dict.get("players", 2)
    names = [] if isinstance(seats, str) else list(seats)
    if len(names) != players or not all(isinstance(s, str) for s in names):
        raise SeatError(f"seats must be {players} names, one per seat")
    written = []
    for data in rounds:
        entry = {
            "dealer": data["dealer"],
            "deck": [_code(c) for c in data["deck"]],
            "plays": [_code(c) for c in data["plays"]],
        }
        if data.get("timeouts"):
            entry["timeouts"] = list(data["timeouts"])
        written.append(entry)
    record: dict[str, Any] = {
        "format": RECORD_FORMAT, "rules": rules_dict, "seats": names, "rounds": written,
    }
    if headers is not None:
        record["headers"] = dict(headers)
    if shuffle is not None:
        record["shuffle"] = dict(shuffle)
    return record


@dataclass(frozen=True)
class SeatView:
    """What one seat may know (notes/view_spec.md), a plain value with no reference to the match.

    ``seat``: the seat it is for, ``None`` for a spectator (then ``hand`` is empty).
    ``players``, ``rules``; ``round_number`` (1-based, 0 before the first deal); ``dealer`` (of
    the current round; before the first deal, of the first); ``turn`` (``None`` when no round is
    being played); ``hand`` (this seat's own cards only); ``floor``; ``hand_sizes`` (per seat);
    ``stock_size``; ``pile_sizes``, ``basras``, ``jack_basras`` (per side, this round);
    ``scores`` (match totals per side of the finished rounds); ``played`` (``(seat, card)`` of
    every play this round, in order); ``last_play`` (a :class:`Play` or ``None``); ``round_over``,
    ``match_over``, ``winner`` (side or ``None``).

    Beyond the spec, all public facts too: ``round_score`` (the finished round's
    :class:`RoundScore`, else ``None``); ``initial_floor`` (this round's first floor, after the
    burial): with ``played`` it tells a bot every card that reached the floor. The Jacks/7D
    buried under the stock at the deal are left out on purpose: they are dealt into a hand later,
    and a view never names a card of another seat's hand (RULES.md, "Matches, seat views").
    """

    seat: int | None
    players: int
    rules: Rules
    round_number: int
    dealer: int
    turn: int | None
    hand: tuple[Card, ...]
    floor: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    stock_size: int
    pile_sizes: tuple[int, int]
    basras: tuple[int, int]
    jack_basras: tuple[int, int]
    scores: tuple[int, int]
    played: tuple[tuple[int, Card], ...]
    last_play: Play | None
    round_over: bool
    match_over: bool
    winner: int | None
    round_score: RoundScore | None = None
    initial_floor: tuple[Card, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """The view as JSON-friendly values: cards as codes, ``last_play.taken`` sorted."""
        last = self.last_play
        return {
            "seat": self.seat,
            "players": self.players,
            "rules": self.rules.to_dict(),
            "round_number": self.round_number,
            "dealer": self.dealer,
            "turn": self.turn,
            "hand": _codes(self.hand),
            "floor": _codes(self.floor),
            "hand_sizes": list(self.hand_sizes),
            "stock_size": self.stock_size,
            "pile_sizes": list(self.pile_sizes),
            "basras": list(self.basras),
            "jack_basras": list(self.jack_basras),
            "scores": list(self.scores),
            "played": [{"seat": seat, "card": card.code} for seat, card in self.played],
            "last_play": None
            if last is None
            else {
                "seat": last.seat,
                "card": last.card.code,
                "taken": _codes(sorted(last.taken)),
                "basra": None if last.basra is None else last.basra.value,
            },
            "round_over": self.round_over,
            "match_over": self.match_over,
            "winner": self.winner,
            "round_score": None if self.round_score is None else self.round_score.to_dict(),
            "initial_floor": _codes(self.initial_floor),
        }


def round_view(
    rules: Rules, rnd: Round, round_number: int, scores: tuple[int, int], seat: int | None,
    *, match_over: bool = False, winner: int | None = None,
) -> SeatView:
    """The :class:`SeatView` of ``seat`` (``None``: a spectator) on ``rnd`` as it stands now.

    ``round_number``: 1-based; ``scores``: the match totals to show (per side); ``match_over``
    and ``winner``: the match's. :meth:`Match.view` and the record's walker
    (:meth:`games.engine.record.Step.view`, on a round replayed to a past play) both build
    their views here.
    """
    hands = rnd.hands
    plays = rnd.plays
    piles = rnd.piles
    return SeatView(
        seat=seat,
        players=rules.players,
        rules=rules,
        round_number=round_number,
        dealer=rnd.dealer,
        turn=rnd.turn,
        hand=() if seat is None else hands[seat],
        floor=rnd.floor,
        hand_sizes=tuple(map(len, hands)),
        stock_size=len(rnd.stock),
        pile_sizes=(len(piles[0]), len(piles[1])),
        basras=rnd.basras,
        jack_basras=rnd.jack_basras,
        scores=scores,
        played=tuple((p.seat, p.card) for p in plays),
        last_play=plays[-1] if plays else None,
        round_over=rnd.over,
        match_over=match_over,
        winner=winner,
        round_score=rnd.score_breakdown() if rnd.over else None,
        initial_floor=rnd.initial_floor,
    )


class Match:
    """Rounds until a side has ``rules.target`` points (RULES.md, "Winning a match").

    ``Match(rules, dealer=0)``: no round yet; ``dealer`` deals the first. Each round is dealt
    from a deck order the caller gives (:meth:`start_round`); when a round ends, its points are
    added to :attr:`scores`, :attr:`dealer` moves to the next seat, and the match is over once a
    side has reached the target with more points than the other (equal top scores: another
    round).

    :raises SeatError: (a ``ValueError``) if ``dealer`` is not a seat.
    :raises TypeError: if ``rules`` is not a ``Rules``.
    """

    def __init__(self, rules: Rules, dealer: int = 0) -> None:
        if not isinstance(rules, Rules):
            raise TypeError(f"rules must be a Rules, not {type(rules).__name__}")
        self.rules = rules
        self._dealer = check_seat(dealer, rules.players, "dealer")
        self._rounds: list[Round] = []
        self._round_scores: list[tuple[int, int]] = []
        self._scores = (0, 0)
        self._winner: int | None = None

    # --- state ------------------------------------------------------------------------------

    @property
    def dealer(self) -> int:
        """The dealer of the next round to deal (the current round's dealer while it is played)."""
        return self._dealer

    @property
    def round(self) -> Round | None:
        """The current round, or the last finished one until the next deal; ``None`` before any."""
        return self._rounds[-1] if self._rounds else None

    @property
    def rounds(self) -> tuple[Round, ...]:
        """Every round dealt so far, in order (the last may be in progress)."""
        return tuple(self._rounds)

    @property
    def round_number(self) -> int:
        """The 1-based number of the current (or last) round; 0 before the first deal."""
        return len(self._rounds)

    @property
    def round_scores(self) -> tuple[tuple[int, int], ...]:
        """The points of each finished round, per side, in order."""
        return tuple(self._round_scores)

    @property
    def scores(self) -> tuple[int, int]:
        """Match totals of side 0 and side 1 over the finished rounds."""
        return self._scores

    @property
    def over(self) -> bool:
        """True once a side has won."""
        return self._winner is not None

    @property
    def winner(self) -> int | None:
        """The winning side (0 or 1), or ``None`` while the match goes on."""
        return self._winner

    @property
    def needs_deal(self) -> bool:
        """True when no round is being played and the match is not over: call :meth:`start_round`."""
        return self._winner is None and (not self._rounds or self._rounds[-1].over)

    # --- actions ----------------------------------------------------------------------------

    def start_round(self, deck: Sequence[Card | str]) -> Round:
        """Deal the next round from ``deck`` (52 cards or codes, ``deck[0]`` on top) and return it.

        :raises GameStateError: (a ``ValueError``) if a round is being played or the match is over.
        :raises DeckError: (a ``ValueError``) if ``deck`` is not the 52 distinct cards.
        :raises CardError: (a ``ValueError``) for an item that is not a card or a card code.
        """
        if self._winner is not None:
            raise GameStateError("the match is over")
        if self._rounds and not self._rounds[-1].over:
            raise GameStateError("a round is being played")
        rnd = Round(self.rules, deck, self._dealer)
        self._rounds.append(rnd)
        return rnd

    def play(self, card: Card | str, *, seat: int | None = None) -> Capture:
        """Play ``card`` (a card or code) for the seat to move; returns what it took.

        ``seat``, if given, must be the seat to move (a check for callers acting for a seat).
        When the play ends the round, the round's points are added, the dealer moves on and the
        winner, if any, is decided at once.

        :raises IllegalPlayError: (a ``ValueError``) with ``reason`` ``"match_over"``,
            ``"no_round"`` (nothing dealt yet), ``"round_over"`` (the round ended and the next is
            not dealt yet), ``"not_your_turn"`` or ``"not_in_hand"``.
        :raises CardError: (a ``ValueError``) if ``card`` is neither a card nor a card code.
        """
        if self._winner is not None:
            raise IllegalPlayError("the match is over", reason="match_over")
        rnd = self.round
        if rnd is None:
            raise IllegalPlayError("no round has been dealt", reason="no_round")
        if rnd.over:
            raise IllegalPlayError(
                "the round is over and the next one is not dealt yet", reason="round_over"
            )
        if seat is not None and seat != rnd.turn:
            raise IllegalPlayError(
                f"it is seat {rnd.turn}'s turn, not seat {seat}'s", reason="not_your_turn"
            )
        result = rnd.play(card)
        if rnd.over:
            self._finish(rnd)
        return result

    def _finish(self, rnd: Round) -> None:
        """Add a finished round's points; move the dealer on; decide the winner (seeds rule 8)."""
        points = rnd.score()
        self._round_scores.append(points)
        self._scores = scores = (self._scores[0] + points[0], self._scores[1] + points[1])
        self._dealer = (rnd.dealer + 1) % self.rules.players
        if max(scores) >= self.rules.target and scores[0] != scores[1]:
            self._winner = 0 if scores[0] > scores[1] else 1

    # --- views and records ------------------------------------------------------------------

    def view(self, seat: int) -> SeatView:
        """What ``seat`` may know now: its own hand and the public facts, never another hand.

        :raises SeatError: (a ``ValueError``) if ``seat`` is not a seat.
        """
        check_seat(seat, self.rules.players)
        return self._view(seat)

    def public_view(self) -> SeatView:
        """What a spectator may know: the seat view with ``seat=None`` and an empty hand."""
        return self._view(None)

    def _view(self, seat: int | None) -> SeatView:
        rules = self.rules
        rnd = self.round
        if rnd is None:
            return SeatView(
                seat=seat,
                players=rules.players,
                rules=rules,
                round_number=0,
                dealer=self._dealer,
                turn=None,
                hand=(),
                floor=(),
                hand_sizes=(0,) * rules.players,
                stock_size=0,
                pile_sizes=(0, 0),
                basras=(0, 0),
                jack_basras=(0, 0),
                scores=self._scores,
                played=(),
                last_play=None,
                round_over=False,
                match_over=self.over,
                winner=self._winner,
            )
        return round_view(
            rules, rnd, len(self._rounds), self._scores, seat, match_over=self.over,
            winner=self._winner,
        )

    def to_record(self, seats: Sequence[str]) -> dict[str, Any]:
        """The match as a ``basra-record/1`` game record (RULES.md, "Game record"), JSON-ready.

        ``seats``: the players' names by seat. Every round dealt so far is in it with its whole
        deck order and its plays, so :func:`~games.engine.record.replay` rebuilds this match.

        :raises SeatError: (a ``ValueError``) unless ``seats`` is one string per seat.
        """
        return write_record(
            self.rules,
            seats,
            [{"dealer": r.dealer, "deck": r.deck, "plays": [p.card for p in r.plays]}
             for r in self._rounds],
        )

    def __repr__(self) -> str:
        state = f"won by side {self._winner}" if self.over else f"round {len(self._rounds)}"
        return f"<Match {self.rules.players} players, {state}, scores {self._scores}>"
