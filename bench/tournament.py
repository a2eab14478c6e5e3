"""Tournament pairing benchmark: one big Swiss round, one big arena wave, and four 64-entrant
events simulated end to end (games/tournaments/pairing/; issue 13, "Tests and speed"); and the
finishing play of a big Swiss round's last table over the socket (``--last-table``, issue 20).

What it measures, each with CPU time (``time.process_time``, which other work on a shared
machine does not inflate) and wall time:

- ``swiss_round`` for ``--swiss`` entrants (default 500) after ``--warm`` simulated rounds
  (default 5), so score groups, floaters and past opponents exist; then one more round is
  timed. Target: under 1 s.
- ``arena_pairs`` for a wave of ``--arena`` waiting players (default 1,000) with arena scores
  from ``arena_points`` over random results and a last opponent each. Target: under 1 s.
- Pure simulations of a 64-entrant round robin, knockout, Swiss (6 rounds) and arena
  (``--arena-waves`` waves), with random results (the higher rated wins with the Elo
  probability), printing the rounds, the time, the standings' top and a sanity check.

Results (this machine, 2 cores shared with other work, seed 1): a 500-entrant Swiss round after 5
rounds 0.16 s of CPU (rounds 1-8 between 0.03 and 0.16 s, round 9 0.45 s); an arena wave of
1,000 waiting players 0.47 s; the four 64-entrant events 0.3 s together, all sanity checks OK.
On a machine about 2.5 times slower (2026-12-01): the Swiss round 0.33-0.43 s, the arena wave
1.16 s with groups of 100, 0.66 s with groups of 50 (``pairing.ARENA_GROUP_SIZE`` since).
Without ``--services`` nothing touches the database.

With ``--services`` (or ``--services-only``), the same four formats with ``--event`` entrants
(default 64) are also run end to end through ``games.tournaments.services`` on a database
(``--database-url``, default a new SQLite file; migrated first): registration, the start, a table
for every pairing created and joined through the core's actions, every result a resignation
(``actions.resign``, the loser drawn with the Elo chance of hidden strengths) that reaches the
event through ``match_finished``, the next round or arena wave opened after each result
(``services.catch_up``, as the server's scheduler runs it after the ending's commit), until the
event is finished (knockout: best of 3 with a third-place match; Swiss: 6 rounds; arena: about
20 matches a player, then its time is up and the running matches finish). ``--tables 2 4``
runs them for single players and for partnerships.

Results through the services (this machine, seed 1, wall time for the whole event, ms per match):

=========== =========== ================= =================== ===================
format      matches     SQLite, tables 2  PostgreSQL, 2       PostgreSQL, 4
=========== =========== ================= =================== ===================
round robin 2016        27.2 s (13.5)     44.3 s (22.0)       82.0 s (40.7)
knockout    152         2.5 s (16.1)      3.7 s (24.3)        6.8 s (44.9)
Swiss       192         2.5 s (13.0)      4.6 s (24.0)        8.2 s (42.7)
arena       672         13.4 s (19.9)     30.7 s (45.7)       34.8 s (51.8)
=========== =========== ================= =================== ===================

(The PostgreSQL arenas were measured before a wave read the event's pairings once; SQLite's
arena took 17.6 s then.) Most of a match's time is the core's (create, join, resign: three or five funnel runs); the
arena's grows with the matches played (each wave reads the event's pairings).

With ``--last-table`` (issue 20), only this: the finishing play of the last table of a
``--entrants``-entrant Swiss round (default 500: 250 tables), through the socket, on daphne with
PostgreSQL (``--database-url``) and Redis (``REDIS_URL``), started as ``bench/live.py`` starts
it. The bench registers the entrants and starts the event (``--repeat`` + 1 rounds); in each of
``--repeat`` rounds every table but the last ends by a resignation (``actions.resign``, in
this process), then the last is played to its end over two websockets, each play its seat's first
card as ``bench/live.py`` plays, and the round trip of each play is taken from sending ``play`` to
the resulting ``state`` on the same socket, with the server's CPU (``/proc``, 10 ms ticks) over
it. It prints the finishing play's round trip and CPU (median and max over the rounds), the
table's other plays, and how long after the finishing play the next round's tables were open.

Measured 2026-12-02 in one session, 2 cores shared with other work (load average 14-17), 500
entrants, 4 rounds, Redis DB 14 (a bench's CPU per play is the figure load inflates least):

=================================== ======================= ===================== ===========
code                                finishing play's round  server CPU over it    other plays
                                    trip: median (max)      median (max)          p50
=================================== ======================= ===================== ===========
main (the next round paired inside  40,059 ms (43,473)      8,525 ms (10,460)     16.6 ms
the ending, on the sockets' thread)
this branch (after the commit, the  88.5 ms (203.1)         20 ms (30)            12.3 ms
scheduler's own thread)
=================================== ======================= ===================== ===========

The floor, in the same session: the bare Channels relay (``shared/bench/relay_site.py`` +
``relay_load.py``, daphne, Redis pub/sub, 200 tables, 20 plays, 1 s think) p50 1,061 ms, p99
2,904 ms, 3.1 ms of server CPU a play (a second run lost a handshake to the load). The next
round's 250 tables were open 19-37 s after the finishing play with this branch (5.7-7.6 s of
server CPU, on the scheduler's thread of the same process), 32-44 s with main's (the same work,
inside the ending): the work is the same, and the finishing play no longer waits for it.

Usage::

    .venv/bin/python bench/tournament.py
    .venv/bin/python bench/tournament.py --swiss 1000 --arena 2000 --seed 3
    .venv/bin/python bench/tournament.py --services-only --tables 2 4 \
        --database-url postgres://postgres@127.0.0.1:5432/basra_bench
    REDIS_URL=redis://127.0.0.1:6379/14 .venv/bin/python bench/tournament.py --last-table \
        --entrants 500 --repeat 4 --database-url postgres://postgres@127.0.0.1:5432/basra_bench
"""

