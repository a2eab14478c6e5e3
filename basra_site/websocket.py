"""Websocket origin check: the page that opens a socket must come from the socket's own origin.

(What the servers raise when a socket's client has gone is the sockets' own:
``games.core.sockets.base.SEND_ON_CLOSED``.)"""

from __future__ import annotations

from urllib.parse import urlsplit

from channels.security.websocket import AllowedHostsOriginValidator, WebsocketDenier


class SameOriginValidator:
    """Refuse a websocket handshake whose ``Origin`` is not the socket's own ``Host``.

    Channels' ``AllowedHostsOriginValidator`` (which this wraps) compares the Origin's host name
    with ``ALLOWED_HOSTS`` but ignores its port, so a page served by any other program on the same
    host (``http://localhost:9999``) could open a socket with the player's cookie, which browsers
    share across ports. Here the Origin's ``host[:port]`` must equal the handshake's ``Host``
    header too (a reverse proxy must pass the Host on). A refused handshake is answered with
    HTTP 403.
    """

    def __init__(self, application) -> None:
        self.application = AllowedHostsOriginValidator(application)

    async def __call__(self, scope, receive, send):
        if scope["type"] == "websocket":
            headers = dict(scope.get("headers", ()))
            origin = headers.get(b"origin", b"").decode("latin-1").rstrip("/")
            host = headers.get(b"host", b"").decode("latin-1")
            if origin and urlsplit(origin).netloc.lower() != host.lower():
                return await WebsocketDenier()(scope, receive, send)
        return await self.application(scope, receive, send)

