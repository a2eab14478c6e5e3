"""``manage.py serve``: the site (daphne), the table clock and the apps' schedulers as one service."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

from django.conf import settings
from django.core.management.base import BaseCommand


def daphne_command(host: str, port: int) -> list[str]:
    """The command line ``serve`` starts daphne with (:func:`daphne_arguments`, with
    ``BASRA_TRUSTED_PROXY_COUNT``)."""
    daphne = os.path.join(os.path.dirname(sys.executable), "daphne")
    return [daphne, *daphne_arguments(host, port, settings.BASRA_TRUSTED_PROXY_COUNT)]


def daphne_arguments(host: str, port: int, trusted_proxies: int) -> list[str]:
    """daphne's arguments: bound to ``host``:``port`` (the README's servers listen on loopback,
    behind the proxy), serving the site. With ``trusted_proxies`` above 0, ``--proxy-headers``:
    daphne then takes the client's address (``scope["client"]``, Django's ``REMOTE_ADDR``) from
    X-Forwarded-For's leftmost entry, which is the real client's only because the README's
    proxy overwrites that header. With 0 (``make run``), no proxy is trusted and a client's
    X-Forwarded-For is ignored: the peer is the client.
    """
    proxy = ["--proxy-headers"] if trusted_proxies > 0 else []
    return ["-b", host, "-p", str(port), *proxy, "basra_site.asgi:application"]


class Command(BaseCommand):
    """Start daphne and the table clock and keep them together.

    Without a shared channel layer (``BASRA_CLOCK_IN_SERVER``, the default without
    ``REDIS_URL``: ``make run``) the clock and its thinking workers run inside daphne's process
    (``basra_site.asgi``), the only place its broadcasts reach the sockets from; with Redis,
    ``run_clock`` runs next to daphne. Next to them run the management commands named in
    ``BASRA_SERVE_COMMANDS`` (by name: the core never imports the apps that define them; by
    default the tournaments' scheduler, ``run_tournaments``, so that ``make run`` starts events
    on time). Any one stopping stops the others; SIGINT, SIGTERM or SIGHUP to this process stops
    them all; and so does the death of the process that started it (``make
    run`` killed by its PID), which is noticed within a second because this process is then
    re-parented.

    They are stopped with SIGTERM, which each takes as a graceful stop: daphne finishes the
    plays in hand and closes every socket with 1001 (``basra_site.asgi``), the clock and the
    scheduler finish their tick in hand; each is given ``BASRA_DRAIN_SECONDS`` and 10 s more
    (its start-up, its own stop) before it is killed.
    """

    help = (
        "Serve the site with daphne and run the table clock in it (or next to it, with Redis), "
        "and the commands of BASRA_SERVE_COMMANDS (the tournaments' scheduler) next to it."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("--host", default="127.0.0.1")
        parser.add_argument("--port", type=int, default=8000)

    def handle(self, *args, host: str, port: int, **options) -> None:
        manage = [sys.executable, os.path.abspath(sys.argv[0])]
        children = [subprocess.Popen(daphne_command(host, port))]
        if not settings.BASRA_CLOCK_IN_SERVER:
            children.append(subprocess.Popen([*manage, "run_clock"]))
        for command in getattr(settings, "BASRA_SERVE_COMMANDS", ()):
            children.append(subprocess.Popen([*manage, command]))
        stop = []
        for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            signal.signal(signum, lambda number, _frame: stop.append(number))
        parent = os.getppid()
        try:
            while not stop and os.getppid() == parent:
                if any(child.poll() is not None for child in children):
                    break
                time.sleep(0.5)
        finally:
            for child in children:
                if child.poll() is None:
                    child.terminate()
            deadline = time.monotonic() + settings.BASRA_DRAIN_SECONDS + 10
            for child in children:
                try:
                    child.wait(timeout=max(0.1, deadline - time.monotonic()))
                except subprocess.TimeoutExpired:
                    child.kill()
        failed = [child.returncode for child in children if child.returncode not in (0, None, -15, -2)]
        if failed and not stop:
            raise SystemExit(failed[0])
