"""The computer seats think off the clock's loop (games/core/clock/thinking.py), the clock can run on a web
server's event loop (games/core/clock/clock.py ``Runner``), and a server beats from its start
(games/core/sockets/base.py ``ServerBeat``, basra_site/asgi.py)."""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from datetime import datetime, timedelta

import pytest
from channels.db import database_sync_to_async
from django.utils import timezone

from basra_site import asgi
from games.core import actions
from games.core.clock import clock, thinking
from games.core.models import Event, Match, Seat, WebTick
from games.core.sockets import beats, table as table_socket
from games.core.state import liveness
from tests.core.helpers import VirtualClock, eventually, seated_match

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

db = database_sync_to_async


@db
def vs_computer(user, level: str = "strong") -> Match:
    match = actions.create_table(user=user, players=2, rules={}, rated=False, bots={1: level})
    return Match.objects.get(pk=match.pk)


@db
def reload(match: Match) -> Match:
    return Match.objects.get(pk=match.pk)


@db
def plays(match: Match) -> list[tuple[int, str | None]]:
    return [
        (e.seat, e.payload.get("bot"))
        for e in Event.objects.filter(match=match, kind="play").order_by("seq")
    ]


def tick(now: datetime | None = None, **kwargs) -> int:
    return clock.tick(now=now or timezone.now(), **kwargs)


class Gate:
    """A bot that thinks until let go: ``think(turn)`` blocks on the gate, then chooses as the
    site does. Counts its calls."""

    def __init__(self) -> None:
        self.open = threading.Event()
        self.calls = 0

    def __call__(self, turn):
        self.calls += 1
        self.open.wait(10)
        return actions.choose_card(turn)


@pytest.fixture
def quick_delay(settings):
    settings.BASRA_BOT_DELAY_SECONDS = (0.2, 0.2)
    settings.BASRA_ABSENT_GRACE_SECONDS = 10_000


async def test_a_strong_bot_move_is_thought_by_a_worker_process_and_applied(
    make_player, known_decks, quick_delay
):
    alice = await db(make_player)("alice")
    match = await vs_computer(alice.user)
    assert match.deadline is not None  # dealer 0: the computer (seat 1) plays first
    executor = thinking.pool(1)
    submitted = []
    real_submit = executor.submit

    def spy(function, *args):
        submitted.append(function)
        return real_submit(function, *args)

    executor.submit = spy
    pool = thinking.Thinking(executor)
    try:
        assert await db(tick)(thinking=pool) == 0  # handed over, not played in the tick
        assert match.pk in pool
        assert (await reload(match)).seq == match.seq
        await asyncio.wait_for(pool.idle(), 30)
    finally:
        pool.close()
    assert isinstance(pool.executor, ProcessPoolExecutor)
    assert submitted[-1] is actions.choose_card
    assert await plays(match) == [(1, "strong")]
    moved = await reload(match)
    assert moved.seq > match.seq and pool.applied == 1 and pool.in_flight() == []
    # Played when its delay was over, not before.
    play = await db(Event.objects.get)(match=match, kind="play")
    assert play.created_at >= match.deadline


async def test_a_table_in_flight_is_never_submitted_twice(make_player, known_decks, quick_delay):
    alice = await db(make_player)("alice")
    match = await vs_computer(alice.user)
    gate = Gate()
    pool = thinking.Thinking(ThreadPoolExecutor(2), think=gate)
    try:
        for step in range(-2, 2):  # the deadline passes; the clock ticks on while the bot thinks
            await db(tick)(match.deadline + timedelta(seconds=0.1 * step), thinking=pool)
        assert gate.calls == 1 and pool.in_flight() == [match.pk]
        gate.open.set()
        await asyncio.wait_for(pool.idle(), 30)
    finally:
        pool.close()
    assert gate.calls == 1 and await plays(match) == [(1, "strong")]


