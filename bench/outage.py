"""Live tables through outages: N tables playing through a Redis outage and a PostgreSQL restart.

What it measures (issue 36, "Tests and speed"): N 2-player tables played by real websocket
clients through the real protocol, each seat its own socket behaving as the table page does
(``static/games/live.js``'s ``LiveSocket`` and the table page's scripts): it reconnects after a
close (0.5 s, 1 s, 2 s, then 4 s at most, with jitter; at once after a 1001 "going away"; never
after 4404, 4403, 4429), sends ``sync`` on opening, after a gap and after an error other than
``stale`` and ``timed_out``, and 5 s after a play nobody answered; it plays the first card of
its hand a think time after its turn comes. While they play, the bench stops the
Redis server for ``--redis-down`` seconds and starts it again (empty: no persistence, as a
restarted cache), then restarts PostgreSQL (a fast stop, ``--pg-down`` seconds, a start). It
prints, first, the servers' CPU per play before the faults beside the floor measured in the same
run (``shared/bench/BENCH.md``: the bare Channels relay, ``bench/live.py``'s ``run_relay``), and
then for each fault:

- the **longest wait of any seat after the service is back** (target: under 2 s): a seat waits
  from the moment a play is sent at its table (its own or its opponent's), or its socket closes,
  until it receives a state past that; after the service is back, a wait counts from that moment;
- the longest wait of any seat over the whole fault, and how many waits outlasted the service's
  return by more than 2 s;
- the **errors answered**, by code (``error`` messages), with the close codes of sockets the
  server closed (``close 1011``) and the failed connects;

and, at the end, from the tables' event logs (read back from PostgreSQL): **plays lost**
(acknowledged plays missing from the log: must be 0), **plays applied twice** (one seat's card
twice in one round of the log: must be 0), plays in the log no client sent, plays refused with
an error that are in the log all the same, and plays whose answer the client never saw (a
broadcast lost in the outage) that the log holds. A play is acknowledged when the state that
answers it on its own socket follows its ``seq`` directly (``prev_seq``) and shows it (its seat
and card as the last play, or the next round dealt): :func:`acknowledges`; a socket handles
its frames in order, so a play's answer is the first state past its ``seq`` or the first error
after it that no earlier play took. Last, the errors with
a traceback the servers and the clock logged (a database outage should be one line, not one
traceback a tick).

The set-up is production's (README, "Serving many tables"): ``--servers`` daphne processes
(``DEBUG=0``) with every socket of a table on one of them (a proxy hashing the table's path),
one ``manage.py run_clock``, the Redis channel layer, cache and sessions, PostgreSQL. Both
services are the bench's own, never the machine's (others use those): a ``redis-server`` on a
free port and a PostgreSQL cluster made with ``initdb`` in a temporary folder, on a free port,
trust authentication (as root, its commands run as the ``postgres`` user); the caller's
``DATABASE_URL`` and ``REDIS_URL`` are not used. ``CONN_MAX_AGE``,
``DB_POOL_SIZE`` and ``BASRA_FAST_PATH`` are passed through to the servers. Tables are casual
with the default 30 s clock (``bench.live.make_tables``).

Usage (``--tables 10 --warmup 8 --settle 8 --no-relay``: a smoke run in about a minute)::

    .venv/bin/python bench/outage.py --tables 100
    .venv/bin/python bench/outage.py --tables 20 --faults redis

It exits with status 1 when a play was lost or applied twice.

Measured 2026-12-06 on a shared 2-core machine, before the database-outage handling of issue 36
(a play meeting a dead connection closes its socket with 1011), with other work loading it
(load average 6-28: only the CPU per play compares between runs):

- 100 tables, two runs (load 6-15, 8-12): 4.82 and 4.05 ms server CPU a play before the faults,
  the relay 2.26 and 2.12 ms (2.1x, 1.9x); round trip p99 653 and 249 ms (relay 411 and 745).
  Redis down 5 s: 0 errors; a seat waited at most 1.13 s after Redis was back in one run, 4.1 s
  in the other (149 waits over 2 s: plays sent 1-4 s after the return came back 1.3-2.9 s
  later). PostgreSQL restart (2.1 s, 1.4 s down): 2 sockets closed with 1011 in each run; their
  tables' seats waited up to 3.6 and 3.0 s after it (reconnecting), every other seat under
  1.8 s. 3,296 and 3,279 plays: 0 lost, 0 applied twice; 123 and 136 applied while their answer
  was lost (Redis down: the page's resync showed them).
- 20 tables (load 24-29): 6.87 ms a play, the relay 3.25 ms (2.1x); Redis: 0 errors, longest
  wait after 1.53 s; PostgreSQL: 2 closes with 1011, longest wait after 1.82 s; 783 plays, 0
  lost, 0 applied twice.
- At load 27-35 the 100-table runs were starved (round trip p50 2.3 s before any fault) and
  say nothing about the site.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import glob
import json
import os
import random
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import live  # noqa: E402
from bench.bots_live import start_clock, tree_cpu  # noqa: E402

#: A wait longer than this after the service is back misses the target (issue 36).
TARGET_SECONDS = 2.0
#: Close codes after which the page does not reconnect (``LiveSocket``): no table, not allowed
#: to watch, too many sockets.
FINAL_CLOSES = (4404, 4403, 4429)
#: How long the first connection of every seat may take, all at once (seconds).
CONNECT_SECONDS = 60
#: The page asks for the state this long after a play nobody answered (the table's board).
RESYNC_SECONDS = 5.0


def clock() -> float:
    """The bench's one clock for every time it records (seconds, monotonic)."""
    return time.monotonic()


