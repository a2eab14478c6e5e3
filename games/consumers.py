"""Websocket consumers of the live tables and the lobby (``docs/protocol.md``).

Thin, as in the Channels tutorial ("Database Access"): they read ``scope["user"]``, join groups,
parse a frame, call ``games.actions`` (writes) and ``games.reads`` in a database worker thread (``games.workers``) and turn a
``GameError`` into an ``error`` message. Every change reaches the sockets through the groups
of ``games.broadcast``, after the commit.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import random
import time
from datetime import datetime
from importlib import import_module
from types import SimpleNamespace
from typing import Any

from aiolimiter import AsyncLimiter
from channels.consumer import get_handler_name
from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.contrib import auth
from django.contrib.auth.models import AnonymousUser
from django.http import HttpRequest
from django.utils import timezone, translation
from django.utils.translation import gettext

from basra_site.websocket import SEND_ON_CLOSED
from games import actions, broadcast, errors, liveness, reads
from games.errors import GameError
from games.workers import in_worker

logger = logging.getLogger(__name__)

#: Close code for a table that does not exist (an HTTP 404 in the 4000-4999 private range).
CLOSE_NOT_FOUND = 4404
#: The code of the ``websocket.disconnect`` a socket gives itself when a send finds its client
#: gone (RFC 6455 7.4.1: 1006, closed without a close frame).
CLOSE_ABNORMAL = 1006
#: Seconds after a state's ``deadline`` before a socket that heard nothing reads the table
#: itself (the clock ticks every quarter second and may run in another process).
WAKE_MARGIN = 0.5
#: The longest wait between two such reads while the deadline stays passed (seconds).
RECHECK_MAX = 5.0


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


class SessionEnded(Exception):
    """The session a table socket was opened with no longer exists (it was logged out)."""


def session_exists(scope: dict) -> bool:
    """Whether the socket's session is still in its store (one read; a logout deletes it)."""
    key = getattr(scope.get("session"), "session_key", None)
    return bool(key) and import_module(settings.SESSION_ENGINE).SessionStore().exists(key)


def session_user_is(scope: dict, user: Any) -> bool:
    """Whether the socket's session still belongs to ``user`` (it was not logged out since).

    The session is read afresh from its store: ``scope["session"]`` is the copy loaded at the
    handshake and would not see a logout in another tab.
    """
    session = scope.get("session")
    key = getattr(session, "session_key", None)
    if not key:
        return False
    store = import_module(settings.SESSION_ENGINE).SessionStore(session_key=key)
    current = auth.get_user(SimpleNamespace(session=store))
    return current.is_authenticated and current.pk == user.pk


#: Seconds between two ``WebTick`` writes of a running server process; well under
#: ``BASRA_CLOCK_OUTAGE_SECONDS`` (default 5), after which the clock takes the servers for down.
WEB_BEAT_SECONDS = 1.0


class ServerBeat:
    """Tells the clock that this server process is up, from its start for as long as it runs.

    One task per process (per event loop) writes ``WebTick`` every :data:`WEB_BEAT_SECONDS`
    (``liveness.web_seen``). :meth:`start` begins it when the server starts (daphne: once its
    reactor runs; an ASGI server: the lifespan startup; both ``basra_site.asgi``), whether or not
    any socket is open, so the clock tells "no server is running" (no beat: it stands still and
    gives the time back later) from "servers run, nobody is connected" (it goes on: a player
    who closed the tab is marked absent). A process where nothing called :meth:`start` (an ASGI
    server without lifespan events, the tests' communicators) beats at least while it has open
    sockets (:meth:`opened` to :meth:`closed`).
    """

    def __init__(self) -> None:
        self.sockets = 0
        self.task: asyncio.Task | None = None
        #: Beating from the server's start until :meth:`stop`, not only while sockets are open.
        self.lifelong = False

    def _ensure(self) -> None:
        loop = asyncio.get_running_loop()
        if self.task is None or self.task.get_loop() is not loop or self.task.done():
            # Also a new event loop (each test has its own): the old state belonged to the old.
            self.sockets = 0
            self.lifelong = False
            self.task = loop.create_task(self._beat())

    def start(self) -> None:
        """The server process started: beat until :meth:`stop` (call on its event loop)."""
        self._ensure()
        self.lifelong = True

    async def stop(self) -> None:
        """The server process stops: no more beats."""
        task, self.task = self.task, None
        self.lifelong = False
        self.sockets = 0
        if task is not None and task.get_loop() is asyncio.get_running_loop():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    def opened(self) -> None:
        """A socket opened in this process (call on the event loop)."""
        self._ensure()
        self.sockets += 1

    async def closed(self) -> None:
        """A socket opened with :meth:`opened` closed; without :meth:`start`, the last one stops
        the beats."""
        self.sockets -= 1
        task = self.task
        if (
            self.sockets <= 0
            and not self.lifelong
            and task is not None
            and task.get_loop() is asyncio.get_running_loop()
        ):
            self.task = None
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def _beat(self) -> None:
        while True:
            try:
                await in_worker(liveness.web_seen)()
            except Exception:  # noqa: BLE001 - a database hiccup must not stop the beats
                logger.exception("server beat failed")
            await asyncio.sleep(WEB_BEAT_SECONDS)


