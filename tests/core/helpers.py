"""Helpers shared by the live-table tests: seating a table and playing it through the actions;
what a refused request must leave as it was (:func:`snapshot`); requests released together
(:func:`at_once`); waiting for what must happen (:func:`eventually`) and time that moves only when the test moves
it (:class:`VirtualClock`), so that no test depends on the machine's speed."""

from __future__ import annotations

import asyncio
import heapq
import contextlib
import itertools
import logging
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from channels.db import database_sync_to_async
from django.db import connection

from games.core import actions
from games.core.errors import GameError
from games.core.models import Event, Match, Seat
from games.core.state import broadcast, reads



def seated_match(users: Sequence[Any], *, rules: dict | None = None, rated: bool = False) -> Match:
    """A match created by ``users[0]`` and joined by the others in order (started when full)."""
    match = actions.create_table(
        user=users[0], players=len(users), rules=dict(rules or {}), rated=rated
    )
    for user in users[1:]:
        actions.join_table(user=user, match_id=match.pk)
    match.refresh_from_db()
    return match


def users_by_seat(match: Match) -> dict[int, Any]:
    """``{seat: user}`` of a match."""
    return {s.seat: s.user for s in match.seats.select_related("user")}


def play_turn(
    match: Match, choose: Callable[[list[str]], str] = lambda hand: hand[0]
) -> tuple[int, str, int]:
    """Play one card for the seat to move (``choose`` picks it from the hand).

    :returns: ``(seat, card, new seq)``.
    """
    match.refresh_from_db()
    seat_users = users_by_seat(match)
    public = reads.table_state(match_id=match.pk, user=None)
    seat = public["round"]["turn"]
    mine = reads.table_state(match_id=match.pk, user=seat_users[seat])
    card = choose(mine["round"]["hand"])
    seq = actions.play_card(user=seat_users[seat], match_id=match.pk, card=card, seq=mine["seq"])
    return seat, card, seq


def play_out(match: Match, limit: int = 5000) -> int:
    """Play ``match`` to its end with the first card of each hand; returns the number of plays."""
    for count in range(limit):
        match.refresh_from_db()
        if match.status == Match.Status.FINISHED:
            return count
        play_turn(match)
    raise AssertionError("the match did not end")


def event_kinds(match: Match) -> list[str]:
    """The kinds of a match's events in ``seq`` order."""
    return list(Event.objects.filter(match=match).order_by("seq").values_list("kind", flat=True))


def timeless(message: dict) -> dict:
    """A ``state`` message without ``now`` (the server time it was built at), for comparisons."""
    return {key: value for key, value in message.items() if key != "now"}


def strings_in(value: Any) -> set[str]:
    """Every string anywhere inside a JSON value (for leak checks, card codes among them)."""
    found: set[str] = set()
    if isinstance(value, str):
        found.add(value)
    elif isinstance(value, dict):
        for key, item in value.items():
            found |= strings_in(key) | strings_in(item)
    elif isinstance(value, list | tuple):
        for item in value:
            found |= strings_in(item)
    return found


def table_path(match_id: int) -> str:
    """The websocket path of table ``match_id``."""
    return f"/ws/table/{match_id}/"


@database_sync_to_async
def log_size(match_id: int) -> tuple[int, int]:
    """(Match.seq, number of events): both unchanged when a request was refused."""
    return Match.objects.get(pk=match_id).seq, Event.objects.filter(match_id=match_id).count()


async def two_seated(make_player):
    """``(match, on turn, waiting, the hand of the one on turn)``: alice and bob at a started
    two-player table."""
    db = database_sync_to_async
    alice, bob = await db(make_player)("alice"), await db(make_player)("bob")
    match = await db(seated_match)([alice.user, bob.user])
    first = await db(reads.table_state)(match_id=match.pk, user=alice.user)
    on_turn, waiting = (alice, bob) if first["you"] == first["round"]["turn"] else (bob, alice)
    hand = (await db(reads.table_state)(match_id=match.pk, user=on_turn.user))["round"]["hand"]
    return match, on_turn, waiting, hand


async def expect_error(comm, code: str) -> dict:
    """The next message on ``comm``: an ``error`` with ``code`` and a message."""
    message = await comm.receive_json_from()
    assert message["type"] == "error", message
    assert message["code"] == code, message
    assert message["message"]
    return message


async def synced(comm) -> dict:
    """Send ``{"type": "sync"}`` on the table socket ``comm``; its answer must be the next
    frame there: a ``state``, returned.

    A barrier for what that socket's earlier frames made it send: a socket handles its frames
    one at a time, in order, so the sync is handled only once the handling of every earlier
    frame has returned, and whatever that handling sent on the socket came before this answer
    (what it broadcast had been handed to the channel layer by then: see :func:`table_barrier`).
    """
    await comm.send_json_to({"type": "sync"})
    state = await comm.receive_json_from()
    assert state["type"] == "state", state
    return state


async def table_barrier(match_id: int, comms: Sequence[Any]) -> None:
    """A barrier for broadcasts: a frame sent now to every socket of table ``match_id``
    (``broadcast.send_table_news``, from this thread: it returns once the message is in every
    socket's channel) must be the next frame of each of ``comms``.

    The channel layer delivers one channel's messages in the order they were sent, and a socket
    handles them one at a time (each handler returns before the next one starts), so a
    broadcast to the table sent before this one, and whatever its handling sent on a socket,
    arrives there first. ``{"type": "barrier"}`` is no message of the protocol: a socket passes
    ``table.news`` on as it is.
    """
    message = {"type": "barrier", "n": next(_barriers)}
    await database_sync_to_async(broadcast.send_table_news)(match_id, message)
    for comm in comms:
        assert await comm.receive_json_from() == message


