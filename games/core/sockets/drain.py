"""A server process's graceful stop: what it has in hand is finished, then every socket is closed
with 1001 "going away" (RFC 6455 7.4.1), so that the pages reconnect at once (to another server
behind the proxy, or to this one started again) instead of learning of the stop from their own
timeouts.

:data:`drain` is the process's one. Every socket (``JsonSocket``: table, lobby and notice
sockets) is in it from its start to its end, and every HTTP request while it runs
(:class:`HttpInHand`). :meth:`Drain.run` (``basra_site.asgi``, on SIGTERM or SIGINT):

1. From then on the process takes no new work from its sockets: a frame that arrives is
   dropped unread (``JsonSocket._read``), and a socket that opens is refused at its handshake
   (HTTP 403: the page then retries with its backoff). Under daphne the process has stopped
   listening just before (``basra_site.asgi``): a new connection is refused at once, and the
   proxy sends it to another server.
2. Each open socket is told to go away (``server.going_away``, behind the messages it has
   already taken in): the frame it is handling (a play on the database thread) and those
   received before are handled to their end and answered; then it closes with
   :data:`CLOSE_GOING_AWAY` and, when its client answers the close, takes itself down as after
   any close (a seat's grace before "absent" counts from then).
3. It waits for those sockets to end and the HTTP requests in hand to be answered, then for the
   broadcasts they made to be sent (``broadcast.flush``), all within ``seconds``
   (``BASRA_DRAIN_SECONDS``); the server then stops, ending whatever is left.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any, Protocol

from games.core.state import broadcast

logger = logging.getLogger(__name__)

#: The close code of every socket at a graceful stop: "going away" (RFC 6455 7.4.1, a server
#: going down). The pages reconnect at once on it (``static/games/live.js``).
CLOSE_GOING_AWAY = 1001


class Draining(Protocol):
    """What the drain asks of a socket."""

    #: Set when the socket's consumer has ended (``JsonSocket.__call__``).
    finished: asyncio.Future

    def go_away(self) -> None:
        """Close with :data:`CLOSE_GOING_AWAY` after the messages already taken in."""


class Drain:
    """The sockets and HTTP requests of this process, and its graceful stop (see the module)."""

    def __init__(self) -> None:
        self.sockets: set[Draining] = set()
        self.requests: set[asyncio.Future] = set()
        #: The stop has begun: no new work is taken.
        self.draining = False

    async def run(self, seconds: float) -> int:
        """Finish what is in hand and close every socket with :data:`CLOSE_GOING_AWAY`, waiting
        ``seconds`` at most (from the call, on the running loop's clock); the number of sockets
        and requests still open at the end (0: all done)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + max(0.0, seconds)
        self.draining = True
        # This loop's (a server has one; each test has its own).
        sockets = [s for s in list(self.sockets) if s.finished.get_loop() is loop]
        for socket in sockets:
            socket.go_away()
        requests = {r for r in self.requests if r.get_loop() is loop}
        waiting = {socket.finished for socket in sockets} | requests
        left: set[Any] = set()
        if waiting:
            _done, left = await asyncio.wait(waiting, timeout=max(0.0, deadline - loop.time()))
        await broadcast.flush(max(0.0, deadline - loop.time()))
        logger.info(
            "graceful stop: %d socket(s) closed with 1001 and %d request(s) in hand; %d not done "
            "within %g s", len(sockets), len(waiting) - len(sockets), len(left), seconds,
        )
        return len(left)


#: The one of this process.
drain = Drain()


class HttpInHand:
    """An ASGI application around the site's HTTP one that keeps each request in :data:`drain`
    while it runs, so that a graceful stop lets the request in hand (a table created, a seat
    taken) be answered before the server stops."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        done = asyncio.get_running_loop().create_future()
        drain.requests.add(done)
        try:
            await self.app(scope, receive, send)
        finally:
            drain.requests.discard(done)
            done.set_result(None)
