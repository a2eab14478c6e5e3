"""A job repeated on the running event loop: the work an app does inside the server process
between its other work (a scheduler's tick), published for the apps as
``games.core.for_apps.run_every``."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from django.conf import settings

from games.core.state import outages

logger = logging.getLogger(__name__)


def run_every(
    interval: float,
    work: Callable[[], Awaitable[object]],
    *,
    name: str,
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
) -> Callable[[], Awaitable[None]]:
    """Await ``work()`` at once, then again ``interval`` seconds (waited with ``sleep``; tests
    give a virtual one) after each run ends, in a task on the running event loop, until the
    returned coroutine function is awaited: that stops it after the run in hand (a server
    stopping gracefully finishes its scheduler's tick), waiting ``BASRA_DRAIN_SECONDS`` at most
    for it before cancelling it; a wait between two runs is cancelled at once.

    An exception ``work`` raises is logged under ``name`` (whose work it is) and the next run
    comes as planned: a database hiccup must not stop a scheduler for good. A database that
    cannot answer (``outages.UNAVAILABLE``: down, restarting) is one WARNING per outage
    (``games.core.state.outages``), not a traceback per run.

    :raises RuntimeError: no event loop is running.
    """
    loop = asyncio.get_running_loop()
    state = {"stopping": False, "resting": False}

    async def repeat() -> None:
        while not state["stopping"]:
            try:
                await work()
            except outages.UNAVAILABLE as error:
                outages.database.failed(error)
            except Exception:  # noqa: BLE001 - logged; the next run may well succeed
                logger.exception("%s failed", name)
            if state["stopping"]:
                return
            state["resting"] = True
            try:
                await sleep(interval)
            finally:
                state["resting"] = False

    task = loop.create_task(repeat(), name=name)

    async def stop() -> None:
        state["stopping"] = True
        if state["resting"]:
            task.cancel()
        else:
            await asyncio.wait({task}, timeout=settings.BASRA_DRAIN_SECONDS)
            task.cancel()
        await asyncio.gather(task, return_exceptions=True)

    return stop