_barriers = itertools.count(1)


def refused(code: str, call: Callable[..., Any], **kwargs: Any) -> None:
    """Assert that ``call(**kwargs)`` raises ``GameError`` ``code``, with a message."""
    import pytest

    from games.core.errors import GameError

    with pytest.raises(GameError) as info:
        call(**kwargs)
    assert info.value.code == code
    assert info.value.message


async def eventually(condition: Callable[[], Any], *, within: float = 30.0) -> None:
    """Wait until ``condition()`` is true, looking at every turn of the event loop (and every
    10 ms). ``within`` is real seconds, only a bound on a hang: a slow machine waits longer,
    and nothing is asserted about how long it took.

    :raises AssertionError: ``condition()`` was still false after ``within`` seconds.
    """
    end = time.monotonic() + within
    while not condition():
        assert time.monotonic() < end, f"still not so after {within} s: {condition}"
        await asyncio.sleep(0.01)


class VirtualClock:
    """Time that moves only when the test moves it, for code that takes a ``clock`` and a
    ``sleep`` (``games.core.sockets.beats.TableBeats``, ``games.core.clock.thinking.Thinking``,
    ``games.core.sockets.beats.ServerBeat``, ``games.tournaments.scheduler.start_in_server``).

    ``clock()`` is the time (seconds; the origin is arbitrary, as ``time.monotonic()``'s);
    ``await clock.sleep(seconds)`` returns when :meth:`advance` has moved time that far. Work
    that takes time in the story of a test says so by adding to :attr:`now` itself.
    """

    def __init__(self, start: float = 1000.0) -> None:
        self.now = start
        self._sleepers: list[tuple[float, int, asyncio.Future, asyncio.Task | None]] = []
        self._order = itertools.count()

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        future = asyncio.get_running_loop().create_future()
        entry = (self.now + max(0.0, seconds), next(self._order), future, asyncio.current_task())
        heapq.heappush(self._sleepers, entry)
        await future

    def sleeping(self) -> int:
        """How many sleeps are waiting for time to move."""
        return sum(not entry[2].done() for entry in self._sleepers)

    def _asleep(self, task: asyncio.Task | None) -> bool:
        return any(t is task and not f.done() for _w, _n, f, t in self._sleepers)

    async def advance(self, seconds: float) -> None:
        """Move time on by ``seconds``, waking each sleeper at its own time, in order. After
        each wake-up, time stands still until the woken task sleeps again or ends: whatever
        it does meanwhile, however long that takes on this machine, happens at that moment of
        the virtual time line (plus what it adds to :attr:`now`)."""
        until = self.now + seconds
        while self._sleepers and self._sleepers[0][0] <= until:
            when, _n, future, task = heapq.heappop(self._sleepers)
            if future.done():  # its task was cancelled
                continue
            self.now = max(self.now, when)
            future.set_result(None)
            await asyncio.sleep(0)
            await eventually(lambda task=task: task is None or task.done() or self._asleep(task))
        self.now = max(self.now, until)


@contextlib.contextmanager
def log_records(logger: logging.Logger) -> Iterator[list[logging.LogRecord]]:
    """The records of ``logger``, INFO and above, while the block runs. A handler on that logger
    itself, not pytest's ``caplog``: the site's ``LOGGING`` (applied when the ASGI application is
    first imported, by a socket test) replaces the root logger's handlers."""
    records: list[logging.LogRecord] = []
    handler = logging.Handler(logging.INFO)
    handler.emit = records.append
    level = logger.level
    logger.setLevel(logging.INFO)
    logger.addHandler(handler)
    try:
        yield records
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)


def snapshot(match: Match) -> tuple:
    """Everything a refused request must leave as it was."""
    match.refresh_from_db()
    return (
        match.seq, match.status, match.deadline, match.winner_side, match.result,
        list(Event.objects.filter(match=match).values_list("seq", "kind", "seat", "payload")),
        list(Seat.objects.filter(match=match).values_list(
            "seat", "user_id", "bot", "absent", "timeouts", "resign_offered")),
    )


def turn_of(match: Match) -> int | None:
    match.refresh_from_db()
    public = reads.table_state(match_id=match.pk, user=None)
    return public["round"]["turn"] if public["round"] else None


def hand_of(match: Match, user) -> list[str]:
    return reads.table_state(match_id=match.pk, user=user)["round"]["hand"]


def play_human(match: Match, user) -> str:
    """``user`` plays the first card of their hand at their turn; returns it."""
    match.refresh_from_db()
    card = hand_of(match, user)[0]
    actions.play_card(user=user, match_id=match.pk, card=card, seq=match.seq)
    return card


def at_once(calls) -> list:
    """Run the callables in threads released together; returns each result or GameError."""
    barrier = threading.Barrier(len(calls))
    results: list = [None] * len(calls)

    def run(index, call):
        try:
            barrier.wait()
            results[index] = call()
        except GameError as error:
            results[index] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results
