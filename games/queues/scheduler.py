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
from collections.abc import Awaitable, Callable
from datetime import datetime

from django.db.models import Count
from django.utils import timezone

from games.core.for_apps import in_worker, run_every
from games.queues import services
from games.queues.models import Entry, Wave

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
    clock: Callable[[], datetime] = timezone.now,
    **kwargs: object,
) -> Callable[[], Awaitable[None]]:
    """The core's ``server_started`` receiver: :func:`tick` every ``interval`` seconds (default
    :data:`TICK_SECONDS`, waited with ``sleep``; each tick's time is ``clock()``) on the
    server's event loop (the core's ``run_every``), the database work on its worker threads;
    returns the coroutine function that stops it."""
    every = TICK_SECONDS if interval is None else interval
    return run_every(every, lambda: in_worker(tick)(clock()), name="queues: tick", sleep=sleep)


def tick(now: datetime | None = None) -> dict[str, int]:
    """Settle the queue tables whose no-show time is up (``services.settle_tables``), clear the
    expired invitations (``services.expire_invitations``), then run the wave of each queue that
    is due: its last wave (a :class:`~games.queues.models.Wave` row, kept in the database so a
    restart does not run every wave at once) :data:`WAVE_SECONDS` ago or more, or
    :data:`ENOUGH` players waiting.

    :returns: ``{"waves", "tables", "no_shows"}`` counts.
    """
    now = timezone.now() if now is None else now
    settled = services.settle_tables(now)
    services.expire_invitations(now)
    out = {"waves": 0, "tables": 0, "no_shows": settled["no_shows"]}
    last = {(w.players, w.move_seconds): w.ran_at for w in Wave.objects.all()}
    waiting = Entry.objects.values_list("players", "move_seconds").annotate(n=Count("pk"), pairs=Count("partner"))
    for players, move_seconds, n, pairs in waiting:
        since = last.get((players, move_seconds))
        if since is not None and (now - since).total_seconds() < WAVE_SECONDS and n + pairs < ENOUGH[players]:
            continue
        Wave.objects.update_or_create(players=players, move_seconds=move_seconds, defaults={"ran_at": now})
        out["waves"] += 1
        out["tables"] += len(services.wave(players, move_seconds, now))
    return out