from __future__ import annotations

import argparse
import random
import signal
import sys
import time
from collections import Counter
from contextlib import contextmanager
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.tournaments.pairing import (  # noqa: E402
    ArenaPlayer,
    MatchResult,
    SwissEntrant,
    TieBreak,
    arena_pairs,
    arena_points,
    knockout_bracket,
    round_robin,
    standings,
    swiss_round,
)

SWISS_ORDER = [TieBreak.BUCHHOLZ_CUT1, TieBreak.BUCHHOLZ, TieBreak.SONNEBORN_BERGER, TieBreak.WINS]
RR_ORDER = [TieBreak.DIRECT_ENCOUNTER, TieBreak.SONNEBORN_BERGER, TieBreak.WINS]


@contextmanager
def timed(label: str, out: dict | None = None):
    """Print ``label``'s CPU and wall time; store them in ``out`` when given."""
    cpu, wall = time.process_time(), time.perf_counter()
    yield
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    if out is not None:
        out.update(cpu=cpu, wall=wall)
    print(f"  {label}: cpu {cpu:.3f} s, wall {wall:.3f} s", flush=True)


def a_wins(rng: random.Random, ra: float, rb: float) -> bool:
    """Whether the first of two ratings wins, with the Elo expectation (no draws in Basra)."""
    return rng.random() < 1 / (1 + 10 ** ((rb - ra) / 400))


class SwissSim:
    """A Swiss event's state: scores, opponents, byes and every result, for any number of rounds."""

    def __init__(self, ratings: dict[int, float]):
        self.ratings = ratings
        self.score = {i: 0.0 for i in ratings}
        self.opponents: dict[int, set[int]] = {i: set() for i in ratings}
        self.had_bye: set[int] = set()
        self.results: list[MatchResult] = []
        self.rounds = 0

    def entrants(self) -> list[SwissEntrant]:
        return [
            SwissEntrant(i, self.score[i], self.ratings[i], frozenset(self.opponents[i]), i in self.had_bye)
            for i in self.ratings
        ]

    def play(self, rng: random.Random, pairs, bye) -> None:
        self.rounds += 1
        for a, b in pairs:
            win = a_wins(rng, self.ratings[a], self.ratings[b])
            self.score[a if win else b] += 1
            self.opponents[a].add(b)
            self.opponents[b].add(a)
            self.results.append(MatchResult(self.rounds, a, b, 1.0 if win else 0.0))
        if bye is not None:
            self.score[bye] += 1  # the issue: a bye is a win
            self.had_bye.add(bye)
            self.results.append(MatchResult(self.rounds, bye, None, 1.0))


