"""The rule variants of a match, as data (RULES.md, "The engine's public interface"; STYLE.md 1).

A match stores its :class:`Rules` (``to_dict()``) so an old match replays under its own rules.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Mapping

from .errors import RulesError

__all__ = ["Rules", "SevenDiamonds", "UnknownRulesOptionError"]


class SevenDiamonds(StrEnum):
    """What the seven of diamonds (the komi) does (RULES.md, "What a play takes").

    ``WILD`` (default, the Egyptian apps): played, it is any card for a basra, else a Jack; on the
    floor it matches any card. ``CLASSIC`` (Pagat, Parlett, Jawaker): played, it always sweeps, a
    basra only on a floor of number cards totalling 10 or less; on the floor an ordinary 7.
    ``PLAIN``: an ordinary 7.
    """

    WILD = "wild"
    CLASSIC = "classic"
    PLAIN = "plain"


class UnknownRulesOptionError(RulesError, TypeError):
    """A keyword that is not a ``Rules`` field (RULES.md lists every option)."""


_INT_FIELDS = {"target": 1, "majority_points": 0, "basra_points": 0, "jack_basra_points": 0}


@dataclass(frozen=True, kw_only=True)
class Rules:
    """The options of a match; keyword arguments only, these defaults (RULES.md).

    - ``players``: 2 or 4 (4: partnerships 0+2 against 1+3).
    - ``target``: points (≥ 1) a side needs at the end of a round to win the match.
    - ``majority_points``: to the side with the most captured cards (a tie gives nobody).
    - ``basra_points``: per basra. ``jack_basra_points``: per jack basra, 0 turns jack basras off.
    - ``card_points``: score J 1, A 1, 2C 2, 10D 3 (Parlett, Jawaker; off in the Egyptian apps).
    - ``seven_diamonds``: ``"wild"``, ``"classic"`` or ``"plain"`` (:class:`SevenDiamonds`).

    :raises UnknownRulesOptionError: (a ``RulesError`` and a ``TypeError``) for an option that
        does not exist.
    :raises RulesError: (a ``ValueError``) for a value of the wrong type or out of range.
    """

    players: int = 2
    target: int = 101
    majority_points: int = 30
    basra_points: int = 10
    jack_basra_points: int = 20
    card_points: bool = False
    seven_diamonds: SevenDiamonds = SevenDiamonds.WILD

    def __new__(cls, *args: Any, **options: Any) -> Rules:
        # Name the unknown option in an error that is both a TypeError (what Python raises for
        # an unexpected keyword) and a RulesError, so callers catching either see it.
        unknown = sorted(set(options) - set(cls.__dataclass_fields__))
        if unknown:
            raise UnknownRulesOptionError(f"unknown rules option(s): {', '.join(unknown)}")
        return super().__new__(cls)

    def __post_init__(self) -> None:
        if self.players.__class__ is not int or self.players not in (2, 4):
            raise RulesError(f"players must be 2 or 4, not {self.players!r}")
        for name, least in _INT_FIELDS.items():
            value = getattr(self, name)
            # bool is an int subclass; True is not a score.
            if value.__class__ is not int or value < least:
                raise RulesError(f"{name} must be an integer of at least {least}, not {value!r}")
        if self.card_points.__class__ is not bool:
            raise RulesError(f"card_points must be true or false, not {self.card_points!r}")
        try:
            mode = SevenDiamonds(self.seven_diamonds)
        except ValueError:
            choices = ", ".join(repr(m.value) for m in SevenDiamonds)
            raise RulesError(
                f"seven_diamonds must be one of {choices}, not {self.seven_diamonds!r}"
            ) from None
        object.__setattr__(self, "seven_diamonds", mode)

    @property
    def sides(self) -> int:
        """Number of sides (piles): always 2, lone players or partnerships (RULES.md, "Names")."""
        return 2

    @property
    def can_score(self) -> bool:
        """Whether any point can ever be scored under these rules (RULES.md, "Basra" and
        "Scoring a round").

        Points come only from the majority of cards, a basra, a jack basra and the card points.
        Each of those can happen under every ``seven_diamonds`` mode: a number card sweeping
        the floor is a basra in all of them, and a Jack played on a floor of one Jack (left by
        a Jack played on an empty floor) is a jack basra. So scoring is impossible exactly when
        ``majority_points``, ``basra_points`` and ``jack_basra_points`` are all 0 and
        ``card_points`` is off; a match under such rules could never reach its target.
        """
        return bool(
            self.majority_points or self.basra_points or self.jack_basra_points or self.card_points
        )

    @property
    def deals(self) -> int:
        """Deals in a round: 6 for 2 players, 3 for 4 (RULES.md, "Dealing" 3)."""
        return 48 // (4 * self.players)

    def to_dict(self) -> dict[str, Any]:
        """Every field as JSON-friendly values (``seven_diamonds`` as its string)."""
        data = dataclasses.asdict(self)
        data["seven_diamonds"] = self.seven_diamonds.value
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Rules:
        """The rules of a ``to_dict()`` mapping; a missing field takes its default.

        :raises RulesError: (a ``ValueError``) for a key that is not a field, or a bad value.
        """
        if not isinstance(data, Mapping):
            raise RulesError(f"rules must be a mapping of options, not {type(data).__name__}")
        if not all(isinstance(k, str) for k in data):
            raise RulesError("rules option names must be strings")
        return cls(**data)
