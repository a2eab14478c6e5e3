"""The quick-pairing queues' matching under load (games/queues/matching.py), no database.

1. 10,000 players waiting in one queue, one wave paired by ``matching.pair_wave`` (rating
   groups): the CPU and wall time of that wave (target under 1 s of CPU) and how many pairs,
   their mean gap; then the same wave where each player's last opponents are their rating
   neighbours, so that no group is paired in rating order and networkx matches every one.
2. A simulated day of one queue: Poisson arrivals (``--rate`` players a second), ratings from
   the site's spread (normal, mean 1500, deviation 250: Glicko's start and the spread of an
   established pool, clipped to 600-2400), a wave every ``scheduler.WAVE_SECONDS`` (3 s) or at
   once when ``scheduler.ENOUGH`` wait: the wait p50/p95 in seconds and the mean rating gap of
   the pairs, beside a first-come-first-served baseline (the two oldest waiting meet, at every
   wave) fed the same arrivals in the same run.

Run: ``.venv/bin/python bench/queues.py`` (``--rate 0.05 --hours 24 --seed 1`` by default).

Measured here (2026-12-02 11:32 UTC, 2 cores, load average 0.95; seed 1), before and after
the groups paired in rating order without a matching (``matching._adjacent_is_best``), in the
same minute:

    one wave of 10,000: before 0.64 s CPU (1.08-1.34 s at a load average of 13-14); now
        0.06 s CPU (0.06 s wall), 5,000 pairs, mean gap 0.2
    one wave of 10,000 whose rating neighbours met last time (every group a networkx
        matching): 0.71 s CPU (0.72 s wall), mean gap 0.5
    again at 12:35, load average 17-18: before 1.05 s CPU; now 0.05 s CPU (0.10 s wall), the
        neighbours' wave 0.69 s CPU (1.60 s wall)
    a day, 0.05 arrivals/s (4,281 players), the same before and after (matching 1.0 s CPU
    before, 0.6 s now):
        matching               wait p50 7.4 s, p95 68.8 s, mean gap 185
        first come first served wait p50 2.8 s, p95 46.9 s, mean gap 284
    4 h at 0.5 arrivals/s (7,132 players), the same before and after (0.7 s CPU, 0.6 s now):
        matching               wait p50 2.5 s, p95 16.8 s, mean gap 89
        first come first served wait p50 2.1 s, p95 6.2 s, mean gap 283

The matching buys a third (quiet queue) to two thirds (busy queue) less rating gap for a longer
tail of waits: the gap widens to its 500 cap only after 40 s.

2026-12-06 04:07 UTC (issue 35; load average 7): two players alone in the queue now meet once
the longer waiter has waited 40 s, however far apart (before: never, past 500 points). The
quiet day (seed 1): matching wait p50 8.5 s, p95 51.8 s (was 68.8), mean gap 223 (was 185),
0.3 s CPU; the one-wave figures as before (0.07 s CPU; the neighbours' wave 0.76 s CPU).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from games.queues.matching import Waiter, pair_wave  # noqa: E402

WAVE_SECONDS = 3.0  # games.queues.scheduler.WAVE_SECONDS (the scheduler imports Django)
ENOUGH = 8          # games.queues.scheduler.ENOUGH[2]


def rating(rng: random.Random) -> float:
    return min(2400.0, max(600.0, rng.gauss(1500, 250)))


def one_big_wave(n: int, rng: random.Random, *, neighbours_met: bool = False) -> None:
    """Time one wave of ``n`` waiting players. ``neighbours_met``: each player's last opponents
    are their two neighbours in the rating order, so no group may be paired in that order and
    every group is a networkx matching (the slow path)."""
    units = [Waiter(id=i, rating=rating(rng), waited=rng.uniform(0, 30), members=(i,)) for i in range(n)]
    if neighbours_met:
        order = sorted(units, key=lambda u: (u.rating, u.id))
        units = [
            Waiter(id=u.id, rating=u.rating, waited=u.waited, members=u.members,
                   recent=frozenset(order[k].id for k in (x - 1, x + 1) if 0 <= k < n))
            for x, u in enumerate(order)
        ]
    wall, start = time.perf_counter(), time.process_time()
    pairs = pair_wave(units)
    cpu, wall = time.process_time() - start, time.perf_counter() - wall
    by_id = {u.id: u.rating for u in units}
    gap = statistics.fmean(abs(by_id[a] - by_id[b]) for a, b in pairs)
    what = ", rating neighbours met last time" if neighbours_met else ""
    print(f"one wave of {n:,}{what}: {cpu:.2f} s CPU ({wall:.2f} s wall), {len(pairs):,} pairs, mean gap {gap:.1f}")


def simulate(arrivals: list[tuple[float, float]], hours: float, fcfs: bool) -> tuple[list[float], list[float], int]:
    """Run one queue over ``arrivals`` (``(time, rating)``, in time order); returns the waits of
    the seated players, the gaps of their pairs, and how many were still waiting at the end."""
    waiting: dict[int, tuple[float, float]] = {}  # id -> (joined, rating)
    waits, gaps = [], []
    last_wave, t, i = 0.0, 0.0, 0
    end = hours * 3600
    while t < end:
        # Next event: an arrival, or the next wave time.
        next_arrival = arrivals[i][0] if i < len(arrivals) else end
        next_wave = last_wave + WAVE_SECONDS
        if i < len(arrivals) and next_arrival < next_wave:
            t = next_arrival
            waiting[i] = (t, arrivals[i][1])
            i += 1
            if len(waiting) < ENOUGH:
                continue
        else:
            t = next_wave
        last_wave = t
        if fcfs:
            order = sorted(waiting, key=lambda k: waiting[k][0])
            pairs = list(zip(order[0::2], order[1::2]))
        else:
            pairs = pair_wave([Waiter(id=k, rating=r, waited=t - j, members=(k,)) for k, (j, r) in waiting.items()])
        for a, b in pairs:
            (ja, ra), (jb, rb) = waiting.pop(a), waiting.pop(b)
            waits += [t - ja, t - jb]
            gaps.append(abs(ra - rb))
    return waits, gaps, len(waiting)


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--rate", type=float, default=0.05, help="arrivals a second")
    parser.add_argument("--hours", type=float, default=24.0)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    one_big_wave(args.players, rng)
    one_big_wave(args.players, random.Random(args.seed), neighbours_met=True)
    arrivals, t = [], 0.0
    while True:
        t += rng.expovariate(args.rate)
        if t >= args.hours * 3600:
            break
        arrivals.append((t, rating(rng)))
    print(f"a day of {args.hours:g} h, {args.rate:g} arrivals/s ({len(arrivals):,} players):")
    for name, fcfs in (("matching", False), ("first come first served", True)):
        wall, start = time.perf_counter(), time.process_time()
        waits, gaps, left = simulate(arrivals, args.hours, fcfs)
        cpu, wall = time.process_time() - start, time.perf_counter() - wall
        print(f"  {name:>24}: wait p50 {pct(waits, .5):.1f} s p95 {pct(waits, .95):.1f} s, "
              f"mean gap {statistics.fmean(gaps):.0f}, {len(gaps):,} tables, {left} left waiting "
              f"({cpu:.1f} s CPU, {wall:.1f} s wall)")


if __name__ == "__main__":
    main()
