"""What time alone changes in the events: :func:`tick`, called every :data:`TICK_SECONDS`; and
what follows a result, after its commit: :func:`catch_up` (``games.tournaments.follow``).

Where the tick runs: with a shared channel layer (Redis) ``manage.py run_tournaments``, a process of its
own (``manage.py serve`` starts it, ``BASRA_SERVE_COMMANDS``); without one (``make run``), inside
the web server process, on its event loop (:func:`start_in_server`, the core's
``server_started`` signal), because the notices it sends (``games.tournaments.news``: "your table
is ready") reach only the sockets of the process that sends them. :func:`catch_up` for an
event runs in the server process whose ending woke it (:func:`start_in_server`, on a thread of
its own), and for every event in each tick.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime

from django.conf import settings
from django.db import connection, connections
from django.db.models import Exists, OuterRef
from django.utils import timezone

from games.core.for_apps import (
    BROADCAST_LOOP, DATABASE_UNAVAILABLE, in_worker, keeping_connection, run_every,
    write_transaction,
)
from games.tournaments import follow, noshow
from games.tournaments.checks import Format, lock, locked_pairing
from games.tournaments.errors import Code, TournamentError
from games.tournaments.models import AuditEntry, Entrant, Game, Pairing, Tournament
from games.tournaments.rounds import after_result, start
from games.tournaments.tables import open_table

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
) -> Callable[[], Awaitable[None]]:
    """The core's ``server_started`` receiver: run the scheduler's work in this server process,
    on its event loop, the database work on a thread of the scheduler's own (on PostgreSQL; not
    the sockets' database threads, ``games.core.sockets.workers``, so a finishing play's state
    does not wait behind the next round's tables), its broadcasts sent on the server's loop.

    In every server process: what follows a result (:func:`catch_up` for its event), woken on
    the commit of each ending, organiser's forfeit, withdrawal or resumption
    (``follow.wake``; the waker is installed here). Without a shared channel layer
    (``in_process``) also :func:`tick` every ``interval`` seconds (the core's ``run_every``; default
    :data:`TICK_SECONDS`, waited with ``sleep``; tests give a virtual one); with one,
    ``run_tournaments`` ticks in its own process. On SQLite the work keeps the sockets' one
    database thread (``in_worker``): SQLite has one writer at a time.

    :returns: the coroutine function that stops it, after the follow-up and the tick in hand
        (each waited for ``BASRA_DRAIN_SECONDS`` at most): the waker uninstalled, the thread
        ended.
    """
    every = TICK_SECONDS if interval is None else interval
    loop = asyncio.get_running_loop()
    woken = asyncio.Event()
    events: set[int] = set()
    executor = None
    if connection.vendor != "sqlite":
        executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="basra-tournaments")
    # Its broadcasts (the notices of the tables it opens) are sent on this loop, as a socket's
    # worker call's are: with the in-memory channel layer only this process's sockets hear them.
    context = contextvars.copy_context()
    context.run(BROADCAST_LOOP.set, loop)

    async def run(function: Callable[..., object], *args: object) -> None:
        try:
            if executor is None:
                await in_worker(function)(*args)
            else:
                await loop.run_in_executor(executor, context.copy().run, keeping_connection, function, *args)
        except DATABASE_UNAVAILABLE:
            # The database is down or restarting: logged once per outage (and once when it is
            # back) where the call met it; the next tick (or result) tries again.
            pass
        except Exception:  # noqa: BLE001 - a bug of one run must not stop the events
            logger.exception("tournaments: %s failed", getattr(function, "__name__", function))

    def waker(tournament_id: int) -> None:  # any thread, after a commit
        try:
            loop.call_soon_threadsafe(_woken, tournament_id)
        except RuntimeError:
            pass  # the loop has closed (the server is stopping): the next tick does it

    def _woken(tournament_id: int) -> None:
        events.add(tournament_id)
        woken.set()

    idle = asyncio.Event()  # no result is being followed up
    idle.set()
    stopping = []

    async def follow_results() -> None:
        while not stopping:
            await woken.wait()
            woken.clear()
            batch = sorted(events)
            events.clear()
            idle.clear()
            try:
                for tournament_id in batch:
                    await run(catch_up, tournament_id)
            finally:
                idle.set()

    tasks = [loop.create_task(follow_results())]
    stop_ticks = run_every(every, lambda: run(tick), name="tournaments: tick", sleep=sleep) if in_process else None
    previous = follow.install(waker)

    async def stop() -> None:
        current = follow.install(previous)
        if current is not waker:
            follow.install(current)  # another start replaced ours since: it stays
        # What follows a result, in hand (a round being paired): finished first, as the tick.
        stopping.append(True)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(idle.wait(), settings.BASRA_DRAIN_SECONDS)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        if stop_ticks is not None:
            await stop_ticks()  # after the tick in hand
        if executor is not None:
            executor.submit(connections.close_all)  # the thread's connection back to the pool
            executor.shutdown(wait=False)

    return stop


def catch_up(tournament_id: int | None = None, now: datetime | None = None) -> dict[str, int]:
    """What follows the results of running events (of ``tournament_id`` alone when given),
    decided from the stored rows, so it is idempotent: run twice, it opens nothing twice.

    For each event, in a transaction of its own under the event's lock
    (``rounds.after_result``): the current round's end and the next round once every pairing of
    it has a result (unless paused; the event's end after its last round), or the arena's next
    wave (its end once its time is up and its last match ended). Then each pairing without a
    result and without a table being played gets its next table (``tables.open_table``, a
    transaction each): the next match of a best-of-3 pairing, an aborted match set up again, a
    table the core refused or that waited for a player engaged elsewhere, the pairing that has
    waited longest first.

    Run after the commit of a result (``follow.wake``) and by every :func:`tick`, which thereby
    finishes what a process stopped between an ending's commit and this step left undone.

    :returns: counts ``{"finished", "tables"}``: events finished, and tables opened for pairings
        that waited (those of a new round or arena wave not counted).
    """
    now = timezone.now() if now is None else now
    counts = {"finished": 0, "tables": 0}
    running = Tournament.objects.filter(status=Tournament.Status.RUNNING)
    if tournament_id is not None:
        running = running.filter(pk=tournament_id)
    for pk, fmt, current in running.values_list("pk", "format", "current_round"):
        if fmt != Format.ARENA and Pairing.objects.filter(
            tournament_id=pk, round__number=current, finished_at__isnull=True
        ).exists():
            continue  # the round goes on: nothing to lock for
        with write_transaction():
            t = lock(pk)
            after_result(t, now)
            if t.status == Tournament.Status.FINISHED:
                counts["finished"] += 1
    waiting = (
        Pairing.objects.filter(
            tournament__status=Tournament.Status.RUNNING, finished_at__isnull=True,
            b__isnull=False,
        )
        .exclude(Exists(Game.objects.filter(pairing=OuterRef("pk"), winner__isnull=True, aborted=False)))
        .order_by("pk")
    )
    if tournament_id is not None:
        waiting = waiting.filter(tournament_id=tournament_id)
    for pairing_id in waiting.values_list("pk", flat=True):
        with write_transaction():
            t, p = locked_pairing(pairing_id)
            if (t.status != Tournament.Status.RUNNING or p.finished
                    or p.games.filter(winner__isnull=True, aborted=False).exists()):
                continue
            if open_table(t, p, p.games.count() + 1, now) is not None:
                counts["tables"] += 1
    return counts


def tick(now: datetime | None = None) -> dict[str, int]:
    """What time alone changes: start the events whose time has come (cancel those with fewer
    than 2 entrants, in the audit trail by the site), then :func:`catch_up` for every running
    event: end the arenas whose time is up once their last match ended, pair the running
    arenas' waiting players (one of them may have come free from another event's table,
    ``busy``), decide by default the pairings a side of which did not come to its table
    (``noshow.decide_no_shows``: the wait, ``noshow.wait``, is over), pair a round that a result completed if nobody did yet (a process stopped
    between the ending's commit and the step after it), and open the tables not opened before
    (a best-of-3 pairing's next match, an aborted match set up again, a table the core refused,
    a player engaged in another event), the pairing that has waited longest first. Run by
    ``manage.py run_tournaments`` (the core's clock never imports this app), or in the server
    (:func:`start_in_server`).

    :returns: counts ``{"started", "cancelled", "defaults", "finished", "tables"}``
        (``defaults``: pairings decided against a no-show; ``finished``: events ended; ``tables``: tables opened for pairings that waited, new rounds and arena waves
        not counted).
    """
    now = timezone.now() if now is None else now
    counts = {"started": 0, "cancelled": 0, "defaults": 0, "finished": 0, "tables": 0}
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
    counts["defaults"] = noshow.decide_no_shows(now)
    caught = catch_up(now=now)
    counts["finished"] = caught["finished"]
    counts["tables"] = caught["tables"]
    return counts
