"""A job repeated on the running event loop: the work an app does inside the server process
between its other work (a scheduler's tick), published for the apps as
``games.core.for_apps.run_every``."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

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
    returned coroutine function is awaited (the task cancelled and waited for).

    An exception ``work`` raises is logged under ``name`` (whose work it is) and the next run
    comes as planned: a database hiccup must not stop a scheduler for good. A database that
    cannot answer (``outages.UNAVAILABLE``: down, restarting) is one WARNING per outage
    (``games.core.state.outages``), not a traceback per run.

    :raises RuntimeError: no event loop is running.
    """
    loop = asyncio.get_running_loop()

    async def repeat() -> None:
        while True:
            try:
                await work()
            except outages.UNAVAILABLE as error:
                outages.database.failed(error)
            except Exception:  # noqa: BLE001 - logged; the next run may well succeed
                logger.exception("%s failed", name)
            await sleep(interval)

    task = loop.create_task(repeat(), name=name)

    async def stop() -> None:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)

    return stop
