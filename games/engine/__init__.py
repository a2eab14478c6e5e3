"""The Egyptian Basra rules engine: standard-library Python, no Django (RULES.md, STYLE.md 1).

The public interface is RULES.md's "The engine's public interface"::

    from games.engine import Card, Rules, Round, capture, replay, IllegalPlayError

plus ``Match`` and its per-seat ``SeatView`` (notes/view_spec.md), the game record
(``basra-record/1``: its writer ``write_record``, its walker ``steps``) and the error tree under ``ValueError`` (``games.engine.errors``).
"""

from .capture import Basra, Capture, capture
from .cards import Card, full_deck, parse_cards
from .errors import (
    BasraError,
    CardError,
    DeckError,
    GameStateError,
    IllegalPlayError,
    RecordError,
    RulesError,
    SeatError,
    SeedError,
)
from .match import RECORD_FORMAT, Match, SeatView
from .record import ReplayResult, Step, Steps, Walk, replay, steps, write_record
from .round import Play, Round, RoundScore
from .rules import Rules, SevenDiamonds, UnknownRulesOptionError

__all__ = [
    "RECORD_FORMAT",
    "Match",
    "ReplayResult",
    "SeatView",
    "replay",
    "Step",
    "Steps",
    "Walk",
    "steps",
    "write_record",
    "Basra",
    "BasraError",
    "Capture",
    "Card",
    "CardError",
    "DeckError",
    "GameStateError",
    "IllegalPlayError",
    "Play",
    "RecordError",
    "Round",
    "RoundScore",
    "Rules",
    "RulesError",
    "SeatError",
    "SeedError",
    "SevenDiamonds",
    "UnknownRulesOptionError",
    "capture",
    "full_deck",
    "parse_cards",
]
