"""Computer opponents that see only a seat's view (RULES.md, "Matches, seat views and bots").

Every bot is built with keywords only, ``BOTS[name](seed=1, time_limit=1.0)``, and answers
``bot.choose(view) -> Card``, a card of ``view.hand``. The view is all a bot ever sees: it holds
no reference to the round, so a bot cannot read another seat's hand. Every capture a bot
predicts is asked of the engine's :func:`~games.engine.capture.capture`; the bots never
reimplement the rules of what a play takes.

One module per part, every name re-exported here (import them from ``games.engine.bots``):
``seat`` (what a seat knows, the greedy values), ``simple`` (the base class, the random and
greedy bots), ``playout`` (the strong bot's sampled deals and fast playouts), ``strong`` (the
search), ``expert`` (Information Set MCTS, and a two-player round's last deal solved exactly).

- :class:`RandomBot` plays a card uniformly at random (a seeded ``random.Random``).
- :class:`GreedyBot` takes the best immediate capture and avoids leaving the next seat (always
  an opponent) a floor it could sweep for a basra with a card it may hold.
- :class:`StrongBot` is a determinized Monte-Carlo search: it deals the hidden cards at random
  many times, consistent with all the seat has seen, plays each card it could play and then a
  deal's worth of plays with a fast greedy policy for every seat, and plays the card with the
  best average round-points difference for its side (the majority estimated from the pile lead).
- :class:`ExpertBot` searches one tree over what the seat knows (Information Set MCTS, a new
  deal of the hidden cards each iteration) and solves a two-player round's last deal exactly;
  with four players it runs the strong bot's search with more deals, each keeping out of a
  seat's hand the cards that seat's plays say it lacks (``games.engine.bots.expert`` argues the
  design; ``bench/bots.py`` measures it).

Strength (bench/bots.py, 500 two-player matches to 101; the expert's runs are in that module's
docstring: at 1,500 iterations a move it wins 57.5% of 80 matches against the strong bot,
CI 46.6-67.7%, +4.4 round points a round; at 2,400, the whole 0.1 s of CPU, 58.1% of 86, CI
47.6-68.0%, +3.6 a round): greedy beats random in 96.6% (95% CI
94.6-97.9%); strong beats greedy in 70.0% (65.8-73.9%) with 10 samples per move, 78.6%
(74.8-82.0%) with 100 samples (about 7 ms of CPU per move).

>>> from games.engine import Match, Rules, full_deck
>>> m = Match(Rules(), dealer=0)
>>> _ = m.start_round(full_deck())
>>> view = m.view(m.round.turn)
>>> all(BOTS[name](seed=1, time_limit=0.05).choose(view) in view.hand for name in BOTS)
True
"""

from __future__ import annotations

from .seat import greedy_values, hidden_cards
from .simple import MAX_TIME_LIMIT, Bot, GreedyBot, RandomBot
from .strong import StrongBot, same_class
from .expert import ExpertBot, solve

# The helpers too, where the callers and tests of the one-module bots found them.
from .playout import _capture_code, _play, _policy, _rollout, _sample_world, _special, _World  # noqa: F401
from .seat import _basra_danger, _bonus, _gain, _keep_value, _last_capturer, _next_hand_size  # noqa: F401
from .simple import _negate  # noqa: F401
from .strong import _class_key, _distinct, _view_key  # noqa: F401

__all__ = [
    "BOTS",
    "MAX_TIME_LIMIT",
    "Bot",
    "ExpertBot",
    "GreedyBot",
    "RandomBot",
    "StrongBot",
    "greedy_values",
    "hidden_cards",
    "same_class",
    "solve",
]

#: The bots by name, as the site and the benchmark pick them.
BOTS: dict[str, type[Bot]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "strong": StrongBot,
    "expert": ExpertBot,
}