def bench_swiss(n: int, warm: int, rng: random.Random) -> None:
    print(f"Swiss, {n} entrants: one round after {warm} simulated rounds")
    sim = SwissSim({i: rng.gauss(1500, 250) for i in range(1, n + 1)})
    earlier = []
    for _ in range(warm):
        cpu = time.process_time()
        pairs, bye = swiss_round(sim.entrants())
        earlier.append(time.process_time() - cpu)
        sim.play(rng, pairs, bye)
    print("  rounds 1-%d took cpu %s s" % (warm, ", ".join(f"{t:.3f}" for t in earlier)))
    entrants = sim.entrants()
    groups = len({e.score for e in entrants})
    t: dict = {}
    with timed(f"swiss_round (round {warm + 1}, {groups} score groups)", t):
        pairs, bye = swiss_round(entrants)
    again = sum(1 for a, b in pairs if b in sim.opponents[a])
    diff = sum(abs(sim.score[a] - sim.score[b]) for a, b in pairs)
    print(f"  {len(pairs)} pairs, bye {bye}, rematches {again}, total score difference {diff:g}"
          f"  -> {'OK' if t['cpu'] < 1 else 'OVER'} the 1 s target")


def bench_arena_wave(n: int, rng: random.Random) -> None:
    print(f"Arena, one pairing wave of {n} waiting players")
    waiting = []
    for i in range(1, n + 1):
        results = [rng.choice(("win", "loss")) for _ in range(rng.randint(0, 12))]
        last = rng.randint(1, n) if results else None
        waiting.append(ArenaPlayer(i, arena_points(results).total, rng.gauss(1500, 250),
                                   last if last != i else None))
    t: dict = {}
    with timed("arena_pairs", t):
        pairs = arena_pairs(waiting)
    by = {p.id: p for p in waiting}
    rematch = sum(1 for a, b in pairs if by[a].last_opponent == b or by[b].last_opponent == a)
    gap = sum(abs(by[a].score - by[b].score) for a, b in pairs) / max(1, len(pairs))
    print(f"  {len(pairs)} pairs, {n - 2 * len(pairs)} left waiting, last-opponent pairs {rematch},"
          f" mean score gap {gap:.2f}  -> {'OK' if t['cpu'] < 1 else 'OVER'} the 1 s target")


def top(table, k: int = 3) -> str:
    return "; ".join(
        f"#{s.rank} {s.id} {s.score:g} "
        + " ".join(f"{name}={v:g}" for name, v in s.tiebreaks.items() if v is not None)
        for s in table[:k]
    )


def sim_round_robin(n: int, rng: random.Random) -> None:
    print(f"Round robin, {n} entrants (Berger tables)")
    ratings = {i: rng.gauss(1500, 250) for i in range(1, n + 1)}
    results: list[MatchResult] = []
    with timed("pair, play and rank"):
        rounds = round_robin(n)
        for r, boards in enumerate(rounds, 1):
            for a, b in boards:
                if b is not None:
                    results.append(MatchResult(r, a, b, 1.0 if a_wins(rng, ratings[a], ratings[b]) else 0.0))
        table = standings(results, RR_ORDER, predetermined=True)
    met = Counter(frozenset((x.a, x.b)) for x in results)
    ok = len(met) == n * (n - 1) // 2 and set(met.values()) == {1} and len(table) == n
    print(f"  {len(rounds)} rounds, {len(results)} matches; top: {top(table)}")
    print(f"  sanity: every pair met exactly once -> {'OK' if ok else 'FAILED'}")


def sim_knockout(n: int, rng: random.Random) -> None:
    print(f"Knockout, {n} entrants (seeded by rating)")
    ratings = sorted((rng.gauss(1500, 250) for _ in range(n)), reverse=True)
    rating = {seed: ratings[seed - 1] for seed in range(1, n + 1)}
    with timed("bracket and play"):
        slots: list[int | None] = [x for pair in knockout_bracket(n) for x in pair]
        rounds = 0
        while len(slots) > 1:
            rounds += 1
            nxt = []
            for a, b in zip(slots[::2], slots[1::2]):
                if a is None or b is None:
                    nxt.append(a if b is None else b)
                else:
                    nxt.append(a if a_wins(rng, rating[a], rating[b]) else b)
            slots = nxt
    print(f"  {rounds} rounds, winner seed {slots[0]}")
    print(f"  sanity: {rounds} rounds for {n} -> {'OK' if 1 << rounds >= n > 1 << (rounds - 1) else 'FAILED'}")


