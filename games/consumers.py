"""Websocket consumers of the live tables and the lobby (``docs/protocol.md``).

Thin, as in the Channels tutorial ("Database Access"): they read ``scope["user"]``, join groups,
parse a frame, call ``games.services`` in a database worker thread (``games.workers``) and turn a
``ServiceError`` into an ``error`` message. Every change reaches the sockets through the groups
of ``games.broadcast``, after the commit.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import random
from datetime import datetime
from importlib import import_module
from types import SimpleNamespace
from typing import Any

from channels.consumer import get_handler_name
from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.contrib import auth
from django.http import HttpRequest
from django.utils import timezone, translation
from django.utils.translation import gettext

from games import broadcast, services
from games.services import ServiceError
from games.workers import in_worker

logger = logging.getLogger(__name__)

#: Close code for a table that does not exist (an HTTP 404 in the 4000-4999 private range).
CLOSE_NOT_FOUND = 4404
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
    (``services.web_seen``). :meth:`start` begins it when the server starts (daphne: once its
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
                await in_worker(services.web_seen)()
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
    """

    async def dispatch(self, message: dict) -> None:
        """Call the handler of ``message["type"]`` (Channels' ``dispatch`` without the
        connection cleanup; see the class).

        :raises ValueError: no handler for the type (as Channels does).
        """
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def websocket_disconnect(self, message: dict) -> None:
        """The socket closed: :meth:`disconnect`, then stop (the groups are left there)."""
        try:
            await self.disconnect(message["code"])
        finally:
            if getattr(self, "beating", False):
                self.beating = False
                await server_beat.closed()
        raise StopConsumer()

    async def connect(self) -> None:
        self.language = scope_language(self.scope)
        self.beating = True
        server_beat.opened()
        await self.accept()

    async def send_json(self, content: dict) -> None:
        """Send one JSON text frame."""
        await self.send(text_data=broadcast.frame_text(content))

    async def send_error(self, code: str, message: str | None = None) -> None:
        """Send ``{"type": "error", "code", "message"}``; ``message`` defaults to the code's text."""
        if message is None:
            with translation.override(self.language):
                message = {
                    "bad_json": gettext("The message is not a JSON object."),
                    "bad_message": gettext("The message is missing a field or has a wrong one."),
                    "unknown_type": gettext("Unknown message type."),
                }.get(code) or ServiceError.of(code).message
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
        tables = await in_worker(services.open_tables)()
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
    anonymous socket. ``seat`` follows the database: it is re-read when the seating changes
    (join, leave, start). ``seq`` (and ``deadline``) are the last state's sent, so a state older
    than one already sent is never sent.

    A watch task per socket (:meth:`_watch`) beats every ``services.HEARTBEAT_SECONDS``, the
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
        self.closing = False
        self.watch: asyncio.Task | None = None
        self.check_at: float | None = None
        self.recheck = 1.0
        self.news = asyncio.Event()
        await super().connect()
        if self.logged_in:
            await self._join(broadcast.user_group(self.match_id, self.user.pk))
        await self.refresh(connecting=True)
        if self.closing:
            return
        self.watch = asyncio.ensure_future(self._watch())

    @property
    def logged_in(self) -> bool:
        """The socket's user is logged in (it may still have no seat)."""
        return self.user is not None and self.user.is_authenticated

    async def disconnect(self, code: int) -> None:
        if self.watch is not None:
            self.watch.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.watch
            self.watch = None
        if self.seat is not None and self.logged_in:
            # The grace before "absent" counts from the moment the last socket went away.
            await in_worker(services.player_seen)(match_id=self.match_id, user=self.user)
        for group in list(self.groups_in):
            await self._leave(group)

    async def _watch(self) -> None:
        """Heartbeats, and a read of the table when a deadline passes with no news."""
        loop = asyncio.get_running_loop()
        # The first beat at a random point of the second half of the period: sockets that
        # opened together (a tournament round starting) do not all beat in the same second
        # ever after, which queued the plays behind a burst of beats (bench/live.py --timeline).
        beat_at = loop.time() + services.HEARTBEAT_SECONDS * random.uniform(0.5, 1.0)
        while not self.closing:
            self.news.clear()
            wake = beat_at if self.check_at is None else min(beat_at, self.check_at)
            try:
                await asyncio.wait_for(self.news.wait(), max(0.0, wake - loop.time()))
                continue  # a new state came: its deadline decides the next wake-up
            except asyncio.TimeoutError:
                pass
            if self.check_at is not None and loop.time() >= self.check_at:
                before = self.seq
                await self.refresh(force=False)
                if self.seq == before:
                    # The clock has not acted yet (or is not running): look again later.
                    self.check_at = loop.time() + self.recheck
                    self.recheck = min(self.recheck * 2, RECHECK_MAX)
            if loop.time() >= beat_at:
                beat_at = loop.time() + services.HEARTBEAT_SECONDS
                seq = await in_worker(services.heartbeat)(
                    match_id=self.match_id, user=self.user if self.seat is not None else None
                )
                if seq is not None and seq > self.seq:
                    # A change this socket never heard of: its broadcast was lost (the server
                    # that wrote it died before sending it), or it came from another process
                    # over the in-memory layer, which cannot carry it.
                    await self.refresh(force=False)

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
        if connecting and self.logged_in:
            # Opening the table counts as being seen, before the first state is sent (the
            # clock, which marks silent seats absent, then leaves this seat alone).
            services.player_seen(match_id=self.match_id, user=self.user)
        with translation.override(self.language):
            return services.table_state(match_id=self.match_id, user=self.user)

    async def refresh(self, *, force: bool = True, connecting: bool = False) -> None:
        """Read this socket's state, keep the groups that match its seat, send the state.

        ``force=False`` sends nothing if this ``seq`` was already sent (a seating change reaches
        a socket through two groups at once). ``connecting``: the socket just opened (one
        database call marks its user seen and reads the state).
        """
        if self.closing:
            return
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
        except ServiceError as error:
            if self.seq >= 0:
                # It existed when this socket opened: it was removed in the meantime.
                await self.table_closed({})
            else:
                await self.send_error(error.code, error.message)
                await self._close(CLOSE_NOT_FOUND)
            return
        self.seat = state["you"]
        if self.seat is not None:
            await self._leave(public)
        await self._send_state(state, force=force)
        if connecting and self.seat is not None:
            mine = next(s for s in state["seats"] if s["seat"] == self.seat)
            if mine["absent"] and mine["bot"] is None:
                # A player marked absent opens the table again: back (``returned``), told to
                # everyone after this socket's first state.
                await in_worker(services.player_connected)(match_id=self.match_id, user=self.user)

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
        table its time back after an outage (``services.resume_clock``, no event): the socket
        reads it when the old deadline passes, and the page must count down to the new one."""
        if self.closing or seq < self.seq:
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
            await self.act(services.claim_win)
        elif kind == "resign":
            await self.act(services.resign)
        else:
            await self.send_error("unknown_type")

    def _as_user(self, service: Any, **kwargs: Any) -> Any:
        """Call ``service(user=..., match_id=..., **kwargs)`` in the socket's language, after
        checking that the session is still the user's."""
        with translation.override(self.language):
            if not session_user_is(self.scope, self.user):
                raise ServiceError.of("login_required")
            return service(user=self.user, match_id=self.match_id, **kwargs)

    async def act(self, service: Any) -> None:
        """``{"type": "claim"}`` or ``{"type": "resign"}``: the result comes back as a state."""
        if not self.logged_in:
            await self.send_error("login_required")
            return
        try:
            await in_worker(self._as_user)(service)
        except ServiceError as error:
            await self.send_error(error.code, error.message)

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
            await in_worker(self._as_user)(services.play_card, card=card, seq=seq)
        except ServiceError as error:
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

    async def _close(self, code: int) -> None:
        self.closing = True
        await self.close(code)
