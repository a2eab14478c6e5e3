"""Channel-layer groups of the live tables and the messages sent to them.

Group names (``docs/protocol.md`` "Server → client"): every socket at table ``id`` (seated,
watching, anonymous) is in ``table.<id>``; lobby sockets in ``lobby``. A change's states go to
the table's group as one message holding every seat's view and the spectators' (one publish per
change, whatever the number of seats): each socket sends its client only the view of the seat
its user sits in, or the spectators' (``TableConsumer.table_states``); no client ever receives
another seat's hand. Every table socket of user ``u`` is also in ``user.<u>``, which carries only
the news that one of the user's sessions was logged out (:func:`send_session_ended`).

The actions' funnel (``games.core.actions.funnel``) calls these functions from ``transaction.on_commit`` callbacks, in a synchronous
thread: a consumer's worker thread (then the sends are handed to the consumer's event loop,
``CALLER_LOOP``) or an HTTP view's (then ``async_to_sync`` waits for them).

Every send here is best effort: it follows a commit, so a channel layer that fails (Redis down:
``redis.exceptions.ConnectionError``, or any other error of the layer) must not turn a committed
action into a failure. The error is caught and logged once per outage (:func:`layer_failed`: one
WARNING at the first failure, one INFO at the first send that works again), and the sockets read
the table again at their next heartbeat or reconnection.

A layer on several Redis servers (``REDIS_LAYER_URLS``: channels-redis puts each group on one of
them by a hash of its name) can be down in part: then a send that works says nothing of the
other servers, and only a probe of every one (:func:`aprobe_layer`) says the layer is back.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Callable, Iterable
from contextvars import ContextVar

import orjson
from asgiref.sync import async_to_sync
from channels.layers import InMemoryChannelLayer, get_channel_layer
from django.conf import settings
from django.utils.crypto import salted_hmac
from redis import asyncio as aioredis

logger = logging.getLogger(__name__)

LOBBY_GROUP = "lobby"

#: The event loop of the consumer that called an action, if any. The actions run in a worker
#: thread; with this set, their broadcast is handed to that loop and the thread goes back to
#: database work at once instead of waiting for the channel layer (contextvars follow
#: ``database_sync_to_async`` into the thread).
CALLER_LOOP: ContextVar[asyncio.AbstractEventLoop | None] = ContextVar("caller_loop", default=None)


def table_group(match_id: int) -> str:
    """The group of every socket at table ``match_id``: seated, watching or anonymous."""
    return f"table.{match_id}"


def everyone_group(match_id: int) -> str:
    """The group of the sockets of table ``match_id``, seated or not, that asked to follow the
    number of spectators (``{"type": "watchers"}``): it carries only that number
    (:func:`send_watchers`), never a state."""
    return f"table.{match_id}.all"


def account_group(user_id: int) -> str:
    """The group of every table socket of user ``user_id``, at any table, in any session.

    It carries only :func:`send_session_ended`; a table socket joins it before its table's
    user group, so a logout it could miss would also find it before any hand was sent.
    """
    return f"user.{user_id}"


def session_tag(session_key: str) -> str:
    """What names a session in a channel-layer message: an HMAC of its key (Django's
    ``salted_hmac`` with the site's secret key), so the key itself, a credential, never travels
    through the layer (Redis). Hex, 40 characters."""
    return salted_hmac("basra.session-ended", session_key).hexdigest()


class Pending:
    """The broadcasts of one worker call made by a consumer (``games.core.sockets.workers.in_worker``),
    collected while it runs and sent on the consumer's loop when it returns (:meth:`close`).

    Handing each to the loop from the worker thread as its commit ran
    (``run_coroutine_threadsafe``) would cost a wake-up of the loop of its own per change,
    besides the one that returns the call's result, about 2% of a play's server CPU (py-spy,
    bench/live.py). A call that is still running when its caller stops waiting (a cancelled
    socket) is closed all the same: what it commits after that goes the old way.
    """

    def __init__(self) -> None:
        self.messages: list[tuple[str, dict]] = []
        self.open = True
        self._lock = threading.Lock()

    def add(self, messages: list[tuple[str, dict]]) -> bool:
        """Keep ``messages`` for :meth:`close` (worker thread); ``False`` once it is closed."""
        with self._lock:
            if self.open:
                self.messages.extend(messages)
            return self.open

    def close(self) -> None:
        """Send what was kept (on the caller's event loop, without waiting); keep no more."""
        with self._lock:
            self.open = False
            messages, self.messages = self.messages, []
        if messages:
            layer = get_channel_layer()
            if layer is not None:
                _in_flight(asyncio.ensure_future(_send(layer, messages)))


#: The :class:`Pending` of the worker call running in this context, if any.
PENDING: ContextVar[Pending | None] = ContextVar("pending_broadcasts", default=None)


#: Whether the last send to the channel layer failed (the layer is thought down): the first
#: failure logs, later ones do not until a send works again (:func:`layer_failed`, :func:`layer_works`).
_layer_down = False
_down_lock = threading.Lock()


def layer_is_down() -> bool:
    """Whether the last send to the channel layer failed and none has worked since."""
    return _layer_down


def layer_failed(error: BaseException) -> None:
    """Note that a send to the channel layer raised ``error``: a WARNING with it if the layer was
    thought up (once per outage), nothing otherwise. Never raises."""
    global _layer_down
    with _down_lock:
        first, _layer_down = not _layer_down, True
    if first:
        logger.warning(
            "channel layer down, broadcasts dropped until it is back: %s: %s",
            type(error).__name__, error,
        )


def layer_hosts() -> list:
    """The Redis servers of the site's channel layer, its ``CHANNEL_LAYERS`` ``hosts`` as
    ``basra_site.settings.redis_layer_hosts`` writes them (dicts): one, or several it spreads
    the groups over; none for the in-memory layer."""
    return settings.CHANNEL_LAYERS.get("default", {}).get("CONFIG", {}).get("hosts") or []


def layer_works(*, every_host: bool = True) -> None:
    """Note that a send to the channel layer worked: if it was thought down, an INFO and the
    callbacks of :func:`when_back`.

    :param every_host: whether what worked reached every server of the layer (a probe of each,
        or a layer on one); a send to a layer on several reached one, and ends no outage.
    """
    global _layer_down
    if not _layer_down:  # the common case, without the lock
        return
    if not every_host and len(layer_hosts()) > 1:
        # Another server may still be down: counting this as the layer back would log and catch
        # every table up again at each send that alternates with a failing one.
        return
    with _down_lock:
        was, _layer_down = _layer_down, False
    if was:
        logger.info("channel layer back")
        for callback in list(_when_back):
            try:
                callback()
            except Exception:  # noqa: BLE001 - one callback's failure must not stop the others
                logger.exception("channel layer back: %r failed", callback)


#: What :func:`layer_works` calls when the layer works again after a failure.
_when_back: list[Callable[[], None]] = []


def when_back(callback: Callable[[], None]) -> None:
    """Call ``callback()`` each time the channel layer works again after a failed send (from
    the thread of the send that worked, any thread: it must not block). The messages dropped
    meanwhile are lost; the callback makes up for them
    (``games.core.sockets.beats.TableBeats.tables_moved``)."""
    _when_back.append(callback)


async def _send(layer, messages: list[tuple[str, dict]]) -> None:
    """Send ``messages`` to their groups; a failure of the layer is logged (once per outage,
    :func:`layer_failed`), never raised: the change they tell of is committed already."""
    try:
        if len(messages) == 1:
            await layer.group_send(*messages[0])
        else:
            await asyncio.gather(*(layer.group_send(group, message) for group, message in messages))
    except Exception as error:  # noqa: BLE001 - whatever the layer raises, the commit stands
        layer_failed(error)
    else:
        layer_works(every_host=False)


def _log_failure(future) -> None:
    if not future.cancelled() and future.exception() is not None:
        logger.error("broadcast failed", exc_info=future.exception())


#: The sends started on an event loop and not yet done (:func:`flush`).
_sending: set[asyncio.Future] = set()


def _in_flight(future: asyncio.Future) -> None:
    """Keep ``future`` (a send on this loop) until it is done, for :func:`flush`."""
    _sending.add(future)
    future.add_done_callback(_sending.discard)
    future.add_done_callback(_log_failure)


async def flush(seconds: float) -> None:
    """Wait up to ``seconds`` for the sends started on the running loop to be done (a server
    stopping gracefully, ``games.core.sockets.drain``: the states of the plays it finished
    still reach the other servers' sockets)."""
    loop = asyncio.get_running_loop()
    sending = {future for future in _sending if future.get_loop() is loop}
    if sending and seconds > 0:
        await asyncio.wait(sending, timeout=seconds)


def _send_all(messages: list[tuple[str, dict]]) -> None:
    """Send ``(group, message)`` pairs, all at once.

    From a consumer's worker call they are kept until the call returns (:class:`Pending`);
    from a consumer's worker thread otherwise (``CALLER_LOOP`` set) the sends are scheduled on
    the consumer's loop without waiting; anywhere else (an HTTP view, a test, a script) this
    waits until they are sent.
    """
    pending = PENDING.get()
    if pending is not None and pending.add(messages):
        return
    layer = get_channel_layer()
    if layer is None:
        return

    async def send() -> None:
        await _send(layer, messages)

    loop = CALLER_LOOP.get()
    if loop is not None and loop.is_running():
        try:
            on_loop = asyncio.get_running_loop() is loop
        except RuntimeError:
            on_loop = False
        if on_loop:
            _in_flight(asyncio.ensure_future(send()))
        else:
            asyncio.run_coroutine_threadsafe(send(), loop).add_done_callback(_log_failure)
        return
    async_to_sync(send)()


#: Seconds :func:`probe_layer` waits for the layer's answer.
PROBE_SECONDS = 2.0
#: The channel :func:`probe_layer` sends to: nobody listens on it (one PUBLISH to no one).
PROBE_CHANNEL = "health.probe"


def probe_layer() -> str:
    """Whether the channel layer works, by one send to :data:`PROBE_CHANNEL` (synchronous), or
    on a layer over several servers a ``PING`` to each (:func:`ping_each`): ``"ok"``, ``"down"``
    (it raised or took over :data:`PROBE_SECONDS`, or there is no layer), or ``"in-memory"``
    (the in-memory layer, one process's, always up: nothing sent). Counts as a send to every
    server for the outage log (:func:`layer_failed`, :func:`layer_works`)."""
    return async_to_sync(aprobe_layer)()


async def ping_each(hosts: list[dict]) -> None:
    """``PING`` every server of ``hosts`` (:func:`layer_hosts`, ``{"address": url, **options}``
    entries), all at once, each on a connection of its own, closed after.

    A send through the layer reaches one server only, the one its channel's name hashes to.

    :raises redis.exceptions.RedisError: a server did not answer (the first error).
    """
    clients = []
    for host in hosts:
        options = dict(host)
        clients.append(aioredis.Redis.from_url(options.pop("address"), **options))
    try:
        await asyncio.gather(*(client.ping() for client in clients))
    finally:
        await asyncio.gather(*(client.aclose() for client in clients), return_exceptions=True)


async def aprobe_layer() -> str:
    """:func:`probe_layer` on the caller's event loop."""
    layer = get_channel_layer()
    if layer is None:
        return "down"
    if isinstance(layer, InMemoryChannelLayer):
        return "in-memory"
    hosts = layer_hosts()
    try:
        if len(hosts) > 1:
            await asyncio.wait_for(ping_each(hosts), PROBE_SECONDS)
        else:
            await asyncio.wait_for(
                layer.send(PROBE_CHANNEL, {"type": "health.probe"}), PROBE_SECONDS
            )
    except Exception as error:  # noqa: BLE001 - whatever the layer raises, it is down
        layer_failed(error)
        return "down"
    layer_works()
    return "ok"


def frame_text(message: dict) -> str:
    """A message as the JSON text of one websocket frame (compact), by ``orjson``: the same
    text as ``json.dumps(message, separators=(",", ":"))`` (non-string keys written as
    strings), about ten times faster; a play writes three (both seats' views and the
    spectators')."""
    return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode()


def send_states(match_id: int, states: dict[int | None, dict], seat_users: dict[int, int]) -> None:
    """Send a change's states to the table's group, as one message.

    ``{"type": "table.states", "seq", "deadline", "views": [[seat, user id, text], …]}``, the
    spectators' view with seat and user ``None``: ``text`` is the frame a socket sends on, written
    once here, so the channel layer carries strings instead of packing and unpacking nested
    messages, and no socket encodes it again. Each socket picks the view of its own user's seat
    (``TableConsumer.table_states``). One publish per change: before, one per seat and one for
    the spectators (a third of a play's channel-layer work at two seats).

    :param states: ``{seat: state}``, ``None`` for the spectators' state; all at the same
        ``seq`` and ``deadline``.
    :param seat_users: ``{seat: user id}`` (computer seats have none).
    """
    first = next(iter(states.values()))
    views = [
        [seat, None if seat is None else seat_users.get(seat), frame_text(state)]
        for seat, state in states.items()
    ]
    message = {
        "type": "table.states", "seq": first["seq"], "deadline": first["deadline"], "views": views
    }
    _send_all([(table_group(match_id), message)])


def send_group(group: str, message: dict) -> None:
    """Send ``message`` (a channel-layer message, ``{"type": ...}``) to ``group``, as every
    broadcast here is sent (:func:`_send_all`: best effort, from any thread); an app's own
    groups (the public API's event streams, ``games.api.events``)."""
    _send_all([(group, message)])


def send_seating(match_id: int) -> None:
    """Tell the table's sockets that seats changed: each re-reads its own seat and state."""
    _send_all([(table_group(match_id), {"type": "table.seating"})])


def send_closed(match_id: int) -> None:
    """Tell the table's sockets that the table was removed (its last player left)."""
    _send_all([(table_group(match_id), {"type": "table.closed"})])


async def send_watchers(match_id: int, count: int) -> None:
    """Tell every socket of table ``match_id`` how many people watch it (from a
    consumer's event loop: a spectator's socket opened or closed). Sent as
    ``{"type": "table.watchers", "count": count}``."""
    layer = get_channel_layer()
    if layer is not None:
        await _send(layer, [(everyone_group(match_id), {"type": "table.watchers", "count": count})])


async def send_phrase(match_id: int, seat: int, phrase_id: str, *, hidden_from: Iterable[int] = ()) -> None:
    """Send every socket of table ``match_id`` a player's quick phrase (from a consumer's event
    loop), ``{"type": "table.phrase", "seat", "id", "hidden_from"}``, but the sockets of the
    users in ``hidden_from`` (who blocked the sender: ``games.core.relations``); best effort,
    as every send here."""
    layer = get_channel_layer()
    if layer is not None:
        message = {"type": "table.phrase", "seat": seat, "id": phrase_id, "hidden_from": sorted(hidden_from)}
        await _send(layer, [(table_group(match_id), message)])


def send_tables(tables: list[dict]) -> None:
    """Send the lobby sockets the current list of open tables."""
    _send_all([(LOBBY_GROUP, {"type": "lobby.tables", "tables": tables})])


def send_session_recheck(user_id: int) -> None:
    """Tell every table socket of user ``user_id`` to check its session again before its next
    action (``TableConsumer.session_recheck``): the password changed, and Django ends the other
    sessions by their stored password hash. Sent as ``{"type": "session.recheck"}``."""
    _send_all([(account_group(user_id), {"type": "session.recheck"})])


def send_session_ended(user_id: int, session_key: str) -> None:
    """Tell every table socket of user ``user_id`` that the session ``session_key`` was logged
    out: the sockets opened with it stop receiving their seat's views
    (``TableConsumer.session_ended``). Sent as ``{"type": "session.ended", "session": tag}``
    (:func:`session_tag`).
    """
    message = {"type": "session.ended", "session": session_tag(session_key)}
    _send_all([(account_group(user_id), message)])


def notice_group(user_id: int) -> str:
    """The group of every notice socket (``/ws/me/``, ``games.core.sockets.notices``) of user
    ``user_id``, on any page, in any session: what ``games.core.state.notices.send_notice`` sends to."""
    return f"notices.{user_id}"


def send_notices(notices: list[tuple[int, str, dict]]) -> None:
    """Send ``(user id, kind, payload)`` notices to the users' notice sockets, now (callers
    send after the commit: ``games.core.state.notices.send_notice``). Each goes as
    ``{"type": "notice.push", "kind", "payload"}``."""
    _send_all(
        [
            (notice_group(user_id), {"type": "notice.push", "kind": kind, "payload": payload})
            for user_id, kind, payload in notices
        ]
    )


def send_table_news(match_id: int, message: dict, *, hidden_from: Iterable[int] = ()) -> None:
    """Send every socket of table ``match_id`` ``message`` as a frame,
    ``{"type": "table.news", "message": message, "hidden_from": [user id, ...]}`` (a rematch
    offer or its start, ``games.core.actions.rematch``), but the sockets of the users in
    ``hidden_from`` (who blocked its sender: ``games.core.relations``)."""
    event = {"type": "table.news", "message": message, "hidden_from": sorted(hidden_from)}
    _send_all([(table_group(match_id), event)])
