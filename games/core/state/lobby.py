"""The lobby's three lists, read for one viewer: their matches in progress, the matches they may
watch, and the open tables (issue 10, "The site as players expect it").

Nothing here writes. The rows are plain JSON-friendly dicts, the same for the page
(``templates/games/lobby.html``) and the lobby socket (``docs/protocol.md`` "Lobby"); the texts
in them (ages, names of computer seats, whose turn) are in the active language, so the socket
decorates them in its own (``games.core.sockets.lobby.LobbyConsumer``).

Ratings are not the core's: every list's rows are sent through
``games.core.signals.lobby_matches_read`` (the open tables by ``reads.open_tables``), and the
ratings app adds each player's rating (``games.ratings.lobby``).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db.models import Prefetch
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.timesince import timesince
from django.utils.translation import gettext as _

from games.core import signals, titles
from games.core.models import Match, Seat, seat_account, seat_display_names
from games.core.state import liveness, reads, watching

#: How many matches the lobby lists in each of its two match lists at most.
MATCHES_SHOWN = 20
#: Under this many seconds an open table is "created just now" (timesince says "0 minutes").
JUST_NOW_SECONDS = 60


def age_text(created_at: datetime | str, now: datetime | None = None) -> str:
    """"created 3 minutes ago" in the active language (Django's ``timesince``, whose words
    Django translates), or "created just now" under a minute.

    :param created_at: an aware datetime or its ISO 8601 text (a lobby row's ``created_at``).
    """
    if isinstance(created_at, str):
        created_at = parse_datetime(created_at)
    now = timezone.now() if now is None else now
    if (now - created_at).total_seconds() < JUST_NOW_SECONDS:
        return _("created just now")
    return _("created %(time)s ago") % {"time": timesince(created_at, now, depth=1)}


def seat_entries(players: int, seats: list[dict]) -> list[dict]:
    """Every seat of a table in order, ``{"seat", "side", "username", "bot", "closed", "name",
    "online", "rating", "title"}`` (``closed``: a closed account's seat, whose ``username`` is
    ``None`` and ``name`` "Closed account"); an empty seat has ``username``, ``bot`` ``None``, ``name`` "Empty seat" and
    ``online`` false. ``rating`` is the seat's ``rating`` as given (an app's, see
    ``signals.lobby_matches_read``), ``None`` without one; ``title`` the account's
    (``games.core.titles``), ``None`` without one. ``side`` is 0 or 1 (RULES.md "Four players": partners opposite, seats 0
    and 2 against 1 and 3). Computer seats get distinct names (``seat_display_names``)."""
    by_seat = {seat["seat"]: seat for seat in seats}
    names = seat_display_names(seats)
    return [
        {
            "seat": number,
            "side": number % 2,
            "username": by_seat.get(number, {}).get("username"),
            "bot": by_seat.get(number, {}).get("bot"),
            "closed": bool(by_seat.get(number, {}).get("closed")),
            "name": names.get(number, _("Empty seat")),
            "online": bool(by_seat.get(number, {}).get("online")),
            "rating": by_seat.get(number, {}).get("rating"),
            "title": by_seat.get(number, {}).get("title"),
        }
        for number in range(players)
    ]


def side_names(members: list[dict]) -> str:
    """A side's names from its members' :func:`seat_entries`: "alice" alone, "alice & carol"
    for partners; an empty seat is said as one ("alice and an empty seat", "two empty seats"),
    never joined to a partner's name as if it were a name ("alice & Empty seat")."""
    seated = [entry for entry in members if entry["username"] or entry["bot"] or entry["closed"]]
    names = [entry["name"] for entry in seated]
    if len(members) == 1:
        return names[0] if names else _("Empty seat")
    if len(names) == 2:
        return _("%(a)s & %(b)s") % {"a": names[0], "b": names[1]}
    if names:
        return _("%(name)s and an empty seat") % {"name": names[0]}
    return _("two empty seats")


def sides(entries: list[dict]) -> list[dict]:
    """The two sides of a table from its :func:`seat_entries`: ``[{"number": 1, "side": 0,
    "seats": [0, 2], "members": [their entries], "names": "alice & carol", "label": "Side 1:
    alice & carol"}, ...]`` (``names``: :func:`side_names`)."""
    result = []
    for side in (0, 1):
        members = [entry for entry in entries if entry["side"] == side]
        text = side_names(members)
        result.append({
            "number": side + 1,
            "side": side,
            "seats": [entry["seat"] for entry in members],
            "members": members,
            "names": text,
            "label": _("Side %(number)s: %(names)s") % {"number": side + 1, "names": text},
        })
    return result