async def test_a_stale_card_is_dropped_without_error(make_player, known_decks, quick_delay, caplog):
    alice = await db(make_player)("alice")
    match = await vs_computer(alice.user)
    gate = Gate()
    pool = thinking.Thinking(ThreadPoolExecutor(1), think=gate)
    try:
        await db(tick)(thinking=pool)
        assert gate.calls == 1
        # While the computer thinks, the person resigns: the table moves on.
        await db(actions.resign)(user=alice.user, match_id=match.pk)
        gate.open.set()
        await asyncio.wait_for(pool.idle(), 30)
    finally:
        pool.close()
    assert (pool.applied, pool.dropped) == (0, 1)
    assert await plays(match) == []
    assert not [r for r in caplog.records if r.levelname in ("ERROR", "CRITICAL")]


async def test_the_tick_does_not_wait_for_a_slow_bot(make_player, known_decks, quick_delay):
    # The bot thinks until the tick has returned: a tick that waited for the card would wait
    # for itself (the bot gives up after 10 s and says so).
    alice = await db(make_player)("alice")
    match = await vs_computer(alice.user)
    tick_returned = threading.Event()
    saw_the_tick_return = []

    def slow(turn):
        saw_the_tick_return.append(tick_returned.wait(10))
        return actions.choose_card(turn)

    pool = thinking.Thinking(ThreadPoolExecutor(1), think=slow)
    try:
        await db(tick)(thinking=pool)
        assert match.pk in pool and (await reload(match)).seq == match.seq  # still thinking
        tick_returned.set()
        await asyncio.wait_for(pool.idle(), 30)
    finally:
        pool.close()
    assert saw_the_tick_return == [True]
    assert await plays(match) == [(1, "strong")]


async def test_a_card_waits_for_the_tables_deadline(make_player, known_decks, settings):
    # Handed over ahead of the deadline (the thinking overlaps the computer's delay), the card
    # is played when the delay is over, not when the bot is done.
    # The card's wait is on a virtual clock: the deadline comes when the test moves time on.
    settings.BASRA_BOT_DELAY_SECONDS = (1.0, 1.0)
    alice = await db(make_player)("alice")
    match = await vs_computer(alice.user, "greedy")
    virtual = VirtualClock()
    pool = thinking.Thinking(ThreadPoolExecutor(1), clock=virtual, sleep=virtual.sleep)
    try:
        now = timezone.now()
        await db(tick)(now, thinking=pool)
        assert match.pk in pool
        await eventually(lambda: virtual.sleeping() == 1)  # the bot is done; its card waits
        to_deadline = (match.deadline - now).total_seconds()
        await virtual.advance(to_deadline - 0.01)
        assert await plays(match) == []  # thought long ago, waiting for the deadline
        # On past the deadline (by 0.01 s alone, float rounding could stop an ulp short of it):
        # the card is played at the deadline itself, where the sleeper is woken.
        await virtual.advance(1.0)
        await asyncio.wait_for(pool.idle(), 30)
    finally:
        pool.close()
    # Played at the deadline on the table's time line, not before and not later: the person's
    # time to move counts from then.
    moved = await reload(match)
    assert await plays(match) == [(1, "greedy")]
    assert moved.deadline - match.deadline == timedelta(seconds=moved.move_seconds)


async def test_the_clock_in_the_server_process_reaches_its_sockets(
    make_player, open_socket, known_decks, settings, monkeypatch
):
    # ``make run``: the in-memory layer. The clock runs on this process's loop (as in daphne),
    # so the computer's card is broadcast to the socket when its delay is over. Every other
    # way for the socket to learn of it is put out of the way: its own re-read after the
    # deadline and the process's heartbeat (which would find the table moved on). So the card
    # arrives only through the clock's broadcast, however long this machine takes.
    settings.BASRA_BOT_DELAY_SECONDS = (0.6, 0.6)
    monkeypatch.setattr(table_socket, "WAKE_MARGIN", 3600.0)
    # The heartbeat's period is the least of these (liveness.heartbeat_seconds): an hour.
    monkeypatch.setattr(liveness, "HEARTBEAT_SECONDS", 3600)
    settings.BASRA_ABSENT_GRACE_SECONDS = settings.BASRA_OPEN_TABLE_ABANDON_SECONDS = 14_400
    alice = await db(make_player)("alice")
    match = await vs_computer(alice.user, "greedy")
    runner = clock.Runner(interval=0.1, workers=1)
    a = await open_socket(f"/ws/table/{match.pk}/", alice.cookie)
    first = await a.receive_json_from()
    assert first["round"]["turn"] == 1 and first["deadline"] is not None
    runner.start()
    try:
        moved = await a.receive_json_from(timeout=60)  # real seconds: only a bound on a hang
        arrived = timezone.now()
        await eventually(lambda: runner.thinking.applied == 1)  # played by this process's clock
    finally:
        await runner.stop()
    assert moved["round"]["last_play"]["seat"] == 1 and moved["round"]["turn"] == 0
    # Not before the deadline. (That it is played at the deadline, not later, is
    # test_a_card_waits_for_the_tables_deadline, on a virtual clock.)
    assert arrived >= datetime.fromisoformat(first["deadline"])


