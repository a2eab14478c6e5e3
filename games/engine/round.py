"""One round: the deal from a given deck order, the plays, and the round's score (RULES.md).

>>> from games.engine.cards import full_deck
>>> r = Round(Rules(), full_deck(), dealer=0)
>>> r.turn, len(r.floor), [len(h) for h in r.hands], len(r.stock)
(1, 4, [4, 4], 40)
>>> while not r.over:
...     _ = r.play(r.legal_plays()[0])
>>> sum(r.score_breakdown().cards) + len(r.floor)
52
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from .capture import Basra, Capture, NOTHING, _EMPTY, _take
from .cards import JACK, SEVEN_OF_DIAMONDS, Card, to_card
from .errors import DeckError, GameStateError, IllegalPlayError, SeatError
from .rules import Rules, SevenDiamonds

__all__ = ["Play", "Round", "RoundScore", "check_deck", "check_seat"]

_SEVEN = SEVEN_OF_DIAMONDS


class Play(NamedTuple):
    """One play of a round, in order: who played which card, what it took, its basra.

    ``seat``: 0..players-1; ``card``: the card played; ``taken``: the floor cards it took (empty
    when it stayed on the floor); ``basra``: ``None``, ``Basra.BASRA`` or ``Basra.JACK_BASRA``.
    A named tuple rather than a dataclass: a round makes 48 of them, and they are built on the
    hot path.
    """

    seat: int
    card: Card
    taken: frozenset[Card]
    basra: Basra | None


@dataclass(frozen=True)
class RoundScore:
    """A finished round's points, each field a ``(side 0, side 1)`` tuple (RULES.md, "Scoring a round").

    ``cards``: pile sizes; ``majority``: ``majority_points`` to the larger pile (a tie: nobody);
    ``basras`` and ``jack_basras``: bonus points; ``card_points``: J 1, A 1, 2C 2, 10D 3 when the
    option is on, else 0; ``total``: their sum, the round's points.
    """

    cards: tuple[int, int]
    majority: tuple[int, int]
    basras: tuple[int, int]
    jack_basras: tuple[int, int]
    card_points: tuple[int, int]
    total: tuple[int, int]

    def to_dict(self) -> dict[str, list[int]]:
        """The fields as lists, for JSON (docs/protocol.md, ``round_end``)."""
        return {
            "cards": list(self.cards),
            "majority": list(self.majority),
            "basras": list(self.basras),
            "jack_basras": list(self.jack_basras),
            "card_points": list(self.card_points),
            "total": list(self.total),
        }


def check_deck(deck: Sequence[Card | str]) -> tuple[Card, ...]:
    """The deck as a tuple of cards, ``deck[0]`` on top; cards or card codes are accepted.

    :raises DeckError: (a ``ValueError``) unless it is exactly the 52 distinct cards.
    :raises CardError: (a ``ValueError``) for an item that is not a card or a card code.
    """
    if isinstance(deck, (str, bytes)) or not isinstance(deck, Sequence):
        raise DeckError("a deck is a sequence of 52 cards, deck[0] on top")
    cards = tuple(map(to_card, deck))
    if len(cards) != 52:
        raise DeckError(f"a deck has 52 cards, not {len(cards)}")
    if len(set(cards)) != 52:
        seen: set[Card] = set()
        twice = sorted({c for c in cards if c in seen or seen.add(c)})  # type: ignore[func-returns-value]
        raise DeckError(f"a deck has 52 distinct cards; twice: {' '.join(map(str, twice))}")
    return cards


def check_seat(seat: object, players: int, what: str = "seat") -> int:
    """``seat`` if it is a seat number ``0 .. players - 1``.

    :raises SeatError: (a ``ValueError``) otherwise (``bool`` is not a seat number).
    """
    if seat.__class__ is not int or not 0 <= seat < players:  # type: ignore[operator]
        raise SeatError(f"{what} must be a seat number from 0 to {players - 1}, not {seat!r}")
    return seat  # type: ignore[return-value]


class Round:
    """One pass through the deck: deals, plays and the score (RULES.md, "Dealing" … "Scoring a round").

    ``Round(rules, deck, dealer)``: ``deck`` is the 52 cards (or codes) with ``deck[0]`` on top,
    ``dealer`` the dealer's seat. Dealing follows RULES.md "Dealing": four cards to each seat from
    the seat after the dealer, then (first deal only) four to the floor, where each Jack or 7D is
    moved to the bottom of the stock and replaced by the top card. The seat after the dealer plays
    first; when every hand is empty the next deal follows, and after the last play the cards left
    on the floor go to the side that captured last.

    Sides: ``seat % 2`` (RULES.md, "Four players": seats 0+2 against 1+3).

    :raises DeckError: (a ``ValueError``) if ``deck`` is not the 52 distinct cards.
    :raises SeatError: (a ``ValueError``) if ``dealer`` is not a seat.
    :raises TypeError: if ``rules`` is not a ``Rules``.
    """

    __slots__ = (
        "rules",
        "dealer",
        "deck",
        "initial_floor",
        "buried",
        "_players",
        "_stock",
        "_top",
        "_hands",
        "_in_hands",
        "_floor",
        "_piles",
        "_basras",
        "_jack_basras",
        "_plays",
        "_last_capturer",
        "_turn",
        "_over",
        "_leftover",
        "_wild",
        "_classic",
        "_jack_basra",
    )

    def __init__(self, rules: Rules, deck: Sequence[Card | str], dealer: int) -> None:
        if not isinstance(rules, Rules):
            raise TypeError(f"rules must be a Rules, not {type(rules).__name__}")
        players = rules.players
        check_seat(dealer, players, "dealer")
        cards = check_deck(deck)
        self.rules = rules
        self.dealer = dealer
        #: The deck as given (before the floor's Jacks and 7D were moved), ``deck[0]`` on top.
        self.deck = cards
        self._players = players
        mode = rules.seven_diamonds
        self._wild = mode is SevenDiamonds.WILD
        self._classic = mode is SevenDiamonds.CLASSIC
        self._jack_basra = rules.jack_basra_points > 0
        self._stock = list(cards)
        self._top = 0
        self._hands: list[list[Card]] = [[] for _ in range(players)]
        self._deal()
        # The first deal also lays four cards face up, and a Jack or the 7D among them goes to
        # the bottom of the stock, replaced from the top, until that position holds another card.
        stock = self._stock
        top = self._top
        floor = stock[top : top + 4]
        top += 4
        for i in range(4):
            while floor[i].rank == JACK or floor[i] is _SEVEN:
                stock.append(floor[i])
                floor[i] = stock[top]
                top += 1
        self._top = top
        self._floor = floor
        #: The first floor once dealt (after the burial): public, as every player saw it.
        self.initial_floor = tuple(floor)
        #: The Jacks and 7D moved from the first floor to the bottom of the stock, in that order:
        #: public too, they were face up before they went under.
        self.buried = tuple(stock[52:])
        self._piles: tuple[list[Card], list[Card]] = ([], [])
        self._basras = [0, 0]
        self._jack_basras = [0, 0]
        self._plays: list[Play] = []
        self._last_capturer: int | None = None
        self._turn = (dealer + 1) % players
        self._over = False
        self._leftover: tuple[Card, ...] = ()

    def _deal(self) -> None:
        """Four cards to every seat from the top of the stock, the seat after the dealer first."""
        stock = self._stock
        top = self._top
        n = self._players
        hands = self._hands
        for k in range(1, n + 1):
            hands[(self.dealer + k) % n] = stock[top : top + 4]
            top += 4
        self._top = top
        self._in_hands = 4 * n

    # --- state ------------------------------------------------------------------------------

    @property
    def turn(self) -> int | None:
        """The seat to play, or ``None`` once the round is over."""
        return None if self._over else self._turn

    @property
    def over(self) -> bool:
        """True once the last card of the last deal has been played (and leftovers given)."""
        return self._over

    @property
    def hands(self) -> tuple[tuple[Card, ...], ...]:
        """Every seat's hand, indexed by seat, in the order the cards were dealt."""
        return tuple(map(tuple, self._hands))

    def legal_plays(self) -> tuple[Card, ...]:
        """The cards the seat to move may play: its whole hand (empty once the round is over)."""
        return () if self._over else tuple(self._hands[self._turn])

    @property
    def floor(self) -> tuple[Card, ...]:
        """The face-up cards, in the order they were laid (taken cards leave gaps closed up)."""
        return tuple(self._floor)

    @property
    def stock(self) -> tuple[Card, ...]:
        """The undealt cards, top first."""
        return tuple(self._stock[self._top :])

    @property
    def piles(self) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
        """The cards each side has captured, per side, in the order they were taken."""
        return tuple(self._piles[0]), tuple(self._piles[1])

    @property
    def basras(self) -> tuple[int, int]:
        """How many basras each side has made this round."""
        return self._basras[0], self._basras[1]

    @property
    def jack_basras(self) -> tuple[int, int]:
        """How many jack basras each side has made this round."""
        return self._jack_basras[0], self._jack_basras[1]

    @property
    def plays(self) -> tuple[Play, ...]:
        """Every play of the round so far, in order."""
        return tuple(self._plays)

    @property
    def last_capturer(self) -> int | None:
        """The side that captured last, or ``None`` if nobody has captured yet."""
        return self._last_capturer

    @property
    def leftover(self) -> tuple[Card, ...]:
        """The floor cards given to the last capturer when the round ended (RULES.md, "Basra")."""
        return self._leftover

    # --- playing ----------------------------------------------------------------------------

    def play(self, card: Card | str) -> Capture:
        """Play ``card`` (a card or a card code) for the seat to move; returns what it took.

        The capture is automatic (RULES.md, "What a play takes"). After the last card of a deal
        the next deal follows; after the last card of the round the floor goes to the last
        capturer and the round is over.

        :raises IllegalPlayError: (a ``ValueError``) if the round is over (``reason
            "round_over"``) or the card is not in the hand of the seat to move (``"not_in_hand"``).
        :raises CardError: (a ``ValueError``) if ``card`` is neither a card nor a card code.
        """
        if self._over:
            raise IllegalPlayError("the round is over", reason="round_over")
        if card.__class__ is not Card:
            card = to_card(card)
        seat = self._turn
        try:
            self._hands[seat].remove(card)
        except ValueError:
            raise IllegalPlayError(
                f"{card} is not in the hand of seat {seat}, the seat to play", reason="not_in_hand"
            ) from None
        floor = self._floor
        if floor:
            taken, basra = _take(card, floor, self._wild, self._classic, self._jack_basra)
        else:
            taken = None
        if taken:
            side = seat & 1
            if len(taken) == len(floor):
                taken_set = frozenset(floor)
                self._floor = []
            else:
                taken_set = frozenset(taken)
                self._floor = [c for c in floor if c not in taken_set]
            pile = self._piles[side]
            pile += taken
            pile.append(card)
            self._last_capturer = side
            if basra is not None:
                if basra is Basra.BASRA:
                    self._basras[side] += 1
                else:
                    self._jack_basras[side] += 1
            result = Capture(taken_set, basra)
            self._plays.append(Play(seat, card, taken_set, basra))
        else:
            floor.append(card)
            result = NOTHING
            self._plays.append(Play(seat, card, _EMPTY, None))
        self._turn = (seat + 1) % self._players
        self._in_hands -= 1
        if not self._in_hands:
            if self._top < len(self._stock):
                self._deal()
            else:
                self._end()
        return result

    def _end(self) -> None:
        """The last play is made: the floor goes to the side that captured last, if any."""
        self._over = True
        side = self._last_capturer
        if side is not None and self._floor:
            self._leftover = tuple(self._floor)
            self._piles[side].extend(self._floor)
            self._floor = []

    # --- scoring ----------------------------------------------------------------------------

    def score_breakdown(self) -> RoundScore:
        """The finished round's points per side (RULES.md, "Scoring a round").

        :raises GameStateError: (a ``ValueError``) if the round is not over.
        """
        if not self._over:
            raise GameStateError("the round is not over yet")
        rules = self.rules
        cards = (len(self._piles[0]), len(self._piles[1]))
        if cards[0] > cards[1]:
            majority = (rules.majority_points, 0)
        elif cards[1] > cards[0]:
            majority = (0, rules.majority_points)
        else:
            majority = (0, 0)
        basras = tuple(n * rules.basra_points for n in self._basras)
        jack_basras = tuple(n * rules.jack_basra_points for n in self._jack_basras)
        if rules.card_points:
            points = tuple(sum(c.points for c in pile) for pile in self._piles)
        else:
            points = (0, 0)
        total = tuple(
            majority[s] + basras[s] + jack_basras[s] + points[s] for s in range(2)
        )
        return RoundScore(cards, majority, basras, jack_basras, points, total)  # type: ignore[arg-type]

    def score(self) -> tuple[int, int]:
        """The finished round's points of side 0 and side 1 (``score_breakdown().total``).

        :raises GameStateError: (a ``ValueError``) if the round is not over.
        """
        return self.score_breakdown().total

    def __repr__(self) -> str:
        state = "over" if self._over else f"turn {self._turn}"
        return (
            f"<Round dealer {self.dealer}, {state}, floor {' '.join(map(str, self._floor)) or '-'}, "
            f"{len(self._plays)} plays>"
        )