def sim_swiss(n: int, rounds: int, rng: random.Random) -> None:
    print(f"Swiss, {n} entrants, {rounds} rounds")
    sim = SwissSim({i: rng.gauss(1500, 250) for i in range(1, n + 1)})
    again = 0
    with timed("pair, play and rank"):
        for _ in range(rounds):
            pairs, bye = swiss_round(sim.entrants())
            again += sum(1 for a, b in pairs if b in sim.opponents[a])
            sim.play(rng, pairs, bye)
        table = standings(sim.results, SWISS_ORDER)
    print(f"  {rounds} rounds, {len(sim.results)} results; top: {top(table)}")
    ok = again == 0 and sum(s.score for s in table) == n * rounds / 2
    print(f"  sanity: no rematch, points = matches -> {'OK' if ok else 'FAILED'}")


def sim_arena(n: int, waves: int, rng: random.Random) -> None:
    print(f"Arena, {n} players, {waves} waves (every match ends before the next wave)")
    ratings = {i: rng.gauss(1500, 250) for i in range(1, n + 1)}
    history: dict[int, list[str]] = {i: [] for i in ratings}
    last: dict[int, int | None] = {i: None for i in ratings}
    repeats = 0
    with timed("pair, play and score"):
        for _ in range(waves):
            # A random part of the field is free this wave (the others still play).
            free = [i for i in ratings if rng.random() < 0.8]
            waiting = [ArenaPlayer(i, arena_points(history[i]).total, ratings[i], last[i]) for i in free]
            for a, b in arena_pairs(waiting):
                repeats += last[a] == b or last[b] == a
                win = a_wins(rng, ratings[a], ratings[b])
                history[a].append("win" if win else "loss")
                history[b].append("loss" if win else "win")
                last[a], last[b] = b, a
        sheets = {i: arena_points(h) for i, h in history.items()}
    board = sorted(sheets, key=lambda i: -sheets[i].total)
    fire = sum(1 for s in sheets.values() if s.on_fire)
    print("  top: " + "; ".join(f"{i} {sheets[i].total} pts in {len(history[i])}" for i in board[:3])
          + f"; on fire now: {fire}")
    played = sum(len(h) for h in history.values()) // 2
    ok = repeats == 0 and all(s.total == sum(s.points) for s in sheets.values())
    print(f"  {played} matches; sanity: never the last opponent again -> {'OK' if ok else 'FAILED'}")


# --- whole events through the services (the database, the core's actions) ------------------


def setup_django(database_url: str | None) -> str:
    """Configure Django on ``database_url`` (default: a new SQLite file), migrated; returns it."""
    import os
    import tempfile

    if database_url is None:
        database_url = f"sqlite:///{tempfile.mkdtemp(prefix='basra-bench-')}/bench.sqlite3"
    os.environ["DATABASE_URL"] = database_url
    os.environ.pop("REDIS_URL", None)  # the in-memory channel layer: broadcasts go nowhere
    os.environ.setdefault("DEBUG", "1")  # the site defaults to off; this bench runs as `make run`
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "basra_site.settings")
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)
    return database_url