async def test_a_computer_plays_at_its_deadline_without_waiting_for_a_beat(
    make_player, known_decks, quick_delay
):
    # People's deadlines wait for the servers' last beat; the computer's move wrongs nobody.
    alice = await db(make_player)("alice")
    match = await vs_computer(alice.user, "greedy")
    await db(liveness.web_seen)(now=match.deadline - timedelta(seconds=1))
    assert await db(clock.tick)(now=match.deadline) == 1
    assert await plays(match) == [(1, "greedy")]


@db
def gone_quiet(users, seen_ago: timedelta = timedelta(minutes=10)) -> Match:
    """A match started ten minutes ago (no clock per play) whose people were last seen
    ``seen_ago``."""
    match = seated_match(users)
    now = timezone.now()
    Match.objects.filter(pk=match.pk).update(
        started_at=now - timedelta(minutes=10), move_seconds=None, deadline=None
    )
    Seat.objects.filter(match=match).update(last_seen=now - seen_ago)
    return match


@db
def absent_seats(match: Match) -> list[int]:
    return list(Seat.objects.filter(match=match, absent=True).values_list("seat", flat=True))


@db
def web_beat() -> datetime | None:
    return WebTick.objects.filter(pk=WebTick.ONE).values_list("last_seen", flat=True).first()


async def test_with_a_server_running_and_no_socket_open_the_clock_marks_absence(
    make_player, open_socket, settings, monkeypatch
):
    # The fault: the beat lived only while sockets were open, so a table everyone left stood
    # still. The server beats from its start; after its last socket closes it beats on, and a
    # clock that ticks at that beat's time goes on (the ticks' times are injected).
    settings.BASRA_ABSENT_GRACE_SECONDS = 60
    settings.BASRA_CLOCK_OUTAGE_SECONDS = 1
    monkeypatch.setattr(beats, "WEB_BEAT_SECONDS", 0.05)
    alice, bob = await db(make_player)("alice"), await db(make_player)("bob")
    beats.server_beat.start()
    try:
        lobby = await open_socket("/ws/lobby/", alice.cookie)
        await lobby.receive_json_from()
        await lobby.disconnect()  # the last socket of this server closes
        closed = timezone.now()
        seen_beats = []
        for _ in range(3000):  # up to 30 s: only a bound on a hang
            if (seen := await web_beat()) is not None and seen > closed and seen not in seen_beats:
                seen_beats.append(seen)
                if len(seen_beats) == 2:
                    break
            await asyncio.sleep(0.01)
        assert len(seen_beats) == 2 and seen_beats[1] > seen_beats[0] > closed  # still beating, twice
    finally:
        await beats.server_beat.stop()
    beat = await web_beat()
    # Both closed their table a minute and a half second before that beat.
    match = await gone_quiet([alice.user, bob.user], timedelta(seconds=60.5))
    await db(Seat.objects.filter(match=match).update)(last_seen=beat - timedelta(seconds=60.5))
    assert await db(clock.tick)(now=beat - timedelta(seconds=0.6)) == 0  # nobody absent yet
    assert await db(clock.tick)(now=beat) == 2  # the clock goes on: both marked absent
    assert await absent_seats(match) == [0, 1]


