"""Ratings benchmark: does the site's Glicko-2 find a population's hidden strengths?

What it does: ``--players`` simulated players (default 200), each with a hidden strength drawn
from a normal distribution (mean 1500, ``--spread`` standard deviation, default 300), play rated
1v1 matches through the real actions (``games.core.actions.create_table(rated=True)``,
``join_table``, then the loser ``resign``s), so every match is rated by the ratings app's
receiver of ``match_finished`` exactly as on the site. Each round pairs everybody at random, so
after round ``n`` every player has played ``n`` rated matches. The winner is drawn from the
hidden strengths: A beats B with probability 1 / (1 + 10^((s_B - s_A) / 400)) (the logistic
model Glicko's expected score assumes).

What it prints:

- after 10, 30 and 100 matches each (``--checkpoints``): the Spearman rank correlation between
  the players' ratings and their hidden strengths (target: >= 0.9 after 30), and the share of
  provisional players;
- the Brier score of the pre-match win chance the table page shows
  (``games.ratings.rating.win_chances``, read before the loser resigns) against the outcomes,
  per stretch of matches, next to 0.25, the Brier score of always saying 50%, and, at the end,
  the Brier score of the hidden strengths' own probabilities (the floor no rating can beat).

It runs on a fresh SQLite file in a temporary folder (``DATABASE_URL`` is set to it), migrated
first; ``--database-url`` names another (it must be empty and is migrated). The seed makes a run
reproducible (``--seed``).

Usage::

    .venv/bin/python bench/ratings.py
    .venv/bin/python bench/ratings.py --players 200 --checkpoints 10,30,100 --seed 1

Results (200 players, spread 300, seed 1, SQLite, 2 shared cores; 10,000 rated matches through
the actions at 30-40 a second, about 5 minutes):

    matches each  Spearman  provisional  Brier (stretch)
              10     0.858        100%    0.1973 (1-10)
              30     0.956         19%    0.1502 (11-30)
             100     0.986          0%    0.1458 (31-100)
    Brier over all 10000 matches: 0.1518 (always 50%: 0.2500; the hidden strengths' own
    chances: 0.1359)
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def spearman(xs: list[float], ys: list[float]) -> float:
    """Spearman's rank correlation: Pearson's correlation of the ranks (ties get their mean
    rank; Spearman 1904, "The proof and measurement of association between two things")."""

    def ranks(values: list[float]) -> list[float]:
        order = sorted(range(len(values)), key=values.__getitem__)
        result = [0.0] * len(values)
        i = 0
        while i < len(order):
            j = i
            while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
                j += 1
            for k in range(i, j + 1):
                result[order[k]] = (i + j) / 2 + 1
            i = j + 1
        return result

    return statistics.correlation(ranks(xs), ranks(ys))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--spread", type=float, default=300.0,
                        help="standard deviation of the hidden strengths (rating points)")
    parser.add_argument("--checkpoints", default="10,30,100",
                        help="matches per player after which to report, comma-separated")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--database-url", default="")
    args = parser.parse_args()
    if args.players < 2 or args.players % 2:
        sys.exit("--players must be an even number, 2 or more")
    checkpoints = sorted({int(c) for c in args.checkpoints.split(",") if c.strip()})

    folder = tempfile.mkdtemp(prefix="basra-ratings-bench-")
    os.environ["DATABASE_URL"] = args.database_url or f"sqlite:///{folder}/bench.sqlite3"
    os.environ.pop("REDIS_URL", None)
    os.environ.setdefault("DEBUG", "1")  # the site defaults to off; this bench runs as `make run`
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "basra_site.settings")
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    call_command("migrate", verbosity=0)

    from games.core import actions
    from games.ratings.models import PlayerRating
    from games.ratings.rating import win_chances

    rng = random.Random(args.seed)
    users = get_user_model().objects.bulk_create(
        [get_user_model()(username=f"sim{i:04d}") for i in range(args.players)]
    )
    strength = {user.pk: rng.gauss(1500.0, args.spread) for user in users}
    by_pk = {user.pk: user for user in users}
    print(f"{args.players} players, hidden strengths N(1500, {args.spread:g}), seed {args.seed}, "
          f"database {os.environ['DATABASE_URL'].split('://')[0]}")
    print(f"{'matches each':>12}  {'Spearman':>8}  {'provisional':>11}  "
          f"{'Brier (stretch)':>15}  {'Brier 50%':>9}  {'rated/s':>7}")

    squared_errors: list[float] = []
    # The Brier score of the hidden strengths' own probabilities: the best any rating can do.
    oracle_errors: list[float] = []
    played = 0
    started = time.perf_counter()
    for round_number in range(1, checkpoints[-1] + 1):
        order = [user.pk for user in users]
        rng.shuffle(order)
        for a, b in zip(order[::2], order[1::2]):
            match = actions.create_table(user=by_pk[a], players=2, rules={}, rated=True)
            actions.join_table(user=by_pk[b], match_id=match.pk)
            match.refresh_from_db()
            chance = win_chances(match)[0].chance  # seat 0 is a, the creator
            p_a = 1.0 / (1.0 + 10 ** ((strength[b] - strength[a]) / 400.0))
            a_wins = rng.random() < p_a
            actions.resign(user=by_pk[b] if a_wins else by_pk[a], match_id=match.pk)
            squared_errors.append((chance - (1.0 if a_wins else 0.0)) ** 2)
            oracle_errors.append((p_a - (1.0 if a_wins else 0.0)) ** 2)
            played += 1
        if round_number in checkpoints:
            rows = dict(PlayerRating.objects.filter(pool="1v1").values_list("user_id", "rating"))
            provisional = PlayerRating.objects.filter(pool="1v1", deviation__gte=110).count()
            pks = list(strength)
            rho = spearman([rows[pk] for pk in pks], [strength[pk] for pk in pks])
            previous = checkpoints[checkpoints.index(round_number) - 1] if round_number != \
                checkpoints[0] else 0
            stretch = squared_errors[previous * args.players // 2:]
            elapsed = time.perf_counter() - started
            print(f"{round_number:>12}  {rho:>8.3f}  {provisional / args.players:>10.0%}  "
                  f"{statistics.fmean(stretch):>8.4f} ({previous + 1}-{round_number})  "
                  f"{0.25:>9.4f}  {played / elapsed:>7.1f}")
    print(f"Brier over all {played} matches: {statistics.fmean(squared_errors):.4f} "
          f"(always 50%: 0.2500; the hidden strengths' own chances: "
          f"{statistics.fmean(oracle_errors):.4f})")


if __name__ == "__main__":
    main()
