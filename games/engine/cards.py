"""Cards and card codes (RULES.md, "Names": card code).

A :class:`Card` is one of the 52 cards of a French deck. There are exactly 52 ``Card`` objects:
``Card(rank, suit)`` and ``Card.from_code(code)`` return the one object for that card, so two
equal cards are the same object. That makes a card a cheap immutable value: equality and hashing
are identity, which keeps the rules' hot path (RULES.md, "Speed" in the engine issue) fast.

>>> Card.from_code("10H") is Card.from_code("th") is Card(10, "H")
True
>>> str(Card.from_code("TH")), Card.from_code("7d").code
('10H', '7D')
>>> sorted(parse_cards("KS 2C AD"))
[Card.from_code('AD'), Card.from_code('2C'), Card.from_code('KS')]
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .errors import CardError

__all__ = [
    "ACE",
    "JACK",
    "QUEEN",
    "KING",
    "RANKS",
    "SUITS",
    "Card",
    "full_deck",
    "parse_cards",
    "SEVEN_OF_DIAMONDS",
    "TWO_OF_CLUBS",
]

#: Rank symbols in rank order; ``RANKS[rank - 1]`` is the symbol of ``rank`` (A = 1 … K = 13).
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
#: Suit letters in the order used to sort cards of one rank.
SUITS = ("C", "D", "H", "S")

ACE, JACK, QUEEN, KING = 1, 11, 12, 13

# Card points (RULES.md, "Scoring a round", option card_points; Parlett, Jawaker):
# each Jack 1, each Ace 1, 2C 2, 10D 3.
_POINTS = {("J", s): 1 for s in SUITS} | {("A", s): 1 for s in SUITS} | {("2", "C"): 2, ("10", "D"): 3}


class Card:
    """One playing card: ``rank`` 1..13 (A = 1, number cards A..10, J = 11, Q = 12, K = 13), ``suit`` in C D H S.

    Frozen, hashable and ordered by (rank, suit). Only 52 instances exist (see the module
    docstring): ``Card(rank, suit)``, ``Card(code)`` and :meth:`from_code` return them.

    :raises CardError: (a ``ValueError``) for a rank outside 1..13 or a suit other than
        ``C D H S`` (ASCII, either case).
    """

    __slots__ = ("rank", "suit", "code", "index", "points")

    rank: int
    suit: str
    #: The card code, rank then suit: ``"10H"``, ``"7D"``, ``"JC"`` (RULES.md, "Names").
    code: str
    #: Position 0..51 in sorted order: ``(rank - 1) * 4 + suit position``.
    index: int
    #: Card points under ``Rules(card_points=True)``: J 1, A 1, 2C 2, 10D 3, otherwise 0.
    points: int

    def __new__(cls, rank: int | str, suit: str | None = None) -> Card:
        if suit is None and isinstance(rank, str):
            return cls.from_code(rank)  # Card("10H"), a shorthand for Card.from_code("10H")
        card = None
        if rank.__class__ is int and isinstance(suit, str) and suit.isascii():
            card = _BY_RANK_SUIT.get((rank, suit.upper()))
        if card is None:
            raise CardError(f"no card with rank {rank!r} and suit {suit!r}")
        return card

    @classmethod
    def _make(cls, rank: int, suit: str) -> Card:
        card = object.__new__(cls)
        symbol = RANKS[rank - 1]
        for name, value in (
            ("rank", rank),
            ("suit", suit),
            ("code", symbol + suit),
            ("index", (rank - 1) * 4 + SUITS.index(suit)),
            ("points", _POINTS.get((symbol, suit), 0)),
        ):
            object.__setattr__(card, name, value)
        return card

    @classmethod
    def from_code(cls, code: str) -> Card:
        """The card of a card code: rank ``A 2 … 10 J Q K`` (``T`` for 10) then suit ``C D H S``.

        ASCII letters in either case (``"th"`` is 10H); nothing else. Surrounding spaces are not
        accepted, and neither is any other character: ``str.upper()`` turns some non-ASCII
        letters into ASCII ones (``"ſ".upper() == "S"``, ``"ı".upper() == "I"``), so only an
        ASCII code is upper-cased, and ``"5ſ"`` is no card.

        :raises CardError: (a ``ValueError``) if ``code`` is not a card code.
        """
        card = _BY_CODE.get(code) if isinstance(code, str) else None
        if card is None:
            if isinstance(code, str) and code.isascii():
                card = _BY_CODE.get(code.upper())
            if card is None:
                raise CardError(f"unknown card code {code!r}")
        return card

    @property
    def is_number(self) -> bool:
        """True for A..10, the cards that take by value and join sums (RULES.md, "What a play takes")."""
        return self.rank <= 10

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("Card is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("Card is immutable")

    # Identity is equality (one object per card), so __eq__ and __hash__ stay object's own,
    # which the interpreter runs without a Python call.

    def __lt__(self, other: object) -> bool:
        if other.__class__ is not Card:
            return NotImplemented
        return self.index < other.index  # type: ignore[attr-defined]

    def __le__(self, other: object) -> bool:
        if other.__class__ is not Card:
            return NotImplemented
        return self.index <= other.index  # type: ignore[attr-defined]

    def __gt__(self, other: object) -> bool:
        if other.__class__ is not Card:
            return NotImplemented
        return self.index > other.index  # type: ignore[attr-defined]

    def __ge__(self, other: object) -> bool:
        if other.__class__ is not Card:
            return NotImplemented
        return self.index >= other.index  # type: ignore[attr-defined]

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card.from_code({self.code!r})"

    # Copies and pickles must come back as the one object for the card.
    # (A module-level function: some libraries replace how bound methods are pickled.)
    def __reduce__(self) -> tuple[Any, tuple[str]]:
        return (to_card, (self.code,))

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Card:
        return self


_ALL: tuple[Card, ...] = tuple(
    Card._make(rank, suit) for rank in range(1, 14) for suit in SUITS
)
_BY_RANK_SUIT: dict[tuple[int, str], Card] = {(c.rank, c.suit): c for c in _ALL}
_BY_CODE: dict[str, Card] = {c.code: c for c in _ALL} | {
    "T" + c.suit: c for c in _ALL if c.rank == 10
}

SEVEN_OF_DIAMONDS = _BY_CODE["7D"]
TWO_OF_CLUBS = _BY_CODE["2C"]


def full_deck() -> list[Card]:
    """A new list of the 52 cards in sorted order (AC AD AH AS 2C … KS), for the caller to shuffle.

    The engine never shuffles (STYLE.md, "In this project" 2): the site shuffles this list with
    ``secrets.SystemRandom().shuffle`` and passes it to ``Match.start_round``.
    """
    return list(_ALL)


def to_card(card: Card | str) -> Card:
    """``card`` itself if it is a :class:`Card`, else the card of the code ``card``.

    :raises CardError: (a ``ValueError``) if ``card`` is neither a card nor a card code.
    """
    if card.__class__ is Card:
        return card  # type: ignore[return-value]
    return Card.from_code(card)  # type: ignore[arg-type]


def parse_cards(cards: str | Iterable[Card | str]) -> tuple[Card, ...]:
    """Cards from a space-separated string of codes (``"5H KS 5C"``) or an iterable of cards or codes.

    :raises CardError: (a ``ValueError``) on the first item that is not a card or a card code.
    """
    if isinstance(cards, str):
        cards = cards.split()
    return tuple(to_card(c) for c in cards)
