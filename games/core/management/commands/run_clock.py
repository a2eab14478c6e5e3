"""``manage.py run_clock``: the process that enforces the table clocks (``games.core.clock.clock``)."""

from __future__ import annotations

import asyncio
import logging
import signal

from django.conf import settings
from django.core.management.base import BaseCommand
from django.db import DatabaseError, InterfaceError, connections
from django.utils import timezone

from games.core.clock import clock
from games.core.state import liveness

logger = logging.getLogger(__name__)


class Command(BaseCommand):
    help = (
        "Run the table clock: every --interval seconds (sooner when a deadline comes first), "
        "play for the seats whose time ran out and mark players who left as absent; the "
        "computer seats think in --workers processes of its own. Safe to stop and restart at "
        "any moment: the deadlines are in the database, and a tick after a stop gives the tables "
        "the time the clock was not running back (no timeouts, no absences for it)."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--interval", type=float, default=0.25, help="seconds between ticks (default 0.25)"
        )
        parser.add_argument(
            "--workers", type=int, default=None,
            help="thinking processes for the computer seats (default BASRA_BOT_WORKERS, else "
                 "one per core; 0: the bots think in the tick)",
        )
        parser.add_argument("--once", action="store_true", help="tick once and exit")

    def handle(self, *args, interval: float, workers: int | None, once: bool, **options):
        if once:
            # One tick, the bots thinking within it.
            try:
                # A clock run from cron was not running between two runs: not an outage.
                now = timezone.now()
                clock.tick(now=now, since=now)
            except (DatabaseError, InterfaceError):
                logger.exception("clock: database error")
                connections.close_all()
            return
        if not settings.BASRA_SHARED_LAYER:
            self.stderr.write(
                "No shared channel layer (REDIS_URL): this clock's changes reach no web "
                "server's sockets until they read the table again. `manage.py serve` runs the "
                "clock inside daphne instead."
            )
        self.stdout.write(f"Table clock running (every {interval:g} s); Ctrl-C to stop.")
        asyncio.run(self._run(interval, workers))

    async def _run(self, interval: float, workers: int | None) -> None:
        runner = clock.Runner(interval=interval, workers=workers)
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(signum, stop.set)
        runner.start()
        try:
            await stop.wait()
            self.stdout.write("Stopping the table clock after the tick in hand.")
        finally:
            await runner.stop()
