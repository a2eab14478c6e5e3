"""The websocket base every socket of the site is built on.

``JsonSocket``: JSON frames, a per-socket rate limit (``BASRA_SOCKET_BURST``/``RATE``), frames of
a closed socket dropped, a send to a gone client turned into its own disconnect; and the
socket's language. The table, lobby and notice sockets (``games.core.sockets.table``,
``.lobby``, ``.notices``) subclass ``JsonSocket``; the handshake's session and user are
``games.core.sockets.auth``'s, the process's beats ``games.core.sockets.beats``'.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import ipaddress
import json
import logging
import math
import uuid
import weakref
from typing import Any

from autobahn.exception import Disconnected
from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.layers import get_channel_layer
from django.conf import settings
from django.http import HttpRequest
from django.utils import translation

from games.core import errors, fastpath
from games.core.sockets.beats import server_beat
from games.core.sockets.drain import CLOSE_GOING_AWAY, drain
from games.core.state import broadcast, online, outages

logger = logging.getLogger(__name__)

#: What an ASGI server's ``send`` raises for a socket whose client has gone: the ``OSError`` the
#: ASGI websocket spec asks servers to raise on a closed connection (uvicorn's
#: ``ClientDisconnected`` is one), and daphne's, autobahn's ``Disconnected`` ("Attempt to send on
#: a closed protocol", a ``RuntimeError``), raised while the client's close is under way, before
#: daphne has queued the ``websocket.disconnect``. :class:`JsonSocket` takes either for the
#: socket having closed.
SEND_ON_CLOSED: tuple[type[Exception], ...] = (OSError, Disconnected)

#: The code of the ``websocket.disconnect`` a socket gives itself when a send finds its client
#: gone (RFC 6455 7.4.1: 1006, closed without a close frame).
CLOSE_ABNORMAL = 1006

#: The close code of a socket over its owner's limit (4429: HTTP 429 in the private range).
CLOSE_TOO_MANY = 4429

#: This process's open sockets by owner (:func:`socket_owner`).
_OPEN: collections.Counter[str] = collections.Counter()

#: The channel-layer alias a socket gives Channels when the layer failed to open its channel
#: (``JsonSocket.__call__``): none is configured by that name, so Channels runs the socket
#: without a layer, and the socket opens its channel itself once the layer works
#: (``JsonSocket._open_channel``).
NO_LAYER_ALIAS = "basra.sockets-without-a-layer"

#: The sockets that could not open their channel or join a group because the channel layer
#: failed: each tries again when it works again (:func:`_layer_back`).
_WAITING: weakref.WeakSet[JsonSocket] = weakref.WeakSet()


def _layer_back() -> None:
    """The channel layer works again (``broadcast.when_back``; any thread): each socket of
    :data:`_WAITING` is sent ``{"type": "layer.back"}``, handled in order with its other
    messages (``JsonSocket.layer_back``)."""
    for socket in list(_WAITING):
        with contextlib.suppress(RuntimeError):  # its loop has closed: the socket has ended
            socket.loop.call_soon_threadsafe(socket.inbox.put_nowait, {"type": "layer.back"})


broadcast.when_back(_layer_back)


def client_address(scope: dict) -> str:
    """The client's IP address (a string; ``"?"`` when the server gave none), the one every
    per-address limit counts by.

    With ``BASRA_TRUSTED_PROXY_COUNT`` = N above 0: the Nth entry from the right of the
    handshake's X-Forwarded-For, allauth's rule for ``ALLAUTH_TRUSTED_PROXY_COUNT`` (which the
    settings set from the same count), so that the socket cap and allauth's sign-up and log-in
    limits count the same visitor; behind the README's proxy, which overwrites the header, that
    is also what daphne's ``--proxy-headers`` puts in ``scope["client"]``. A header with fewer
    entries than N (or none) was not written by the proxies: the peer (``scope["client"]``).
    With 0 (no proxy), the peer, whatever X-Forwarded-For a client sends.
    """
    count = settings.BASRA_TRUSTED_PROXY_COUNT
    if count > 0:
        entries = [
            entry
            for name, value in scope.get("headers") or ()
            if name.lower() == b"x-forwarded-for"
            for entry in value.decode("latin-1").split(",")
        ]
        if len(entries) >= count:
            return _clean_address(entries[-count])
    client = scope.get("client") or ("?",)
    return _clean_address(str(client[0]))


def _clean_address(text: str) -> str:
    """An address as :mod:`ipaddress` writes it (one spelling per address), or the text stripped."""
    text = text.strip()
    try:
        return str(ipaddress.ip_address(text))
    except ValueError:
        return text


def socket_owner(scope: dict) -> str:
    """Whose socket this is, for :data:`_OPEN`'s count: the signed-in user (``"user:<id>"``),
    else the session (``"session:<key>"``), else the client's address (``"address:<ip>"``,
    :func:`client_address`: behind a trusted proxy the real visitor's, not the proxy's)."""
    user = scope.get("user")
    if user is not None and getattr(user, "is_authenticated", False):
        return f"user:{user.pk}"
    key = getattr(scope.get("session"), "session_key", None)
    if key:
        return f"session:{key}"
    return f"address:{client_address(scope)}"


def socket_cap(owner: str) -> float:
    """How many sockets ``owner`` (:func:`socket_owner`) may have open in this process:
    ``BASRA_SOCKETS_PER_OWNER`` (default 20), or no cap (``math.inf``) for the loopback
    address on a developer's machine (``DEBUG`` on, no trusted proxy: ``make run``).

    Why that exemption: there every anonymous browser is the developer's own, from 127.0.0.1,
    and a 25-spectator table tried locally was refused at the 21st. It needs ``DEBUG``: a
    production site behind a proxy it was not told of (``BASRA_TRUSTED_PROXY_COUNT`` left at 0)
    sees every visitor as the proxy's loopback address too, and there the cap stays, shared.
    """
    if settings.DEBUG and settings.BASRA_TRUSTED_PROXY_COUNT == 0 and owner.startswith("address:"):
        with contextlib.suppress(ValueError):
            if ipaddress.ip_address(owner.removeprefix("address:")).is_loopback:
                return math.inf
    return settings.BASRA_SOCKETS_PER_OWNER


def scope_language(scope: dict) -> str:
    """The language a socket's messages are written in: the language cookie, else Accept-Language.

    The same choice ``LocaleMiddleware`` makes for a page (Django's
    ``get_language_from_request``), from the handshake's cookies and headers.
    """
    request = HttpRequest()
    request.COOKIES = dict(scope.get("cookies") or {})
    for name, value in scope.get("headers") or ():
        if name.lower() == b"accept-language":
            request.META["HTTP_ACCEPT_LANGUAGE"] = value.decode("latin-1")
    return translation.get_language_from_request(request)



def rate_clock() -> float:
    """The time a socket's rate limit is measured on (seconds): the running event loop's. Tests
    put a virtual clock here, so that tokens come back when the test moves time on, and a burst
    stays a burst however slow the machine."""
    return asyncio.get_running_loop().time()


class TokenBucket:
    """A socket's rate limit: ``burst`` frames at once, then ``rate`` a second (a token bucket:
    it holds up to ``burst`` tokens, gains ``rate`` a second, and a frame takes one).

    aiolimiter's ``AsyncLimiter`` meters the same way, but reads the loop's time itself (a test
    cannot move it without its private ``_leak``) and is built to make callers wait on the
    loop's timers, which a socket never does: a frame over the limit is dropped, not delayed.
    """

    __slots__ = ("burst", "rate", "_tokens", "_at")

    def __init__(self, burst: int, rate: float) -> None:
        self.burst, self.rate = float(burst), float(rate)
        self._tokens = self.burst
        self._at: float | None = None

    def take(self, now: float) -> bool:
        """Take a token at ``now`` (seconds, :func:`rate_clock`): ``True`` if there was one."""
        if self._at is not None:
            self._tokens = min(self.burst, self._tokens + max(0.0, now - self._at) * self.rate)
        self._at = now
        if self._tokens >= 1:
            self._tokens -= 1
            return True
        return False



class JsonSocket(AsyncWebsocketConsumer):
    """Frames in and out as JSON objects; malformed frames get a ``bad_json`` error.

    Channels' consumers call ``close_old_connections`` on its one shared sync thread before every
    message they handle (each frame and each group message) and after a disconnect. These
    consumers touch the database only through ``games.core.sockets.workers``, whose threads look
    after their own connections (``in_worker``), so that hop would close nothing and only queue
    every socket's messages behind one thread: on the fast path (``games.core.fastpath``,
    ``dispatch``) :meth:`dispatch` and :meth:`websocket_disconnect` leave it out.

    A socket takes the messages its server queues for it as they arrive (:meth:`__call__`), and
    handles them in order. So it knows at once when its client has gone: ``gone`` is set, the
    frames still waiting behind the one being handled are dropped unread, and so is the tables'
    news; the socket's own sends are then dropped too. A send that finds the client gone
    (:data:`SEND_ON_CLOSED`, raised by the server before it queues the
    disconnect) counts the same: the socket queues itself a ``websocket.disconnect``
    (:data:`CLOSE_ABNORMAL`), so every ending goes through :meth:`websocket_disconnect`, once.

    Frames are also counted against a rate limit as they arrive (:meth:`_admit`).

    Channels opens the socket's channel before anything else, and a failure there ended the
    socket (with Redis down, every handshake failed: channels-redis subscribes a new channel at
    once). Then the socket runs without a layer (:data:`NO_LAYER_ALIAS`) and opens its channel
    itself once the layer works (:meth:`_open_channel`; its messages come into the same queue
    as the client's frames, :meth:`_listen`). The socket joins its groups with :meth:`join`:
    when the layer fails, it opens all the same, reads what it sends from the database, joins
    them when the layer works again (:meth:`layer_back`), then reads again
    (:meth:`layer_returned`) for what it missed.

    A database that cannot answer (:data:`outages.UNAVAILABLE`: PostgreSQL restarting) fails
    only the message being handled: a frame is answered with the retryable error
    ``unavailable`` (nothing was done; the page asks again later), and the socket stays open
    (:meth:`dispatch`).

    At a graceful stop (``games.core.sockets.drain``) the socket takes no new frame, finishes
    what it has taken in, and closes with 1001 (:meth:`go_away`).
    """

    #: The client has gone (or a send found it gone); see the class.
    gone = False
    #: The server is closing the socket (:meth:`close`): nothing more is sent on it.
    closing = False
    #: The socket accepted its handshake (:meth:`connect`).
    accepted = False
    #: The socket's channel in the layer (Channels'); ``None`` while the layer could not open it
    #: (:meth:`_open_channel`).
    channel_name: str | None = None
    #: The socket has begun handling its messages (its handshake came).
    started = False
    #: A name of this socket unique among every process's: its channel's, or when the layer was
    #: down at its opening one of its own (a spectator's ``Watcher`` row is named by it).
    socket_key = ""

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        """Run the consumer (Channels' ``__call__``) over :meth:`_read`'s queue and a ``send``
        that takes a gone client for a disconnect (ASGI: ``scope``, ``receive``, ``send``)."""
        self.inbox: asyncio.Queue[dict] = asyncio.Queue()
        self.loop = asyncio.get_running_loop()
        burst = settings.BASRA_SOCKET_BURST
        self.limiter = TokenBucket(burst, settings.BASRA_SOCKET_RATE)
        self.refused_told_at: float | None = None
        self.finished = asyncio.get_running_loop().create_future()
        drain.sockets.add(self)
        #: The groups the socket is in, or is to join when the layer works again.
        self.groups_in: set[str] = set()
        self._joined: set[str] = set()
        self._layer_lock = asyncio.Lock()
        self.listener: asyncio.Task | None = None
        reader = asyncio.ensure_future(self._read(receive))

        async def send_unless_gone(message: dict) -> None:
            if self.gone or (self.closing and message["type"] == "websocket.send"):
                return
            try:
                await send(message)
            except SEND_ON_CLOSED:
                self._lost()

        try:
            try:
                await super().__call__(scope, self.inbox.get, send_unless_gone)
            except Exception as error:  # noqa: BLE001 - see below
                if self.started or self.channel_layer_alias == NO_LAYER_ALIAS:
                    raise
                # Before the handshake Channels only opens the socket's channel: the layer
                # failed. Run without it; the socket opens its channel once the layer works.
                broadcast.layer_failed(error)
                self.channel_layer_alias = NO_LAYER_ALIAS
                await super().__call__(scope, self.inbox.get, send_unless_gone)
        finally:
            drain.sockets.discard(self)
            self.finished.set_result(None)
            _WAITING.discard(self)
            reader.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await reader
            if self.listener is not None:
                self.listener.cancel()
                try:
                    await self.listener
                except asyncio.CancelledError:
                    pass
                except Exception as error:  # noqa: BLE001 - its unsubscribe met the layer down
                    broadcast.layer_failed(error)

    async def _read(self, receive: Any) -> None:
        """Move the server's messages to ``inbox`` as they come, up to the disconnect. Once
        the process is stopping (``drain.draining``) a frame is dropped unread: the socket is
        about to close with 1001, and the page sends it again once it has reconnected."""
        while True:
            message = await receive()
            kind = message.get("type")
            if kind == "websocket.disconnect":
                self.gone = True
                self.inbox.put_nowait(message)
                return
            if kind == "websocket.receive":
                if drain.draining:
                    continue
                message = await self._admit(message)
                if message is None:
                    continue
            self.inbox.put_nowait(message)

    async def _admit(self, frame: dict) -> dict | None:
        """The frame itself if the socket's rate limit lets it through, else a
        ``socket.refused`` note (answered with ``rate_limited``), or nothing.

        A token bucket (:class:`TokenBucket`): a burst of
        ``settings.BASRA_SOCKET_BURST`` frames (default 8), then ``BASRA_SOCKET_RATE`` a second
        (default 4). Sized for the fastest person: the table page sends one ``play`` per state
        it receives (it locks the hand until the answer), a ``sync`` after an error, a gap or
        its opening, a claim or a resign; states come at most every 0.6 s (a computer's shortest
        delay, ``BASRA_BOT_DELAY_SECONDS``), so the page stays under 2 frames a second. A double
        click from a page without that lock, or a second tab, adds a frame or two at once: a
        burst of 8 covers that several times over, and 4 a second is twice the fastest page.
        A refused frame is dropped unread, so a flood costs the server neither parsing nor
        database work. One ``rate_limited`` at most is sent per refill interval (``1 / RATE``
        s): the page answers an error with a ``sync``, which would be refused and answered
        again, round after round.
        """
        now = rate_clock()
        if self.limiter.take(now):
            return frame
        if self.refused_told_at is not None and (
            now - self.refused_told_at < 1 / settings.BASRA_SOCKET_RATE
        ):
            return None
        self.refused_told_at = now
        return {"type": "socket.refused"}

    def _lost(self) -> None:
        """A send found the client gone: handle it as the disconnect the server will send."""
        if not self.gone:
            self.gone = True
            self.inbox.put_nowait({"type": "websocket.disconnect", "code": CLOSE_ABNORMAL})

    async def dispatch(self, message: dict) -> None:
        """Call the handler of ``message["type"]``: ``games.core.fastpath.dispatch`` on the fast
        path (no connection cleanup; see the class), Channels' ``dispatch`` off it. Once the
        client is gone, only the connect (which sets the socket up) and the disconnect (which
        takes it down) are handled. A handler that meets the database unable to answer
        (:data:`outages.UNAVAILABLE`) after the handshake was accepted is answered with the
        error ``unavailable`` (whatever the message was: a frame, a group's news), and the
        socket goes on.

        :raises ValueError: no handler for the type (as Channels does).
        """
        if self.gone and message["type"] not in ("websocket.connect", "websocket.disconnect"):
            return
        try:
            if fastpath.enabled("dispatch"):
                await fastpath.dispatch(self, message)
            else:
                await super().dispatch(message)
        except outages.UNAVAILABLE as error:
            if not self.accepted:
                raise
            outages.database.failed(error)  # logged once per outage, by whoever meets it first
            if not (self.closing or self.gone):
                await self.send_error("unavailable")

    #: Who this socket is counted for (:func:`socket_owner`); ``None``: refused, or not yet.
    owner: str | None = None

    async def websocket_connect(self, message: dict) -> None:
        """The handshake: refused (accepted, ``too_many_sockets``, closed with
        :data:`CLOSE_TOO_MANY`, nothing else done) when its owner already has
        ``BASRA_SOCKETS_PER_OWNER`` sockets open in this process (default 20: a player's tabs,
        each with its notice, lobby or table socket; 200 from one session would each beat the
        database; :func:`socket_cap`); else counted and handed to Channels (:meth:`connect`)."""
        if drain.draining:
            # Refused (HTTP 403): the page retries after its backoff, by when the proxy sends it
            # to a server that is not stopping.
            await self.close()
            raise StopConsumer()
        self.started = True
        owner = socket_owner(self.scope)
        if _OPEN[owner] >= socket_cap(owner):
            self.language = scope_language(self.scope)
            await self.accept()
            await self.send_error("too_many_sockets")
            await self.close(CLOSE_TOO_MANY)
            return
        _OPEN[owner] += 1
        self.owner = owner
        if owner.startswith("user:"):
            online.opened(int(owner[5:]))  # written by the server's next beat
        if self.channel_name is None:
            self.channel_layer = get_channel_layer()
            await self._open_channel()
        self.socket_key = self.channel_name or f"unjoined.{uuid.uuid4().hex}"
        await super().websocket_connect(message)

    async def websocket_disconnect(self, message: dict) -> None:
        """The socket closed: :meth:`disconnect`, then stop, the groups left (by
        :meth:`disconnect`, or here after it); off the fast path through Channels' own
        ``websocket_disconnect`` (which also closes old connections). A socket refused at its
        handshake only stops."""
        self.gone = True
        owner, self.owner = self.owner, None
        if owner is None:
            raise StopConsumer()
        _OPEN[owner] -= 1
        if not _OPEN[owner]:
            del _OPEN[owner]
        if owner.startswith("user:"):
            online.closed(int(owner[5:]))
        try:
            if fastpath.enabled("dispatch"):
                await self.disconnect(message["code"])
            else:
                # Channels' own: ``disconnect``, ``close_old_connections``, ``StopConsumer``.
                await super().websocket_disconnect(message)
        except outages.UNAVAILABLE as error:
            # The closing work that needed the database is lost (a seat's last seen-update:
            # the clock counts the seat silent from its last beat instead), not the close.
            outages.database.failed(error)
        finally:
            for group in list(self.groups_in):
                await self.leave(group)
            if getattr(self, "beating", False):
                self.beating = False
                await server_beat.closed()
        raise StopConsumer()

    def go_away(self) -> None:
        """The process is stopping (``games.core.sockets.drain``): close with 1001 once the
        messages already taken in are handled (:meth:`server_going_away`, queued behind them)."""
        self.inbox.put_nowait({"type": "server.going_away"})

    async def server_going_away(self, message: dict) -> None:
        """Close with :data:`~games.core.sockets.drain.CLOSE_GOING_AWAY` ("going away"), after
        :meth:`before_going_away`; a socket already closing is left to it. Under daphne the 1001
        needs the fast path's ``close`` (``games.core.fastpath``); without it, 1000."""
        if self.closing:
            return
        try:
            await self.before_going_away()
        except Exception:  # noqa: BLE001 - the close must still come: the page then reads again
            logger.exception("socket: before going away")
        try:
            await self.close(CLOSE_GOING_AWAY)
        except Exception:  # noqa: BLE001 - autobahn raises a bare Exception for the code
            # Daphne without the fast path's ``close`` (games.core.fastpath): its autobahn
            # refuses 1001, before sending anything. A normal close instead.
            await self.close(1000)

    async def before_going_away(self) -> None:
        """What a socket sends its client before it closes at a graceful stop (nothing here)."""

    async def close(self, code: int | bool | None = None, reason: str | None = None) -> None:
        """Close the socket (Channels' ``close``); nothing more is sent on it (``closing``)."""
        self.closing = True
        await super().close(code, reason)

    async def socket_refused(self, message: dict) -> None:
        """A frame over the rate limit was dropped (:meth:`_admit`)."""
        await self.send_error("rate_limited")

    async def connect(self) -> None:
        self.language = scope_language(self.scope)
        self.beating = True
        server_beat.opened()
        await self.accept()
        self.accepted = True

    # --- the channel layer ----------------------------------------------------------------

    async def _open_channel(self) -> bool:
        """Open the socket's channel in the layer (``new_channel``) and start taking its
        messages (:meth:`_listen`), unless it is open (Channels opened it): ``True`` if it is.
        If the layer fails, that is noted (``broadcast.layer_failed``) and the socket waits for
        the layer's return (:data:`_WAITING`)."""
        if self.channel_name is not None:
            return True
        layer = self.channel_layer
        if layer is None:
            return False  # no layer configured: nothing to join
        try:
            name = await layer.new_channel()
        except Exception as error:  # noqa: BLE001 - whatever the layer raises, it is down
            broadcast.layer_failed(error)
            _WAITING.add(self)
            return False
        self.channel_name = name
        self.listener = asyncio.ensure_future(self._listen(layer, name))
        return True

    async def _listen(self, layer: Any, name: str) -> None:
        """Move the layer's messages for channel ``name`` to ``inbox`` as they come (what
        Channels' consumer loop does with its ``channel_receive``)."""
        while True:
            self.inbox.put_nowait(await layer.receive(name))

    async def join(self, group: str) -> None:
        """Be in ``group``: joined now, or, if the layer fails, once it works again
        (:meth:`layer_back`; the failure noted, ``broadcast.layer_failed``). A group the
        socket waits to join is tried again here only once the layer is thought back: the
        socket's reads do not each wait on a layer known down (a host that does not answer
        takes 2 s to fail), and a read after the layer's return joins before it reads."""
        if group in self._joined or (group in self.groups_in and broadcast.layer_is_down()):
            return
        self.groups_in.add(group)
        await self._join_missing()

    async def leave(self, group: str) -> None:
        """No longer be in ``group`` (a layer that fails meanwhile is noted, not raised: the
        socket no longer takes the group's messages either way)."""
        if group not in self.groups_in:
            return
        async with self._layer_lock:  # not while a join of it is under way
            self.groups_in.discard(group)
            if group in self._joined:
                self._joined.discard(group)
                try:
                    await self.channel_layer.group_discard(group, self.channel_name)
                except Exception as error:  # noqa: BLE001 - as in _open_channel
                    broadcast.layer_failed(error)

    async def _join_missing(self) -> bool:
        """Open the channel and join the groups of ``groups_in`` not joined yet: ``True`` if
        all are; else the socket waits for the layer (:data:`_WAITING`)."""
        async with self._layer_lock:
            if not await self._open_channel():
                return False
            for group in sorted(self.groups_in - self._joined):
                try:
                    await self.channel_layer.group_add(group, self.channel_name)
                except Exception as error:  # noqa: BLE001 - as in _open_channel
                    broadcast.layer_failed(error)
                    _WAITING.add(self)
                    return False
                self._joined.add(group)
            _WAITING.discard(self)
            return True

    async def layer_back(self, message: dict) -> None:
        """``{"type": "layer.back"}`` (:func:`_layer_back`): the layer works again; open the
        channel and join the groups this socket could not, then :meth:`layer_returned`."""
        if not self.closing and await self._join_missing():
            await self.layer_returned()

    async def layer_returned(self) -> None:
        """The socket is in its groups again after the layer failed it: send the client what
        it missed meanwhile (a subclass reads it again; nothing here)."""

    async def send_json(self, content: dict) -> None:
        """Send one JSON text frame."""
        await self.send(text_data=broadcast.frame_text(content))

    async def send_error(self, code: str | errors.Refusal, message: str | None = None) -> None:
        """Send ``{"type": "error", "code", "message"}``: ``code`` a refusal or an
        :class:`~games.core.errors.ErrorCode`; ``message`` defaults to its text in the socket's
        language (``Refusal.as_json``, as the pages' JSON refusals)."""
        error = code if isinstance(code, errors.Refusal) else errors.GameError(code)
        with translation.override(self.language):
            payload = error.as_json()
        if message is not None:
            payload["message"] = message
        await self.send_json({"type": "error", **payload})

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        try:
            message = json.loads(text_data if text_data is not None else bytes_data)
        except (TypeError, ValueError, UnicodeDecodeError, RecursionError):
            # RecursionError: a forged frame nested thousands deep must not kill the socket.
            message = None
        if not isinstance(message, dict):
            await self.send_error("bad_json")
            return
        await self.receive_message(message)

    async def receive_message(self, message: dict) -> None:
        """Handle one parsed frame (a JSON object)."""
        raise NotImplementedError
