"""Benchmark of the walks over a game record (issue 20): prints its figures; not a timed test.

Run ``.venv/bin/python bench/walker.py [--matches N] [--repeat R]``. Times are this process's
CPU time (``time.process_time``), best of ``--repeat``, over ``--matches`` whole random
two-player matches to 101 (made before the clock starts):

0. The engine alone on the same records (``Match.start_round``, ``Match.play``; no checks, no
   walker): microseconds a play, the floor the walks below are measured against.
1. ``games.engine.replay`` of each record: microseconds a play.
2. The live catch-up (``games.core.state.log.catch_up``), one event at a time as a table's
   process meets it (a ``deal`` or a ``play`` written by another process): microseconds an
   event, the engine's part only (the log's query is replaced by a list, so no database).
3. ``games.replays.positions.replay_data``: milliseconds a match (every position).
4. ``games.replays.analysis.tasks``: milliseconds a match (the seat's view before every play).

Results (2026-12-02, 2 cores shared with other sessions' test runs, so each figure wanders by
a microsecond; 60 matches, before = the walks of commit cdfe332, after = the one walker):
replay 4.6-4.7 us a play before, 5.5-6.8 after (the engine alone 4.4-4.8 in the same runs);
the catch-up 5.3-5.4 us an event before, 6.0-6.1 after (alternated in one process, best of 12:
4.56 before, 5.42 after: a walk and a step per event, against a query of the log per catch-up);
replay positions 8.0-11.3 ms a match before, 5.8-7.0 after (one walk instead of a replay and
a walk); analysis tasks 16.6-18.9 ms before, 15.8-19.5 after.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

_clock = time.process_time


def setup() -> None:
    os.environ.setdefault("DEBUG", "1")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "basra_site.settings")
    import django

    django.setup()


def records(matches: int, seed: int) -> list[dict]:
    """Records of ``matches`` whole random two-player matches to 101 (``bench/engine.py``'s)."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from engine import random_record  # bench/engine.py, beside this script

    rng = random.Random(seed)
    return [random_record(rng) for _ in range(matches)]


def best(repeat: int, run) -> float:
    times = []
    for _ in range(repeat):
        start = _clock()
        run()
        times.append(_clock() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    setup()
    from games import engine
    from games.core.state import log
    from games.replays import analysis, positions

    made = records(args.matches, 7)
    plays = sum(len(r["plays"]) for record in made for r in record["rounds"])
    event_lists = []
    for record in made:
        events = []
        for data in record["rounds"]:
            events.append(("deal", {"dealer": data["dealer"], "deck": data["deck"]}))
            events.extend(("play", {"card": code}) for code in data["plays"])
        event_lists.append(events)
    print(f"{args.matches} random 2-player matches, {plays} plays; CPU time, best of {args.repeat}")

    def bare() -> None:
        for record in made:
            m = engine.Match(engine.Rules.from_dict(record["rules"]), record["rounds"][0]["dealer"])
            for data in record["rounds"]:
                m.start_round(data["deck"])
                for code in data["plays"]:
                    m.play(code)

    spent = best(args.repeat, bare)
    print(f"0. the engine alone: {spent / plays * 1e6:.2f} us a play")

    spent = best(args.repeat, lambda: [engine.replay(record) for record in made])
    print(f"1. replay: {spent / plays * 1e6:.2f} us a play")

    def catch_up_each() -> None:
        for record, events in zip(made, event_lists):
            live = engine.Match(engine.Rules.from_dict(record["rules"]), record["rounds"][0]["dealer"])
            for held, event in enumerate(events):
                log._engine_events = lambda match_id, after, upto, _e=event: [_e]
                log.catch_up(live, 1, held, held + 1)

    original = log._engine_events
    try:
        spent = best(args.repeat, catch_up_each)
    finally:
        log._engine_events = original
    events = sum(map(len, event_lists))
    print(f"2. catch_up, one event at a time: {spent / events * 1e6:.2f} us an event")

    spent = best(args.repeat, lambda: [positions.replay_data(record) for record in made])
    print(f"3. positions.replay_data: {spent / len(made) * 1000:.2f} ms a match")

    spent = best(args.repeat, lambda: [analysis.tasks(record) for record in made])
    print(f"4. analysis.tasks: {spent / len(made) * 1000:.2f} ms a match")


if __name__ == "__main__":
    main()
