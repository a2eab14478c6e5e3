"""The websocket consumer of the live tables (``docs/protocol.md``); the lobby's is
``games.core.sockets.lobby``.

Thin, as in the Channels tutorial ("Database Access"): they read ``scope["user"]``, join groups,
parse a frame, call ``games.core.actions`` (writes) and ``games.core.state.reads`` in a database worker thread (``games.core.sockets.workers``) and turn a
``GameError`` into an ``error`` message. Every change reaches the sockets through the groups
of ``games.core.state.broadcast``, after the commit.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import time
from datetime import datetime
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.utils import translation
from django.utils.translation import gettext

from games.core import actions, relations
from games.core.errors import GameError
from games.core.sockets.auth import SessionEnded, scope_user, session_exists, session_user_is
from games.core.sockets.base import JsonSocket
from games.core.sockets.table_frames import AppFrames
from games.core.sockets.table_session import SessionChecks
from games.core.sockets.beats import table_beats
from games.core.sockets.workers import in_worker
from games.core.state import broadcast, outages, phrases, reads, watching

logger = logging.getLogger(__name__)

#: Close code for a table that does not exist (an HTTP 404 in the 4000-4999 private range).
CLOSE_NOT_FOUND = 4404
#: Close code for a spectator the table does not let watch (``Match.watchers``; an HTTP 403).
CLOSE_FORBIDDEN = 4403
#: The largest table id there can be (``BigAutoField``: a signed 64-bit integer, PostgreSQL's
#: ``bigint`` and SQLite's ``INTEGER``); a larger one in the path is no table, not a database error.
MAX_MATCH_ID = 2**63 - 1
#: The error codes of a spectator refused by ``games.core.state.watching.check_may_watch``.
WATCH_REFUSED = ("watch_nobody", "watch_login_required")
#: Seconds after a state's ``deadline`` before a socket that heard nothing reads the table
#: itself (the clock ticks every quarter second and may run in another process).
WAKE_MARGIN = 0.5
#: The longest wait between two such reads while the deadline stays passed (seconds).
RECHECK_MAX = 5.0


@functools.lru_cache(maxsize=4096)
def deadline_timestamp(deadline: str) -> float:
    """A state's ``deadline`` (ISO 8601 with its offset, ``docs/protocol.md``) as a POSIX
    timestamp (seconds). Every socket of a table gets the same deadline with each state: it is
    parsed once per process, not once per socket."""
    return datetime.fromisoformat(deadline).timestamp()


class TableConsumer(AppFrames, SessionChecks, JsonSocket):
    """``/ws/table/<match_id>/``: one socket's view of one table.

    Every socket is in the table's group (``broadcast.table_group``), which carries each change's
    states as one message with every seat's view: the socket sends its client the view of the
    seat its user sits in, or the spectators' (:meth:`table_states`). A logged-in socket is also
    in its user's account group (``broadcast.account_group``), joined first: when the session it
    was opened with is logged out, it becomes an anonymous spectator's socket
    (:meth:`session_ended`), so no seat view reaches its client after that. ``seat`` follows
    the database: it is re-read when the seating changes (join, leave, start) and taken from
    each change's message. ``seq`` (and ``deadline``) are the last state's sent, so a state
    older than one already sent is never sent.

    The process's heartbeat (``games.core.sockets.beats``) beats for every open socket, one write a
    period for all of them: the seat's ``Seat.last_seen`` (read by the clock to find absent
    seats), and a look at the table's ``seq``; a socket whose table moved on without it (a
    broadcast lost with a server that died after its commit) reads it again
    (:meth:`table_moved`). A look (:meth:`_look`, a task only while it reads) does those reads,
    and re-reads the table when the last state's ``deadline`` has passed without news, woken by
    a timer of the event loop (:meth:`_arm`): the clock may run in another process, and with the
    in-memory channel layer (one process, no Redis) its broadcasts cannot reach this one; with
    Redis they arrive first and the read never happens. A timer, not a task waiting for each
    state's news: a state then costs a timer's move, not a task's wake-up and a new wait
    (about 2% of a play's server CPU, py-spy, bench/live.py).
    """

    async def connect(self) -> None:
        self.match_id = int(self.scope["url_route"]["kwargs"]["match_id"])
        self.user = scope_user(self.scope)
        self.seat: int | None = None
        self.seq = -1
        self.deadline: str | None = None
        self.watch: asyncio.Task | None = None  # a look reading the table (:meth:`_look`)
        self.timer: asyncio.TimerHandle | None = None  # wakes a look at ``check_at``
        self.check_at: float | None = None
        self.recheck = 1.0
        self.moved = False  # the heartbeat saw the table move on without this socket
        # Time until which the session is known good (on the beats' clock, ``time.monotonic()``,
        # where the heartbeat renews it): the handshake has just read it from its store with the
        # user's row (channels' AuthMiddleware, Django's ``get_user``), and the first read checks
        # it still exists (:meth:`_state`).
        self.session_good_until = table_beats.clock() + settings.BASRA_SESSION_RECHECK_SECONDS
        self.watching = False  # this socket has a ``Watcher`` row (a spectator's socket)
        await super().connect()
        if self.match_id > MAX_MATCH_ID:
            await self.send_error("not_found")
            await self._close(CLOSE_NOT_FOUND)
            return
        if self.logged_in:
            # The account group first: a logout from now on reaches this socket, and one made
            # before is seen by the first read (``_state``), before any seat view is sent.
            await self.join(broadcast.account_group(self.user.pk))
        try:
            await self.refresh(connecting=True)
        except outages.UNAVAILABLE as error:
            # Open all the same: the page asks again, and the heartbeat, once the database
            # answers, finds the table past this socket's seq (-1) and sends the state.
            outages.database.failed(error)
            await self.send_error("unavailable")
        if self.closing or self.gone:
            return
        table_beats.add(self)

    @property
    def logged_in(self) -> bool:
        """The socket's user is logged in (it may still have no seat)."""
        return self.user is not None and self.user.is_authenticated

    async def disconnect(self, code: int) -> None:
        """The socket closed (or a send found it gone): stop the watch, the last seen-update,
        leave the groups. Runs once (``JsonSocket.websocket_disconnect``)."""
        self.closing = True
        table_beats.discard(self)
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
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
                # The grace before "absent" counts from the moment the last socket went away;
                # after the end, leaving the table ends any rematch offer.
                await in_worker(actions.seat_closed)(match_id=self.match_id, user=self.user)
        finally:
            # Also after a database error: no group keeps sending to a consumer that has ended.
            for group in list(self.groups_in):
                await self.leave(group)
            await self._set_watching(False)

    async def _set_watching(self, spectator: bool) -> None:
        """Keep this socket's ``Watcher`` row as its role is: a spectator's socket has one
        (``watching.watch_started``), a seat's none (``watch_ended``); on a change every socket
        of the table hears the new count (``broadcast.send_watchers``)."""
        if spectator == self.watching:
            return
        self.watching = spectator
        try:
            if spectator:
                count = await in_worker(watching.watch_started)(
                    match_id=self.match_id, channel=self.socket_key, user=self.user
                )
            else:
                count = await in_worker(watching.watch_ended)(
                    match_id=self.match_id, channel=self.socket_key
                )
        except GameError:
            return  # the table is gone
        await broadcast.send_watchers(self.match_id, count)

    def _wake(self) -> None:
        """The timer fired, or the heartbeat found the table moved on: start a look unless one
        is running (it looks again before it ends). A timer set for an earlier ``check_at``
        (states since moved it later, :meth:`_track`) is set again for the new one."""
        self.timer = None
        if self.closing or self.gone:
            return
        if not self.moved and (
            self.check_at is None or asyncio.get_running_loop().time() < self.check_at
        ):
            self._arm()
            return
        if self.watch is None or self.watch.done():
            self.watch = asyncio.ensure_future(self._look())

    def _arm(self) -> None:
        """Set the timer for ``check_at`` (none when ``None``), replacing the one set before."""
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        if self.check_at is not None and not (self.closing or self.gone):
            self.timer = asyncio.get_running_loop().call_at(self.check_at, self._wake)

    async def _look(self) -> None:
        """Reads of the table: when the heartbeat found it moved on without this socket, and when
        a deadline passed with no news (then again later, 1 s, 2 s, … up to
        :data:`RECHECK_MAX`, while the clock has not acted)."""
        loop = asyncio.get_running_loop()
        while not (self.closing or self.gone):
            if self.moved:
                self.moved = False
                # A change this socket never heard of: its broadcast was lost (the server that
                # wrote it died before sending it, or the layer was down), or it came from
                # another process over the in-memory layer, which cannot carry it.
                if not await self._read_again():
                    return
            elif self.check_at is not None and loop.time() >= self.check_at:
                before = self.seq
                if not await self._read_again():
                    return
                if self.seq == before and self.check_at is not None:
                    # The clock has not acted yet (or is not running): look again later.
                    self.check_at = loop.time() + self.recheck
                    self.recheck = min(self.recheck * 2, RECHECK_MAX)
                    self._arm()
            else:
                return

    async def _read_again(self) -> bool:
        """A look's read (:meth:`refresh`): ``False`` if the database could not answer; the
        look is then made again later (1 s, 2 s, … up to :data:`RECHECK_MAX`)."""
        try:
            await self.refresh(force=False)
        except outages.UNAVAILABLE as error:
            outages.database.failed(error)
            self.check_at = asyncio.get_running_loop().time() + self.recheck
            self.recheck = min(self.recheck * 2, RECHECK_MAX)
            self._arm()
            return False
        return True

    async def layer_returned(self) -> None:
        """Back in its groups after the layer failed it (``JsonSocket.layer_back``): read the
        table again, as after a change this socket never heard of."""
        self.table_moved()

    def seated_user(self) -> int | None:
        """The heartbeat's question (``games.core.sockets.beats``): the id of this socket's logged-in
        user if they have a seat at this table."""
        return self.user.pk if self.seat is not None and self.logged_in else None

    def table_moved(self) -> None:
        """The heartbeat found the table's ``seq`` past the last state sent: a look reads it."""
        self.moved = True
        self._wake()

    def watcher_channel(self) -> str | None:
        """The heartbeat's other question: this socket's channel if it has a ``Watcher`` row (a
        spectator's socket), to keep that row counted (``games.core.state.watching.watches_seen``)."""
        return self.socket_key if self.watching else None

    def _track(self, deadline: str | None) -> None:
        """Plan the next read after a state's ``deadline`` (server time; this is the server)."""
        if deadline is None:
            self.check_at = None
        else:
            remaining = deadline_timestamp(deadline) - time.time()
            self.check_at = asyncio.get_running_loop().time() + max(0.0, remaining) + WAKE_MARGIN
        self.recheck = 1.0
        # A timer already set no later than ``check_at`` stays: when it fires, ``_wake`` sets it
        # again for the new time. Each state mostly moves the deadline later, so a socket's
        # timer is moved once per deadline, not cancelled and set again with every state.
        if self.check_at is not None and (
            self.timer is None or self.timer.when() > self.check_at
        ):
            self._arm()

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
            return reads.table_state(
                match_id=self.match_id, user=self.user, watching_rule=True,
                session=self.scope.get("session"),
            )

    async def refresh(self, *, force: bool = True, connecting: bool = False) -> None:
        """Read this socket's state, keep the groups that match its seat, send the state.

        ``force=False`` sends nothing if this ``seq`` was already sent (a seating change reaches
        a socket through two groups at once). ``connecting``: the socket just opened (one
        database call marks its user seen and reads the state); so is every read until the
        socket has sent a state.
        """
        if self.closing or self.gone:
            return
        # Until a first state is sent, each read is the opening's (the first may have met the
        # database down).
        connecting = connecting or self.seq < 0
        user = self.user
        # The group first, then the read: no change made in between is missed.
        await self.join(broadcast.table_group(self.match_id))
        try:
            state = await in_worker(self._state)(connecting)
        except SessionEnded:
            await self._become_spectator()
            await self.refresh(force=force, connecting=connecting)
            return
        except GameError as error:
            if error.code in WATCH_REFUSED:
                # Not seated, and this table does not let this user watch (``Match.watchers``):
                # the reason, then the socket closes (the page does not reconnect).
                await self.send_error(error)
                await self._close(CLOSE_FORBIDDEN)
                await self._set_watching(False)
                return
            if self.seq >= 0:
                # It existed when this socket opened: it was removed in the meantime.
                await self.table_closed({})
            else:
                await self.send_error(error)
                await self._close(CLOSE_NOT_FOUND)
            return
        if self.user is not user:
            return  # the session ended meanwhile: that was the seat's view (_become_spectator)
        self.seat = state["you"]
        # The spectator's row first: by the time the page shows the table, it counts.
        await self._set_watching(self.seat is None)
        await self._send_state(state, force=force)
        if connecting and state["match"]["status"] == "finished":
            rematch = await in_worker(actions.rematch_state)(match_id=self.match_id)
            if rematch is not None:
                await self.send_json(rematch)
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
        elif kind == "watchers":
            await self.follow_watchers()
        elif kind == "claim":
            await self.act(actions.claim_win)
        elif kind == "resign":
            await self.act(actions.resign)
        elif kind == "abort":
            await self.act(actions.abort_match)
        elif kind == "more_time":
            await self.act(actions.ask_more_time)
        elif kind == "rematch":
            await self.rematch(message)
        elif kind == "phrase":
            await self.phrase(message)
        else:
            await self.app_frame(message)  # an app's frame type, or unknown_type (table_frames)

    def _as_user(self, service: Any, **kwargs: Any) -> Any:
        """Call ``service(user=..., match_id=..., **kwargs)`` after checking that the session is
        still the user's.

        The actions write no text for a person: a refusal's message is written on the loop, in
        the socket's language, from its code (:meth:`act`). Activating the language around
        every call cost about 1.5% of a play's server CPU (py-spy, bench/live.py).

        The check (the session read from its store and the user's row: about a sixth of a
        play's server time, measured with py-spy) is made again only after
        ``BASRA_SESSION_RECHECK_SECONDS``, and the process's heartbeat checks every socket's
        session in batches before that (``games.core.sockets.beats``), so in a running server this
        check is only the fallback. A logout turns the session's sockets into spectators at
        once (:meth:`session_ended`) and a password change through the site makes them check
        again (:meth:`session_recheck`); a session that ends any other way (expiry, deleted by
        hand, the user disabled) is noticed by the heartbeat within that time.
        """
        now = table_beats.clock()
        if now >= self.session_good_until:
            if not session_user_is(self.scope, self.user):
                raise SessionEnded
            self.session_good_until = now + settings.BASRA_SESSION_RECHECK_SECONDS
        return service(user=self.user, match_id=self.match_id, **kwargs)

    async def act(self, service: Any, **kwargs: Any) -> GameError | None:
        """A seated player's action (``{"type": "claim"}``, ``"resign"``, ``"abort"``, a play, a
        rematch): ``service(user=…, match_id=…, **kwargs)`` as this socket's user; the result
        comes back through the table's group. A refusal is sent as an ``error`` and returned;
        ``login_required`` when the socket is not (or no longer) logged in."""
        if not self.logged_in:
            await self.send_error("login_required")
            return None
        try:
            result = await in_worker(self._as_user)(service, **kwargs)
        except SessionEnded:
            await self._session_gone()
        except GameError as error:
            await self.send_error(error)  # its message in this socket's language
            return error
        else:
            # The new state is owed to this client (:meth:`before_going_away`): the table's new
            # ``seq`` when the action returns it (a play), else at least one past the last sent.
            seq = result if type(result) is int else self.seq + 1
            self.answer_owed = max(self.answer_owed, seq)
        return None

    #: The ``seq`` of the state this socket's last action made, which its client is owed.
    answer_owed = -1

    async def before_going_away(self) -> None:
        """At a graceful stop: the state of the action just made, if its broadcast has not
        reached this socket yet (it comes through the channel layer, and could come after the
        close), read from the table, so the player sees their play taken before the 1001."""
        if self.answer_owed > self.seq:
            await self.refresh(force=False)

    async def play(self, message: dict) -> None:
        """``{"type": "play", "card", "seq"}``: the new state comes back through the group."""
        card, seq = message.get("card"), message.get("seq")
        if not isinstance(card, str) or not isinstance(seq, int) or isinstance(seq, bool):
            await self.send_error("bad_message")
            return
        error = await self.act(actions.play_card, card=card, seq=seq)
        if error is not None and error.code in ("stale", "timed_out"):
            await self.refresh()

    async def phrase(self, message: dict) -> None:
        """``{"type": "phrase", "id": "good_luck"}``: a seated player's quick phrase, sent to
        every socket of the table as ``{"type": "phrase", "seat", "id"}`` (``games.core.state.phrases``).

        Refused, and nothing sent: ``bad_message`` (``id`` not a string), ``login_required``,
        ``not_seated`` (a spectator), ``bad_phrase`` (not an id of the list),
        ``phrase_too_soon`` (within ``BASRA_PHRASE_SECONDS`` of the player's last one). The
        seat is the socket's own (``self.seat``), the limit one cache call; a seated player who
        blocked the sender is not sent it (``phrases.hidden_from``: no query unless an app
        answers ``games.core.relations``), and the sender is not told.
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
            hidden = (
                await in_worker(phrases.hidden_from)(self.match_id, self.user.pk)
                if relations.answering() else []
            )
            await broadcast.send_phrase(self.match_id, self.seat, phrase_id, hidden_from=hidden)

    async def table_phrase(self, event: dict) -> None:
        """Group message: a player's quick phrase (:meth:`phrase`), passed on as it is, but not
        to a user who blocked its sender (``hidden_from``)."""
        if self.logged_in and self.user.pk in event.get("hidden_from", ()):
            return
        await self.send_json({"type": "phrase", "seat": event["seat"], "id": event["id"]})

    async def rematch(self, message: dict) -> None:
        """``{"type": "rematch", "client_seed"?}``: ask for (or accept) a rematch of the finished
        match; the answer comes to every socket of the table as a ``rematch`` frame."""
        seed = message.get("client_seed")
        if seed is not None and not isinstance(seed, str):
            await self.send_error("bad_message")
            return
        await self.act(actions.ask_rematch, client_seed=seed)

    async def table_news(self, event: dict) -> None:
        """Group message: a frame for every socket of the table (a rematch offer or its start,
        ``broadcast.send_table_news``), but not to a user it is hidden from."""
        if self.logged_in and self.user.pk in event.get("hidden_from", ()):
            return
        if not self.closing:
            await self.send_json(event["message"])

    async def table_states(self, event: dict) -> None:
        """Group message: the states after a change (``games.core.state.broadcast.send_states``:
        ``seq``, ``deadline`` and ``views``, ``[seat, user id, JSON text]`` each, the spectators'
        with seat ``None``). The client gets the view of the seat its logged-in user sits in,
        else the spectators': after a logout (:meth:`_become_spectator`) the user is anonymous
        here, so no seat view is sent on, even one already queued.
        """
        me = self.user.pk if self.logged_in else None
        you, text = None, None
        for seat, user_id, view in event["views"]:
            if seat is None:
                if you is None:
                    text = view
            elif me is not None and user_id == me:
                you, text = seat, view
        if text is None:
            return
        if (you is None) != (self.seat is None):
            await self._set_watching(you is None)  # seated now, or no longer
        self.seat = you
        await self._send_state_text(event["seq"], event["deadline"], text)

    async def follow_watchers(self) -> None:
        """``{"type": "watchers"}``: the number of people watching now
        (``watching.watcher_count``), then again whenever a spectator socket opens or closes
        (the socket joins ``broadcast.everyone_group``). Asked for, not pushed, so that a
        client that does not show it gets nothing new."""
        await self.join(broadcast.everyone_group(self.match_id))
        count = await in_worker(watching.watcher_count)(self.match_id)
        await self.send_json({"type": "watchers", "count": count})

    async def table_watchers(self, event: dict) -> None:
        """Group message: how many people watch the table (``{"count"}``)."""
        await self.send_json({"type": "watchers", "count": event["count"]})

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

    async def session_recheck(self, event: dict) -> None:
        """Group message (account group): the user's password changed, so their other sessions
        ended: this socket checks its session now, and becomes a spectator's if it ended (as
        after a logout: no later state of the seat, no hand, reaches it)."""
        self.session_good_until = 0.0
        if not self.logged_in:
            return
        checked_at = table_beats.clock()
        if await in_worker(session_user_is)(self.scope, self.user):
            self.session_good_until = checked_at + settings.BASRA_SESSION_RECHECK_SECONDS
        else:
            await self._become_spectator()
            await self._tell_logged_out()
            await self.refresh(force=True)

    async def _become_spectator(self) -> None:
        """This socket's session ended: from now on it is an anonymous spectator's.

        The seat's last seen-update (its grace before "absent" counts from the logout, as from
        a closed socket's), out of the user's account group (it stays in the table's): the next
        state it sends on is the spectators' view, and a ``play``, ``claim`` or ``resign`` is answered with
        ``login_required``. A seat's socket now counts as a spectator's (``Watcher`` row).
        """
        user, seat = self.user, self.seat
        # First, before any wait: a seat view already on its way is dropped from now on
        # (``table_states``, ``refresh``).
        self.user, self.seat = AnonymousUser(), None
        await self.leave(broadcast.account_group(user.pk))
        if seat is not None:
            await in_worker(actions.player_seen)(match_id=self.match_id, user=user)
            await self._set_watching(True)

    async def _close(self, code: int) -> None:
        self.closing = True
        await self.close(code)
