"""News of a new deadline for the clock of this process: a clock woken when a change made in
its own process sets a table's deadline need not poll for new deadlines.

A clock in the web server's process (``BASRA_CLOCK_IN_SERVER``: ``make run``, the browser
tests' servers) sees every change its tables go through, since they are made in that same
process: each change that sets a deadline (``games.core.actions.funnel``, after its commit)
calls :func:`deadline_set`, which wakes the clocks listening here at once (:func:`listen`).
Between two wake-ups such a clock sleeps until the next deadline it knows of, and at most its
interval (``games.core.clock.clock.Runner``): the absences and the sweeps, counted in seconds
and minutes, need no quarter-second ticks. A clock in a process of its own (``run_clock``,
with Redis) hears nothing here and keeps its short interval.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable

_lock = threading.Lock()
#: The clocks listening in this process: each one's event loop and the event that wakes it.
_listening: list[tuple[asyncio.AbstractEventLoop, asyncio.Event]] = []


def listen(event: asyncio.Event) -> Callable[[], None]:
    """Set ``event`` (on the running loop) whenever :func:`deadline_set` is called, from any
    thread; returns the function that stops it."""
    entry = (asyncio.get_running_loop(), event)
    with _lock:
        _listening.append(entry)

    def stop() -> None:
        with _lock:
            if entry in _listening:
                _listening.remove(entry)

    return stop


def deadline_set() -> None:
    """A committed change set a table's deadline: wake every listening clock (thread-safe;
    never blocks, never raises)."""
    with _lock:
        listening = list(_listening)
    for loop, event in listening:
        try:
            loop.call_soon_threadsafe(event.set)
        except RuntimeError:
            pass  # its loop is closed: that clock has stopped
