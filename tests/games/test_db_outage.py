"""A database outage (issue 36): it degrades.

A connection a socket's database thread kept, dropped by the database meanwhile, is replaced
before the play; the clock and the tournaments' scheduler log one line per outage.

The database errors are raised where PostgreSQL's would be (``OperationalError``, as psycopg's
"terminating connection due to administrator command" reaches Django).
"""

from __future__ import annotations

import asyncio
import logging

import pytest
from channels.db import database_sync_to_async
from django.core.management import call_command
from django.db import OperationalError, connection

from games.core.clock import clock
from games.core.sockets import workers
from games.core.state import broadcast, outages
from games.tournaments import scheduler
from games.tournaments.management.commands import run_tournaments
from tests.games.helpers import VirtualClock, eventually, log_records, table_path
from tests.games.test_outage import two_seated

db = database_sync_to_async

RESTARTING = "terminating connection due to administrator command"


@pytest.fixture(autouse=True)
def _services_thought_up(monkeypatch):
    """Each test starts with the database and the layer thought up (the outage flags)."""
    monkeypatch.setattr(outages, "database", outages.Outage("database"))
    monkeypatch.setattr(broadcast, "_layer_down", False)


@pytest.fixture
def outage_log():
    """The records of the database's outage log (``games.core.state.outages``)."""
    with log_records(outages.logger) as records:
        yield records


async def playing(make_player, open_socket):
    """``(match, the player on turn, their hand, their table socket, its first state)``: alice
    and bob at a started two-player table (``two_seated``)."""
    match, on_turn, _waiting, hand = await two_seated(make_player)
    socket = await open_socket(table_path(match.pk), on_turn.cookie)
    return match, on_turn, hand, socket, await socket.receive_json_from()


# --- a kept connection ----------------------------------------------------------------------


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_kept_connection_the_database_dropped_is_replaced_before_the_play(
    make_player, open_socket, outage_log
):
    """PostgreSQL restarting ends every session (a FATAL message, then the close): the
    connection the sockets' database thread kept from before must not fail the first play."""
    if connection.vendor != "postgresql":
        pytest.skip("SQLite has no server to drop a connection")
    _match, _on_turn, hand, socket, view = await playing(make_player, open_socket)

    def backend() -> int:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_backend_pid()")
            return cursor.fetchone()[0]

    kept = await workers.in_worker(backend)()
    assert await workers.in_worker(backend)() == kept  # the thread keeps its connection

    def terminate() -> None:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_terminate_backend(%s)", [kept])

    def gone() -> bool:
        with connection.cursor() as cursor:
            cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE pid = %s", [kept])
            return cursor.fetchone()[0] == 0

    await db(terminate)()
    while not await db(gone)():  # pg_terminate_backend only signals the backend to end
        await asyncio.sleep(0.01)

    await socket.send_json_to({"type": "play", "card": hand[0], "seq": view["seq"]})

    state = await socket.receive_json_from()
    assert state["type"] == "state" and state["seq"] > view["seq"], state
    assert await workers.in_worker(backend)() != kept
    assert outage_log == []  # nothing failed


# --- the clock and the tournaments' scheduler ------------------------------------------------


def failing_ticks(count: int):
    """A tick that raises ``OperationalError`` its first ``count`` times, then works; and the
    list of its calls."""
    calls = []

    def tick(**kwargs):
        calls.append(kwargs)
        if len(calls) <= count:
            raise OperationalError(RESTARTING)
        return {}

    return tick, calls


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_the_clock_logs_one_line_per_database_outage_and_goes_on(monkeypatch, outage_log):
    tick, calls = failing_ticks(5)
    monkeypatch.setattr(clock, "tick", tick)
    with log_records(clock.logger) as clock_log:
        task = asyncio.ensure_future(clock.run(interval=0.001))
        try:
            await eventually(lambda: len(calls) >= 7)
        finally:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
    assert clock_log == []  # no traceback per tick
    assert [r.levelno for r in outage_log] == [logging.WARNING, logging.INFO]
    assert RESTARTING in outage_log[0].getMessage()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_the_scheduler_in_the_server_logs_one_line_per_database_outage(
    monkeypatch, outage_log
):
    tick, calls = failing_ticks(3)
    monkeypatch.setattr(scheduler, "tick", lambda: tick())
    time = VirtualClock()
    with log_records(scheduler.logger) as scheduler_log:
        stop = scheduler.start_in_server(None, in_process=True, interval=5.0, sleep=time.sleep)
        try:
            await eventually(lambda: time.sleeping() == 1)
            await time.advance(20.0)
        finally:
            await stop()
    assert len(calls) == 5  # at the start, then every 5 s: the failures did not stop it
    assert scheduler_log == []
    assert [r.levelno for r in outage_log] == [logging.WARNING, logging.INFO]


@pytest.mark.django_db(transaction=True)
def test_run_tournaments_logs_one_line_per_database_outage(monkeypatch, outage_log, capsys):
    tick, calls = failing_ticks(3)
    monkeypatch.setattr(run_tournaments.services, "tick", lambda: tick())

    class Enough(Exception):
        pass

    def sleep(seconds):
        if len(calls) == 5:
            raise Enough

    monkeypatch.setattr(run_tournaments.time, "sleep", sleep)
    with pytest.raises(Enough):
        call_command("run_tournaments", interval=5.0)
    assert capsys.readouterr().err == ""  # no line per failed tick
    assert [r.levelno for r in outage_log] == [logging.WARNING, logging.INFO]
