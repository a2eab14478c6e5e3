"""The chat's one write (:func:`post_line`) and its reads (a table's history, a replay's lines,
the moderators' readers), ``docs/protocol.md`` "Chat".

Who may write where (``room``): while a match is not over, a seated player writes in
``player`` and a spectator in ``spectator``, and each side reads only its own room (lichess:
the players do not read the spectators); at a running four-player table the seats have no free
chat at all (partners could tell each other their hands: the quick phrases stay). Once the match
is over the seats read and write both rooms; a spectator reads the spectators' room and, when
logged in, the players' room, and writes only the spectators'. Someone not seated whom the table
does not let watch (its "who may watch" setting, ``check_may_watch`` as while it is played: a
finished table does not open its chat to those its setting kept out) reads and writes no room.
A line of a player whom the reader blocked never reaches them (``games.core.relations``, kind
``chat``).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django.core.cache import cache
from django.db import transaction
from django.urls import reverse

from games.chat import text as chat_text
from games.chat.errors import ChatError
from games.chat.models import ChatLine, ChatSetting, Room
from games.core.for_apps import GameError, Match, Seat, check_may_watch, relations, table_frames
from games.moderation.for_apps import chat_refusal, chat_timeout_until

#: The flood limit: at most :data:`RATE_LINES` lines in any :data:`RATE_SECONDS` window
#: (fixed, starting at the first line) per player, over all their tables and tabs; one atomic
#: ``add`` and one ``incr`` in the cache (Redis when ``REDIS_URL`` is set).
RATE_LINES = 5
RATE_SECONDS = 10
#: The lines a table's history and a replay show (the latest).
HISTORY = 100
#: The frame type of a line, sent to the table's sockets, and of a history's answer.
LINE_FRAME, LINES_FRAME = "chat", "chat_lines"


def chat_enabled(user_id: int) -> bool:
    """Whether player ``user_id`` has their chat on (the default)."""
    return not ChatSetting.objects.filter(user_id=user_id, enabled=False).exists()


def chat_off_among(user_ids: set[int]) -> list[int]:
    """Those of ``user_ids`` whose chat is off (one query): no line is sent to them."""
    return list(ChatSetting.objects.filter(user_id__in=user_ids, enabled=False).values_list("user_id", flat=True))


def set_enabled(user: Any, enabled: bool) -> None:
    """Turn ``user``'s chat on or off (kept on the account)."""
    ChatSetting.objects.update_or_create(user=user, defaults={"enabled": enabled})


def admit(user_id: int) -> bool:
    """Whether ``user_id`` may send one more line now (:data:`RATE_LINES` a window)."""
    key = f"chat-rate:{user_id}"
    if cache.add(key, 1, timeout=RATE_SECONDS):
        return True
    try:
        return cache.incr(key) <= RATE_LINES
    except ValueError:  # the window ended between the two calls
        cache.add(key, 1, timeout=RATE_SECONDS)
        return True


def report_url(username: str, match_id: int, line_id: int) -> str:
    """The moderation app's report form for a line (URL ``moderation:report``, the reported
    player's name in the path, ``?match=&line=``)."""
    query = urlencode({"match": match_id, "line": line_id})
    return f'{reverse("moderation:report", kwargs={"username": username})}?{query}'


def as_frame_line(row: ChatLine, username: str) -> dict:
    """A line as the table's page gets it: ``{"id", "room", "username", "text", "created"
    (ISO 8601), "report" (the report form's address)}``."""
    return {
        "id": row.pk, "room": row.room, "username": username, "text": row.text,
        "created": row.created.isoformat(), "report": report_url(username, row.match_id, row.pk),
    }


def _logged_in(user: Any) -> bool:
    return user is not None and user.is_authenticated


def may_watch(watchers: str, user: Any) -> bool:
    """Whether ``user``, not seated, may be at a table with this ``watchers`` setting at all
    (the core's rule as while the match is played, whatever its status now)."""
    try:
        check_may_watch(watchers=watchers, status=Match.Status.PLAYING, seated=False, user=user)
    except GameError:
        return False
    return True


def readable_rooms(*, status: str, watchers: str, seated: bool, user: Any) -> set[str]:
    """The rooms a reader may read at a table now (the module's docstring): none for someone
    not seated whom the table does not let watch."""
    over = status == Match.Status.FINISHED
    if seated:
        return set(Room.values) if over else {Room.PLAYER}
    if not may_watch(watchers, user):
        return set()
    if over and _logged_in(user):
        return set(Room.values)
    return {Room.SPECTATOR}


def _may_write(*, room: str, status: str, players: int, watchers: str, seated: bool, user: Any) -> bool:
    if seated:
        if status == Match.Status.FINISHED:
            return True
        return room == Room.PLAYER and not (players == 4 and status == Match.Status.PLAYING)
    return room == Room.SPECTATOR and may_watch(watchers, user)


