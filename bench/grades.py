"""Calibration of the analysis's grades (issue 42): how the expert's own plays are graded.

The expert plays matches against itself (``--iterations`` a move, a clock that stands still so
the cap decides); the analysis (``games.replays.analysis.analyse_record``, its own budget and
seeds: another search than the player's) then judges every play. A good threshold grades
almost none of these plays: what they lose is the noise of two searches, not a mistake. It
prints the distribution of the chance lost and of the points lost, and the grades given.

Usage::

    nice -n 19 .venv/bin/python bench/grades.py --matches 1 --iterations 1500 --judge 4000

Results: see the module docstring of ``games.replays.analysis`` and the report of issue 42.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games import engine  # noqa: E402
from games.engine.bots import ExpertBot  # noqa: E402
from games.replays import analysis  # noqa: E402


def self_play(seed: int, iterations: int, target: int) -> dict:
    """A match the expert plays against itself, as a ``basra-record/1``."""
    rng = random.Random(seed)
    bots = [ExpertBot(seed=f"{seed}|{s}", iterations=iterations, clock=lambda: 0.0) for s in range(2)]
    m = engine.Match(engine.Rules(target=target), dealer=0)
    while not m.over:
        deck = engine.full_deck()
        rng.shuffle(deck)
        m.start_round(deck)
        while not m.round.over:
            seat = m.round.turn
            m.play(bots[seat].choose(m.view(seat)), seat=seat)
    return m.to_record(["expert", "expert"])


def quantile(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))] if xs else 0.0


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=1)
    parser.add_argument("--iterations", type=int, default=1500, help="the player's cap a move")
    parser.add_argument("--judge", type=int, default=analysis.ITERATIONS, help="the analysis's cap a play")
    parser.add_argument("--target", type=int, default=101)
    args = parser.parse_args(argv)
    plays = []
    start = time.perf_counter()
    for i in range(args.matches):
        record = self_play(i, args.iterations, args.target)
        found = analysis.analyse_record(record, iterations=args.judge, clock=lambda: 0.0)
        plays += [p for p in found["plays"] if not p["forced"]]
        print(f"match {i}: accuracy {[p['accuracy'] for p in found['players']]}", flush=True)
    chance = [p["chance_loss"] for p in plays]
    points = [p["loss"] for p in plays]
    grades = [p["grade"] for p in plays]
    print(f"{len(plays)} unforced plays of the expert (cap {args.iterations}) judged at "
          f"{args.judge} iterations, {time.perf_counter() - start:.0f} s")
    for q in (0.5, 0.9, 0.95, 0.99, 1.0):
        print(f"  {q:>5.0%} quantile: chance lost {quantile(chance, q):.2f} pp, "
              f"points lost {quantile(points, q):.2f}")
    for name, _chance, _points in analysis.GRADES:
        count = grades.count(name)
        print(f"  {name}: {count} ({count / max(1, len(plays)):.1%})")


if __name__ == "__main__":
    main()