def wait_for_port(port: int, alive, what: str, seconds: float = 20.0) -> None:
    """Return once something accepts connections on ``127.0.0.1:port``; ``RuntimeError`` when
    ``alive()`` turns false first or ``seconds`` pass."""
    deadline = clock() + seconds
    while clock() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            if not alive():
                break
            time.sleep(0.05)
    raise RuntimeError(f"{what} did not start")


class PrivateRedis:
    """A ``redis-server`` of the bench's own on a free loopback port, without persistence: a
    stop and a start is a restart that lost every key, channel and subscription."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.port = live.free_port()
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        """Start it; return once it accepts connections."""
        self.process = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(self.folder)],
            stdout=(self.folder / "redis.log").open("a"), stderr=subprocess.STDOUT,
        )
        wait_for_port(self.port, lambda: self.process.poll() is None, "redis-server")

    def stop(self) -> None:
        """Stop it (SIGTERM: it saves nothing) and wait until it has exited."""
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(10)
        self.process = None


class PrivatePostgres:
    """A PostgreSQL cluster of the bench's own: ``initdb`` in ``folder`` (trust
    authentication, user ``postgres``), listening on a free loopback port, its socket file in
    ``folder`` too. PostgreSQL refuses to run as root: as root, the folder is given to the
    ``postgres`` user and every command runs as that user (``runuser``)."""

    def __init__(self, folder: Path) -> None:
        found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=_version_key)
        if not found:
            raise RuntimeError("no initdb under /usr/lib/postgresql/*/bin/")
        self.bin = Path(found[-1]).parent
        self.folder = folder
        self.data = folder / "data"
        self.port = live.free_port()

    @property
    def url(self) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/postgres"

    @property
    def version(self) -> str:
        return self.bin.parent.name

    def _run(self, *command: str) -> None:
        argv = [str(self.bin / command[0]), *command[1:]]
        if os.geteuid() == 0:
            argv = ["runuser", "-u", "postgres", "--", *argv]
        done = subprocess.run(argv, cwd=self.folder, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise RuntimeError(f"{' '.join(command)}: {done.stderr.strip()[-500:]}")

    def init(self) -> None:
        """Make the cluster (not started)."""
        if os.geteuid() == 0:
            shutil.chown(self.folder, "postgres", "postgres")
        self._run("initdb", "-D", str(self.data), "-U", "postgres", "-A", "trust", "-E", "UTF8",
                  "--no-sync")
        with (self.data / "postgresql.conf").open("a") as conf:
            conf.write(
                f"port = {self.port}\nlisten_addresses = '127.0.0.1'\n"
                f"unix_socket_directories = '{self.folder}'\nmax_connections = 300\n"
            )

    def start(self) -> None:
        """Start it; return once it accepts connections (``pg_ctl -w``)."""
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.folder / "postgres.log"),
                  "-w", "start")

    def stop(self) -> None:
        """Stop it, the fast way (every session is ended, as in a restart for an upgrade)."""
        self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop")


def _version_key(path: str) -> tuple[int, ...]:
    """``/usr/lib/postgresql/15/bin/initdb`` → ``(15,)``: the newest installed version last."""
    name = Path(path).parent.parent.name
    return tuple(int(part) for part in name.split(".") if part.isdigit())


@dataclass
class SentPlay:
    """A ``play`` one seat sent: its table, seat, round number, card and the ``seq`` it was
    made against; ``at`` (:func:`clock`); ``answer``: ``"state"`` when the first answer was a
    state that acknowledged it (:func:`acknowledges`), ``"error:<code>"``, ``"other"`` (a state
    that did not show it), ``None`` when none came (the socket closed, or the broadcast was
    lost)."""

    match: int
    seat: int
    round: int
    card: str
    seq: int
    at: float
    answer: str | None = None

    @property
    def key(self) -> tuple[int, int, int, str]:
        return (self.match, self.round, self.seat, self.card)


@dataclass(frozen=True)
class LoggedPlay:
    """A ``play`` event of a table's log: ``by`` is ``"person"``, ``"bot"`` or ``"timeout"``
    (the clock played for a person whose time ran out)."""

    match: int
    seq: int
    round: int
    seat: int
    card: str
    by: str

    @property
    def key(self) -> tuple[int, int, int, str]:
        return (self.match, self.round, self.seat, self.card)


def acknowledges(sent: SentPlay, state: dict) -> bool:
    """Whether ``state``, the first state past ``sent.seq`` on the socket that sent the play,
    says the play was applied: it is the broadcast of the change right after that ``seq``
    (``prev_seq``), and shows the play (its seat and card as the round's last play, not the
    clock's timeout) or the next round dealt (the play was the round's last). A snapshot
    (``prev_seq`` null: after ``sync``, a reconnect, the layer's return) acknowledges nothing:
    the client cannot tell from it what happened."""
    if state.get("prev_seq") != sent.seq or state["seq"] <= sent.seq:
        return False
    current = state.get("round") or {}
    if current.get("number", 0) > sent.round:
        return True
    last = current.get("last_play") or {}
    return (current.get("number") == sent.round and last.get("seat") == sent.seat
            and last.get("card") == sent.card and not last.get("timeout"))


def logged_plays(events: Iterable[tuple[int, int, str, int | None, dict]]) -> list[LoggedPlay]:
    """The ``play`` events of ``events`` (``(match, seq, kind, seat, payload)`` rows of
    ``games.core.models.Event``, in ``seq`` order per match), each with its round: the
    ``round`` of the match's last ``deal`` event before it (``docs/protocol.md``, "Event log")."""
    rounds: dict[int, int] = {}
    plays = []
    for match, seq, kind, seat, payload in events:
        if kind == "deal":
            rounds[match] = payload["round"]
        elif kind == "play":
            by = "timeout" if payload.get("timeout") else "bot" if payload.get("bot") else "person"
            plays.append(LoggedPlay(match, seq, rounds.get(match, 0), seat, payload["card"], by))
    return plays


@dataclass
class Accounting:
    """What the logs say of the plays the clients sent (keys: table, round, seat, card; a card
    is played once per round, so a key is one play)."""

    sent: int  # plays (keys) sent
    acknowledged: int
    lost: int  # acknowledged, not in the log
    twice: int  # extra copies of a key in the log
    unsent: int  # a person's play in the log that no client sent before it
    refused_applied: int  # every send of it answered with an error, yet in the log
    unanswered_applied: int  # not acknowledged (answer lost, or a snapshot), in the log
    timeouts: int  # plays the clock made for a person whose time ran out


def account(sent: Iterable[SentPlay], logged: Iterable[LoggedPlay]) -> Accounting:
    """Compare the plays the clients sent with the tables' logs (:class:`Accounting`)."""
    sent = list(sent)
    sends: dict[tuple, list[SentPlay]] = {}
    for play in sent:
        sends.setdefault(play.key, []).append(play)
    people = [play for play in logged if play.by == "person"]
    copies = Counter(play.key for play in people)
    acknowledged = {key for key, plays in sends.items() if any(p.answer == "state" for p in plays)}
    refused = {key for key, plays in sends.items()
               if all((p.answer or "").startswith("error:") for p in plays)}
    unsent = sum(
        1 for play in people
        if not any(s.seq < play.seq for s in sends.get(play.key, []))
    )
    return Accounting(
        sent=len(sends),
        acknowledged=len(acknowledged),
        lost=len(acknowledged - copies.keys()),
        twice=sum(count - 1 for count in copies.values()),
        unsent=unsent,
        refused_applied=len(refused & copies.keys()),
        unanswered_applied=len((sends.keys() - acknowledged - refused) & copies.keys()),
        timeouts=sum(1 for play in logged if play.by == "timeout"),
    )


@dataclass
class Fault:
    """A fault injected: ``name``, when it began and when the service was back (:func:`clock`)."""

    name: str
    start: float
    back: float


@dataclass
class Record:
    """Everything the clients saw, on :func:`clock`'s time."""

    sent: list[SentPlay] = field(default_factory=list)
    round_trips: list[tuple[float, float]] = field(default_factory=list)  # (sent at, seconds)
    waits: list[tuple[float, float, bool]] = field(default_factory=list)  # (start, end, open)
    errors: list[tuple[float, str]] = field(default_factory=list)  # (at, code)
    faults: list[Fault] = field(default_factory=list)


class Seat:
    """One seat's page: a table socket that reconnects as ``LiveSocket`` does, and a player."""

    def __init__(self, record: Record, match_id: int, cookie: str, port: int, think: float):
        self.record = record
        self.match_id = match_id
        self.cookie = cookie
        self.port = port
        self.think = think
        self.other: Seat | None = None
        self.ws = None
        self.state: dict | None = None
        self.pending: SentPlay | None = None  # the page's pending play: no other until answered
        # The plays sent on this socket whose answer has not come, oldest first: the socket
        # handles its frames in order, so the next answer (a state past the play's ``seq``, or
        # an error) is the oldest's.
        self.unanswered: list[SentPlay] = []
        self.waiting: tuple[float, int] | None = None  # (since, a state past this seq ends it)
        self.changed = asyncio.Event()
        self.opened = asyncio.Event()
        self.stopping = False

    async def run(self, burst: float) -> None:
        """Connect (the first time at a random moment of the first ``burst`` seconds), read,
        and reconnect after every close until :meth:`stop`."""
        await asyncio.sleep(random.random() * burst)
        attempt = 0
        while not self.stopping:
            try:
                self.ws = await live.open_table_socket(self.port, self.match_id, self.cookie)
            except Exception as error:  # refused, a handshake answered 500 or 403, timed out
                self._error(f"connect {type(error).__name__}")
                self.start_wait(clock(), self.state["seq"] - 1 if self.state else -1)
            else:
                attempt = 0
                self.opened.set()
                code = await self._read()
                if code in FINAL_CLOSES:
                    return
                if code == 1001:  # the server stops gracefully: at once, once
                    attempt = 1
                    continue
            if self.stopping:
                break
            # LiveSocket: 0.5 s, 1 s, 2 s, then 4 s at most, each between half and all of it.
            delay = min(4.0, 0.5 * 2 ** min(attempt, 3))
            attempt += 1
            await asyncio.sleep(delay / 2 + random.random() * delay / 2)

    async def _read(self) -> int | None:
        """Read the open socket until it closes; return the close code."""
        import websockets

        ws = self.ws
        await self._send({"type": "sync"})  # the page's onOpen
        try:
            async for raw in ws:
                message = json.loads(raw)
                if message.get("type") == "state":
                    self._on_state(message)
                elif message.get("type") == "error":
                    self._on_error(message["code"])
        except websockets.ConnectionClosed:
            pass
        self.ws = None
        self.pending = None  # the page: not live, nothing pending
        self.unanswered.clear()  # their answers went with the socket
        if not self.stopping:
            self._error(f"close {ws.close_code}")
            self.start_wait(clock(), self.state["seq"] - 1 if self.state else -1)
        self.changed.set()
        return ws.close_code

    def _error(self, code: str) -> None:
        self.record.errors.append((clock(), code))

    async def _send(self, message: dict) -> None:
        if self.ws is not None:
            try:
                await self.ws.send(json.dumps(message))
            except Exception:  # closed meanwhile: the reader sees the close
                pass

    def _on_state(self, state: dict) -> None:
        now = clock()
        if self.state is not None and state["seq"] < self.state["seq"]:
            return  # an older state arriving late
        gap = (self.state is not None and state.get("prev_seq") is not None
               and state["prev_seq"] != self.state["seq"])
        self.pending = None  # the page: any state ends the wait for an answer
        if self.unanswered and state["seq"] > self.unanswered[0].seq:
            sent = self.unanswered.pop(0)
            if acknowledges(sent, state):
                sent.answer = "state"
                self.record.round_trips.append((sent.at, now - sent.at))
            else:
                sent.answer = "other"
        self.state = state
        if self.waiting is not None and state["seq"] > self.waiting[1]:
            self.record.waits.append((self.waiting[0], now, False))
            self.waiting = None
        if gap:
            asyncio.ensure_future(self._send({"type": "sync"}))
        self.changed.set()

    def _on_error(self, code: str) -> None:
        self._error(code)
        self.pending = None
        if self.unanswered:
            self.unanswered.pop(0).answer = f"error:{code}"
        if code not in ("stale", "timed_out"):
            asyncio.ensure_future(self._send({"type": "sync"}))
        self.changed.set()

    def start_wait(self, now: float, after_seq: int) -> None:
        """From ``now`` the seat waits for a state past ``after_seq`` (unless already waiting)."""
        if self.waiting is None:
            self.waiting = (now, after_seq)

    def my_turn(self) -> bool:
        state = self.state
        if self.ws is None or self.pending is not None or state is None or state["result"]:
            return False
        current = state.get("round")
        return bool(current and not current["over"] and current["turn"] == state["you"]
                    and current["hand"])

    async def play(self, stagger: float) -> None:
        """Play the first card of the hand a think time after each turn comes, until stopped."""
        await asyncio.sleep(random.random() * stagger)
        while not self.stopping:
            await self.changed.wait()
            self.changed.clear()
            if not self.my_turn():
                continue
            await asyncio.sleep(self.think)
            if self.stopping or not self.my_turn():
                continue
            state = self.state
            sent = SentPlay(self.match_id, state["you"], state["round"]["number"],
                            state["round"]["hand"][0], state["seq"], clock())
            self.record.sent.append(sent)
            self.pending = sent
            self.unanswered.append(sent)
            self.start_wait(sent.at, sent.seq)
            self.other.start_wait(sent.at, sent.seq)
            await self._send({"type": "play", "card": sent.card, "seq": sent.seq})
            asyncio.get_running_loop().call_later(RESYNC_SECONDS, self._resync, sent)

    def _resync(self, sent: SentPlay) -> None:
        """The page: still no answer to a play after 5 s, at the same ``seq``: ask."""
        if self.pending is sent and self.state["seq"] == sent.seq:
            asyncio.ensure_future(self._send({"type": "sync"}))

    async def stop(self) -> None:
        """Stop playing and reconnecting, close the socket; a wait still open is recorded as
        such."""
        self.stopping = True
        self.changed.set()
        if self.waiting is not None:
            self.record.waits.append((self.waiting[0], clock(), True))
            self.waiting = None
        if self.ws is not None:
            await self.ws.close()


async def play_through(seats: list[Seat], faults, think: float, mark) -> None:
    """Connect every seat (a burst over the first second), play, run ``faults()`` (a
    coroutine function that injects them and returns when the run should end), stop.
    ``mark(phase)`` is called once every seat is connected (``"connect"``)."""
    runs = [asyncio.ensure_future(seat.run(burst=1.0)) for seat in seats]
    players = []
    try:
        try:
            await asyncio.wait_for(asyncio.gather(*(seat.opened.wait() for seat in seats)),
                                   CONNECT_SECONDS)
        except TimeoutError:
            opened = sum(seat.opened.is_set() for seat in seats)
            errors = Counter(code for _, code in seats[0].record.errors)
            raise RuntimeError(f"{opened} of {len(seats)} sockets open after {CONNECT_SECONDS} s; "
                               f"errors: {dict(errors.most_common())}") from None
        mark("connect")
        players = [asyncio.ensure_future(seat.play(stagger=max(think, 1.0))) for seat in seats]
        await faults()
    finally:
        await asyncio.gather(*(seat.stop() for seat in seats), return_exceptions=True)
        await asyncio.gather(*runs, *players, return_exceptions=True)


def waits_after(waits: Iterable[tuple[float, float, bool]], back: float,
                until: float) -> list[tuple[float, bool]]:
    """The part after ``back`` of each wait (``(start, end, open at the end of the run)``)
    going on between ``back`` and ``until`` (the next fault's start, or the run's end), in
    seconds, and whether it was unfinished then: a wait that began before the service was back
    counts from ``back``, and one still going on at ``until`` counts until then."""
    return [(min(end, until) - max(start, back), still or end > until)
            for start, end, still in waits if end > back and start < until]


def fault_lines(record: Record, end: float) -> list[str]:
    """Per fault: the longest wait after the service was back (until the next fault or the end),
    the longest wait over it, waits over the target after the return, errors by code."""
    lines = []
    for index, fault in enumerate(record.faults):
        until = record.faults[index + 1].start if index + 1 < len(record.faults) else end
        after = waits_after(record.waits, fault.back, until)
        during = [e - s for s, e, _ in record.waits if s < fault.back and e > fault.start]
        longest, still_open = max(after, default=(0.0, False))
        errors = Counter(code for at, code in record.errors if fault.start <= at < until)
        lines.append(
            f"{fault.name}: down {fault.back - fault.start:.1f} s; longest wait of a seat after "
            f"it was back {longest:.2f} s{' (still waiting)' if still_open else ''} "
            f"(target < {TARGET_SECONDS:.0f} s; waits over it: "
            f"{sum(1 for w, _ in after if w > TARGET_SECONDS)}); longest wait over the fault "
            f"{max(during, default=0.0):.2f} s; errors answered "
            f"{sum(errors.values())} {dict(errors.most_common())}"
        )
    return lines


def percentiles(values: list[float]) -> tuple[float, float]:
    """p50 and p99 of ``values`` (seconds) in ms; NaN for fewer than two."""
    if len(values) < 2:
        return float("nan"), float("nan")
    q = statistics.quantiles(values, n=100)
    return q[49] * 1000, q[98] * 1000


def dump(record: Record, path: Path) -> None:
    """Write ``record`` to ``path`` as JSON, its times in seconds from the first fault."""
    zero = record.faults[0].start if record.faults else 0.0
    path.write_text(json.dumps({
        "faults": [{"name": f.name, "start": f.start - zero, "back": f.back - zero}
                   for f in record.faults],
        "waits": [[start - zero, end - zero, still] for start, end, still in record.waits],
        "errors": [[at - zero, code] for at, code in record.errors],
        "sent": [{**vars(play), "at": play.at - zero} for play in record.sent],
    }))


def tracebacks(logs: list[Path]) -> int:
    """How many errors with a traceback ``logs`` hold (a chained exception's tracebacks, "The
    above exception was the direct cause…", count once)."""
    count = 0
    for log in logs:
        before = ""
        for line in log.read_text(errors="replace").splitlines():
            if line.startswith("Traceback (most recent call last)") and not (
                before.startswith("The above exception") or before.startswith("During handling")
            ):
                count += 1
            if line.strip():
                before = line
    return count


def read_log(match_ids: list[int]) -> list[LoggedPlay]:
    """The play events of the tables ``match_ids`` from the database (this process's
    connections and pool are opened anew: the restart ended the ones it had)."""
    from django.db import connections

    from games.core.models import Event

    for connection in connections.all():
        connection.close()
        if hasattr(connection, "close_pool"):
            connection.close_pool()
    rows = (
        Event.objects.filter(match_id__in=match_ids, kind__in=["deal", "play"])
        .order_by("match_id", "seq").values_list("match_id", "seq", "kind", "seat", "payload")
    )
    return logged_plays(rows.iterator())


@contextlib.contextmanager
def services(folder: Path):
    """The private PostgreSQL and Redis in ``folder``, started, as ``(postgres, redis)``;
    stopped at the end."""
    (folder / "pg").mkdir()
    postgres, redis = PrivatePostgres(folder / "pg"), PrivateRedis(folder)
    try:
        postgres.init()
        postgres.start()
        redis.start()
        yield postgres, redis
    finally:
        redis.stop()
        try:
            postgres.stop()
        except RuntimeError as error:  # not running: it failed to start again
            print(f"PostgreSQL: {error}", file=sys.stderr)


@dataclass
class Summary:
    """A run's figures: the servers' CPU per play before the faults (ms, connects included),
    the plays acknowledged then, the lines to print after the CPU, the accounting."""

    cpu_per_play: float
    calm_plays: int
    lines: list[str]
    result: Accounting


def run(args, postgres: PrivatePostgres, redis: PrivateRedis) -> Summary:
    """One run: servers, clock, tables, clients, faults, then the log read back."""
    # This process (the fixtures, the log) and every server on the private services only.
    os.environ.update({"DATABASE_URL": postgres.url, "REDIS_URL": redis.url})
    os.environ.update(live.server_env())
    live.django_setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    tables = live.make_tables(args.tables)
    ports = [live.free_port() for _ in range(args.servers)]
    logs = [args.log.with_suffix(f".{index}.log") for index in range(args.servers)]
    processes: list[subprocess.Popen] = []
    try:
        servers = [live.start_server(port, log) for port, log in zip(ports, logs)]
        processes += servers
        clock_log = args.log.with_suffix(".clock.log")
        processes.append(start_clock(clock_log))
        print(
            f"{args.tables} tables, {args.servers} daphne {[s.pid for s in servers]} (every socket "
            f"of a table on one), one run_clock; private PostgreSQL {postgres.version} "
            f":{postgres.port}, Redis :{redis.port}; think {args.think:.1f} s; "
            f"CONN_MAX_AGE={os.environ.get('CONN_MAX_AGE', '0')}; {os.cpu_count()} CPUs; "
            f"load average before: {os.getloadavg()[0]:.1f}",
            flush=True,
        )
        record = Record()
        marks = [("start", [live.cpu_split(s.pid) for s in servers])]

        def mark(phase: str) -> None:
            marks.append((phase, [live.cpu_split(s.pid) for s in servers]))

        async def faults() -> None:
            await asyncio.sleep(args.warmup)
            mark("play")
            for name in args.faults:
                start = clock()
                if name == "redis":
                    await asyncio.to_thread(redis.stop)
                    await asyncio.sleep(args.redis_down)
                    await asyncio.to_thread(redis.start)
                    label = f"Redis outage ({args.redis_down:g} s)"
                else:
                    await asyncio.to_thread(postgres.stop)
                    await asyncio.sleep(args.pg_down)
                    await asyncio.to_thread(postgres.start)
                    label = "PostgreSQL restart"
                record.faults.append(Fault(label, start, clock()))
                await asyncio.sleep(args.settle)

        seats = []
        for index, (match_id, first, second) in enumerate(tables):
            port = ports[index % len(ports)]  # bench.live's --route table
            pair = [Seat(record, match_id, cookie, port, args.think) for cookie in (first, second)]
            pair[0].other, pair[1].other = pair[1], pair[0]
            seats += pair
        clock_cpu = tree_cpu(processes[-1].pid)
        asyncio.run(play_through(seats, faults, args.think, mark))
        end = clock()
        clock_cpu = tree_cpu(processes[-1].pid) - clock_cpu
        if args.dump:
            dump(record, args.dump)
    finally:
        for process in processes:
            process.send_signal(signal.SIGTERM)
        for process in processes:
            try:
                process.wait(15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()

    calm_end = record.faults[0].start if record.faults else end
    calm = [rt for at, rt in record.round_trips if at < calm_end]
    p50, p99 = percentiles(calm)
    cpu = sum(b - a for s, e in zip(marks[0][1], marks[-1][1]) for a, b in zip(s, e))
    result = account(record.sent, read_log([t[0] for t in tables]))
    return Summary(
        cpu_per_play=cpu * 1000 / max(len(calm), 1),
        calm_plays=len(calm),
        lines=[
            f"before the faults: {len(calm)} plays acknowledged, round trip p50 {p50:.1f} ms "
            f"p99 {p99:.1f} ms",
            live.phases(marks, len(seats), len(calm)),
            *fault_lines(record, end),
            f"plays: sent {result.sent}, acknowledged {result.acknowledged}, "
            f"LOST {result.lost}, APPLIED TWICE {result.twice}; in the log though refused with "
            f"an error {result.refused_applied}, unanswered but in the log "
            f"{result.unanswered_applied}, in the log but never sent {result.unsent}; "
            f"timeouts by the clock {result.timeouts}",
            f"run_clock (with its workers) cpu {clock_cpu * 1000 / max(result.sent, 1):.2f} "
            f"ms/play; tracebacks logged: servers {tracebacks(logs)}, clock "
            f"{tracebacks([clock_log])}; load average after: {os.getloadavg()[0]:.1f}",
        ],
        result=result,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--think", type=float, default=1.0, help="seconds between plays")
    parser.add_argument("--servers", type=int, default=2, help="daphne processes")
    parser.add_argument("--faults", nargs="*", choices=["redis", "postgres"],
                        default=["redis", "postgres"], help="faults to inject, in this order")
    parser.add_argument("--warmup", type=float, default=15.0,
                        help="seconds of play before the first fault (the CPU per play's window)")
    parser.add_argument("--settle", type=float, default=15.0,
                        help="seconds of play after each service is back")
    parser.add_argument("--redis-down", type=float, default=5.0,
                        help="seconds Redis stays stopped")
    parser.add_argument("--pg-down", type=float, default=0.0,
                        help="seconds PostgreSQL stays stopped between its stop and start")
    parser.add_argument("--no-relay", dest="relay", action="store_false",
                        help="skip the bare relay's floor")
    parser.add_argument("--relay-dir", type=Path, default=ROOT.parent / "shared" / "bench",
                        help="where relay_site.py and relay_load.py are")
    parser.add_argument("--log", type=Path, default=Path("/tmp/basra-outage.log"),
                        help="the servers' and clock's logs are named after it")
    parser.add_argument("--dump", type=Path,
                        help="write what the clients saw there (JSON: faults, waits, errors, "
                             "plays sent; times in seconds from the first fault)")
    parser.add_argument("--keep", action="store_true",
                        help="keep the private services' folder (their data and logs)")
    args = parser.parse_args()

    folder = Path(tempfile.mkdtemp(prefix="basra-outage-"))
    folder.chmod(0o755)  # PostgreSQL's folder below it belongs to another user
    try:
        with services(folder) as (postgres, redis):
            summary = run(args, postgres, redis)
            floor = None
            if args.relay and summary.calm_plays:
                # The floor with the same tables, think time and plays a table as before the
                # faults, on the same Redis.
                floor = live.run_relay(
                    args.relay_dir, args.tables, max(2, summary.calm_plays // args.tables),
                    args.think, args.log.with_suffix(".relay.log"),
                )
        print(f"server cpu {summary.cpu_per_play:.2f} ms/play before the faults (connects "
              f"included)" + (f"; the relay {floor:.2f} ms a message: "
                               f"{summary.cpu_per_play / floor:.2f}x the relay" if floor else ""))
        for line in summary.lines:
            print(line, flush=True)
    finally:
        if args.keep:
            print(f"the services' folder is kept: {folder}")
        else:
            shutil.rmtree(folder, ignore_errors=True)
    sys.exit(1 if summary.result.lost or summary.result.twice else 0)


if __name__ == "__main__":
    main()
