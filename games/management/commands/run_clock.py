"""``manage.py run_clock``: the process that enforces the table clocks (``games.clock``)."""

from __future__ import annotations

import logging
import signal
import threading
from datetime import timedelta

from django.core.management.base import BaseCommand
from django.db import DatabaseError, InterfaceError, connections
from django.utils import timezone

from games import clock, liveness

logger = logging.getLogger(__name__)


class Command(BaseCommand):
    help = (
        "Run the table clock: every --interval seconds, play for the seats whose time ran out "
        "and mark players who left as absent. Safe to stop and restart at any moment: the "
        "deadlines are in the database, and a tick after a stop gives the tables the time the "
        "clock was not running back (no timeouts, no absences for it)."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--interval", type=float, default=0.25, help="seconds between ticks (default 0.25)"
        )
        parser.add_argument("--once", action="store_true", help="tick once and exit")

    def handle(self, *args, interval: float, once: bool, **options):
        stop = threading.Event()

        def request_stop(signum, frame):
            stop.set()

        signal.signal(signal.SIGTERM, request_stop)
        signal.signal(signal.SIGINT, request_stop)
        # A gap of a few intervals is this process's own pace, never an outage.
        outage = max(liveness.outage_after(), timedelta(seconds=4 * interval))
        if not once:
            self.stdout.write(f"Table clock running (every {interval:g} s); Ctrl-C to stop.")
        while not stop.is_set():
            try:
                clock.tick(now=timezone.now(), outage=outage)
            except (DatabaseError, InterfaceError):
                # The database may be restarting: drop the connection, try again next tick.
                logger.exception("clock: database error")
                connections.close_all()
            if once:
                break
            stop.wait(interval)