def services_event(fmt: str, n: int, players: int, rng: random.Random, **settings) -> dict:
    """Run one ``n``-entrant event of ``fmt`` through ``games.tournaments.services``: tables by
    ``games.core.actions``, every result a resignation chosen by the Elo chance of the entrants'
    hidden strengths. Returns the figures."""
    import secrets as _secrets
    from datetime import timedelta

    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from games.core import actions
    from games.core.models import Match
    from games.tournaments import services
    from games.tournaments.models import Game, Pairing, Tournament

    tag = _secrets.token_hex(3)
    model = get_user_model()
    people = model.objects.bulk_create(
        [model(username=f"b{tag}{i}", email=f"b{tag}{i}@example.com") for i in range(n * (players // 2) + 1)]
    )
    org, people = people[0], people[1:]
    t = services.create_tournament(
        user=org, name=f"bench {fmt}", format=fmt, players=players, rules={"target": 11},
        starts_at=timezone.now() + timedelta(hours=1), **settings,
    )
    strength: dict[int, float] = {}
    for k in range(n):
        if players == 2:
            e = services.register(user=people[k], tournament_id=t.pk)
        else:
            e = services.register(user=people[2 * k], tournament_id=t.pk, partner=people[2 * k + 1])
            e = services.accept_partner(user=people[2 * k + 1], entrant_id=e.pk)
        strength[e.pk] = rng.gauss(1500, 250)
    figures: dict = {}
    matches = 0
    arena_cap = settings.get("arena_minutes") and n * 10  # about 20 matches a player
    # Since issue 20 the next round or wave is opened after the ending's commit, by the server's
    # scheduler (none in this process): run that step here. Before, the receiver opened it.
    follow_up = getattr(services, "catch_up", None)
    with timed(f"{fmt}, {n} entrants, tables for {players}: start, play, finish", figures):
        services.start(user=org, tournament_id=t.pk)
        while True:
            live = list(
                Game.objects.filter(pairing__tournament=t, winner__isnull=True, aborted=False,
                                    match__status=Match.Status.PLAYING)
                .select_related("pairing__a__user", "pairing__a__partner", "pairing__b__user",
                                "pairing__b__partner")
            )
            if not live:
                break
            if arena_cap and matches >= arena_cap:
                # The arena's time is up: the running matches finish and count.
                Tournament.objects.filter(pk=t.pk).update(ends_at=timezone.now())
            for game in live:
                p = game.pairing
                loser = p.b if a_wins(rng, strength[p.a_id], strength[p.b_id]) else p.a
                for member in loser.members():
                    if actions.resign(user=member, match_id=game.match_id) == "resigned":
                        break
                if follow_up is not None:
                    follow_up(t.pk)  # what the server runs after the ending's commit
                matches += 1
        services.tick()
        table = services.standings(t)
    t.refresh_from_db()
    rounds = t.current_round
    print(f"  {matches} matches through the core, {rounds} round(s), "
          f"{Pairing.objects.filter(tournament=t).count()} pairings; status {t.status}; "
          f"{figures['wall'] / max(1, matches) * 1000:.1f} ms a match; winner "
          f"{table[0].entrant.name} ({table[0].score:g})")
    ok = t.status == Tournament.Status.FINISHED
    print(f"  sanity: finished -> {'OK' if ok else 'FAILED'}")
    return figures


def bench_services(args, rng: random.Random) -> None:
    url = setup_django(args.database_url)
    print(f"Whole events through the services and the core's actions ({url.split('://')[0]})")
    for players in args.tables:
        services_event("round_robin", args.event, players, rng)
        services_event("knockout", args.event, players, rng, third_place=True, best_of=3)
        services_event("swiss", args.event, players, rng, swiss_rounds=6)
        services_event("arena", args.event, players, rng, arena_minutes=60)


# --- the finishing play of a round's last table, through the socket ------------------------


async def play_to_the_end(port: int, match_id: int, cookies: list[str], pid: int) -> list[dict]:
    """Play match ``match_id`` to its end over two websockets (seat 0's and seat 1's session
    ``cookies``), each play its seat's first card, as ``bench/live.py`` plays; returns each
    play's ``{"trip", "cpu", "ended", "sent", "cpu_at_send"}``: the round trip (s) from sending
    ``play`` to the resulting ``state`` on the same socket, the server's CPU (s) over it,
    whether it ended the match, and ``time.perf_counter()`` and the server's CPU when sent."""
    import asyncio
    import json

    import websockets

    from live import cpu_seconds

    async def connect(cookie: str):
        sock = await websockets.connect(
            f"ws://127.0.0.1:{port}/ws/table/{match_id}/", origin=f"http://127.0.0.1:{port}",
            additional_headers={"Cookie": f"sessionid={cookie}"}, max_queue=None,
        )
        while True:
            first = json.loads(await sock.recv())
            if first.get("type") == "state":
                return sock, first

    async def next_state(sock, after: int) -> dict:
        while True:
            message = json.loads(await asyncio.wait_for(sock.recv(), 120))
            if message["type"] == "state" and message["seq"] > after:
                return message
            if message["type"] == "error":
                raise RuntimeError(f"error frame {message}")

    (sock_a, state_a), (sock_b, state_b) = [await connect(c) for c in cookies]
    socks, states = [sock_a, sock_b], [state_a, state_b]
    plays = []
    try:
        while states[0]["result"] is None:
            turn = states[0]["round"]["turn"]
            mine = states[turn]
            cpu, start = cpu_seconds(pid), time.perf_counter()
            await socks[turn].send(
                json.dumps({"type": "play", "card": mine["round"]["hand"][0], "seq": mine["seq"]})
            )
            states[turn] = await next_state(socks[turn], mine["seq"])
            plays.append({"trip": time.perf_counter() - start, "cpu": cpu_seconds(pid) - cpu,
                          "ended": states[turn]["result"] is not None, "sent": start,
                          "cpu_at_send": cpu})
            states[1 - turn] = await next_state(socks[1 - turn], mine["seq"])
    finally:
        await asyncio.gather(sock_a.close(), sock_b.close(), return_exceptions=True)
    return plays


def bench_last_table(args) -> None:
    """``--last-table``: the finishing play of the last table of a ``--entrants``-entrant Swiss
    round, through the socket, ``--repeat`` times (one round each); see the module."""
    import asyncio
    import os
    import secrets
    import statistics

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import live

    if not (args.database_url or "").startswith("postgres") or not os.environ.get("REDIS_URL"):
        sys.exit("--last-table runs like production: --database-url postgres://… and REDIS_URL")
    os.environ["DATABASE_URL"] = args.database_url
    # The server imports this checkout's code, whatever the virtualenv's editable install names.
    os.environ["PYTHONPATH"] = str(live.ROOT)
    os.environ.update(live.server_env())  # the fixtures' session hashes use the server's key
    live.django_setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.utils import timezone

    from games.core import actions
    from games.tournaments import services
    from games.tournaments.models import Game, Round, Tournament

    call_command("migrate", verbosity=0)
    port = live.free_port()
    server = live.start_server(port, args.log, wait=120.0)  # a loaded machine starts it slowly
    follows_after_commit = hasattr(services, "catch_up")
    print(f"Last table of a {args.entrants}-entrant Swiss round, {args.repeat} rounds; daphne pid "
          f"{server.pid}; the next round paired "
          f"{'after the ending commits (scheduler.catch_up)' if follows_after_commit else 'inside the ending'}; "
          f"{os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f}", flush=True)
    try:
        rng = random.Random(args.seed)
        model = get_user_model()
        tag = secrets.token_hex(3)  # new users each run (the seed repeats the results only)
        people = model.objects.bulk_create(
            [model(username=f"s{tag}{i}", email=f"s{tag}{i}@bench.invalid") for i in range(args.entrants + 1)]
        )
        org, people = people[0], people[1:]
        t = services.create_tournament(
            user=org, name="bench last table", format="swiss", players=2, rules={"target": 11},
            starts_at=timezone.now() + timedelta(hours=1), swiss_rounds=args.repeat + 1,
        )
        for person in people:
            services.register(user=person, tournament_id=t.pk)
        with timed("start: seed, pair round 1, open its tables"):
            services.start(user=org, tournament_id=t.pk)
        finishing, finishing_cpu, others, opened = [], [], [], []
        for number in range(1, args.repeat + 1):
            games = list(
                Game.objects.filter(pairing__round__tournament=t, pairing__round__number=number,
                                    winner__isnull=True, aborted=False)
                .select_related("pairing__a__user", "pairing__b__user").order_by("pairing__board")
            )
            *decided, last = games
            for game in decided:  # every other table of the round: a resignation
                actions.resign(user=rng.choice((game.pairing.a, game.pairing.b)).user, match_id=game.match_id)
            seats = dict(last.match.seats.values_list("seat", "user_id"))
            users = {u.pk: u for u in model.objects.filter(pk__in=seats.values())}
            cookies = [live.session(users[seats[0]]), live.session(users[seats[1]])]
            plays = asyncio.run(play_to_the_end(port, last.match_id, cookies, server.pid))
            *before, final = plays
            assert final["ended"], "the match did not end"
            trip, cpu = final["trip"], final["cpu"]
            # The next round's tables, opened by the ending (before) or after its commit (after):
            # one transaction either way, so the round is there with all its tables.
            while not Round.objects.filter(tournament=t, number=number + 1).exists():
                time.sleep(0.01)
            since = time.perf_counter() - final["sent"]
            follow_cpu = live.cpu_seconds(server.pid) - final["cpu_at_send"]
            finishing.append(trip)
            finishing_cpu.append(cpu)
            others += [p["trip"] for p in before]
            opened.append(since)
            print(f"  round {number}: {len(decided)} tables resigned, the last played over the socket "
                  f"({len(plays)} plays): finishing play round trip {trip * 1000:.1f} ms, server CPU "
                  f"over it {cpu * 1000:.0f} ms; other plays p50 "
                  f"{statistics.median(p['trip'] for p in before) * 1000:.1f} ms; next round's "
                  f"{Game.objects.filter(pairing__round__tournament=t, pairing__round__number=number + 1).count()}"
                  f" tables open {since:.2f} s after the finishing play was sent (server CPU "
                  f"{follow_cpu:.2f} s)", flush=True)
        print(f"finishing play round trip: median {statistics.median(finishing) * 1000:.1f} ms, "
              f"max {max(finishing) * 1000:.1f} ms; server CPU over it: median "
              f"{statistics.median(finishing_cpu) * 1000:.0f} ms, max {max(finishing_cpu) * 1000:.0f} ms; "
              f"the table's other plays: median {statistics.median(others) * 1000:.1f} ms "
              f"({len(others)} plays); next round open after: median {statistics.median(opened):.2f} s; "
              f"load {os.getloadavg()[0]:.1f}", flush=True)
        Tournament.objects.filter(pk=t.pk).update(status=Tournament.Status.CANCELLED)
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(10)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--swiss", type=int, default=500, help="Swiss entrants (default 500)")
    parser.add_argument("--warm", type=int, default=5, help="rounds simulated first (default 5)")
    parser.add_argument("--arena", type=int, default=1000, help="arena wave size (default 1000)")
    parser.add_argument("--event", type=int, default=64, help="entrants of the simulated events")
    parser.add_argument("--arena-waves", type=int, default=20, help="waves of the simulated arena")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--services", action="store_true",
                        help="also run 64-entrant events of each format through the services")
    parser.add_argument("--services-only", action="store_true", help="only those")
    parser.add_argument("--tables", type=int, nargs="+", default=[2], choices=[2, 4],
                        help="table sizes of the service events (default 2)")
    parser.add_argument("--database-url", default=None,
                        help="database of the service events (default: a new SQLite file)")
    parser.add_argument("--last-table", action="store_true",
                        help="only the finishing play of a Swiss round's last table, over the "
                             "socket (daphne, PostgreSQL --database-url, REDIS_URL)")
    parser.add_argument("--entrants", type=int, default=500, help="--last-table: Swiss entrants")
    parser.add_argument("--repeat", type=int, default=5, help="--last-table: rounds measured")
    parser.add_argument("--log", type=Path, default=Path("/tmp/basra-bench-last-table.log"),
                        help="--last-table: the server's log")
    args = parser.parse_args(argv)
    if args.last_table:
        bench_last_table(args)
        return
    if args.services_only:
        bench_services(args, random.Random(args.seed))
        return
    rng = random.Random(args.seed)
    start_cpu, start = time.process_time(), time.perf_counter()
    bench_swiss(args.swiss, args.warm, rng)
    bench_arena_wave(args.arena, rng)
    sim_round_robin(args.event, rng)
    sim_knockout(args.event, rng)
    sim_swiss(args.event, 6, rng)
    sim_arena(args.event, args.arena_waves, rng)
    if args.services:
        bench_services(args, rng)
    print(f"total: cpu {time.process_time() - start_cpu:.2f} s, wall {time.perf_counter() - start:.2f} s")


if __name__ == "__main__":
    main()
