"""ASGI entry point: HTTP through Django, websockets through Channels.

Websocket connections are origin-checked (``basra_site.websocket.SameOriginValidator``: the
host must be allowed and the Origin must be the socket's own host and port) and carry the
session's user in ``scope["user"]`` (Channels' AuthMiddlewareStack, the user looked up on
the sockets' database worker threads: ``games.core.sockets.workers``).

Once the application is built, everything loaded so far (Django, the apps, the URL and
translation tables) is moved out of the garbage collector's sight with ``gc.freeze()`` (Python's
``gc`` docs): a full collection then scans only what the live tables created, and takes a few
tens of milliseconds instead of about a hundred, a pause every socket of the process waits
through (measured with bench/live.py at 200 tables).

From its start to its end a server process also runs :data:`serving`: the beat that tells the
table clock it is up (``games.core.sockets.beats.ServerBeat``), and, when ``BASRA_CLOCK_IN_SERVER`` (the
default without a shared channel layer, ``make run``), the table clock itself with its thinking
workers (``games.core.clock.clock.Runner``) on this process's event loop, so that its broadcasts reach the
sockets here; the apps built on the core hear ``games.core.signals.server_started`` and may run their
own work there too (the tournaments' scheduler: what follows a result, and without Redis its tick). Daphne imports this module after installing Twisted's asyncio reactor: the start
is hooked to the reactor (:func:`_hook_daphne`). Other ASGI servers (uvicorn) send the ASGI
lifespan events (:class:`Lifespan`).

Under daphne (started by ``manage.py serve`` or directly), SIGTERM and SIGINT stop the process
gracefully (:func:`_take_stop_signals`): the plays and requests in hand are finished and every
socket is closed with 1001 "going away" (``games.core.sockets.drain``, within
``BASRA_DRAIN_SECONDS``) before daphne stops. Daphne itself would stop at once: it sends no
lifespan events (daphne 4), and at the reactor's shutdown it cancels every application, so the
clients see their connection drop without a close frame.
"""

import asyncio
import gc
import logging
import os
import signal
import sys

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "basra_site.settings")
django_asgi_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from basra_site.websocket import SameOriginValidator  # noqa: E402
from games.core import fastpath  # noqa: E402
from games.core.sockets.auth import AuthMiddlewareStack  # noqa: E402
from games.core.sockets.drain import HttpInHand, drain  # noqa: E402
from games.core.sockets.routing import websocket_urlpatterns  # noqa: E402

logger = logging.getLogger(__name__)


class Serving:
    """What a server process runs besides its requests, from its start to its end."""

    def __init__(self) -> None:
        self.clock = None
        self.started = False
        self.stops: list = []

    def start(self) -> None:
        """Start the beat, and the clock if ``BASRA_CLOCK_IN_SERVER`` (on the event loop)."""
        from django.conf import settings

        from games.core.clock import clock
        from games.core.signals import server_started
        from games.core.sockets.beats import server_beat

        if self.started:
            return
        self.started = True
        server_beat.start()
        if settings.BASRA_CLOCK_IN_SERVER:
            # Every change of this process's tables is made here: they wake it (clock.run).
            self.clock = clock.Runner(interval=clock.IN_SERVER_INTERVAL, woken=True)
            self.clock.start()
        # The apps' own work in this process (the tournaments': what follows a result; the tick without Redis).
        answers = server_started.send(Serving, in_process=settings.BASRA_CLOCK_IN_SERVER)
        self.stops = [stop for _receiver, stop in answers if stop is not None]

    async def drain(self) -> None:
        """Finish the work in hand and close every socket with 1001, within
        ``BASRA_DRAIN_SECONDS`` (``games.core.sockets.drain``)."""
        from django.conf import settings

        await drain.run(settings.BASRA_DRAIN_SECONDS)

    async def stop(self) -> None:
        """Stop the apps' work, the clock and its workers (each after the tick in hand), then
        the beat."""
        from games.core.sockets.beats import server_beat

        stops, self.stops = self.stops, []
        for stop in stops:
            await stop()
        if self.clock is not None:
            await self.clock.stop()
            self.clock = None
        await server_beat.stop()
        self.started = False


