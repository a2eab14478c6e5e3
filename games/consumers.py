"""Websocket consumers of the live tables and the lobby (``docs/protocol.md``).

Thin, as in the Channels tutorial ("Database Access"): they read ``scope["user"]``, join groups,
parse a frame, call ``games.services`` through ``database_sync_to_async`` and turn a
``ServiceError`` into an ``error`` message. Every change reaches the sockets through the groups
of ``games.broadcast``, after the commit.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from importlib import import_module
from types import SimpleNamespace
from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.contrib import auth
from django.db import connection
from django.http import HttpRequest
from django.utils import translation
from django.utils.translation import gettext

from games import broadcast, services
from games.services import ServiceError

def in_worker(function: Callable[..., Any]) -> Callable[..., Any]:
    """``function`` as a coroutine run in the loop's worker-thread pool.

    ``database_sync_to_async`` (Channels' wrapper that tidies database connections) with
    ``thread_sensitive=False``: Channels runs consumers outside any ``ThreadSensitiveContext``, so
    the default would put every socket's database work of the whole process on one thread, where
    each play waits for all the others. The services keep no state in their thread, and the row
    lock orders the writes to one table. SQLite (one writer at a time, and an in-memory test
    database that refuses a concurrent reader instead of waiting) keeps the single thread.
    """
    call = database_sync_to_async(function, thread_sensitive=connection.vendor == "sqlite")

    async def run(*args: Any, **kwargs: Any) -> Any:
        # The services' broadcasts go back to this loop without holding the worker thread.
        broadcast.CALLER_LOOP.set(asyncio.get_running_loop())
        return await call(*args, **kwargs)

    return run


#: Close code for a table that does not exist (an HTTP 404 in the 4000-4999 private range).
CLOSE_NOT_FOUND = 4404


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


class JsonSocket(AsyncWebsocketConsumer):
    """Frames in and out as JSON objects; malformed frames get a ``bad_json`` error."""

    async def connect(self) -> None:
        self.language = scope_language(self.scope)
        await self.accept()

    async def send_json(self, content: dict) -> None:
        """Send one JSON text frame."""
        await self.send(text_data=json.dumps(content, separators=(",", ":")))

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
        except (TypeError, ValueError, UnicodeDecodeError):
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

    The socket sits in exactly one of the table's groups: its user's seat group, or the public
    group for spectators and anonymous users. ``seat`` follows the database: it is re-read when
    the seating changes (join, leave, start). ``seq`` is the last state sent, so a state older
    than one already sent is never sent.
    """

    async def connect(self) -> None:
        self.match_id = int(self.scope["url_route"]["kwargs"]["match_id"])
        self.user = self.scope.get("user")
        self.seat: int | None = None
        self.group: str | None = None
        self.seq = -1
        await super().connect()
        await self._join_group(broadcast.public_group(self.match_id))
        await self.refresh()

    async def disconnect(self, code: int) -> None:
        if self.group:
            await self.channel_layer.group_discard(self.group, self.channel_name)
            self.group = None

    async def _join_group(self, group: str) -> None:
        # Join the new group before leaving the old one, so no broadcast falls in between.
        await self.channel_layer.group_add(group, self.channel_name)
        if self.group and self.group != group:
            await self.channel_layer.group_discard(self.group, self.channel_name)
        self.group = group

    def _state(self) -> dict:
        with translation.override(self.language):
            return services.table_state(match_id=self.match_id, user=self.user)

    async def refresh(self) -> None:
        """Read this socket's state, move to the group of its seat, send the state."""
        try:
            state = await in_worker(self._state)()
            if state["you"] != self.seat:
                self.seat = state["you"]
                await self._join_group(
                    broadcast.public_group(self.match_id)
                    if self.seat is None
                    else broadcast.seat_group(self.match_id, self.seat)
                )
                # Read again: a change may have been broadcast before the group was joined.
                state = await in_worker(self._state)()
        except ServiceError as error:
            await self.send_error(error.code, error.message)
            await self.close(CLOSE_NOT_FOUND)
            return
        await self._send_state(state, force=True)

    async def _send_state(self, state: dict, *, force: bool = False) -> None:
        if state["seq"] < self.seq or (state["seq"] == self.seq and not force):
            return
        self.seq = state["seq"]
        await self.send_json(state)

    async def receive_message(self, message: dict) -> None:
        kind = message.get("type")
        if kind == "sync":
            await self.refresh()
        elif kind == "play":
            await self.play(message)
        else:
            await self.send_error("unknown_type")

    def _play(self, card: str, seq: int) -> int:
        with translation.override(self.language):
            if not session_user_is(self.scope, self.user):
                raise ServiceError.of("login_required")
            return services.play_card(user=self.user, match_id=self.match_id, card=card, seq=seq)

    async def play(self, message: dict) -> None:
        """``{"type": "play", "card", "seq"}``: the new state comes back through the group."""
        card, seq = message.get("card"), message.get("seq")
        if not isinstance(card, str) or not isinstance(seq, int) or isinstance(seq, bool):
            await self.send_error("bad_message")
            return
        if self.user is None or not self.user.is_authenticated:
            await self.send_error("login_required")
            return
        try:
            await in_worker(self._play)(card, seq)
        except ServiceError as error:
            await self.send_error(error.code, error.message)
            if error.code == "stale":
                await self.refresh()

    async def table_state(self, event: dict) -> None:
        """Group message: the state after a change, built for this socket's group."""
        state = event["state"]
        if state["you"] == self.seat:
            await self._send_state(state)

    async def table_seating(self, event: dict) -> None:
        """Group message: seats changed; re-read this socket's seat and state."""
        await self.refresh()

    async def table_closed(self, event: dict) -> None:
        """Group message: the table was removed (its last player left before the start)."""
        with translation.override(self.language):
            text = gettext("This table was closed: every player left.")
        await self.send_json({"type": "closed", "message": text})
        await self.close(CLOSE_NOT_FOUND)
