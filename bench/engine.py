"""Benchmark of the rules engine (games/engine/): prints its figures; not a timed test.

Run ``make bench-engine`` or ``.venv/bin/python bench/engine.py [--rounds N] [--repeat R]``.

1. Random legal play: complete rounds per second, 2 and 4 players, in one process (one core).
   Decks are shuffled before the clock starts (shuffling is the site's job, not the engine's);
   inside the clock: dealing (``Round``), every play chosen by a seeded ``random.Random``, and
   the score. The goal is 5,000 two-player rounds per second.
2. Replays: ``basra-record/1`` records of whole random matches replayed per second (what the site
   does when its per-process cache misses).
3. ``capture`` on the worst floors, from a cold cache (every memoised packing forgotten) and warm:
   40 number cards (four of each A..10, the played card among them or not) with each number
   played, the 7D played on them in each mode, the slowest floor a hill-climb found, and random
   dense floors. The goal is under 5 ms.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.engine import Card, Match, Round, Rules, capture, full_deck, replay  # noqa: E402

# CPU time of this process, not wall time: the figures are per core even when other processes
# share the machine (on an idle machine the two agree).
_clock = time.process_time

_capture_module = sys.modules["games.engine.capture"]
clear_cache = _capture_module.clear_cache


def rounds_per_second(players: int, rounds: int, seed: int) -> float:
    """Complete random rounds per second, decks shuffled beforehand."""
    rng = random.Random(seed)
    deck = full_deck()
    decks = []
    for _ in range(rounds):
        rng.shuffle(deck)
        decks.append(tuple(deck))
    rules = Rules(players=players)
    pick = rng.random
    start = _clock()
    for number, order in enumerate(decks):
        rnd = Round(rules, order, number % players)
        play = rnd.play
        legal = rnd.legal_plays
        while not rnd.over:
            hand = legal()
            play(hand[int(pick() * len(hand))])
        rnd.score()
    return rounds / (_clock() - start)


def random_record(rng: random.Random) -> dict:
    """The record of a whole random 2-player match to 101."""
    m = Match(Rules(), dealer=rng.randrange(2))
    while not m.over:
        deck = full_deck()
        rng.shuffle(deck)
        m.start_round(deck)
        while not m.round.over:
            m.play(rng.choice(m.round.legal_plays()))
    return m.to_record(["a", "b"])


def replays_per_second(matches: int, seed: int) -> tuple[float, float]:
    """Whole-match records replayed per second, and the mean number of rounds in them."""
    rng = random.Random(seed)
    records = [random_record(rng) for _ in range(matches)]
    start = _clock()
    for record in records:
        replay(record)
    elapsed = _clock() - start
    return matches / elapsed, statistics.mean(len(r["rounds"]) for r in records)


def timed_capture(played: Card, floor: list[Card], rules: Rules, repeat: int) -> tuple[float, float, int]:
    """(best cold ms, best warm ms, cards taken) of ``capture(played, floor, rules)``."""
    cold = []
    for _ in range(repeat):
        clear_cache()
        start = _clock()
        result = capture(played, floor, rules)
        cold.append(_clock() - start)
    warm = []
    for _ in range(repeat):
        start = _clock()
        capture(played, floor, rules)
        warm.append(_clock() - start)
    return min(cold) * 1000, min(warm) * 1000, len(result.taken)


def floor_of_counts(counts: tuple[int, ...], played: Card) -> list[Card]:
    """Floor cards with ``counts[i]`` cards of value ``i + 1``, never the played card or the 7D."""
    floor = []
    for value, n in enumerate(counts, 1):
        cards = [c for c in full_deck() if c.rank == value and c is not played and c.code != "7D"]
        floor += cards[:n]
    return floor


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5000, help="rounds per timing (default 5000)")
    parser.add_argument("--repeat", type=int, default=5, help="timings per figure, best kept (default 5)")
    args = parser.parse_args()

    print(
        f"Python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} CPUs; "
        f"one process; times are its CPU time (time.process_time)"
    )
    print()
    print("1. Random legal play (complete rounds: deal, 48 plays, score)")
    for players in (2, 4):
        figures = [rounds_per_second(players, args.rounds, seed) for seed in range(args.repeat)]
        best = max(figures)
        print(
            f"   {players} players: best {best:,.0f} rounds/s "
            f"(median {statistics.median(figures):,.0f}; {best * 48:,.0f} plays/s, "
            f"{1e6 / (best * 48):.2f} us a play incl. the random choice)"
        )
    goal = max(rounds_per_second(2, args.rounds, 99) for _ in range(args.repeat))
    print(f"   goal 5,000 two-player rounds/s: {'met' if goal >= 5000 else 'NOT met'} ({goal:,.0f})")

    print()
    print("2. Replays of basra-record/1 (whole random 2-player matches to 101)")
    rate, mean_rounds = replays_per_second(200, 7)
    print(f"   {rate:,.0f} matches/s ({mean_rounds:.1f} rounds a match on average)")

    print()
    print("3. capture() on the worst floors: best of", args.repeat, "cold (cache cleared) / warm, in ms")
    wild, classic, plain = Rules(), Rules(seven_diamonds="classic"), Rules(seven_diamonds="plain")
    numbers = [c for c in full_deck() if c.rank <= 10]
    rows = []
    for code in ("10H", "9H", "8S", "7C", "6D", "5S", "4C", "3H", "2D", "AS"):
        played = Card.from_code(code)
        rows.append((f"{code} on the other 39 number cards", played, [c for c in numbers if c is not played], plain))
    for code in ("10H", "7C"):
        played = Card.from_code(code)
        rows.append((f"{code} on all 40 number cards (itself included)", played, numbers, wild))
    seven = Card.from_code("7D")
    others = [c for c in numbers if c is not seven]
    rows.append(("7D on the other 39, wild (any rank for a basra?)", seven, others, wild))
    rows.append(("7D on the other 39, classic", seven, others, classic))
    rows.append(("7D on the other 39, plain (a 7)", seven, others, plain))
    ten = Card.from_code("10S")
    rows.append(("10S on A4 23 33 41 53 64 74 84 94 (hill-climbed)", ten,
                 floor_of_counts((4, 3, 3, 1, 3, 4, 4, 4, 4), ten), plain))
    rows.append(("10S on A4 24 34 50 53 64 74 84 94 (hill-climbed)", ten,
                 floor_of_counts((4, 4, 4, 0, 3, 4, 4, 4, 4), ten), plain))
    worst_cold = 0.0
    for label, played, floor, rules in rows:
        cold, warm, taken = timed_capture(played, floor, rules, args.repeat)
        worst_cold = max(worst_cold, cold)
        print(f"   {label:52} {cold:7.3f} / {warm:6.3f}  ({taken} taken)")

    rng = random.Random(3)
    samples = []
    for _ in range(500):
        played = Card(rng.randint(6, 10), "S")
        counts = tuple(rng.choice((0, 1, 2, 3, 4, 4, 4)) for _ in range(played.rank - 1))
        samples.append(timed_capture(played, floor_of_counts(counts, played), plain, 3)[0])
    worst_cold = max(worst_cold, max(samples))
    print(
        f"   500 random dense floors (0-4 of each value below a played 6-10), cold: "
        f"median {statistics.median(samples):.3f}, max {max(samples):.3f}"
    )
    print(f"   goal under 5 ms: {'met' if worst_cold < 5 else 'NOT met'} (slowest cold {worst_cold:.3f} ms)")


if __name__ == "__main__":
    main()
