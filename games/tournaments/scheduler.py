"""What time alone changes in the events: :func:`tick`, called every :data:`TICK_SECONDS`.

Where it runs: with a shared channel layer (Redis) ``manage.py run_tournaments``, a process of its
own (``manage.py serve`` starts it, ``BASRA_SERVE_COMMANDS``); without one (``make run``), inside
the web server process, on its event loop (:func:`start_in_server`, the core's
``server_started`` signal), because the notices it sends (``games.tournaments.news``: "your table
is ready") reach only the sockets of the process that sends them.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from datetime import datetime

from django.db.models import Exists, OuterRef
from django.utils import timezone

from games.core.for_apps import in_worker, write_transaction
from games.tournaments.arena import arena_wave
from games.tournaments.checks import Format, lock, locked_pairing
from games.tournaments.errors import Code, TournamentError
from games.tournaments.models import AuditEntry, Entrant, Game, Pairing, Tournament
from games.tournaments.rounds import start
from games.tournaments.tables import finish_event, open_table, unfinished

logger = logging.getLogger(__name__)

#: Seconds between two ticks.
TICK_SECONDS = 5.0


def start_in_server(
    sender: object,
    *,
    in_process: bool,
    interval: float | None = None,
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    **kwargs: object,
) -> Callable[[], Awaitable[None]] | None:
    """The core's ``server_started`` receiver: without a shared channel layer (``in_process``),
    tick every ``interval`` seconds (default :data:`TICK_SECONDS`, waited with ``sleep``;
    tests give a virtual one) on the server's event loop, the database work on its worker
    threads; returns the coroutine function that stops it. With one, nothing
    (``run_tournaments`` ticks in its own process)."""
    if not in_process:
        return None
    every = TICK_SECONDS if interval is None else interval

    async def loop() -> None:
        while True:
            try:
                await in_worker(tick)()
            except Exception:  # noqa: BLE001 - a database hiccup must not stop the events
                logger.exception("tournaments: tick failed")
            await sleep(every)

    task = asyncio.get_running_loop().create_task(loop())

    async def stop() -> None:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)

    return stop


def tick(now: datetime | None = None) -> dict[str, int]:
    """What time alone changes: start the events whose time has come (cancel those with fewer
    than 2 entrants, in the audit trail by the site), end the arenas whose time is up once their last match ended, pair the
    running arenas' waiting players (one of them may have come free from another event's
    table, ``busy``), and open the tables not opened before (the core refused, or a player was
    engaged in another event), the pairing that has waited longest first. Run by ``manage.py
    run_tournaments`` (the core's clock never imports this app).

    :returns: counts ``{"started", "cancelled", "finished", "tables"}`` (``tables``: tables
        opened for pairings that waited, arena waves not counted).
    """
    now = timezone.now() if now is None else now
    counts = {"started": 0, "cancelled": 0, "finished": 0, "tables": 0}
    due = Tournament.objects.filter(status=Tournament.Status.UPCOMING, starts_at__lte=now)
    for tournament_id in due.values_list("pk", flat=True):
        try:
            start(user=None, tournament_id=tournament_id, now=now)
            counts["started"] += 1
        except TournamentError as error:
            if error.code == Code.TOO_FEW_ENTRANTS:
                with write_transaction():
                    t = lock(tournament_id)
                    if t.status == Tournament.Status.UPCOMING:
                        t.status = Tournament.Status.CANCELLED
                        t.finished_at = now
                        t.save(update_fields=["status", "finished_at"])
                        # By the site (no actor): the event page says why it was cancelled.
                        AuditEntry.objects.create(
                            tournament=t, actor=None, action=AuditEntry.Action.CANCEL,
                            details={"reason": Code.TOO_FEW_ENTRANTS.value,
                                     "entrants": t.entrants.filter(status=Entrant.Status.ACTIVE).count()},
                            created_at=now,
                        )
                        counts["cancelled"] += 1
    ended = Tournament.objects.filter(
        status=Tournament.Status.RUNNING, format=Format.ARENA, ends_at__lte=now
    )
    for tournament_id in ended.values_list("pk", flat=True):
        with write_transaction():
            t = lock(tournament_id)
            if t.status == Tournament.Status.RUNNING and not unfinished(t).exists():
                finish_event(t, now)
                counts["finished"] += 1
    arenas = Tournament.objects.filter(
        status=Tournament.Status.RUNNING, format=Format.ARENA, paused=False, ends_at__gt=now
    )
    for tournament_id in arenas.values_list("pk", flat=True):
        with write_transaction():
            t = lock(tournament_id)
            if t.status == Tournament.Status.RUNNING and not t.paused and now < t.ends_at:
                arena_wave(t, now)
    waiting = (
        Pairing.objects.filter(
            tournament__status=Tournament.Status.RUNNING, finished_at__isnull=True,
            b__isnull=False,
        )
        .exclude(Exists(Game.objects.filter(pairing=OuterRef("pk"), winner__isnull=True, aborted=False)))
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    for pairing_id in waiting:
        with write_transaction():
            t, p = locked_pairing(pairing_id)
            if p.finished or p.games.filter(winner__isnull=True, aborted=False).exists():
                continue
            if open_table(t, p, (p.games.count() or 0) + 1, now) is not None:
                counts["tables"] += 1
    return counts
