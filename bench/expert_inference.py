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
| ``model`` 50: the strong bot's own choice, 100 deals (its own uniform row: 1.496) | 1.382 | -0.114 (-0.139..-0.089) |

Overlap: 9.7% of the true hand's cards uniform, 9.9% with the default, 10.2-10.6% with the
likelihoods, 13.9% with the strong bot as the model (10.0% in that run without it). The
expert's own models of the other seat (the basras it passed up, the greedy policy's
``likelihood``) lower the Brier score by under 1% of the way from uniform deals to knowing the
hand: the basras passed up are worth their round points (the expert went from level with the
strong bot to about +4 a round with them) because they are the cards that matter most, not
because they tell much. A model that is the other seat's policy (``"model"``: each deal weighted
by whether a strong bot, 50 samples and a seed of its own, given the hand that deal gives the
other seat, plays what it played) tells twenty times as much: 7.6% of the way. Against the
strong bot that is the route to more of the 20 points a round between it and the search that
sees every hand; it costs a search per play of the other seat per deal (about 1.5 plays a
position, a few ms each), so at 0.1 s a move it must weight a small pool of hands, not every
iteration's deal. Against people the strong bot is a model, not the truth.

Usage::

    nice -n 19 .venv/bin/python bench/expert_inference.py --rounds 12 --deals 400
    nice -n 10 .venv/bin/python bench/expert_inference.py --rounds 12 --deals 100 \
        --setting '{}' --setting '{"model": 50}'
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bots import strong_rounds  # noqa: E402

from games.engine.bots import ExpertBot, StrongBot, same_class  # noqa: E402
from games.engine.bots.seat import hidden_cards  # noqa: E402

#: The settings screened unless others are given: the expert's keywords.
SETTINGS = ['{"inference": false}', "{}", '{"likelihood": 0.5}', '{"likelihood": 0.3}',
            '{"likelihood": 0.1}']


def positions(rounds: int) -> list[tuple]:
    """``(view, the other seat's true hand, the other seat's views at its plays of this deal)``
    for the positions the module describes; each of those views ``(view, card it played)``."""
    out = []
    views: list = []
    for _, round_, view in strong_rounds(rounds):
        if not view.played:
            views = []
        views.append(view)
        other = round_.hands[1 - view.seat]
        if view.stock_size and len(view.played) % 8 and other:
            start = len(view.played) // 8 * 8
            plays = [(views[i], card) for i, (seat, card) in enumerate(view.played)
                     if i >= start and seat != view.seat]
            out.append((view, tuple(other), plays))
    return out


def score(view, true: tuple, plays: list, setting: dict, deals: int, seed: int) -> tuple[float, float]:
    """The Brier score by rank and the overlap (module) of ``deals`` deals drawn with ``setting``.

    ``setting``: the expert's keywords, and ``"model"``: a number of samples to weight each deal
    by the strong bot's own choice at each of the other seat's ``plays`` of the deal, given the
    hand the deal gives it then (that hand, and the cards it played since): weight 1 where a
    strong bot with that many samples (and a seed of its own) plays the card played, ``"miss"``
    (default 0.1) where it does not. The posterior of a model of the other seat's policy
    that is the strong bot itself, up to its sampling.
    """
    setting = dict(setting)
    model = setting.pop("model", 0)
    miss = setting.pop("miss", 0.1)
    bot = ExpertBot(seed=seed, **setting)
    bot._prepare(view, {})
    hidden = hidden_cards(view)
    rng = random.Random(seed)
    other = 1 - view.seat
    truth = set(true)
    ranks = {c.rank for c in true}
    held = [0.0] * 14
    overlap = 0.0
    total = 0.0
    judge = StrongBot(seed=f"model{seed}", samples=model) if model else None
    for _ in range(deals):
        hand = bot._determinize(view, hidden, rng).hands[other]
        weight = 1.0
        if judge is not None:
            later = [card for _, card in plays]
            for k, (then, card) in enumerate(plays):
                held_then = tuple(hand) + tuple(later[k:])
                chosen = judge.choose(replace(then, hand=held_then))
                if not same_class(chosen, card, view.rules):
                    weight *= miss
        total += weight
        overlap += weight * len(truth.intersection(hand))
        for rank in {c.rank for c in hand}:
            held[rank] += weight
    brier = sum((held[r] / total - (r in ranks)) ** 2 for r in range(1, 14))
    return brier, overlap / (total * len(true))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=12, help="strong-bot rounds (default 12)")
    parser.add_argument("--deals", type=int, default=400, help="deals a position (default 400)")
    parser.add_argument("--setting", action="append",
                        help="the expert's keywords as JSON, and \"model\", \"miss\" (score()); "
                             "repeatable, the first is the baseline")
    args = parser.parse_args(argv)
    found = positions(args.rounds)
    print(f"{len(found)} positions from {args.rounds} rounds, {args.deals} deals each")
    base = None
    for text in args.setting or SETTINGS:
        setting = json.loads(text)
        scores = [score(view, true, plays, setting, args.deals, i)
                  for i, (view, true, plays) in enumerate(found)]
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
