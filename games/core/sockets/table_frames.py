"""The one hook through which an app takes part in the table socket (``docs/protocol.md``,
"Apps' frames"): frames of its own from the clients, and broadcasts of its own to a table's
seats, spectators or both.

The core never imports the apps (``import-linter``); an app registers, in its
``AppConfig.ready()`` and through ``games.core.for_apps.table_frames``:

- ``handle(kind, handler)``: a client's frame ``{"type": kind, …}`` that is none of the core's
  own types (:data:`CORE_TYPES`) goes to ``handler(*, user, match_id, seat, message)``, called
  in a database worker thread (``games.core.sockets.workers``) after the socket's session check
  (``TableConsumer._as_user``). ``user`` is ``None`` for an anonymous socket, ``seat`` the
  socket's seat or ``None`` (a spectator). It returns the frames (dicts) to send back to this
  socket only, or ``None``; a ``Refusal`` it raises is sent as an ``error`` frame in the
  socket's language, with ``"frame": kind`` (the table's script leaves it to the app's). A type nobody handles is ``unknown_type``, as before.
- ``send(match_id, frame, *, to, sender=None, kind=None, hidden_from=())``: ``frame`` to the
  sockets of table
  ``match_id`` that ``to`` names (:data:`AUDIENCES`: ``"seats"``, ``"spectators"``,
  ``"everyone"``), as the group message ``table.app``; best effort, after the commit when
  called inside a transaction (Zulip's ``send_event_on_commit``). With ``sender`` and ``kind``
  (a kind of ``games.core.relations``), the people at the table (seats and logged-in
  spectators) who bar the sender by that kind are not sent it, and the sender is not told;
  nor are the users in ``hidden_from`` (an app's own reasons: their chat turned off).

The socket's side is :class:`AppFrames`, mixed into ``TableConsumer``; the public API's game
stream reads the same ``table.app`` messages from the table's group.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from django.db import transaction
from django.utils import timezone, translation

from games.core import relations
from games.core.models import Seat, Watcher
from games.core.errors import Refusal
from games.core.sockets.auth import SessionEnded
from games.core.sockets.workers import in_worker
from games.core.state import broadcast
from games.core.state.watching import stale_after

#: The frame types the table socket handles itself; an app may not take them.
CORE_TYPES = frozenset({
    "sync", "play", "watchers", "claim", "resign", "abort", "more_time", "rematch", "phrase",
})
#: Who a ``table.app`` message reaches: the seated players' sockets, the spectators', or all.
AUDIENCES = frozenset({"seats", "spectators", "everyone"})

#: ``handler(*, user, match_id, seat, message) -> list[dict] | None`` (see the module's docstring).
Handler = Callable[..., "list[dict] | None"]

_handlers: dict[str, Handler] = {}


def handle(kind: str, handler: Handler) -> None:
    """Send the clients' frames of type ``kind`` to ``handler`` (an app's ``ready()``).

    :raises ValueError: ``kind`` is one of the core's own types, or another handler has it.
    """
    if kind in CORE_TYPES:
        raise ValueError(f"{kind!r} is a frame type of the core")
    if _handlers.get(kind, handler) is not handler:
        raise ValueError(f"{kind!r} is handled already")
    _handlers[kind] = handler


def handler_of(kind: object) -> Handler | None:
    """The handler registered for frames of type ``kind``, if any."""
    return _handlers.get(kind) if isinstance(kind, str) else None


def people_at(match_id: int) -> set[int]:
    """The user ids at table ``match_id`` now: its seated people and its logged-in spectators
    (two indexed queries)."""
    seated = Seat.objects.filter(match_id=match_id, user_id__isnull=False).values_list("user_id", flat=True)
    watching = Watcher.objects.filter(
        match_id=match_id, user_id__isnull=False, last_seen__gte=timezone.now() - stale_after()
    ).values_list("user_id", flat=True)
    return set(seated) | set(watching)


def send(
    match_id: int, frame: dict, *, to: str, sender: int | None = None, kind: str | None = None,
    hidden_from: Iterable[int] = (), logged_in_only: bool = False,
) -> None:
    """Send ``frame`` to the ``to`` sockets of table ``match_id`` (see the module's docstring),
    but not to the users in ``hidden_from`` (the app's own reasons) nor those who bar ``sender``;
    with ``logged_in_only``, not to anonymous sockets either.

    :raises ValueError: ``to`` is not in :data:`AUDIENCES`, or ``kind`` not a relations kind.
    """
    if to not in AUDIENCES:
        raise ValueError(f"{to!r} is none of {sorted(AUDIENCES)}")
    hidden = set(hidden_from)
    if sender is not None and kind is not None and relations.answering():
        hidden.update(relations.barred(kind, sender, people_at(match_id) - {sender}))
    event = {"type": "table.app", "message": frame, "to": to, "hidden_from": sorted(hidden)}
    if logged_in_only:
        event["logged_in_only"] = True
    transaction.on_commit(lambda: broadcast.send_group(broadcast.table_group(match_id), event))


def reaches(event: dict, seat: int | None, user_id: int | None) -> bool:
    """Whether a ``table.app`` message is for a socket with ``seat`` and ``user_id``."""
    if user_id is not None and user_id in event.get("hidden_from", ()):
        return False
    if user_id is None and event.get("logged_in_only"):
        return False
    to = event.get("to")
    return to == "everyone" or (to == "seats") == (seat is not None)


class AppFrames:
    """Methods of ``TableConsumer`` (which gives ``match_id``, ``user``, ``seat``,
    ``logged_in``, ``closing``, ``_as_user``, ``_session_gone``, ``send_json`` and
    ``send_error``)."""

    async def app_frame(self, message: dict) -> None:
        """A client's frame of an app's type: its handler's answer, or ``unknown_type``."""
        handler = handler_of(message.get("type"))
        if handler is None:
            await self.send_error("unknown_type")
            return
        try:
            if self.logged_in:
                frames = await in_worker(self._as_user)(handler, seat=self.seat, message=message)
            else:
                frames = await in_worker(handler)(
                    user=None, match_id=self.match_id, seat=None, message=message
                )
        except SessionEnded:
            await self._session_gone()
            return
        except Refusal as error:
            # Tagged with the frame's type: the app's script shows it, not the table's.
            with translation.override(self.language):
                payload = error.as_json()
            await self.send_json({"type": "error", **payload, "frame": message["type"]})
            return
        for frame in frames or ():
            await self.send_json(frame)

    async def table_app(self, event: dict) -> None:
        """Group message: an app's frame (:func:`send`), passed on if it is for this socket."""
        me = self.user.pk if self.logged_in else None
        if not self.closing and reaches(event, self.seat, me):
            await self.send_json(event["message"])


__all__ = ["AUDIENCES", "CORE_TYPES", "AppFrames", "handle", "people_at", "reaches", "send"]
