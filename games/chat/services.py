"""The chat's one write (:func:`post_line`) and its reads (a table's history, a replay's lines,
the moderators' readers), ``docs/protocol.md`` "Chat".

Who may write where (``room``): while a match is not over, a seated player writes in
``player`` and a spectator in ``spectator``, and each side reads only its own room (lichess:
the players do not read the spectators); at a running four-player table the seats have no free
chat at all (partners could tell each other their hands: the quick phrases stay). Once the match
is over both rooms are open to everyone at the table, to read and to write. A line of a player
whom the reader blocked never reaches them (``games.core.relations``, kind ``chat``).
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
from games.core.for_apps import GameError, Match, Seat, relations, table_frames
from games.moderation.for_apps import chat_refusal

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
    if sanction is not None:
        raise ChatError(sanction)
    cleaned = chat_text.clean(text) if len(text) <= chat_text.MAX_RAW else text
    if len(cleaned) > chat_text.MAX_LENGTH:
        raise ChatError("chat_too_long", count=chat_text.MAX_LENGTH)
    if not cleaned:
        raise GameError("bad_message")
    match = Match.objects.filter(pk=match_id).values_list("status", "players").first()
    if match is None:
        raise GameError("not_found")
    status, players = match
    over = status == Match.Status.FINISHED
    if not over and (
        (room == Room.PLAYER) != (seat is not None)
        or (seat is not None and players == 4 and status == Match.Status.PLAYING)
    ):
        raise ChatError("chat_not_allowed")
    if not admit(user.pk):
        # ``retry_after``: the longest wait until the window ends (the API's Retry-After).
        raise ChatError("chat_rate_limited", retry_after=RATE_SECONDS)
    with transaction.atomic():
        row = ChatLine.objects.create(match_id=match_id, user=user, room=room, text=chat_text.mask(cleaned))
        line = as_frame_line(row, user.get_username())
        to = "everyone" if over else ("seats" if room == Room.PLAYER else "spectators")
        table_frames.send(
            match_id, {"type": LINE_FRAME, "line": line}, to=to, sender=user.pk, kind="chat",
            hidden_from=chat_off_among(table_frames.people_at(match_id)),
        )
    return line


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
    status = Match.objects.filter(pk=match_id).values_list("status", flat=True).first()
    if status is None:
        raise GameError("not_found")
    viewer = user.pk if user is not None and user.is_authenticated else None
    if viewer is not None and not chat_enabled(viewer):
        return []
    rows = ChatLine.objects.filter(match_id=match_id).select_related("user").order_by("-id")
    if status != Match.Status.FINISHED:
        rows = rows.filter(room=Room.PLAYER if seat is not None else Room.SPECTATOR)
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
        "text": row.text, "created": row.created,
    }


def lines_by(user_id: int, limit: int) -> list[dict]:
    """The moderators' reader: the latest ``limit`` lines of ``user_id``, newest first
    (``games.moderation.for_apps.provide_chat``)."""
    return [_plain(row) for row in ChatLine.objects.filter(user_id=user_id).order_by("-id")[:limit]]


def line(line_id: int) -> dict | None:
    """The moderators' reader: one line, or ``None``."""
    row = ChatLine.objects.filter(pk=line_id).first()
    return _plain(row) if row is not None else None
