"""``manage.py run_tournaments``: the tournaments' scheduler (``services.tick``), a process of its
own because the core's clock never imports the apps built on it."""

from __future__ import annotations

import contextlib
import select
import signal
import socket
from collections.abc import Iterator

from django.core.management.base import BaseCommand
from django.db import DatabaseError, close_old_connections, connection

from games.core.for_apps import DATABASE_UNAVAILABLE, keeping_connection
from games.tournaments import services


class Command(BaseCommand):
    help = (
        "Every --interval seconds: start the tournaments whose time has come (cancel those with "
        "fewer than two entrants), end the arenas whose time is up once their last match ended, "
        "pair the rounds and waves results completed that no server followed up yet, and open "
        "the tables not opened before. Safe to stop and restart at any moment; SIGTERM or "
        "SIGINT stops it after the tick in hand."
    )

    def add_arguments(self, parser):
        parser.add_argument("--interval", type=float, default=5.0, help="seconds between ticks (default 5)")
        parser.add_argument("--once", action="store_true", help="tick once and exit")

    def handle(self, *args, interval: float, once: bool, **options):
        if once:
            self._tick(once=True)
            return
        with stop_signals() as stop:
            while True:
                self._tick(once=False)
                if stop.asked or stop.wait(interval):
                    break
        self.stdout.write("Tournaments' scheduler stopped after its tick.")

    def _tick(self, *, once: bool) -> None:
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


class StopSignals:
    """SIGTERM and SIGINT noted (:attr:`asked`) instead of ending the process where it stands,
    so that a tick in hand (a round being paired, tables being opened) ends first; and a wait
    between ticks that a signal ends at once (:meth:`wait`)."""

    def __init__(self, wake: socket.socket) -> None:
        self.asked = False
        self._wake = wake

    def note(self, _signum: int, _frame: object) -> None:
        self.asked = True

    def wait(self, seconds: float) -> bool:
        """Wait ``seconds``, or less if a stop is asked; whether one was."""
        if not self.asked:
            # Python writes the signal's number to the wake-up socket (``signal.set_wakeup_fd``),
            # so a signal that comes during the select ends it.
            select.select([self._wake], [], [], seconds)
        return self.asked


@contextlib.contextmanager
def stop_signals() -> Iterator[StopSignals]:
    """:class:`StopSignals` for SIGTERM and SIGINT while the block runs (in the main thread);
    the handlers and wake-up descriptor before it are put back after. A SIGINT the process was
    started ignoring (a background job) stays ignored."""
    reader, writer = socket.socketpair()
    writer.setblocking(False)
    stop = StopSignals(reader)
    taken = [signal.SIGTERM]
    if signal.getsignal(signal.SIGINT) is not signal.SIG_IGN:
        taken.append(signal.SIGINT)
    before = {signum: signal.signal(signum, stop.note) for signum in taken}
    wakeup = signal.set_wakeup_fd(writer.fileno())
    try:
        yield stop
    finally:
        signal.set_wakeup_fd(wakeup)
        for signum, handler in before.items():
            signal.signal(signum, handler)
        reader.close()
        writer.close()