#: The one of this process.
serving = Serving()


class Lifespan:
    """The ASGI lifespan protocol (uvicorn and other servers that send it): :data:`serving`
    starts with the server and stops with it."""

    async def __call__(self, scope: dict, receive, send) -> None:
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                try:
                    serving.start()
                except Exception as error:  # noqa: BLE001 - reported to the server, which stops
                    await send({"type": "lifespan.startup.failed", "message": str(error)})
                    return
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                await serving.stop()
                await send({"type": "lifespan.shutdown.complete"})
                return


def _hook_daphne() -> None:
    """Under daphne (its Twisted reactor installed, not yet running): start :data:`serving` once
    the reactor's asyncio loop runs, stop it before the reactor shuts down; take the stop
    signals (:func:`_take_stop_signals`) and let daphne close with 1001 once it runs. Elsewhere
    (tests, management commands: the reactor daphne's app installs never runs) nothing."""
    reactor = sys.modules.get("twisted.internet.reactor")
    if reactor is None or "daphne.server" not in sys.modules:
        return
    from twisted.internet.defer import Deferred

    # "startup" fires before the asyncio loop runs: start on the loop's first turn.
    reactor.callWhenRunning(lambda: reactor.callLater(0, serving.start))
    # After Twisted's own handlers, which ``reactor.run`` installs at its startup.
    reactor.callWhenRunning(_take_stop_signals, reactor)
    # The 1001 of that stop, which daphne refuses without it (games/core/fastpath.py, close).
    reactor.callWhenRunning(fastpath.let_daphne_go_away)
    reactor.addSystemEventTrigger(
        "before", "shutdown", lambda: Deferred.fromFuture(asyncio.ensure_future(serving.stop()))
    )


def _take_stop_signals(reactor) -> None:
    """Make SIGTERM and SIGINT stop daphne gracefully: its listening ports closed (Twisted's
    ``IListeningPort.stopListening``, each found among the reactor's readers), then
    :meth:`Serving.drain`, then ``reactor.stop()``.

    Twisted's handlers (installed by ``reactor.run``, daphne's default) call ``reactor.stop()``
    at once, and daphne's "before shutdown" trigger then cancels every application: no socket
    gets a close frame, and a play on the database thread loses its answer. So these replace
    them (``signal.signal``; Python runs the handler on the main thread, the reactor's), and,
    like Twisted's, hand the work to the reactor with ``callFromThread``. A further signal
    during the drain changes nothing: the drain is bounded (``BASRA_DRAIN_SECONDS``), and a
    Ctrl-C under ``manage.py serve`` reaches daphne twice (from the terminal and from serve).
    A SIGINT the process was started ignoring (a background job of a shell) stays ignored.
    ``tests/e2e/test_graceful_stop.py`` checks it on a real daphne.
    """
    from twisted.internet.interfaces import IListeningPort

    stopping = []

    def stop_gracefully() -> None:
        if stopping:
            return
        stopping.append(True)
        logger.info("stopping: finishing the work in hand, closing the sockets with 1001")
        # No new connection from now on: refused at once, a page's reconnect (and the proxy)
        # goes to another server instead of waiting for this one to finish.
        for reader in reactor.getReaders():
            if IListeningPort.providedBy(reader):
                reader.stopListening()

        def then_stop(_future) -> None:
            if reactor.running:
                reactor.stop()

        asyncio.ensure_future(serving.drain()).add_done_callback(then_stop)

    def asked(_signum, _frame) -> None:
        reactor.callFromThread(stop_gracefully)

    signal.signal(signal.SIGTERM, asked)
    if signal.getsignal(signal.SIGINT) is not signal.SIG_IGN:
        signal.signal(signal.SIGINT, asked)


application = ProtocolTypeRouter(
    {
        "http": HttpInHand(django_asgi_app),
        "websocket": SameOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
        "lifespan": Lifespan(),
    }
)
_hook_daphne()

# Long-lived from here on; see the module docstring.
gc.collect()
gc.freeze()