async def test_without_any_server_the_clock_still_stands_still(make_player, settings):
    # "No server is running" (no beat for longer than the outage rule) is still told apart.
    settings.BASRA_ABSENT_GRACE_SECONDS = 60
    settings.BASRA_CLOCK_OUTAGE_SECONDS = 1
    alice, bob = await db(make_player)("alice"), await db(make_player)("bob")
    match = await gone_quiet([alice.user, bob.user])
    await db(liveness.web_seen)(now=timezone.now() - timedelta(seconds=5))
    assert await db(clock.tick)(now=timezone.now()) == 0
    assert await absent_seats(match) == []


async def test_the_asgi_lifespan_starts_and_stops_the_beat(settings):
    # Servers that send the ASGI lifespan events (uvicorn): the beat from startup to shutdown,
    # no socket needed. (Daphne starts it from its reactor: tests/site/test_serve.py.)
    settings.BASRA_CLOCK_IN_SERVER = False
    inbox: asyncio.Queue = asyncio.Queue()
    outbox: list[dict] = []

    async def send(message):
        outbox.append(message)

    await inbox.put({"type": "lifespan.startup"})
    app = asyncio.ensure_future(
        asgi.application({"type": "lifespan", "asgi": {"version": "3.0"}}, inbox.get, send)
    )
    for _ in range(3000):  # up to 30 s: only a bound on a hang
        if await web_beat() is not None:
            break
        await asyncio.sleep(0.01)
    first = await web_beat()
    assert outbox == [{"type": "lifespan.startup.complete"}] and first is not None
    await inbox.put({"type": "lifespan.shutdown"})
    await asyncio.wait_for(app, 30)
    assert outbox[-1] == {"type": "lifespan.shutdown.complete"}
    assert beats.server_beat.task is None and not asgi.serving.started


async def test_a_starting_server_tells_the_apps_and_stops_their_work(settings):
    """``games.core.signals.server_started``: the apps built on the core hear that a server process
    starts (whether its broadcasts stay in the process) and the stop they return is awaited
    when it stops."""
    from games.core.signals import server_started

    settings.BASRA_CLOCK_IN_SERVER = False
    heard, stopped = [], []

    def receiver(sender, *, in_process, **kwargs):
        heard.append(in_process)

        async def stop():
            stopped.append(True)

        return stop

    server_started.connect(receiver, dispatch_uid="test.server_started")
    try:
        asgi.serving.start()
        assert heard == [False] and stopped == []
        await asgi.serving.stop()
        assert stopped == [True]
    finally:
        server_started.disconnect(dispatch_uid="test.server_started")


async def test_a_clock_in_the_server_is_woken_by_a_table_made_while_it_sleeps(
    make_player, known_decks, quick_delay, settings, monkeypatch
):
    """A clock in the server process sleeps up to its interval (an hour here) and is woken by
    the changes made in its process that set a deadline (``games.core.state.deadlines``): the
    computer of a table made while it slept plays at its delay, not an hour later."""
    settings.BASRA_CLOCK_IN_SERVER = True
    ticked = asyncio.Event()
    real_next_wake = clock.next_wake
    loop = asyncio.get_running_loop()

    def next_wake(**kwargs):
        wait = real_next_wake(**kwargs)
        loop.call_soon_threadsafe(ticked.set)
        return wait

    monkeypatch.setattr(clock, "next_wake", next_wake)
    monkeypatch.setattr(clock, "IN_SERVER_INTERVAL", 3600.0)
    alice = await db(make_player)("alice")
    asgi.serving.start()
    try:
        await asyncio.wait_for(ticked.wait(), 30)  # real seconds: only a bound on a hang
        assert asgi.serving.clock.interval == 3600.0  # the first tick found nothing: asleep
        match = await vs_computer(alice.user, "greedy")
        # The play waits for the thinking process to start (spawned, it imports the site): tens
        # of seconds on a loaded machine. The bound only tells a hang from the hour it guards.
        await eventually(lambda: asgi.serving.clock.thinking.applied == 1, within=180)
    finally:
        await asgi.serving.stop()
    assert await plays(match) == [(1, "greedy")]

