"""A knockout's rounds as people name them (final, semi-finals, quarter-finals, round of 16) and
its bracket as the event page draws it: every round from the first, the rounds not yet paired
as empty boxes, the third-place match labelled (``games.tournaments.pages``)."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from games.tournaments.models import Pairing, Tournament


def round_name(number: int, rounds: int) -> str:
    """Round ``number`` of a knockout of ``rounds`` rounds: "Final" (the last), "Semi-finals",
    "Quarter-finals", then "Round of N" (``N`` the entrants it holds, a power of two)."""
    left = rounds - number
    if left == 0:
        return _("Final")
    if left == 1:
        return _("Semi-finals")
    if left == 2:
        return _("Quarter-finals")
    return _("Round of %(n)s") % {"n": 2 ** (left + 1)}


@dataclass
class BracketRound:
    """One column of the bracket: its ``name``, its ``pairings`` (the third-place match apart,
    ``third_place``), ``empty``: boxes still to be paired (a later round), and
    ``third_pending``: the final's column of an event with a third-place match not yet paired."""

    number: int
    name: str
    pairings: list[Pairing] = field(default_factory=list)
    third_place: Pairing | None = None
    empty: list[int] = field(default_factory=list)
    third_pending: bool = False  # the final's column, before a third-place match is paired


def bracket(t: Tournament, pairings: list[Pairing], entrants: int) -> list[BracketRound]:
    """The bracket of knockout ``t`` with ``entrants`` seeded entrants, from its ``pairings``
    (those paired so far): one :class:`BracketRound` per round of ``t.planned_rounds``, a
    round not yet paired holding ``2 ** (rounds - number)`` empty boxes."""
    rounds = t.planned_rounds(entrants) or 0
    columns = [BracketRound(n, round_name(n, rounds)) for n in range(1, rounds + 1)]
    for p in pairings:
        column = columns[p.round.number - 1]
        if p.third_place:
            column.third_place = p
        else:
            column.pairings.append(p)
    for column in columns:
        if not column.pairings:
            column.empty = list(range(2 ** (rounds - column.number)))
    if columns and t.third_place and rounds >= 2 and columns[-1].third_place is None:
        columns[-1].third_pending = True
    return columns
