"""Tournament pairing, arena scoring and standings: pure functions (issue 13, STYLE.md 7).

Standard library plus ``networkx``; no Django. The Django app calls these when a round is due or
a match has finished; nothing here reads the database, the clock or a random generator.

One module per system, every name re-exported here (import them from ``games.tournaments.pairing``):

- :func:`round_robin`: FIDE's Berger tables (FIDE Handbook C.05, Annex 1); ``fixed``.
- :func:`swiss_round`: one Swiss round by a maximum-weight matching (``networkx``) whose integer
  weights make the issue's rules strictly lexicographic; ``swiss``.
- :func:`knockout_bracket`: the first round of a seeded bracket, byes to the top seeds; ``fixed``.
- :func:`arena_pairs` and :func:`arena_points`: a lichess-style arena wave and its scoring
  (lila ``modules/tournament/src/main/arena/``: ``AntmaPairing.scala``, ``PairingSystem.scala``,
  ``ArenaSheet.scala``); ``arena``.
- :func:`standings`: score, then the organiser's order of FIDE tie-breaks (FIDE Handbook C.07); ``tiebreaks``.

Entrants are ``int`` ids (seeds 1..n for the tables and brackets). Bad input raises
:class:`PairingError`, a ``ValueError`` (``errors``).

>>> round_robin(4)
[[(1, 4), (2, 3)], [(4, 3), (1, 2)], [(2, 4), (3, 1)]]
>>> knockout_bracket(6)
[(1, None), (4, 5), (2, None), (3, 6)]
>>> arena_points(["win", "win", "win", "loss", "win"]).total
10
"""

from __future__ import annotations

from .arena import ARENA_GROUP_SIZE, ARENA_WINDOW, ArenaPlayer, ArenaSheet, arena_pairs, arena_points
from .errors import PairingError
from .fixed import knockout_bracket, round_robin
from .swiss import SwissEntrant, swiss_round
from .tiebreaks import ARTICLES, EDITION, MatchResult, Standing, TieBreak, standings

# The helpers too, where the callers and tests of the one-module pairing found them.
from .errors import _check_count, _check_unique  # noqa: F401
from .fixed import _bye_or_pair, _rotate  # noqa: F401
from .swiss import _line_bound, _match, _swiss_matching, _Terms  # noqa: F401
from .tiebreaks import _Round, _tiebreak  # noqa: F401

__all__ = [
    "ARENA_GROUP_SIZE",
    "ARTICLES",
    "EDITION",
    "ARENA_WINDOW",
    "ArenaPlayer",
    "ArenaSheet",
    "MatchResult",
    "PairingError",
    "Standing",
    "SwissEntrant",
    "TieBreak",
    "arena_pairs",
    "arena_points",
    "knockout_bracket",
    "round_robin",
    "standings",
    "swiss_round",
]

# doctest.testmod(pairing) runs the examples of the names defined in the modules too.
__test__ = {name: globals()[name] for name in __all__ if callable(globals()[name])}
