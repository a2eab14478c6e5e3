"""The database worker threads (``games.core.sockets.workers``): a call's result, error or broadcasts come
back to its caller's loop (``broadcast.Pending``), none is lost when the caller stops waiting,
and nothing that happens to a caller stops the threads."""

from __future__ import annotations

import asyncio
import contextvars
import threading

import pytest
from channels.layers import get_channel_layer

from games.core.sockets import workers
from games.core.state import broadcast


@pytest.fixture
def pooled(monkeypatch):
    """``in_worker``'s PostgreSQL way (the worker pool) whatever the test database: the calls
    here touch no database."""
    monkeypatch.setitem(workers._vendors, "default", "postgresql")
    yield
    workers.stop()


async def _member(group: str) -> str:
    layer = get_channel_layer()
    channel = await layer.new_channel()
    await layer.group_add(group, channel)
    return channel


async def _received(channel: str, timeout: float = 1.0) -> dict | None:
    try:
        return await asyncio.wait_for(get_channel_layer().receive(channel), timeout)
    except asyncio.TimeoutError:
        return None


@pytest.mark.asyncio
async def test_a_calls_broadcasts_leave_when_it_returns(pooled):
    channel = await _member(broadcast.table_group(7))
    inside = threading.Event()
    go_on = threading.Event()

    def action() -> str:
        broadcast.send_table_news(7, {"type": "first"})
        inside.set()
        go_on.wait(5)
        broadcast.send_table_news(7, {"type": "second"})
        return "done"

    call = asyncio.ensure_future(workers.in_worker(action)())
    await asyncio.get_running_loop().run_in_executor(None, inside.wait, 5)
    # Committed, but the call has not returned: kept with it. Barrier: a message sent to the
    # group now must be the channel's first (a channel delivers in order): "first", sent from
    # the thread before ``inside`` was set, would be ahead of it.
    await get_channel_layer().group_send(broadcast.table_group(7), {"type": "barrier"})
    go_on.set()
    assert await call == "done"
    assert await _received(channel) == {"type": "barrier"}
    assert (await _received(channel))["message"] == {"type": "first"}
    assert (await _received(channel))["message"] == {"type": "second"}


@pytest.mark.asyncio
async def test_a_failing_call_still_sends_what_it_committed(pooled):
    channel = await _member(broadcast.table_group(8))

    def action() -> None:
        broadcast.send_table_news(8, {"type": "committed"})
        raise RuntimeError("after the commit")

    with pytest.raises(RuntimeError):
        await workers.in_worker(action)()
    assert (await _received(channel))["message"] == {"type": "committed"}


@pytest.mark.asyncio
async def test_a_call_its_caller_stopped_waiting_for_still_broadcasts(pooled):
    channel = await _member(broadcast.table_group(9))
    inside = threading.Event()
    go_on = threading.Event()
    finished = threading.Event()

    def action() -> None:
        inside.set()
        go_on.wait(5)
        broadcast.send_table_news(9, {"type": "late"})
        finished.set()

    call = asyncio.ensure_future(workers.in_worker(action)())
    await asyncio.get_running_loop().run_in_executor(None, inside.wait, 5)
    call.cancel()  # the socket closed: its task is cancelled while the thread works on
    with pytest.raises(asyncio.CancelledError):
        await call
    go_on.set()
    await asyncio.get_running_loop().run_in_executor(None, finished.wait, 5)
    assert (await _received(channel))["message"] == {"type": "late"}


@pytest.mark.asyncio
async def test_a_calls_error_reaches_its_caller(pooled):
    def action() -> None:
        raise KeyError("no such thing")

    with pytest.raises(KeyError, match="no such thing"):
        await workers.in_worker(action)()
    assert await workers.in_worker(lambda: 41 + 1)() == 42


@pytest.mark.asyncio
async def test_the_threads_outlive_a_caller_whose_loop_closed(pooled):
    # A server stopping closes its loop while a call still runs: the call's answer has nowhere
    # to go, and the thread must go on serving the others.
    go_on = threading.Event()
    gone = asyncio.new_event_loop()
    workers._pool().call(gone, contextvars.copy_context(), go_on.wait, (5,), {})
    gone.close()
    go_on.set()
    for n in range(3):
        assert await asyncio.wait_for(workers.in_worker(lambda n=n: n * 2)(), 5) == n * 2
