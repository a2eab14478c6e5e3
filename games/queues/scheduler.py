"""What time alone changes in the queues: :func:`tick`, every :data:`TICK_SECONDS`.

Where it runs: inside the web server process, on its event loop (:func:`start_in_server`, the
core's ``server_started`` signal), its database work on the sockets' database threads
(``in_worker``), as the tournaments' scheduler does without Redis. With a shared channel layer
(Redis) it runs there too: the waiting state is in the database and every query here takes its
locks, so a second process ticking would only pair sooner, never twice; the notices it sends
reach every process through the layer.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from datetime import datetime

from django.db.models import Count
from django.utils import timezone

from games.core.for_apps import in_worker
from games.queues import services
from games.queues.models import Entry

logger = logging.getLogger(__name__)

#: Seconds between two ticks.
TICK_SECONDS = 1.0
#: Seconds between two waves of one queue (lila's pools: a wave every few seconds)...
WAVE_SECONDS = 3.0
#: ...or sooner, at the next tick, once this many players wait in it.
ENOUGH = {2: 8, 4: 12}


def start_in_server(
    sender: object,
    *,
    in_process: bool,
    interval: float | None = None,
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    **kwargs: object,
) -> Callable[[], Awaitable[None]]:
    """The core's ``server_started`` receiver: tick every ``interval`` seconds (default
    :data:`TICK_SECONDS`, waited with ``sleep``) on the server's event loop, the database work on
    its worker threads; returns the coroutine function that stops it."""
    every = TICK_SECONDS if interval is None else interval
    last: dict[tuple[int, int], datetime] = {}

    async def loop() -> None:
        while True:
            try:
                await in_worker(tick)(last=last)
            except Exception:  # noqa: BLE001 - a database hiccup must not stop the queues
                logger.exception("queues: tick failed")
            await sleep(every)

    task = asyncio.get_running_loop().create_task(loop())

    async def stop() -> None:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)

    return stop


def tick(now: datetime | None = None, *, last: dict[tuple[int, int], datetime] | None = None) -> dict[str, int]:
    """Settle the queue tables whose no-show time is up (``services.settle_tables``), then run
    the wave of each queue that is due: its last wave (``last``, updated; ``{queue: when}``)
    :data:`WAVE_SECONDS` ago or more, or :data:`ENOUGH` players waiting.

    :returns: ``{"waves", "tables", "no_shows"}`` counts.
    """
    now = timezone.now() if now is None else now
    last = {} if last is None else last
    settled = services.settle_tables(now)
    out = {"waves": 0, "tables": 0, "no_shows": settled["no_shows"]}
    waiting = Entry.objects.values_list("players", "move_seconds").annotate(n=Count("pk"), pairs=Count("partner"))
    for players, move_seconds, n, pairs in waiting:
        key = (players, move_seconds)
        since = last.get(key)
        if since is not None and (now - since).total_seconds() < WAVE_SECONDS and n + pairs < ENOUGH[players]:
            continue
        last[key] = now
        out["waves"] += 1
        out["tables"] += len(services.wave(players, move_seconds, now))
    return out
