"""A database outage, and a socket opened during a channel-layer outage (issue 36): they degrade.

A play the database fails (PostgreSQL restarting) is answered with the retryable error
``unavailable`` and changes nothing, the socket stays open and the next play is applied; a
connection a socket's database thread kept, dropped by the database meanwhile, is replaced
before the play; the clock and the tournaments' scheduler log one line per outage; a socket
that opens while the channel layer is down opens all the same and joins its groups once the
layer is back.

The database errors are raised where PostgreSQL's would be (``OperationalError``, as psycopg's
"terminating connection due to administrator command" reaches Django); the broken layer is the
test's channel layer object, its methods replaced by ones that raise as channels-redis does
with Redis down (``redis.exceptions.ConnectionError``).
"""

from __future__ import annotations

import asyncio
import logging

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.core.management import call_command
from django.db import OperationalError, connection
from redis.exceptions import ConnectionError as RedisConnectionError

from games.core import actions
from games.core.actions import funnel
from games.core.clock import clock
from games.core.models import Event, Match
from games.core.sockets import workers
from games.core.state import broadcast, notices, outages, reads, watching
from games.tournaments import scheduler
from games.tournaments.management.commands import run_tournaments
from tests.core.helpers import (
    VirtualClock, eventually, expect_error, log_records, log_size, synced, table_path, two_seated,
)

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


def failing_once(monkeypatch, owner, name):
    """Make ``owner.name`` raise ``OperationalError`` at its next call, then be itself again;
    returns the list of the calls that raised."""
    real = getattr(owner, name)
    raised = []

    def once(*args, **kwargs):
        if not raised:
            raised.append(args)
            raise OperationalError(RESTARTING)
        return real(*args, **kwargs)

    monkeypatch.setattr(owner, name, once)
    return raised


async def playing(make_player, open_socket):
    """``(match, the player on turn, their hand, their table socket, its first state)``: alice
    and bob at a started two-player table (``two_seated``)."""
    match, on_turn, _waiting, hand = await two_seated(make_player)
    socket = await open_socket(table_path(match.pk), on_turn.cookie)
    return match, on_turn, hand, socket, await socket.receive_json_from()


# --- a play ----------------------------------------------------------------------------------


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_play_the_database_fails_is_answered_unavailable_and_the_socket_stays(
    make_player, open_socket, monkeypatch, outage_log
):
    match, on_turn, hand, socket, view = await playing(make_player, open_socket)
    before = await log_size(match.pk)
    # The write of a change (either way: compare-and-set or locked) meets the database gone.
    raised = failing_once(monkeypatch, funnel.Change, "write")

    await socket.send_json_to({"type": "play", "card": hand[0], "seq": view["seq"]})

    error = await expect_error(socket, "unavailable")
    assert set(error) == {"type", "code", "message"}
    assert raised
    assert await log_size(match.pk) == before  # nothing changed
    assert (await synced(socket))["seq"] == view["seq"]  # the socket is open and answers
    # The same play again: applied, once.
    await socket.send_json_to({"type": "play", "card": hand[0], "seq": view["seq"]})
    state = await socket.receive_json_from()
    assert state["type"] == "state" and state["seq"] > view["seq"]
    assert state["round"]["last_play"]["card"] == hand[0]
    plays = await db(Event.objects.filter(match_id=match.pk, kind=Event.Kind.PLAY).count)()
    assert plays == 1
    # The outage told once, and its end once.
    assert [(r.levelno, r.getMessage().split(":")[0]) for r in outage_log] == [
        (logging.WARNING, "database unavailable, failing until it is back"),
        (logging.INFO, "database back"),
    ]


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_any_socket_action_the_database_fails_is_answered_unavailable(
    make_player, open_socket, monkeypatch
):
    _match, on_turn, _hand, socket, view = await playing(make_player, open_socket)
    lobby = await open_socket("/ws/lobby/", on_turn.cookie)
    assert (await lobby.receive_json_from())["type"] == "tables"

    failing_once(monkeypatch, reads, "table_state")
    await socket.send_json_to({"type": "sync"})
    await expect_error(socket, "unavailable")
    failing_once(monkeypatch, reads, "open_tables")
    await lobby.send_json_to({"type": "sync"})
    await expect_error(lobby, "unavailable")

    # Both still open, and answering from the database again.
    assert (await synced(socket))["seq"] == view["seq"]
    await lobby.send_json_to({"type": "sync"})
    assert (await lobby.receive_json_from())["type"] == "tables"


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_socket_opened_while_the_database_fails_stays_and_gets_the_table_after(
    make_player, open_socket, monkeypatch
):
    match, _on_turn, waiting, _hand = await two_seated(make_player)
    failing_once(monkeypatch, reads, "table_state")

    socket = await open_socket(table_path(match.pk), waiting.cookie)

    await expect_error(socket, "unavailable")
    state = await synced(socket)  # what the page sends next
    assert state["you"] is not None and state["round"]["hand"]


