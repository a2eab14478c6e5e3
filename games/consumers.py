"""Websocket consumers of the live tables and the lobby (``docs/protocol.md``).

Thin, as in the Channels tutorial ("Database Access"): they read ``scope["user"]``, join groups,
parse a frame, call ``games.actions`` (writes) and ``games.reads`` in a database worker thread (``games.workers``) and turn a
``GameError`` into an ``error`` message. Every change reaches the sockets through the groups
of ``games.broadcast``, after the commit.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from datetime import datetime
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.utils import timezone, translation
from django.utils.translation import gettext

from games import actions, broadcast, liveness, phrases, reads
from games.errors import GameError
from games.sockets import JsonSocket, SessionEnded, session_exists, session_user_is
from games.workers import in_worker

logger = logging.getLogger(__name__)

#: Close code for a table that does not exist (an HTTP 404 in the 4000-4999 private range).
CLOSE_NOT_FOUND = 4404
#: Seconds after a state's ``deadline`` before a socket that heard nothing reads the table
#: itself (the clock ticks every quarter second and may run in another process).
WAKE_MARGIN = 0.5
#: The longest wait between two such reads while the deadline stays passed (seconds).
RECHECK_MAX = 5.0


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
        await self._join(phrases.group(self.match_id))
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
        elif kind == "phrase":
            await self.phrase(message)
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

    async def phrase(self, message: dict) -> None:
        """``{"type": "phrase", "id": "good_luck"}``: a seated player's quick phrase, sent to
        every socket of the table as ``{"type": "phrase", "seat", "id"}`` (``games.phrases``).

        Refused, and nothing sent: ``bad_message`` (``id`` not a string), ``login_required``,
        ``not_seated`` (a spectator), ``bad_phrase`` (not an id of the list),
        ``phrase_too_soon`` (within ``BASRA_PHRASE_SECONDS`` of the player's last one). No
        database work: the seat is the socket's own (``self.seat``), the limit one cache call.
        """
        phrase_id = message.get("id")
        if not isinstance(phrase_id, str):
            await self.send_error("bad_message")
        elif not self.logged_in:
            await self.send_error("login_required")
        elif self.seat is None:
            await self.send_error("not_seated")
        elif not phrases.is_phrase(phrase_id):
            await self.send_error("bad_phrase")
        elif not await phrases.admit(self.match_id, self.user.pk):
            await self.send_error("phrase_too_soon")
        else:
            await self.channel_layer.group_send(
                phrases.group(self.match_id),
                {"type": "table.phrase", "seat": self.seat, "id": phrase_id},
            )

    async def table_phrase(self, event: dict) -> None:
        """Group message: a player's quick phrase (:meth:`phrase`), passed on as it is."""
        await self.send_json({"type": "phrase", "seat": event["seat"], "id": event["id"]})

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
            await self._tell_logged_out()

    async def session_recheck(self, event: dict) -> None:
        """Group message (account group): the user's password changed, so their other sessions
        ended: this socket checks its session now, and becomes a spectator's if it ended (as
        after a logout: no later state of the seat, no hand, reaches it)."""
        self.session_good_until = 0.0
        if self.logged_in and not await in_worker(session_user_is)(self.scope, self.user):
            await self._become_spectator()
            await self._tell_logged_out()
            await self.refresh(force=True)

    async def _tell_logged_out(self) -> None:
        """``{"type": "logged_out"}``: this socket's session ended (a logout, maybe in another
        tab); the page says so and offers to log in again. No hand is in it, and no read."""
        await self.send_json({"type": "logged_out"})

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
