"""Bot-against-bot benchmark: whole matches to the target, win rates with 95% Wilson intervals.

What it measures: for each pairing ``A:B`` (default ``greedy:random`` and ``strong:greedy``),
how often bot A wins a whole match (to ``Rules().target``, 101) against bot B, and how long each
bot thinks per move. Targets (issue 4): greedy beats random in at least 90% of matches; strong
beats greedy in at least 60% over at least 500 matches.

Fairness: matches come in pairs on the same decks with the seats swapped. Match ``i`` uses deal
seed ``first_seed + i // 2``: every round's deck is ``random.Random(seed).shuffle`` of the full
deck, in turn; bot A sits at seat 0 (the first dealer) when ``i`` is even and at seat 1 when it is
odd (4 players: seats 0 and 2, or 1 and 3). The matches run over ``--workers`` processes
(multiprocessing).

The strong bot's budget: ``--samples`` determinizations per move (each plays every distinct card
of the hand and then one deal's worth of plays) and ``--time-limit`` seconds per move, whichever
ends first; a fixed sample budget makes a run reproducible and its length predictable. The
default, 400, is the site's cap (``StrongBot``'s default): the strong bot as the tables run it.
The expert's and the cheat's budget: ``--iterations`` ISMCTS iterations per move, the same way
(the expert with four players: ``iterations / 2`` deals of the strong bot's search, the same CPU
time; ``--four ismcts`` keeps its tree).
Besides the win rate, each pairing prints A's round points less B's per round, with a normal
95% interval: a match to 101 is 3-4 rounds, so the margin of a round says more per minute of
CPU than the winner of a match (the rounds of one match are not independent: that interval is
a little narrow).

``cheat``: the expert's search given the true deal (every hand, the stock's order) instead of
sampled ones (:class:`CheatBot`). ``cheat-hands``: the same search seeing every hand but not the
stock's order, dealt again at random each iteration (:class:`HandsCheatBot`): the ceiling the
issue names, "a search that sees every hand"; the order of the deals to come is known to no
seat, so ``cheat`` is a higher ceiling than any play can approach. Both live here, never among
the site's bots.

Issue 42's pairings at "0.1 s a move": the issue asks for about 300 matches a pairing; on this
machine (2 cores shared by five engineers, benches under ``nice -n 19`` in one process, about
40 minutes of CPU for all of them) that does not fit, so the budget is an iteration cap
calibrated to what 0.1 s buys on a quiet core (the expert runs about 16,000 iterations per CPU
second with two players, about 10,700 with four: ``--iterations 1500``, with ``--time-limit 1``
so the cap decides, not the load), and the match counts are what fitted. The strong bot at the
site's cap of 400 samples uses about 20 ms of CPU a move (two players), under 0.1 s.

Results (2 players unless said, 2 cores shared with other work, 500 matches = deal seeds 0-249
in both seatings; time per move is the strong bot's mean CPU time):

- greedy vs random: greedy 96.6% (95% CI 94.6-97.9%), 0.1 ms per move; 4 players, 200
  matches: 100% (98.1-100%).
- strong vs greedy, 10 samples: 70.0% (65.8-73.9%), 1.0 ms per move, 73 s of wall time.
- strong vs greedy, 30 samples: 77.4% (73.5-80.8%), 2.5 ms per move, 162 s.
- strong vs greedy, 100 samples: 78.6% (74.8-82.0%), 6.5 ms per move (p99 18 ms), 290-380 s;
  4 players, 200 matches: 71.0% (64.4-76.8%).

Issue 42's run (2 players unless said; target 101; strong at 400 samples, expert and cheat at
1,500 iterations, ``--time-limit 1``; one process under ``nice -n 19``; deal seeds from 0):

| pairing | matches | A wins (95% Wilson CI) | A's round margin (95% CI), rounds |
|---|---|---|---|
| expert vs strong (uniform deals, before inference) | 60 (seeds 0-29) | 28 = 46.7% (34.6-59.1%) | -0.6 (-5.3..+4.1), 237 |
| expert vs strong (with inference) | 80 (seeds 0-39) | 46 = 57.5% (46.6-67.7%) | +4.4 (+0.6..+8.1), 315 |
| cheat vs strong | 8 (seeds 0-3) | 8 = 100% (67.6-100%) | +28.6 (+17.9..+39.2), 28 |
| expert vs greedy | 4 (seeds 0-1) | 3 = 75% (30.1-95.4%) | +14.0 (-3.0..+31.0), 15 |
| expert vs strong, 4 players | 4 (seeds 0-1) | 1 = 25% (4.6-69.9%) | +1.8 (-16.2..+19.7), 17 |

Mean CPU a move: expert 35-51 ms (two players; forced plays and solved last deals are free),
91 ms (four); strong 20-28 ms (two), 56 ms (four); cheat 24 ms. The target (expert at least 60%
against strong, closing half the gap to the ceiling) is **not reached**: at this budget the
expert is level with the strong bot (the interval holds 50%), while the ceiling, a search that
sees every hand, wins every match by about 29 points a round. (60 = 20 matches on seeds 0-9 and
40 on seeds 10-29, run separately; per-round margins pooled.)

With inference (the expert keeps out of the other hand the cards that would have made a basra
the other seat passed up: ``games.engine.bots.expert.unlikely_cards``), 80 matches in runs of
20, 20, 20, 10 and 10 (seeds 0-9, 10-19, 20-29, 30-34, 35-39: 12, 10, 12, 7 and 5 wins;
+3.6, +1.3, +5.6, +8.1 and +4.9 a round), two processes under ``nice -n 19``: 46 wins, +4.4
round points a round (the seeds 0-29 alone, the uniform run's 60 matches: 34 wins, 56.7%,
CI 44.1-68.4%, +3.6, CI -0.8..+8.0). Mean CPU a move:
expert 54 ms, strong 31 ms (wall time was 3-10 times that, the machine being loaded; the
iteration cap decided every move). The seeds 0-9 run predates the partial shuffle of
``_sample_world(depth=)``, which changes which deals are drawn, not their distribution. Still
**not reached**: the point estimate is short of 60%, the interval holds 50%, and +4.4 of the
ceiling's +28.6 a round is about a sixth of the gap, not half; the round margin alone is above
the strong bot's (its interval excludes 0). ``--exploration 30`` (rewards in
round points have a standard deviation of about 26) did no better than 15 on a decision-regret
proxy (202 positions of strong-vs-strong rounds, regret against a 6,000-iteration search of the
true deal: 2.70 against 2.69 round points); a 5-match start at 40 said nothing either way.

The full 0.1 s (a later run). ``--calibrate 6 --iterations N`` times the expert's searched
moves with ``time.process_time`` (CPU time, which the load of a shared machine inflates less
than wall time; it still inflates it: caches and cores are shared). On this machine the expert
ran 23,500-25,000 iterations a CPU second with two players at a load average under 1 (1,500
iterations: 64 ms a searched move; 3,000: 120 ms) and about 19,000 at a load of 10 (2,400:
126 ms; again at a load of 15: 125.6 ms, 19,100 a second); with four players 11,700-13,600
under load (1,400: 120 ms; 1,600: 117 ms), about 14,800 on a quiet core by the same ratio. So **2,400 iterations is the
cap equivalent to 0.1 s of CPU with two players** (about 1,400 with four); the 1,500 above used
about 60% of it. A bot built with ``time_limit=0.1`` and the default cap (20,000, never reached)
searches 95% of the limit, about 2,300 iterations on a quiet core. The run, at
``--iterations 2400 --time-limit 1`` (the cap decides every move, whatever the load), deal seeds
0-29 and then 30-42 in both seatings (two runs, pooled), one process under ``nice -n 19`` (load
average 7-25):

| pairing | matches | A wins (95% Wilson CI) | A's round margin (95% CI), rounds |
|---|---|---|---|
| expert (2,400) vs strong (400), 2 players | 60 (seeds 0-29) | 35 = 58.3% (45.7-69.9%) | +3.5 (-1.0..+8.0), 248 |
| the same, seeds 30-42 | 26 | 15 = 57.7% (38.9-74.5%) | +3.7 (-2.3..+9.7), 112 |
| **expert (2,400) vs strong, pooled** | **86 (seeds 0-42)** | **50 = 58.1% (47.6-68.0%)** | **+3.6 (-0.1..+7.2), 360** |
| expert (1,400) vs strong (400), 4 players | 4 (seeds 0-1) | 1 = 25% (4.6-69.9%) | -5.5 (-19.9..+8.9), 20 |

Four players, mean CPU a move: expert 91 ms, strong 59 ms (wall 365 and 242 ms, the load
being 17-22; the longest wall time of a move, 1.23 s against a 1 s limit, is the process
waiting for a core after the deadline, not search: the longest CPU time was 292 ms). The
partnership run is too short to say anything but that it is not ahead.

Against the 1,500-iteration run on the same 60 matches (34 won, +3.6 a round) nothing changed
measurably: the extra 60% of budget buys no visible strength against this opponent. The target
is still **not reached**: 58.1% of 86 with an interval holding 50%, and +3.6 of the ceiling's +28.6 a
round (measured at 1,500 iterations; the cheat was not rerun at 2,400) is about an eighth of the
gap, not half. The runs stopped at 86 of the 300 matches asked (the deadline; the machine shared
with three other sessions), so the issue's 300 a pairing at 0.1 s and 50 at 1 s are not done.
Screened, not played: the soft inference (``--likelihood``), the most-visited choice
(``--final visits``), the exploration constant and the horizon, on decision regret
(``bench/expert_regret.py``, which tells why that screen is biased): none showed a gain.

The run to 300 (2026-12-06, a quiet machine; the same budgets: expert 2,400 iterations (1,400
with four players), strong 400 samples, cheat 2,400, ``--time-limit 1``, two processes under
``nice -n 19``):

| pairing | matches | A wins (95% Wilson CI) | A's round margin (95% CI), rounds |
|---|---|---|---|
| expert vs strong, seeds 43-149 | 214 | 129 = 60.3% (53.6-66.6%) | +4.5 (+2.2..+6.9), 868 |
| **expert vs strong, seeds 0-149, pooled with the 86 above** | **300** | **179 = 59.7% (54.0-65.1%)** | about +4.3 (the two runs' margins weighted by rounds) |
| cheat vs strong (the ceiling at 2,400) | 40 (seeds 0-19) | 39 = 97.5% (87.1-99.6%) | +27.3 (+22.7..+31.9), 144 |
| expert vs greedy | 100 (seeds 0-49) | 79 = 79.0% (70.0-85.8%) | +12.5 (+9.3..+15.6), 404 |
| expert vs strong, 4 players (pairs) | 60 (seeds 0-29) | 26 = 43.3% (31.6-55.9%) | -3.0 (-7.5..+1.5), 252 |

Mean CPU a move: expert 61 ms and strong 23 ms with two players; expert 76 ms and strong 50 ms
with four. So over 300 matches the expert is stronger than the strong bot (the interval
excludes 50%) but is not shown to win 60% (59.7%), and its +4.3 a round is about a sixth of
the gap to the ceiling's +27.3, not half. With four players the expert pair is not ahead of the
strong pair (its round margin's interval holds 0, the point below it). Not run: the 50
matches at the table's 1 s.

Four players, the expert's new search (2026-12-07): with four players the expert now runs the
strong bot's determinized search with ``iterations / 2`` deals a move (700 at 1,400 iterations,
the tree's CPU time: on the 209 views of ``--calibrate 6 --players 4 --iterations 1400``,
104 ms of CPU a searched move against the tree's 102 ms (``--four ismcts``) and the strong
bot's 61 ms at 400 samples, load average about 2), each deal respecting ``unlikely_cards`` (``games.engine.bots.expert``
argues it; ``--four ismcts`` keeps the tree). Same budgets as above (expert 1,400 iterations,
strong 400 samples, ``--time-limit 1``), two processes under ``nice -n 19``, load average
0.2-11 (other sessions' browser tests):

| pairing | matches | A wins (95% Wilson CI) | A's round margin (95% CI), rounds |
|---|---|---|---|
| expert (deals) vs strong, 4 players, seeds 0-9 (the screen) | 20 | 9 = 45.0% (25.8-65.8%) | -1.7 (-9.3..+5.9), 78 |
| the same, seeds 10-29 | 40 | 21 = 52.5% (37.5-67.1%) | +1.6 (-4.3..+7.6), 155 |
| expert (deals) vs strong, 4 players, seeds 0-29 pooled | 60 | 30 = 50.0% (37.7-62.3%) | +0.5 (-4.2..+5.2), 233 |
| expert (tree) vs strong, 4 players (the row above, for comparison) | 60 (seeds 0-29) | 26 = 43.3% (31.6-55.9%) | -3.0 (-7.5..+1.5), 252 |
| expert (deals) vs strong, 4 players, seeds 30-49 | 40 | 23 = 57.5% (42.2-71.5%) | +3.1 (-2.2..+8.5), 160 |
| the same, seeds 50-79 | 60 | 28 = 46.7% (34.6-59.1%) | -0.8 (-5.6..+4.0), 235 |
| **expert (deals) vs strong, 4 players, pooled** | **160 (seeds 0-79)** | **81 = 50.6% (43.0-58.3%)** | **+0.7 (-2.2..+3.5), 628** |
| expert (tree, ``--four ismcts``) vs strong, 4 players, seeds 30-79 | 100 | 47 = 47.0% (37.5-56.7%) | -1.5 (-5.1..+2.1), 393 |
| expert (tree) vs strong, 4 players, seeds 0-79 with the 60 above | 160 | 73 = 45.6% (38.1-53.4%) | about -2.1 (the two runs weighted by rounds), 645 |

Mean CPU a move: expert 76-81 ms, strong 45-49 ms (wall 190-221 ms and 122-138 ms for seeds
0-29, the load being up to 11, p99 under a second; 77 and 45 ms for seeds 30-79, load under
2.5). On the seeds 0-29 the expert pair went from behind the strong pair (the tree: 43.3%,
-3.0 a round) to level (50.0%, +0.5), within the noise of 60 matches; over 160 matches it is
level (50.6%, +0.7 a round), the intervals holding 50% and 0: **not worse than the strong
bot, not shown better.** The tree on the same 160 deals: 45.6%, about -2.1 a round; the deals
are about 2.8 points a round and 5 matches in 100 better than the tree, inside the noise. Not
measured: whether 700 deals beat 400 at four players on their own (strong against strong at 700
and 400), and the inference alone.

The table's 1 s, two players, a first 20 matches (2026-12-07, a quiet machine, load average
0.6-2.4; two processes under ``nice -n 19``): ``--iterations 24000`` (about 1 s of CPU on a
quiet core) with ``--time-limit 2``, which the bots cap at
``games.engine.bots.MAX_TIME_LIMIT``, 1 s (the expert stops at 95% of it), against the strong
bot at its 400 samples:

| pairing | matches | A wins (95% Wilson CI) | A's round margin (95% CI), rounds |
|---|---|---|---|
| expert (24,000 iterations, 1 s) vs strong (400), 2 players | 20 of the 50 asked (seeds 0-9) | 12 = 60.0% (38.7-78.1%) | +1.9 (-6.2..+10.0), 80 |
| the same, seeds 10-24 (a second run, the same day and set-up) | 30 | 19 = 63.3% (45.5-78.1%) | +4.7 (-1.4..+10.8), 117 |
| **the same, pooled: the 50 asked (seeds 0-24)** | **50** | **31 = 62.0% (48.2-74.1%)** | about +3.6 (the two runs' margins weighted by rounds), 197 |

Mean CPU a move: expert 533 and 553 ms (p99 955 ms: the time limit, not the cap, ended its
longest searches), strong 24-25 ms. At the table's 1 s the expert wins 62% of 50 matches, but
the interval holds 50%: 50 matches cannot tell 62% from 50%, nor the 1 s expert from the 0.1 s
one (59.7% of 300).

The ceiling the issue names (2026-12-07): ``cheat-hands`` sees every hand and draws the stock's
order at random (the buried Jacks/7D at its bottom, as the burial was public), with the
expert's budget (2,400 iterations, ``--time-limit 1``), two processes under ``nice -n 19``:

| pairing | matches | A wins (95% Wilson CI) | A's round margin (95% CI), rounds |
|---|---|---|---|
| cheat-hands (2,400) vs strong (400), 2 players | 40 (seeds 0-19) | 38 = 95.0% (83.5-98.6%) | +20.9 (+15.8..+26.0), 145 |
| cheat (2,400, the stock's order known too), above | 40 (seeds 0-19) | 39 = 97.5% (87.1-99.6%) | +27.3 (+22.7..+31.9), 144 |
| expert (2,400) vs strong, above | 300 (seeds 0-149) | 179 = 59.7% (54.0-65.1%) | about +4.3 |

Mean CPU a move: cheat-hands 104 ms, strong 45 ms (the machine shared with browser tests; the
cap decided every move). A first run of the same 40 matches that dealt the buried cards
anywhere in the stock: 36 won (90.0%), +20.3 a round. Of the full cheat's 27 points a round,
the stock's order is worth about 6 (the two intervals overlap), the hands about 21. The
expert's +4.3 a round is about a fifth of the gap between the strong bot and this ceiling, not
the half asked (+10.5 would be). ``bench/expert_inference.py`` measures the expert's only way
to the other hand, what that seat's plays of the deal tell of it: with the models tried,
under 1% of what it does not know (its docstring has the table).

A prototype of the route that screen points to (``expert-model``, :class:`ModelExpertBot`,
2026-12-07): the expert's deals of the other hand drawn from a pool of 16 weighted by the strong
bot's own choice (20 samples) at each of that seat's plays of the deal, against the strong bot,
the same 60 matches as the expert's first row at 2,400 iterations (seeds 0-29), two processes
under ``nice -n 5``:

| pairing | matches | A wins (95% Wilson CI) | A's round margin (95% CI), rounds |
|---|---|---|---|
| expert-model (2,400, pool 16, model 20) vs strong (400) | 60 (seeds 0-29) | 33 = 55.0% (42.5-66.9%) | +4.1 (-0.2..+8.3), 247 |
| expert (2,400) vs strong, the same seeds, above | 60 (seeds 0-29) | 35 = 58.3% (45.7-69.9%) | +3.5 (-1.0..+8.0), 248 |

Mean CPU a move: expert-model 253 ms (the pool's weighting about 150 ms of it, over 0.1 s
alone), strong 56 ms. No gain shown: 60 matches cannot tell +4.1 from +3.5 a round.

A bound on inference, begun (``expert-oracle``, :class:`OracleExpertBot`, 2026-12-07): how much
could any reading of the other seat's plays add? This expert knows the strong bot's policy
exactly (its seed and cap; the bench hands the strong bot its hand sorted and never cuts its
samples, so its card is a function of its view) and draws the other hand from a pool of hands
with which that bot plays what it played this deal: the exact posterior, sampled. Seeds 0-3
(7 matches, the run stopped at the session's end), 2,400 iterations against 400 samples, one
or two processes under ``nice -n 19`` beside the test suite:

| pairing | matches | A wins | A's round margin, rounds |
|---|---|---|---|
| expert-oracle (pool 16 of 48 tries) vs strong (400), 2 players | 7 (seeds 0-3) | 2 | -10.4 a round, 27 rounds |

Mean CPU a move: about 2.1 s (48 hands judged by the 400-sample bot). Not a bound yet: it
plays worse than the plain expert (+4.3), most likely because 16 hands are too few to stand
for the posterior. A rank that none of them holds is searched as if the other seat could not
hold it (a lone card left to a sweep it makes), where the plain expert deals a fresh hand every
iteration. A bound needs a posterior sample as wide as the iterations: far more hands, or
deals weighted rather than replaced.

Another 300 at 0.1 s (2026-12-07, seeds 150-299, the same budgets: expert 2,400 iterations,
strong 400 samples, ``--time-limit 1``; two processes under ``nice -n 19`` beside the test
suite and a browser; the run's length fixed at 300 before it began, whatever it showed):

| pairing | matches | A wins (95% Wilson CI) | A's round margin (95% CI), rounds |
|---|---|---|---|
| expert vs strong, seeds 150-299 | 300 | 176 = 58.7% (53.0-64.1%) | +3.6 (+1.7..+5.6), 1,213 |
| **expert vs strong, seeds 0-299, pooled with the 300 above** | **600** | **355 = 59.2% (55.2-63.0%)** | about +4.0 (the runs weighted by rounds) |

Mean CPU a move: expert 84 ms, strong 30 ms (wall 138 and 58 ms). Over 600 matches the expert
is stronger than the strong bot (the interval is well above 50%) and just short of the issue's
60% (59.2%, the interval holding it); about +4 round points a round, a fifth of the way to the
hands-seeing ceiling's +20.9, not half.

Usage::

    .venv/bin/python bench/bots.py --matches 500 --samples 100
    .venv/bin/python bench/bots.py --pair greedy:random --matches 200
    .venv/bin/python bench/bots.py --pair strong:greedy --matches 100 --players 4
    nice -n 19 .venv/bin/python bench/bots.py --pair expert:strong --pair cheat:strong \
        --matches 20 --iterations 1500 --time-limit 1 --workers 1 --each
    nice -n 19 .venv/bin/python bench/bots.py --pair expert:strong --matches 20 --first-seed 10 \
        --iterations 1500 --time-limit 1 --workers 1 --each --exploration 30
    nice -n 19 .venv/bin/python bench/bots.py --calibrate 6 --iterations 2400
    nice -n 19 .venv/bin/python bench/bots.py --pair expert:strong --matches 300 \
        --iterations 2400 --time-limit 1 --workers 1 --each --likelihood 0.5
    nice -n 19 .venv/bin/python bench/bots.py --pair expert:strong --matches 214 --first-seed 43 \
        --iterations 2400 --time-limit 1 --workers 2 --each
    nice -n 19 .venv/bin/python bench/bots.py --pair expert:strong --players 4 --matches 60 \
        --iterations 1400 --time-limit 1 --workers 2 --each
    nice -n 19 .venv/bin/python bench/bots.py --pair expert:strong --players 4 --matches 40 \
        --first-seed 10 --iterations 1400 --time-limit 1 --workers 2 --each
    nice -n 19 .venv/bin/python bench/bots.py --pair expert:strong --players 4 --matches 60 \
        --first-seed 50 --iterations 1400 --time-limit 1 --workers 2 --each
    nice -n 19 .venv/bin/python bench/bots.py --pair expert:strong --matches 30 --first-seed 10 \
        --iterations 24000 --time-limit 2 --workers 2 --each
    nice -n 19 .venv/bin/python bench/bots.py --calibrate 6 --players 4 --iterations 1400 --four ismcts
    nice -n 19 .venv/bin/python bench/bots.py --pair expert:strong --players 4 --matches 100 \
        --first-seed 30 --iterations 1400 --time-limit 1 --workers 2 --each --four ismcts
    nice -n 19 .venv/bin/python bench/bots.py --pair expert:strong --players 2 --matches 20 \
        --iterations 24000 --time-limit 2 --workers 2 --each --progress 5
    nice -n 19 .venv/bin/python bench/bots.py --pair cheat-hands:strong --matches 40 \
        --iterations 2400 --time-limit 1 --workers 2 --each
    nice -n 5 .venv/bin/python bench/bots.py --pair expert-model:strong --matches 60 \
        --iterations 2400 --time-limit 1 --workers 2 --each
    nice -n 19 .venv/bin/python bench/bots.py --pair expert-oracle:strong --matches 20 \
        --iterations 2400 --time-limit 1 --workers 2 --each
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import random
import sys
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.engine import Match, Round, Rules, SeatView, full_deck  # noqa: E402
from games.engine.bots import BOTS, Bot, ExpertBot, StrongBot, _distinct, same_class  # noqa: E402
from games.engine.bots.playout import _World  # noqa: E402


class CheatBot(ExpertBot):
    """The ceiling: the expert's search, given the true deal instead of sampled ones.

    It sees every hand and the stock's order (:meth:`see`, called with the round before each
    move), so its search is plain MCTS on the one true world and no fair bot can do better
    with the same budget. It lives here, never among the site's bots.
    """

    name = "cheat"

    def __init__(self, **kwargs) -> None:
        # The tree at four players too: the expert's four-player search samples its deals.
        super().__init__(**{**kwargs, "four": "ismcts"})

    def see(self, round_) -> None:
        self._truth = round_

    def _true_world(self) -> _World:
        r = self._truth
        floor = list(r.floor)
        mask = 0
        for c in floor:
            mask |= 1 << c.index
        return _World([list(h) for h in r.hands], floor, mask, list(r.stock), r.turn, r.dealer,
                      [len(p) for p in r.piles], [0, 0], r.last_capturer)

    def _exact_world(self, view, rng):
        return self._true_world() if view.players == 2 and not view.stock_size else None

    def _determinize(self, view, hidden, rng):
        return self._true_world()


class HandsCheatBot(CheatBot):
    """The ceiling the issue names: a search that sees every hand, not the stock's order.

    Every other seat's hand is the true one; the stock's cards (what no hand and no pile holds)
    are dealt in a random order each iteration, the buried Jacks/7D kept at the bottom in burial
    order (RULES.md, "Dealing" 2), so the deals to come are as unknown to it as to the seats.
    :class:`CheatBot` also knows that order, a higher ceiling than a fair bot's information
    allows. With two players and the stock empty both see the same, the whole state.
    """

    name = "cheat-hands"

    def _determinize(self, view, hidden, rng):
        world = self._true_world()
        stock = world.stock
        if len(stock) > 1:
            # The burial was public (face up before it went under); a seat's view leaves it out.
            buried = [c for c in self._truth.buried if c in stock]
            free = [c for c in stock if c not in buried]
            rng.shuffle(free)
            world.stock = free + buried
        return world


class ModelExpertBot(ExpertBot):
    """A prototype: the expert whose deals of the other hand (two players) come from a pool
    weighted by a model of the other seat's policy, the strong bot's own choice.

    Before a search, ``pool`` deals are drawn as the expert draws them; each is weighted, for
    each play of the other seat in this deal, by 1 where a strong bot (``model`` samples, a
    seed of its own) given that seat's view then, with the hand the deal gives it (that hand
    and the cards it played since), plays the card it played, else ``miss``
    (``bench/expert_inference.py`` measures what this tells). Each iteration then takes a hand
    from the pool by weight, the stock drawn at random around it. The other seat's past views
    come from ``history`` (the bench's record of the round's views, public but for the hand,
    which is replaced): the site's bot would rebuild them from its own view.
    """

    name = "expert-model"

    def __init__(self, *, pool: int = 16, model: int = 20, miss: float = 0.1, **kwargs) -> None:
        super().__init__(**kwargs)
        self.pool, self.model, self.miss = pool, model, miss
        self.history: list = []
        self._hands: list | None = None
        self._weights: list[float] = []

    def evaluate(self, view):
        self._hands = None
        return super().evaluate(view)

    def _determinize(self, view, hidden, rng):
        world = super()._determinize(view, hidden, rng)
        if view.players != 2:
            return world
        other = 1 - view.seat
        if self._hands is None:
            self._hands, self._weights = [], []
            start = len(view.played) // 8 * 8
            plays = [(self.history[i], card) for i, (seat, card) in enumerate(view.played)
                     if i >= start and seat == other and i < len(self.history)]
            judge = StrongBot(seed=f"model{self.seed}", samples=self.model)
            for k in range(self.pool):
                hand = tuple(world.hands[other]) if k == 0 else tuple(
                    super()._determinize(view, hidden, rng).hands[other])
                weight = 1.0
                later = [card for _, card in plays]
                for j, (then, card) in enumerate(plays):
                    chosen = judge.choose(replace(then, hand=hand + tuple(later[j:])))
                    if not same_class(chosen, card, view.rules):
                        weight *= self.miss
                self._hands.append(hand)
                self._weights.append(weight)
        return _give(world, other, rng.choices(self._hands, self._weights)[0])


def _give(world: _World, seat: int, hand) -> _World:
    """``world`` with ``hand`` (cards hidden from the searching seat) as ``seat``'s hand: each
    card it lacks comes from the stock, where the card it replaces goes, so every card is kept."""
    held = world.hands[seat]
    need = [c for c in hand if c not in held]
    spare = [c for c in held if c not in hand]
    stock = list(world.stock)
    for card, out in zip(need, spare):
        stock[stock.index(card)] = out
    world.hands[seat] = list(hand)
    world.stock = stock
    return world


def _index(card) -> int:
    return card.index


def _still() -> float:
    """A clock that never moves."""
    return 0.0


class OracleExpertBot(ModelExpertBot):
    """A bound, not a player: the expert that knows the other seat's policy exactly, the strong
    bot's code, seed and sample cap (two players).

    Its deals of the other hand come from a pool of hands for which that very bot, given that
    seat's view at each of its plays of this deal, plays what it played (the strong bot's card
    is a function of its seed and the view): the exact posterior of the other hand given its
    plays, which no seat can have and every inference from plays can at best approach. The
    strong bot's random numbers are seeded by its view, the order of its hand included: in a
    match with this bot the bench hands the strong bot its hand sorted (its play is as strong,
    its card then a function of the set it holds), and the judge sorts the same way; that bot
    then runs its whole sample cap every move, as on a quiet machine, never cut by the clock. Up to
    ``tries`` hands are drawn as the expert draws them, until ``pool`` agree with every play;
    when none does (the model cut short on a loaded machine), the hands that disagree least are
    kept. Before the other seat's first play of a deal its hand is drawn as the expert draws it.
    The bench sets ``model_seed`` (the other seat's seed) and ``model`` (its sample cap)
    before the match. What it wins against the strong bot is what inference could add to the
    expert's search at most, against this opponent.
    """

    name = "expert-oracle"

    def __init__(self, *, tries: int = 48, **kwargs) -> None:
        super().__init__(**kwargs)
        self.tries = tries
        self.model_seed: int | str = 0

    def _determinize(self, view, hidden, rng):
        world = ExpertBot._determinize(self, view, hidden, rng)
        if view.players != 2:
            return world
        other = 1 - view.seat
        if self._hands == []:
            return world  # no play of the other seat's to weigh: the expert's own deals
        if self._hands is None:
            start = len(view.played) // 8 * 8
            plays = [(self.history[i], card) for i, (seat, card) in enumerate(view.played)
                     if i >= start and seat == other and i < len(self.history)]
            if not plays:
                self._hands = []
                return world
            # The judge runs its whole sample cap, as the other seat does.
            judge = StrongBot(seed=self.model_seed, samples=self.model, clock=_still)
            agree, near = [], []
            for k in range(self.tries):
                hand = tuple(world.hands[other]) if k == 0 else tuple(
                    ExpertBot._determinize(self, view, hidden, rng).hands[other])
                later = [card for _, card in plays]
                misses = 0
                # The latest play first: a hand that fails it needs no other check.
                for j in reversed(range(len(plays))):
                    then, card = plays[j]
                    held_then = tuple(sorted(hand + tuple(later[j:]), key=_index))
                    if not same_class(judge.choose(replace(then, hand=held_then)), card, view.rules):
                        misses += 1
                        break
                (near if misses else agree).append(hand)
                if len(agree) >= self.pool:
                    break
            self._hands = agree or near
            self._weights = [1.0] * len(self._hands)
        return _give(world, other, rng.choice(self._hands))


#: The bots a pairing may name: the site's, the bench's cheating ceilings, its prototype and
#: its bound on inference.
PLAYERS: dict[str, type[Bot]] = {**BOTS, "cheat": CheatBot, "cheat-hands": HandsCheatBot,
                                 "expert-model": ModelExpertBot, "expert-oracle": OracleExpertBot}


@dataclass
class Outcome:
    """One match: who won, and what the bots spent thinking per move (seconds, per bot name).

    ``think``: wall-clock time; ``cpu``: this process's CPU time, which other work on a shared
    machine does not inflate.
    """

    index: int
    a_won: bool
    scores: tuple[int, int]
    rounds: int
    think: dict[str, list[float]] = field(default_factory=dict)
    cpu: dict[str, list[float]] = field(default_factory=dict)
    #: A's round points less B's, per round played.
    margins: list[int] = field(default_factory=list)


def wilson(wins: int, n: int, z: float = 1.959964) -> tuple[float, float]:
    """The Wilson score interval for a proportion ``wins / n`` at 95% (``z`` = 1.96).

    Source: E. B. Wilson, "Probable inference, the law of succession, and statistical
    inference", JASA 22 (1927); the formula as in Agresti & Coull, The American Statistician
    52 (1998): ``(p + z²/2n ± z·sqrt(p(1-p)/n + z²/4n²)) / (1 + z²/n)``.
    """
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    denom = 1 + z * z / n
    centre = p + z * z / (2 * n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return (centre - half) / denom, (centre + half) / denom


def mean_interval(xs: list[float], z: float = 1.959964) -> tuple[float, float]:
    """The mean of ``xs`` and the half-width of its 95% normal interval (``z`` standard errors;
    the rounds of a match are not independent, so this interval is a little narrow)."""
    n = len(xs)
    if n < 2:
        return (xs[0] if xs else 0.0), float("inf")
    mean = sum(xs) / n
    var = sum((x - mean) ** 2 for x in xs) / (n - 1)
    return mean, z * math.sqrt(var / n)


def make_bot(name: str, seed: int, args: argparse.Namespace) -> Bot:
    """A bot by name; the strong one with the run's sample cap, the expert and the cheat with
    the run's iteration cap."""
    if name == "strong":
        return StrongBot(seed=seed, time_limit=args.time_limit, samples=args.samples)
    if name in ("expert", "cheat", "cheat-hands", "expert-model", "expert-oracle"):
        keys = ("exploration", "horizon", "likelihood", "final") + (("four",) if name != "cheat" else ())
        tuning = {key: getattr(args, key) for key in keys if getattr(args, key) is not None}
        return PLAYERS[name](seed=seed, time_limit=args.time_limit, iterations=args.iterations, **tuning)
    return BOTS[name](seed=seed, time_limit=args.time_limit)


def play_match(job: tuple[int, str, str, argparse.Namespace]) -> Outcome:
    """Match ``index`` of A against B, as the module docstring lays out seeds and seats."""
    index, a, b, args = job
    seed = args.first_seed + index // 2
    a_side = index % 2
    rules = Rules(players=args.players, target=args.target)
    names = [a if seat % 2 == a_side else b for seat in range(args.players)]
    bots = [make_bot(name, seed * 100 + seat, args) for seat, name in enumerate(names)]
    think: dict[str, list[float]] = {name: [] for name in (a, b)}
    cpu: dict[str, list[float]] = {name: [] for name in (a, b)}
    oracle = any(isinstance(bot, OracleExpertBot) for bot in bots)
    if oracle:
        # The other seat's card must be the function of its view that the oracle knows: its
        # whole sample cap every move, never cut by a loaded machine's clock.
        for bot in bots:
            if isinstance(bot, StrongBot):
                bot._clock = _still
    rng = random.Random(seed)
    m = Match(rules, dealer=0)
    margins = []
    while not m.over:
        deck = full_deck()
        rng.shuffle(deck)
        m.start_round(deck)
        before = m.scores
        history: list = []  # the view before each play of the round (ModelExpertBot)
        for seat, bot in enumerate(bots):
            if isinstance(bot, ModelExpertBot):
                bot.history = history
            if isinstance(bot, OracleExpertBot):
                bot.model_seed = seed * 100 + (seat + 1) % args.players
                bot.model = args.samples
        while not m.round.over:
            seat = m.round.turn
            view = m.view(seat)
            history.append(view)
            if isinstance(bots[seat], CheatBot):
                bots[seat].see(m.round)
            if oracle and isinstance(bots[seat], StrongBot):
                view = replace(view, hand=tuple(sorted(view.hand, key=_index)))
            start, start_cpu = time.perf_counter(), time.process_time()
            card = bots[seat].choose(view)
            think[names[seat]].append(time.perf_counter() - start)
            cpu[names[seat]].append(time.process_time() - start_cpu)
            m.play(card, seat=seat)
        gained = [m.scores[side] - before[side] for side in (0, 1)]
        margins.append(gained[a_side] - gained[1 - a_side])
    return Outcome(index, m.winner == a_side, m.scores, m.round_number, think, cpu, margins)


def run_pair(a: str, b: str, args: argparse.Namespace) -> None:
    """Play ``args.matches`` matches of A against B and print the result lines."""
    jobs = [(i, a, b, args) for i in range(args.matches)]
    start = time.perf_counter()
    outcomes: list[Outcome] = []
    with multiprocessing.Pool(args.workers) as pool:
        for done, outcome in enumerate(pool.imap_unordered(play_match, jobs, chunksize=1), 1):
            outcomes.append(outcome)
            if args.each:
                print(f"  match {outcome.index}: {a} {'won' if outcome.a_won else 'lost'} "
                      f"{outcome.scores} margins {outcome.margins}", flush=True)
            if args.progress and done % args.progress == 0:
                wins = sum(o.a_won for o in outcomes)
                print(f"  … {done}/{args.matches}: {a} {wins / done:.1%}", flush=True)
    elapsed = time.perf_counter() - start
    report(a, b, outcomes, elapsed, args)


def report(a: str, b: str, outcomes: Iterable[Outcome], elapsed: float, args: argparse.Namespace) -> None:
    """Print matches, A's win rate with its Wilson interval, rounds, and think time per move."""
    outcomes = sorted(outcomes, key=lambda o: o.index)
    n = len(outcomes)
    wins = sum(o.a_won for o in outcomes)
    low, high = wilson(wins, n)
    rounds = sum(o.rounds for o in outcomes) / n
    budget = f"limit {args.time_limit:g} s/move"
    if "strong" in (a, b):
        budget += f"; strong: at most {args.samples} samples"
    if {"expert", "cheat", "cheat-hands", "expert-model"} & {a, b}:
        budget += f"; expert/cheat: at most {args.iterations} iterations"
    print(f"{a} vs {b}: {args.players} players, target {args.target}, {n} matches  {budget}")
    print(f"  {a} wins {wins}/{n} = {wins / n:.1%}  (95% Wilson CI {low:.1%} .. {high:.1%})")
    print(f"  rounds per match {rounds:.2f}; wall time {elapsed:.0f} s over {args.workers} processes")
    margins = [x for o in outcomes for x in o.margins]
    mean, half = mean_interval(margins)
    print(f"  {a}'s round points less {b}'s, per round: {mean:+.2f} (95% CI {mean - half:+.2f} .. "
          f"{mean + half:+.2f}, {len(margins)} rounds)")
    for name in dict.fromkeys((a, b)):
        for what, attr in (("wall", "think"), ("cpu", "cpu")):
            times = sorted(t for o in outcomes for t in getattr(o, attr).get(name, []))
            if times:
                mean = sum(times) / len(times)
                p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
                print(
                    f"  {name}: {len(times)} moves, {what} per move mean {mean * 1000:.2f} ms, "
                    f"p99 {p99 * 1000:.2f} ms, max {times[-1] * 1000:.2f} ms"
                )
    sys.stdout.flush()


def strong_rounds(rounds: int) -> Iterator[tuple[int, Round, SeatView]]:
    """Every move of ``rounds`` two-player rounds of the strong bot (the site's 400 samples)
    against itself: ``(seed, round, view of the seat to move)`` before each play, deal seeds
    ``0..rounds-1``, the first dealer ``seed % 2``; ``round`` is the truth, for a screen that
    compares with it (``bench/expert_regret.py``, ``bench/expert_inference.py``)."""
    for seed in range(rounds):
        rng = random.Random(seed)
        m = Match(Rules(), dealer=seed % 2)
        deck = full_deck()
        rng.shuffle(deck)
        m.start_round(deck)
        bots = [StrongBot(seed=seed * 10 + s, samples=400) for s in (0, 1)]
        while not m.round.over:
            seat = m.round.turn
            view = m.view(seat)
            yield seed, m.round, view
            m.play(bots[seat].choose(view), seat=seat)


def calibrate(rounds: int, args: argparse.Namespace) -> None:
    """Print the expert's CPU time a searched move at ``args.iterations`` (``time.process_time``).

    The views: every choice of ``rounds`` rounds of the strong bot (50 samples) against itself,
    deal seeds ``0..rounds-1``, where the hand holds two classes of card or more and, with two
    players, the stock is not empty (a last deal is solved, not searched). One expert chooses
    on them all, in order, as in a match (its capture memo kept from move to move).
    """
    views = []
    for seed in range(rounds):
        rng = random.Random(seed)
        m = Match(Rules(players=args.players), dealer=0)
        deck = full_deck()
        rng.shuffle(deck)
        m.start_round(deck)
        strong = StrongBot(seed=seed, samples=50)
        while not m.round.over:
            view = m.view(m.round.turn)
            if len(_distinct(view.hand, view.rules)) > 1 and (args.players == 4 or view.stock_size):
                views.append(view)
            m.play(strong.choose(view))
    four = {"four": args.four} if args.four else {}
    bot = ExpertBot(seed=1, time_limit=1.0, iterations=args.iterations, **four)
    start = time.process_time()
    for view in views:
        bot.choose(view)
    cpu = (time.process_time() - start) / len(views)
    print(f"expert, {args.players} players, {args.iterations} iterations: {len(views)} searched moves, "
          f"{cpu * 1000:.1f} ms CPU a move, {args.iterations / cpu:.0f} iterations a CPU second")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=500, help="matches per pairing (default 500)")
    parser.add_argument(
        "--pair",
        action="append",
        help="A:B, bot A against bot B (repeatable; default greedy:random and strong:greedy)",
    )
    parser.add_argument("--samples", type=int, default=400,
                        help="strong bot: determinizations per move (default 400, the site's cap)")
    parser.add_argument("--iterations", type=int, default=20_000,
                        help="expert and cheat: ISMCTS iterations per move at most (default 20000)")
    parser.add_argument("--exploration", type=float, default=None,
                        help="expert and cheat: UCB1 constant in round points (default: the bot's)")
    parser.add_argument("--horizon", type=int, default=None,
                        help="expert and cheat: playout horizon in plays (default: the bot's)")
    parser.add_argument("--likelihood", type=float, default=None,
                        help="expert: weight of a deal per play of another seat against the greedy policy")
    parser.add_argument("--final", choices=("mean", "visits"), default=None,
                        help="expert and cheat: the card of best mean or the most visited")
    parser.add_argument("--four", choices=("pimc", "ismcts"), default=None,
                        help="expert: the search with four players (default: the bot's, pimc)")
    parser.add_argument("--time-limit", type=float, default=1.0,
                        help="seconds per move, every bot (default 1.0, at most 1.0)")
    parser.add_argument("--players", type=int, choices=(2, 4), default=2)
    parser.add_argument("--target", type=int, default=Rules().target)
    parser.add_argument("--workers", type=int, default=2, help="processes (default 2)")
    parser.add_argument("--first-seed", type=int, default=0, help="deal seed of the first pair")
    parser.add_argument("--progress", type=int, default=0, help="print a line every N matches")
    parser.add_argument("--each", action="store_true",
                        help="print every match as it ends (a run cut short still counts)")
    parser.add_argument("--calibrate", type=int, default=0, metavar="ROUNDS",
                        help="print the expert's CPU time a move at --iterations on ROUNDS rounds' "
                             "views, and stop")
    args = parser.parse_args(argv)
    if args.calibrate:
        calibrate(args.calibrate, args)
        return
    pairs = args.pair or ["greedy:random", "strong:greedy"]
    for pair in pairs:
        a, _, b = pair.partition(":")
        if a not in PLAYERS or b not in PLAYERS:
            parser.error(f"unknown bot in {pair!r}; bots: {', '.join(PLAYERS)}")
        run_pair(a, b, args)


if __name__ == "__main__":
    main()