#: The one of this process.
server_beat = ServerBeat()


class JsonSocket(AsyncWebsocketConsumer):
    """Frames in and out as JSON objects; malformed frames get a ``bad_json`` error.

    Channels' consumers call ``close_old_connections`` on its one shared sync thread before every
    message they handle (each frame and each group message) and after a disconnect. These
    consumers touch the database only through ``games.workers``, whose threads look after their
    own connections (``in_worker``), so that hop would close nothing and only queue every socket's
    messages behind one thread: :meth:`dispatch` and :meth:`websocket_disconnect` leave it out.

    A socket takes the messages its server queues for it as they arrive (:meth:`__call__`), and
    handles them in order. So it knows at once when its client has gone: ``gone`` is set, the
    frames still waiting behind the one being handled are dropped unread, and so is the tables'
    news; the socket's own sends are then dropped too. A send that finds the client gone
    (:data:`basra_site.websocket.SEND_ON_CLOSED`, raised by the server before it queues the
    disconnect) counts the same: the socket queues itself a ``websocket.disconnect``
    (:data:`CLOSE_ABNORMAL`), so every ending goes through :meth:`websocket_disconnect`, once.

    Frames are also counted against a rate limit as they arrive (:meth:`_admit`).
    """

    #: The client has gone (or a send found it gone); see the class.
    gone = False
    #: The server is closing the socket (``_close``): nothing more is sent on it.
    closing = False

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        """Run the consumer (Channels' ``__call__``) over :meth:`_read`'s queue and a ``send``
        that takes a gone client for a disconnect (ASGI: ``scope``, ``receive``, ``send``)."""
        self.inbox: asyncio.Queue[dict] = asyncio.Queue()
        burst = settings.BASRA_SOCKET_BURST
        self.limiter = AsyncLimiter(burst, burst / settings.BASRA_SOCKET_RATE)
        self.refused_told_at: float | None = None
        reader = asyncio.ensure_future(self._read(receive))

        async def send_unless_gone(message: dict) -> None:
            if self.gone:
                return
            try:
                await send(message)
            except SEND_ON_CLOSED:
                self._lost()

        try:
            await super().__call__(scope, self.inbox.get, send_unless_gone)
        finally:
            reader.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await reader

    async def _read(self, receive: Any) -> None:
        """Move the server's messages to ``inbox`` as they come, up to the disconnect."""
        while True:
            message = await receive()
            kind = message.get("type")
            if kind == "websocket.disconnect":
                self.gone = True
                self.inbox.put_nowait(message)
                return
            if kind == "websocket.receive":
                message = await self._admit(message)
                if message is None:
                    continue
            self.inbox.put_nowait(message)

    async def _admit(self, frame: dict) -> dict | None:
        """The frame itself if the socket's rate limit lets it through, else a
        ``socket.refused`` note (answered with ``rate_limited``), or nothing.

        A token bucket (``aiolimiter``'s leaky bucket is the same meter): a burst of
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
        if self.limiter.has_capacity():
            await self.limiter.acquire()  # returns at once: the capacity is there
            return frame
        now = asyncio.get_running_loop().time()
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
        """Call the handler of ``message["type"]`` (Channels' ``dispatch`` without the
        connection cleanup; see the class). Once the client is gone, only the connect (which
        sets the socket up) and the disconnect (which takes it down) are handled.

        :raises ValueError: no handler for the type (as Channels does).
        """
        if self.gone and message["type"] not in ("websocket.connect", "websocket.disconnect"):
            return
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def websocket_disconnect(self, message: dict) -> None:
        """The socket closed: :meth:`disconnect`, then stop (the groups are left there)."""
        self.gone = True
        try:
            await self.disconnect(message["code"])
        finally:
            if getattr(self, "beating", False):
                self.beating = False
                await server_beat.closed()
        raise StopConsumer()

    async def socket_refused(self, message: dict) -> None:
        """A frame over the rate limit was dropped (:meth:`_admit`)."""
        await self.send_error("rate_limited")

    async def connect(self) -> None:
        self.language = scope_language(self.scope)
        self.beating = True
        server_beat.opened()
        await self.accept()

    async def send_json(self, content: dict) -> None:
        """Send one JSON text frame."""
        await self.send(text_data=broadcast.frame_text(content))

    async def send_error(self, code: str, message: str | None = None) -> None:
        """Send ``{"type": "error", "code", "message"}``; ``message`` defaults to the code's text
        (``games.errors``) in the socket's language."""
        if message is None:
            with translation.override(self.language):
                message = errors.message(code)
        await self.send_json({"type": "error", "code": code, "message": message})

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