@pytest.mark.skipif(connection.vendor != "postgresql", reason="SQLite has no server to drop a connection")
@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_kept_connection_the_database_dropped_is_replaced_before_the_play(
    make_player, open_socket, outage_log
):
    """PostgreSQL restarting ends every session (a FATAL message, then the close): the
    connection the sockets' database thread kept from before must not fail the first play."""
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

    def wait(stop, seconds):  # the wait between two ticks: none, up to the fifth tick
        if len(calls) == 5:
            raise Enough
        return False

    monkeypatch.setattr(run_tournaments.StopSignals, "wait", wait)
    with pytest.raises(Enough):
        call_command("run_tournaments", interval=5.0)
    assert capsys.readouterr().err == ""  # no line per failed tick
    assert [r.levelno for r in outage_log] == [logging.WARNING, logging.INFO]


# --- a socket opened while the channel layer is down -----------------------------------------


@pytest.fixture
def layer_down(monkeypatch):
    """The channel layer as with Redis down until ``back()``: a new channel, a join, a send
    and a group send raise (``redis.exceptions.ConnectionError``). ``back()`` gives the real
    methods back and makes one send that works, after which the layer counts as back
    (``broadcast.layer_works``, as the server's beat finds it)."""
    layer = get_channel_layer()
    names = ("new_channel", "group_add", "send", "group_send")
    real = {name: getattr(layer, name) for name in names}

    async def down(*args, **kwargs):
        raise RedisConnectionError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    for name in names:
        monkeypatch.setattr(layer, name, down)

    async def back() -> None:
        for name, method in real.items():
            monkeypatch.setattr(layer, name, method)
        await db(broadcast.send_tables)([])  # a send that works: the layer is back

    return back


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_table_socket_opened_while_the_layer_is_down_gets_the_state_then_live_news(
    make_player, open_socket, layer_down, server_beat_clock, beats_clock
):
    """No heartbeat and no server beat come (their clocks stand still): what the socket gets
    after the layer's return comes from that return alone."""
    match, on_turn, waiting, hand = await two_seated(make_player)

    socket = await open_socket(table_path(match.pk), waiting.cookie)

    view = await socket.receive_json_from()  # read from the database
    assert view["type"] == "state" and view["you"] is not None
    assert broadcast.layer_is_down()
    # A play while the layer is down: committed, its state not sent.
    await db(actions.play_card)(user=on_turn.user, match_id=match.pk, card=hand[0], seq=view["seq"])
    await layer_down()
    missed = await socket.receive_json_from()  # at once, for the layer's return
    assert missed["type"] == "state" and missed["seq"] > view["seq"]
    # In the table's group now: the next change comes live.
    mine = missed["round"]["hand"]
    await db(actions.play_card)(
        user=waiting.user, match_id=match.pk, card=mine[0], seq=missed["seq"]
    )
    live = await socket.receive_json_from()
    assert live["type"] == "state" and live["seq"] > missed["seq"]
    assert live["round"]["last_play"]["card"] == mine[0]


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_spectator_socket_opened_while_the_layer_is_down_counts_as_one_and_then_none(
    make_player, open_socket, layer_down, server_beat_clock
):
    """Its spectator row is named by the socket's own key (it has no channel yet); its
    disconnect deletes that row."""
    match, _on_turn, _waiting, _hand = await two_seated(make_player)

    socket = await open_socket(table_path(match.pk))

    assert (await socket.receive_json_from())["you"] is None
    assert await db(watching.watcher_count)(match.pk) == 1
    await socket.disconnect()
    assert await db(watching.watcher_count)(match.pk) == 0


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_lobby_and_notice_sockets_opened_while_the_layer_is_down_get_news_once_it_is_back(
    make_player, open_socket, layer_down, server_beat_clock
):
    alice = await db(make_player)("alice")
    lobby = await open_socket("/ws/lobby/", alice.cookie)
    assert await lobby.receive_json_from() == {"type": "tables", "tables": []}
    mine = await open_socket("/ws/me/", alice.cookie)
    assert (await mine.receive_json_from())["type"] == "pending"

    await layer_down()

    # Each is sent what it may have missed, at once.
    assert (await lobby.receive_json_from())["type"] == "tables"
    assert (await mine.receive_json_from())["type"] == "pending"
    # And is in its group: the news of a change comes.
    match = await db(actions.create_table)(user=alice.user, players=2, rules={}, rated=False)
    tables = await lobby.receive_json_from()
    assert [t["id"] for t in tables["tables"]] == [match.pk]
    await db(notices.send_notice)(alice.user.pk, "hello", {"n": 1})
    assert await mine.receive_json_from() == {"type": "notice", "kind": "hello", "payload": {"n": 1}}
    assert await db(Match.objects.count)() == 1