def open_table_rows(
    tables: list[dict], *, username: str | None, now: datetime | None = None
) -> list[dict]:
    """The open tables (``reads.open_tables``) as the viewer ``username`` reads them: each row
    with every seat (:func:`seat_entries`), its ``sides``, ``taken`` (seats taken), ``mine``
    (the viewer sits there) and ``age`` (:func:`age_text`). The rows given are not changed."""
    now = timezone.now() if now is None else now
    rows = []
    for table in tables:
        entries = seat_entries(table["players"], table["seats"])
        rows.append({
            **table,
            "seats": entries,
            "sides": sides(entries),
            "taken": sum(1 for seat in entries if seat["username"] or seat["bot"]),
            "mine": username is not None and any(s["username"] == username for s in entries),
            "age": age_text(table["created_at"], now),
        })
    return rows


def _playing() -> Any:
    return (
        Match.objects.filter(status=Match.Status.PLAYING)
        .prefetch_related(
            Prefetch("seats", queryset=Seat.objects.select_related("user").order_by("seat"))
        )
        .order_by("-started_at", "-pk")
    )


def _seats_of(match: Match, marks: dict[int, str]) -> list[dict]:
    return [
        {
            "seat": s.seat,
            **seat_account(s),
            "bot": s.bot or None,
            "title": marks.get(s.user_id),
        }
        for s in match.seats.all()
    ]


def _marks(matches: Any) -> dict[int, str]:
    """The titles of every account seated at ``matches`` (``games.core.titles``): one ask."""
    return titles.titles(s.user_id for match in matches for s in match.seats.all())


def _match_row(match: Match, marks: dict[int, str]) -> dict:
    entries = seat_entries(match.players, _seats_of(match, marks))
    scores = match.scores if len(match.scores or ()) == 2 else [0, 0]
    return {
        "id": match.pk,
        "players": match.players,
        "rated": match.rated,
        "target": match.rules.get("target"),
        "scores": list(scores),
        "seats": entries,
        "sides": sides(entries),
    }


def your_matches(user: Any) -> list[dict]:
    """The matches ``user`` sits at that are being played, newest first (at most
    :data:`MATCHES_SHOWN`): each a row (``id``, ``players``, ``rated``, ``target``, ``scores``
    by side, ``seats``, ``sides``) with ``you`` (the user's seat), ``turn``: ``{"seat",
    "mine", "bot", "text"}`` ("Your turn", "alice to play", "Greedy 2 to play"), or
    ``None`` between rounds, and ``paused``: "Paused" when the table against the computer waits
    for the user, who left it (``liveness.waiting_for``; shown instead of ``turn``), else
    ``None``. Empty for an anonymous user.
    """
    if user is None or not user.is_authenticated:
        return []
    matches = list(_playing().filter(seats__user=user)[:MATCHES_SHOWN])
    marks = _marks(matches)
    rows = []
    for match in matches:
        row = _match_row(match, marks)
        you = next(s["seat"] for s in row["seats"] if s["username"] == user.get_username())
        turn = reads.seat_to_move(match)
        row["you"] = you
        row["turn"] = None
        row["paused"] = _("Paused") if liveness.waiting_for(match.seats.all()) == you else None
        if turn is not None:
            entry = row["seats"][turn]
            replaced = bool(entry["bot"] and entry["username"])
            mine = turn == you and not replaced
            if mine:
                text = _("Your turn")
            elif turn == you:
                text = _("The computer plays for you")
            else:
                text = _("%(name)s to play") % {"name": entry["name"]}
            row["turn"] = {"seat": turn, "mine": mine, "bot": bool(entry["bot"]), "text": text}
        rows.append(row)
    signals.lobby_matches_read.send(sender=Match, rows=rows, waiting=False)
    return rows


def live_matches(user: Any, now: datetime | None = None) -> list[dict]:
    """The matches being played that ``user`` (anyone, logged in or not) may watch and does not
    sit at, newest first (at most :data:`MATCHES_SHOWN`): each a row as in
    :func:`your_matches` without ``you`` and ``turn``, with ``watchers`` (how many people
    watch it, ``games.core.state.watching.watcher_counts``). In every list each seat of a
    person may carry a ``rating`` (the text to show, "1523?") added by the receivers of
    ``signals.lobby_matches_read``.
    """
    # A private table is listed nowhere (its players shared its invite link, not the table).
    matches = _playing().exclude(watchers=Match.Watchers.NOBODY).exclude(private=True)
    logged_in = user is not None and user.is_authenticated
    if logged_in:
        matches = matches.exclude(seats__user=user)
    else:
        matches = matches.exclude(watchers=Match.Watchers.REGISTERED)
    shown = list(matches[:MATCHES_SHOWN])
    marks = _marks(shown)
    rows = [_match_row(match, marks) for match in shown]
    counts = watching.watcher_counts([row["id"] for row in rows], now=now)
    for row in rows:
        row["watchers"] = counts[row["id"]]
    signals.lobby_matches_read.send(sender=Match, rows=rows, waiting=False)
    return rows