class LobbyConsumer(JsonSocket):
    """``/ws/lobby/``: the open tables, sent on connect, on ``sync`` and after every change."""

    async def connect(self) -> None:
        await super().connect()
        await self.channel_layer.group_add(broadcast.LOBBY_GROUP, self.channel_name)
        await self.send_tables()

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(broadcast.LOBBY_GROUP, self.channel_name)

    async def send_tables(self) -> None:
        """Send the current open tables."""
        tables = await in_worker(reads.open_tables)()
        await self.send_json({"type": "tables", "tables": tables})

    async def receive_message(self, message: dict) -> None:
        if message.get("type") == "sync":
            await self.send_tables()
        else:
            await self.send_error("unknown_type")

    async def lobby_tables(self, event: dict) -> None:
        """Group message: the open tables changed."""
        await self.send_json({"type": "tables", "tables": event["tables"]})


class TableConsumer(JsonSocket):
    """``/ws/table/<match_id>/``: one socket's view of one table.

    A logged-in socket is always in its user's group at the table, which carries only that
    user's seat view; while its user has no seat it is also in the public group, like an
    anonymous socket. It is also in its user's account group (``broadcast.account_group``): when
    the session it was opened with is logged out, it becomes an anonymous spectator's socket
    (:meth:`session_ended`), so no seat view reaches it after that. ``seat`` follows the
    database: it is re-read when the seating changes (join, leave, start). ``seq`` (and
    ``deadline``) are the last state's sent, so a state older than one already sent is never
    sent.

    A watch task per socket (:meth:`_watch`) beats every ``liveness.heartbeat_seconds()``, the
    first beat sooner by a random part: the seat's heartbeat (``Seat.last_seen``, read by the
    clock to find absent seats), and a look at the table's ``seq``, read again if it moved on
    without this socket (a broadcast lost with a server that died after its commit). It also
    re-reads the table when the last state's ``deadline`` has passed without news: the clock
    may run in another process, and with the in-memory channel layer (one process, no Redis) its
    broadcasts cannot reach this one; with Redis they arrive first and the read never happens.
    """

    async def connect(self) -> None:
        self.match_id = int(self.scope["url_route"]["kwargs"]["match_id"])
        self.user = self.scope.get("user")
        self.seat: int | None = None
        self.groups_in: set[str] = set()
        self.seq = -1
        self.deadline: str | None = None
        self.watch: asyncio.Task | None = None
        self.check_at: float | None = None
        self.recheck = 1.0
        self.news = asyncio.Event()
        self.session_good_until = 0.0  # monotonic time until which the session is known good
        await super().connect()
        if self.logged_in:
            # The account group first: a logout from now on reaches this socket, and one made
            # before is seen by the first read (``_state``), before any seat view is sent.
            await self._join(broadcast.account_group(self.user.pk))
            await self._join(broadcast.user_group(self.match_id, self.user.pk))
        await self.refresh(connecting=True)
        if self.closing or self.gone:
            return
        self.watch = asyncio.ensure_future(self._watch())

    @property
    def logged_in(self) -> bool:
        """The socket's user is logged in (it may still have no seat)."""
        return self.user is not None and self.user.is_authenticated

    async def disconnect(self, code: int) -> None:
        """The socket closed (or a send found it gone): stop the watch, the last seen-update,
        leave the groups. Runs once (``JsonSocket.websocket_disconnect``)."""
        self.closing = True
        watch, self.watch = self.watch, None
        if watch is not None:
            watch.cancel()
            # Not ``await watch`` under suppress(CancelledError): that would also swallow a
            # cancel of this task itself. ``wait`` returns when the watch has ended, and raises
            # only this task's own cancel.
            await asyncio.wait({watch})
            if not watch.cancelled() and watch.exception() is not None:
                logger.error("table socket watch failed", exc_info=watch.exception())
        try:
            if self.seat is not None and self.logged_in:
                # The grace before "absent" counts from the moment the last socket went away.
                await in_worker(actions.player_seen)(match_id=self.match_id, user=self.user)
        finally:
            # Also after a database error: no group keeps sending to a consumer that has ended.
            for group in list(self.groups_in):
                await self._leave(group)

    async def _watch(self) -> None:
        """Heartbeats, and a read of the table when a deadline passes with no news."""
        loop = asyncio.get_running_loop()
        # The first beat at a random point of the second half of the period: sockets that
        # opened together (a tournament round starting) do not all beat in the same second
        # ever after, which queued the plays behind a burst of beats (bench/live.py --timeline).
        beat_at = loop.time() + liveness.heartbeat_seconds() * random.uniform(0.5, 1.0)
        while not (self.closing or self.gone):
            self.news.clear()
            wake = beat_at if self.check_at is None else min(beat_at, self.check_at)
            if await self._news_until(wake):
                continue  # a new state came: its deadline decides the next wake-up
            if self.closing or self.gone:
                return
            if self.check_at is not None and loop.time() >= self.check_at:
                before = self.seq
                await self.refresh(force=False)
                if self.seq == before:
                    # The clock has not acted yet (or is not running): look again later.
                    self.check_at = loop.time() + self.recheck
                    self.recheck = min(self.recheck * 2, RECHECK_MAX)
            if loop.time() >= beat_at:
                beat_at = loop.time() + liveness.heartbeat_seconds()
                seq = await in_worker(actions.heartbeat)(
                    match_id=self.match_id, user=self.user if self.seat is not None else None
                )
                if seq is not None and seq > self.seq:
                    # A change this socket never heard of: its broadcast was lost (the server
                    # that wrote it died before sending it), or it came from another process
                    # over the in-memory layer, which cannot carry it.
                    await self.refresh(force=False)

    async def _news_until(self, wake: float) -> bool:
        """Wait until a new state is sent (``news``) or the loop's clock reaches ``wake``;
        whether a state came.

        Not ``asyncio.wait_for``: on Python 3.11, when this task is cancelled in the same turn
        of the loop as the inner wait completes (a state sent just before the disconnect), it
        returns the inner result and the cancel is lost (CPython gh-86296, bpo-42130; fixed in
        3.12), so the watch went on and the disconnect waited for it until daphne killed the
        consumer 10 s later, without its last seen-update or group discards. ``asyncio.wait``
        never takes a cancel for itself: it raises here, always, and the inner wait is then
        cancelled.
        """
        waiter = asyncio.ensure_future(self.news.wait())
        try:
            timeout = max(0.0, wake - asyncio.get_running_loop().time())
            done, _ = await asyncio.wait({waiter}, timeout=timeout)
        finally:
            waiter.cancel()
        return bool(done)

    def _track(self, deadline: str | None) -> None:
        """Plan the next read after a state's ``deadline`` (server time; this is the server)."""
        if deadline is None:
            self.check_at = None
        else:
            remaining = (datetime.fromisoformat(deadline) - timezone.now()).total_seconds()
            self.check_at = asyncio.get_running_loop().time() + max(0.0, remaining) + WAKE_MARGIN
        self.recheck = 1.0
        self.news.set()

    async def _join(self, group: str) -> None:
        if group not in self.groups_in:
            await self.channel_layer.group_add(group, self.channel_name)
            self.groups_in.add(group)

    async def _leave(self, group: str) -> None:
        if group in self.groups_in:
            self.groups_in.discard(group)
            await self.channel_layer.group_discard(group, self.channel_name)

    def _state(self, connecting: bool = False) -> dict:
        """This socket's state (in a worker thread).

        :raises SessionEnded: ``connecting`` and the session was logged out meanwhile.
        :raises GameError: ``not_found``.
        """
        if connecting and self.logged_in:
            if not session_exists(self.scope):
                # Logged out between the handshake and the join of the account group: that
                # logout's message went by before this socket could hear it.
                raise SessionEnded
            # Opening the table counts as being seen, before the first state is sent (the
            # clock, which marks silent seats absent, then leaves this seat alone).
            actions.player_seen(match_id=self.match_id, user=self.user)
        with translation.override(self.language):
            return reads.table_state(match_id=self.match_id, user=self.user)

    async def refresh(self, *, force: bool = True, connecting: bool = False) -> None:
        """Read this socket's state, keep the groups that match its seat, send the state.

        ``force=False`` sends nothing if this ``seq`` was already sent (a seating change reaches
        a socket through two groups at once). ``connecting``: the socket just opened (one
        database call marks its user seen and reads the state).
        """
        if self.closing or self.gone:
            return
        user = self.user
        public = broadcast.public_group(self.match_id)
        anonymous = self.user is None or not self.user.is_authenticated
        if anonymous:
            await self._join(public)
        try:
            state = await in_worker(self._state)(connecting)
            if state["you"] is None and public not in self.groups_in:
                # No seat: join the spectators, then read again, so that no change made
                # between the first read and the join is missed.
                await self._join(public)
                state = await in_worker(self._state)()
        except SessionEnded:
            await self._become_spectator()
            await self.refresh(force=force, connecting=connecting)
            return
        except GameError as error:
            if self.seq >= 0:
                # It existed when this socket opened: it was removed in the meantime.
                await self.table_closed({})
            else:
                await self.send_error(error.code, error.message)
                await self._close(CLOSE_NOT_FOUND)
            return
        if self.user is not user:
            return  # the session ended meanwhile: that was the seat's view (_become_spectator)
        self.seat = state["you"]
        if self.seat is not None:
            await self._leave(public)
        await self._send_state(state, force=force)
        if connecting and self.seat is not None:
            mine = next(s for s in state["seats"] if s["seat"] == self.seat)
            if mine["absent"] and mine["bot"] is None:
                # A player marked absent opens the table again: back (``returned``), told to
                # everyone after this socket's first state.
                await in_worker(actions.player_connected)(match_id=self.match_id, user=self.user)

    async def _send_state(self, state: dict, *, force: bool = False) -> None:
        await self._send_state_text(
            state["seq"], state["deadline"], broadcast.frame_text(state), force=force
        )

    async def _send_state_text(
        self, seq: int, deadline: str | None, text: str, *, force: bool = False
    ) -> None:
        """Send a ``state`` already written as JSON ``text`` (``seq`` and ``deadline`` its
        fields), unless it is older than the last one sent, or the same ``seq`` with the same
        ``deadline`` (without ``force``). The deadline alone changes when the clock gives a
        table its time back after an outage (``actions.resume_clock``, no event): the socket
        reads it when the old deadline passes, and the page must count down to the new one."""
        if self.closing or self.gone or seq < self.seq:
            return
        if seq == self.seq and deadline == self.deadline and not force:
            return
        self.seq, self.deadline = seq, deadline
        self._track(deadline)
        await self.send(text_data=text)

    async def receive_message(self, message: dict) -> None:
        kind = message.get("type")
        if kind == "sync":
            await self.refresh()
        elif kind == "play":
            await self.play(message)
        elif kind == "claim":
            await self.act(actions.claim_win)
        elif kind == "resign":
            await self.act(actions.resign)
        elif kind == "abort":
            await self.act(actions.abort_match)
        else:
            await self.send_error("unknown_type")

    def _as_user(self, service: Any, **kwargs: Any) -> Any:
        """Call ``service(user=..., match_id=..., **kwargs)`` in the socket's language, after
        checking that the session is still the user's.

        The check (the session read from its store and the user's row: about a sixth of a
        play's server time, measured with py-spy) is made again only after
        ``BASRA_SESSION_RECHECK_SECONDS``: a logout turns the session's sockets into spectators
        at once (:meth:`session_ended`) and a password change through the site makes them check
        again before their next action (:meth:`session_recheck`); a session that ends any other
        way (expiry, deleted by hand) is noticed within that time.
        """
        with translation.override(self.language):
            now = time.monotonic()
            if now >= self.session_good_until:
                if not session_user_is(self.scope, self.user):
                    raise SessionEnded
                self.session_good_until = now + settings.BASRA_SESSION_RECHECK_SECONDS
            return service(user=self.user, match_id=self.match_id, **kwargs)

    async def act(self, service: Any) -> None:
        """``{"type": "claim"}``, ``{"type": "resign"}`` or ``{"type": "abort"}``: the result comes
        back as a state."""
        if not self.logged_in:
            await self.send_error("login_required")
            return
        try:
            await in_worker(self._as_user)(service)
        except SessionEnded:
            await self._session_gone()
        except GameError as error:
            await self.send_error(error.code, error.message)

    async def _session_gone(self) -> None:
        """The session was found ended at an action: ``login_required``, and from now on this is
        a spectator's socket (the spectator view follows)."""
        await self.send_error("login_required")
        await self._become_spectator()
        await self.refresh(force=True)

    async def play(self, message: dict) -> None:
        """``{"type": "play", "card", "seq"}``: the new state comes back through the group."""
        card, seq = message.get("card"), message.get("seq")
        if not isinstance(card, str) or not isinstance(seq, int) or isinstance(seq, bool):
            await self.send_error("bad_message")
            return
        if not self.logged_in:
            await self.send_error("login_required")
            return
        try:
            await in_worker(self._as_user)(actions.play_card, card=card, seq=seq)
        except SessionEnded:
            await self._session_gone()
        except GameError as error:
            await self.send_error(error.code, error.message)
            if error.code in ("stale", "timed_out"):
                await self.refresh()

    async def table_state(self, event: dict) -> None:
        """Group message: the state after a change, built for the group it came through
        (``games.broadcast.send_states``: the message as JSON text, with its ``seq``, ``you``
        and ``deadline``).

        A seat's view comes only through its user's group, so it is this socket's own; a
        spectator view is dropped once the socket has a seat.
        """
        you = event["you"]
        if you is None and self.seat is not None:
            return
        if you is not None and not self.logged_in:
            return  # sent to the user's group before this socket's session ended and left it
        if you is not None and you != self.seat:
            self.seat = you
            await self._leave(broadcast.public_group(self.match_id))
        await self._send_state_text(event["seq"], event["deadline"], event["text"])

    async def table_seating(self, event: dict) -> None:
        """Group message: seats changed; re-read this socket's seat and state."""
        await self.refresh(force=False)

    async def table_closed(self, event: dict) -> None:
        """Group message: the table was removed (its last player left before the start)."""
        if self.closing:
            return
        with translation.override(self.language):
            text = gettext("This table was closed: every player left.")
        await self.send_json({"type": "closed", "message": text})
        await self._close(CLOSE_NOT_FOUND)

    async def session_ended(self, event: dict) -> None:
        """Group message (account group): a session of this user was logged out
        (``broadcast.send_session_ended``, ``{"session": tag}``); if it is the one this socket
        was opened with, :meth:`_become_spectator`."""
        key = getattr(self.scope.get("session"), "session_key", None)
        if key and self.logged_in and event["session"] == broadcast.session_tag(key):
            await self._become_spectator()

    async def session_recheck(self, event: dict) -> None:
        """Group message (account group): the user's password changed, so their other sessions
        ended: this socket checks its session now, and becomes a spectator's if it ended (as
        after a logout: no later state of the seat, no hand, reaches it)."""
        self.session_good_until = 0.0
        if self.logged_in and not await in_worker(session_user_is)(self.scope, self.user):
            await self._become_spectator()
            await self.refresh(force=True)

    async def _become_spectator(self) -> None:
        """This socket's session ended: from now on it is an anonymous spectator's.

        The seat's last seen-update (its grace before "absent" counts from the logout, as from
        a closed socket's), out of the user's groups, into the public one: the next state it
        receives is the spectator view, and a ``play``, ``claim`` or ``resign`` is answered with
        ``login_required``. Nothing is sent now: the page keeps what it shows until that state.
        """
        user, seat = self.user, self.seat
        # First, before any wait: a seat view already on its way is dropped from now on
        # (``table_state``, ``refresh``).
        self.user, self.seat = AnonymousUser(), None
        for group in (
            broadcast.account_group(user.pk),
            broadcast.user_group(self.match_id, user.pk),
        ):
            await self._leave(group)
        await self._join(broadcast.public_group(self.match_id))
        if seat is not None:
            await in_worker(actions.player_seen)(match_id=self.match_id, user=user)

    async def _close(self, code: int) -> None:
        self.closing = True
        await self.close(code)
