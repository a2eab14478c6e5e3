"""How much the expert's deals know of the other seat's hand: its inference screened, no match played.

Why: a search that sees every hand (``bench/bots.py``'s ``cheat-hands``) beats the strong bot by
about 20 round points a round, the expert by about 4. What separates the two is the other hand,
and the only way a fair seat learns it is from that seat's plays in the current deal (the
expert's ``inference``: :func:`~games.engine.bots.expert.unlikely_cards`, and ``likelihood``
with :func:`~games.engine.bots.expert.passed_over`). This script measures how much those plays
tell, in the deals the expert searches.

Method: positions from two-player rounds of the strong bot against itself (the site's 400
samples, deal seeds ``0..rounds-1``, the first dealer alternating), each the view of the seat to
move while the stock is not empty, after the other seat has played in this deal and while it
still holds a card. For each setting, ``--deals`` determinizations per position are drawn as
the expert draws them (:meth:`ExpertBot._determinize`), and compared with the other seat's true
hand:

- **Brier score by rank**: for each of the 13 ranks, the share of the deals giving the other
  hand that rank, against 1 or 0 (it holds one or not), squared, summed over the ranks
  (G. W. Brier, Monthly Weather Review 78, 1950): what a capture depends on is the rank. Lower
  is better; a deal that knew the hand scores 0.
- **Overlap**: the mean share of the true hand's cards that a deal gives it.

Each setting sees the same positions, so the differences from the first are paired: the script
prints them with a 95% normal interval.

What it found (2026-12-07, 12 rounds, 360 positions, 400 deals each):

| setting | Brier by rank (lower is better) | against uniform deals (95% CI) |
|---|---|---|
| uniform deals (``inference=False``) | 1.490 | |
| the expert's default (basras passed up) | 1.485 | -0.005 (-0.010..-0.001) |
| and ``likelihood=0.5`` | 1.478 | -0.013 (-0.025..-0.000) |
| and ``likelihood=0.3`` | 1.481 | -0.010 (-0.025..+0.006) |
| and ``likelihood=0.1`` | 1.488 | -0.002 (-0.022..+0.018) |

Overlap: 9.7% of the true hand's cards uniform, 9.9% with the default, 10.2-10.6% with the
likelihoods. With the models tried, the plays of a deal lower the Brier score by under 1% of
the way from uniform deals to knowing the hand: the basras passed up are worth their round
points (the expert went from level with the strong bot to about +4 a round with them) because
they are the cards that matter most, not because they tell much. A better model of the other
seat's policy (the strong bot's own search, run on each deal's hand for each of its plays)
could tell more, at a search per play per deal; short of that, the inference tried leaves most
of the 20 points a round between the strong bot and the search that sees every hand out of reach.

Usage::

    nice -n 19 .venv/bin/python bench/expert_inference.py --rounds 12 --deals 400
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bots import strong_rounds  # noqa: E402

from games.engine.bots import ExpertBot  # noqa: E402
from games.engine.bots.expert import passed_over, unlikely_cards  # noqa: E402
from games.engine.bots.seat import hidden_cards  # noqa: E402

#: The settings screened unless others are given: the expert's keywords.
SETTINGS = ['{"inference": false}', "{}", '{"likelihood": 0.5}', '{"likelihood": 0.3}',
            '{"likelihood": 0.1}']


def positions(rounds: int) -> list[tuple]:
    """``(view, the other seat's true hand)`` for the positions the module describes."""
    out = []
    for _, round_, view in strong_rounds(rounds):
        other = round_.hands[1 - view.seat]
        if view.stock_size and len(view.played) % 8 and other:
            out.append((view, tuple(other)))
    return out


def score(view, true: tuple, setting: dict, deals: int, seed: int) -> tuple[float, float]:
    """The Brier score by rank and the overlap (module) of ``deals`` deals drawn with ``setting``."""
    bot = ExpertBot(seed=seed, **setting)
    # What ExpertBot._search sets before it draws its deals.
    danger = view.rules.basra_points * 0.3
    bot._absent = unlikely_cards(view) if bot.inference else {}
    bot._passed = passed_over(view, danger, {}) if bot.inference and bot.likelihood < 1 else []
    bot._depth = None
    hidden = hidden_cards(view)
    rng = random.Random(seed)
    other = 1 - view.seat
    truth = set(true)
    ranks = {c.rank for c in true}
    held = [0] * 14
    overlap = 0
    for _ in range(deals):
        hand = bot._determinize(view, hidden, rng).hands[other]
        overlap += len(truth.intersection(hand))
        for rank in {c.rank for c in hand}:
            held[rank] += 1
    brier = sum((held[r] / deals - (r in ranks)) ** 2 for r in range(1, 14))
    return brier, overlap / (deals * len(true))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=12, help="strong-bot rounds (default 12)")
    parser.add_argument("--deals", type=int, default=400, help="deals a position (default 400)")
    parser.add_argument("--setting", action="append",
                        help="the expert's keywords as JSON (repeatable; the first is the baseline)")
    args = parser.parse_args(argv)
    found = positions(args.rounds)
    print(f"{len(found)} positions from {args.rounds} rounds, {args.deals} deals each")
    base = None
    for text in args.setting or SETTINGS:
        setting = json.loads(text)
        scores = [score(view, true, setting, args.deals, i) for i, (view, true) in enumerate(found)]
        brier = [b for b, _ in scores]
        mean = sum(brier) / len(brier)
        overlap = sum(o for _, o in scores) / len(scores)
        line = f"{text:24s} Brier by rank {mean:.4f}, overlap {overlap:.1%}"
        if base is None:
            base = brier
        else:
            d = [a - b for a, b in zip(brier, base)]
            m = sum(d) / len(d)
            sd = math.sqrt(sum((x - m) ** 2 for x in d) / (len(d) - 1))
            half = 1.959964 * sd / math.sqrt(len(d))
            line += f"; against the first {m:+.4f} (95% CI {m - half:+.4f} .. {m + half:+.4f})"
        print(line, flush=True)


if __name__ == "__main__":
    main()
