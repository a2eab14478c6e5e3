"""``manage.py run_tournaments``: the tournaments' scheduler (``services.tick``), a process of its
own because the core's clock never imports the apps built on it."""

from __future__ import annotations

import time

from django.core.management.base import BaseCommand
from django.db import DatabaseError, close_old_connections, connection

from games.core.for_apps import DATABASE_UNAVAILABLE, keeping_connection
from games.tournaments import services


class Command(BaseCommand):
    help = (
        "Every --interval seconds: start the tournaments whose time has come (cancel those with "
        "fewer than two entrants), end the arenas whose time is up once their last match ended, "
        "pair the rounds and waves results completed that no server followed up yet, and open "
        "the tables not opened before. Safe to stop and restart at any moment."
    )

    def add_arguments(self, parser):
        parser.add_argument("--interval", type=float, default=5.0, help="seconds between ticks (default 5)")
        parser.add_argument("--once", action="store_true", help="tick once and exit")

    def handle(self, *args, interval: float, once: bool, **options):
        while True:
            if not connection.in_atomic_block:  # a test's transaction: keep its connection
                close_old_connections()
            try:
                counts = keeping_connection(services.tick)
            except DATABASE_UNAVAILABLE:
                pass  # the database is down: one WARNING per outage, one INFO once it is back
            except DatabaseError as error:
                self.stderr.write(f"tick failed: {error}")
            else:
                if any(counts.values()) or once:
                    self.stdout.write(" ".join(f"{k}={v}" for k, v in counts.items()))
            if once:
                return
            time.sleep(interval)