def post_line(*, user: Any, match_id: int, seat: int | None, room: object, text: object) -> dict:
    """Say ``text`` in ``room`` at table ``match_id`` as ``user`` sitting in ``seat`` (``None``:
    a spectator); returns the line as sent (:func:`as_frame_line`). Stored, then sent on commit
    to whoever may read the room (``table_frames.send``), but those at the table whose chat is
    off and those who blocked ``user``.

    :raises GameError: ``login_required``, ``bad_message`` (no such room, ``text`` not a
        string, or empty once cleaned), ``not_found`` (no such table).
    :raises ChatError: ``chat_off``, ``chat_timeout``, ``chat_banned``, ``chat_too_long``,
        ``chat_not_allowed``, ``chat_rate_limited``.
    """
    if user is None or not user.is_authenticated:
        raise GameError("login_required")
    if room not in Room.values or not isinstance(text, str):
        raise GameError("bad_message")
    if not chat_enabled(user.pk):
        raise ChatError("chat_off")
    sanction = chat_refusal(user)
    if sanction == "chat_timeout":
        raise ChatError(sanction, until=chat_timeout_until(user))
    if sanction is not None:
        raise ChatError(sanction)
    cleaned = chat_text.clean(text) if len(text) <= chat_text.MAX_RAW else text
    if len(cleaned) > chat_text.MAX_LENGTH:
        raise ChatError("chat_too_long", count=chat_text.MAX_LENGTH)
    if not cleaned:
        raise GameError("bad_message")
    match = Match.objects.filter(pk=match_id).values_list("status", "players", "watchers").first()
    if match is None:
        raise GameError("not_found")
    status, players, watchers = match
    if not _may_write(
        room=room, status=status, players=players, watchers=watchers, seated=seat is not None, user=user
    ):
        raise ChatError("chat_not_allowed")
    if not admit(user.pk):
        # ``retry_after``: the longest wait until the window ends (the API's Retry-After).
        raise ChatError("chat_rate_limited", retry_after=RATE_SECONDS)
    with transaction.atomic():
        row = ChatLine.objects.create(
            match_id=match_id, user=user, room=room, text=chat_text.mask(cleaned), original=cleaned
        )
        line = as_frame_line(row, user.get_username())
        table_frames.send(
            match_id, {"type": LINE_FRAME, "line": line}, sender=user.pk, kind="chat",
            hidden_from=chat_off_among(table_frames.people_at(match_id)),
            **_audience(room=room, over=status == Match.Status.FINISHED, watchers=watchers),
        )
    return line


def _audience(*, room: str, over: bool, watchers: str) -> dict:
    """``table_frames.send``'s ``to`` and ``logged_in_only`` for a line of ``room``: those who
    may read it (:func:`readable_rooms`)."""
    if room == Room.PLAYER:
        to = "everyone" if over and watchers != Match.Watchers.NOBODY else "seats"
    elif watchers == Match.Watchers.NOBODY:
        to = "seats"  # no spectator may read it: only the seats, once the match is over
    else:
        to = "everyone" if over else "spectators"
    return {"to": to, "logged_in_only": room == Room.PLAYER or watchers == Match.Watchers.REGISTERED}


def _visible(rows: list[ChatLine], viewer_id: int | None) -> list[dict]:
    """``rows`` as frames' lines, less those of players whom ``viewer_id`` blocked."""
    hidden: set[int] = set()
    if viewer_id is not None and rows:
        senders = {row.user_id for row in rows}
        hidden = {actor for (actor, _t) in relations.barriers("chat", senders, (viewer_id,))}
    return [as_frame_line(row, row.user.get_username()) for row in rows if row.user_id not in hidden]


def history(*, user: Any, match_id: int, seat: int | None) -> list[dict]:
    """The latest :data:`HISTORY` lines of table ``match_id`` its reader may read (the rooms as
    in the module's docstring), oldest first; none when the reader's chat is off.

    :raises GameError: ``not_found``.
    """
    match = Match.objects.filter(pk=match_id).values_list("status", "watchers").first()
    if match is None:
        raise GameError("not_found")
    viewer = user.pk if _logged_in(user) else None
    if viewer is not None and not chat_enabled(viewer):
        return []
    rooms = readable_rooms(status=match[0], watchers=match[1], seated=seat is not None, user=user)
    if not rooms:
        return []
    rows = ChatLine.objects.filter(match_id=match_id, room__in=rooms).select_related("user").order_by("-id")
    return _visible(list(rows[:HISTORY])[::-1], viewer)


def replay_lines(match_id: int, viewer: Any) -> list[dict] | None:
    """The lines of finished match ``match_id`` for its replay, oldest first, or ``None`` when
    ``viewer`` is not one of its seated players (the public and its spectators do not see them)."""
    if viewer is None or not viewer.is_authenticated:
        return None
    if not Seat.objects.filter(match_id=match_id, user_id=viewer.pk).exists():
        return None
    rows = ChatLine.objects.filter(match_id=match_id).select_related("user").order_by("-id")
    return _visible(list(rows[:HISTORY])[::-1], viewer.pk)


def _plain(row: ChatLine) -> dict:
    return {
        "id": row.pk, "user_id": row.user_id, "match_id": row.match_id, "room": row.room,
        "text": row.text, "original": row.original or row.text, "created": row.created,
    }


def lines_by(user_id: int, limit: int) -> list[dict]:
    """The moderators' reader: the latest ``limit`` lines of ``user_id``, newest first
    (``games.moderation.for_apps.provide_chat``), each ``{"id", "user_id", "match_id", "room",
    "text" (as shown), "original" (as written, before the word filter), "created"}``."""
    return [_plain(row) for row in ChatLine.objects.filter(user_id=user_id).order_by("-id")[:limit]]


def line(line_id: int) -> dict | None:
    """The moderators' reader: one line, or ``None``."""
    row = ChatLine.objects.filter(pk=line_id).first()
    return _plain(row) if row is not None else None
