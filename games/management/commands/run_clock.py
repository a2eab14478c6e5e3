"""``manage.py run_clock``: the process that enforces the table clocks (``games.clock``)."""

from __future__ import annotations

import logging
import signal
import threading

from django.core.management.base import BaseCommand
from django.db import DatabaseError, InterfaceError, connections
from django.utils import timezone

from games import clock

logger = logging.getLogger(__name__)


class Command(BaseCommand):
    help = (
        "Run the table clock: every --interval seconds, play for the seats whose time ran out "
        "and mark players who left as absent. Safe to stop and restart at any moment: the "
        "deadlines are in the database."
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
        if not once:
            self.stdout.write(f"Table clock running (every {interval:g} s); Ctrl-C to stop.")
        while not stop.is_set():
            try:
                clock.tick(now=timezone.now())
            except (DatabaseError, InterfaceError):
                # The database may be restarting: drop the connection, try again next tick.
                logger.exception("clock: database error")
                connections.close_all()
            if once:
                break
            stop.wait(interval)
