"""Reading the tables: a socket's ``state``, the lobby's rows, what a message needs. Nothing here
writes (the writes are ``games.core.actions``).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from django.db.models import Prefetch
from django.utils import timezone

from games import engine
from games.core import signals, titles
from games.core.errors import GameError
from games.core.models import Event, Match, Seat
from games.core.state import liveness, watching
from games.core.state.cache import SeatRow, cache, seat_rows, table_extras
from games.core.state.messages import TableInfo, play_by, state_messages
from games.core.state.queries import match_row
from games.engine import shuffle


def last_play_by(match: Match) -> dict | None:
    """``{"seat", "timeout", "bot"}`` of ``match``'s last ``play`` event up to ``match.seq``.

    ``timeout`` is true when the server played for a person whose time ran out, ``bot`` the
    computer level that played a computer seat (``docs/protocol.md`` "Event log", ``play``).
    One indexed query (the newest events of the match, read backwards); ``None`` before the
    first play or while the table is open.
    """
    if match.status == Match.Status.OPEN or not match.seq:
        return None
    row = (
        Event.objects.filter(match_id=match.pk, seq__lte=match.seq, kind=Event.Kind.PLAY)
        .order_by("-seq")
        .values_list("seat", "payload")
        .first()
    )
    return None if row is None else play_by(*row)


def shuffle_info(match: Match) -> dict | None:
    """The public fair-shuffle data of ``match`` (RULES.md, "Provably fair shuffle").

    ``{"algorithm": "basra-shuffle/1", "commitment": hex, "client_seeds": [one per seat] or
    None before the start, "server_seed": hex once the match is over, else None}``; ``None``
    for a match dealt before the fair shuffle (no server seed). The server seed is read here and
    nowhere else that a message, page or record is built from.
    """
    if not match.server_seed:
        return None
    finished = match.status == Match.Status.FINISHED
    return {
        "algorithm": shuffle.ALGORITHM,
        "commitment": shuffle.commitment(match.server_seed),
        "client_seeds": list(match.client_seeds) if match.status != Match.Status.OPEN else None,
        "server_seed": match.server_seed if finished else None,
    }


def table_info(
    match: Match, seats: Sequence[SeatRow], events: Sequence[Event] = (), *, played: bool = True
) -> TableInfo:
    """The :class:`games.core.state.messages.TableInfo` of ``match`` and its :func:`games.core.state.cache.seat_rows`.

    :param events: the events a change just appended (up to ``match.seq``); when one is a
        ``play``, ``last_play_by`` comes from it instead of a query.
    :param played: ``False`` when the current round has no play yet: no message shows who made
        the match's last play then (``messages._mark_last_play``), so it is not read.

    ``missed`` and ``aborted_by`` come from the ``match_end`` and ``abort`` events (of
    ``events``, or one query) of a match that was aborted, the only ending that has them: a
    finished table is read rarely.
    """
    scores = match.scores if len(match.scores or ()) == 2 else (0, 0)
    last = next(
        (play_by(e.seat, e.payload) for e in reversed(events) if e.kind == Event.Kind.PLAY),
        None,
    )
    ordered = tuple(sorted(seats, key=lambda s: s.seat))
    return TableInfo(
        id=match.pk,
        status=str(match.status),
        players=match.players,
        rated=match.rated,
        rules=dict(match.rules),
        seats=ordered,
        deadline=match.deadline,
        move_seconds=match.move_seconds,
        winner=match.winner_side,
        result=str(match.result or ""),
        scores=(scores[0], scores[1]),
        last_play_by=last or (last_play_by(match) if played else None),
        shuffle=shuffle_info(match),
        extras=table_extras(match, ordered),
        **_abort_facts(match, events),
    )


def _abort_facts(match: Match, events: Sequence[Event]) -> dict:
    """``{"missed", "aborted_by"}`` of an aborted match (``{}`` for any other): ``match_end``'s
    ``missed`` (``endings.finish``) when a rated match was aborted early, and the seat of the
    ``abort`` event when a player called it off (``endings.abort_match``), each ``None``
    otherwise. From ``events`` when they hold the ``match_end``, else one query."""
    if match.status != Match.Status.FINISHED or match.result != Match.Result.ABORT:
        return {}
    ending = [(e.kind, e.seat, e.payload) for e in events
              if e.kind in (Event.Kind.ABORT, Event.Kind.MATCH_END)]
    if not any(kind == Event.Kind.MATCH_END for kind, _seat, _payload in ending):
        ending = list(
            Event.objects.filter(
                match_id=match.pk, kind__in=(Event.Kind.ABORT, Event.Kind.MATCH_END)
            ).values_list("kind", "seat", "payload")
        )
    end = next((payload for kind, _seat, payload in ending if kind == Event.Kind.MATCH_END), None)
    by = next((seat for kind, seat, _payload in ending if kind == Event.Kind.ABORT), None)
    missed = None
    if match.rated and end and end.get("early"):
        # A match aborted early before ``missed`` was kept has none to name.
        missed = tuple(end.get("missed") or ())
    return {"missed": missed, "aborted_by": by}


def table_state(
    *, match_id: int, user: Any, watching_rule: bool = False, session: Any = None
) -> dict:
    """The ``state`` message (``docs/protocol.md``) of table ``match_id`` as ``user`` may see it.

    A seated user gets their seat's view (their own hand); anyone else, logged in or not, the
    spectator view (no hand). ``prev_seq`` is ``None``: this is a snapshot.

    :param watching_rule: refuse a user who is not seated and may not watch
        (``games.core.state.watching.check_may_watch``, ``Match.watchers``), and, at a private
        table, one neither seated nor invited (``check_may_see_private``).
    :param session: the asker's Django session (its invited tables), with ``watching_rule``.
    :raises GameError: ``not_found`` (also a private table the asker may not see); with
        ``watching_rule``, ``watch_nobody`` or ``watch_login_required``.
    """
    match = match_row(match_id)
    if match is None:
        raise GameError("not_found")
    seats = seat_rows(match)
    you = None
    if user is not None and user.is_authenticated:
        you = next((s.seat for s in seats if s.user_id == user.pk), None)
    if watching_rule:
        watching.check_may_see_private(
            match=match, seated=you is not None,
            invited=match.pk in watching.invited_tables(session),
        )
        watching.check_may_watch(
            watchers=match.watchers, status=match.status, seated=you is not None, user=user
        )
    return _snapshots(match, seats, [you])[you]


def table_states(match_id: int) -> tuple[dict[int | None, dict], dict[int, int]] | None:
    """Every seat's ``state`` and the spectators' of table ``match_id`` as it stands, for a
    broadcast that follows no event (the same ``seq``; ``prev_seq`` ``None``, a snapshot):
    ``({seat: state, None: spectators' state}, {seat: user id})``. ``None``: no such table,
    or one not started (nothing to count down).
    """
    match = match_row(match_id)
    if match is None or match.status == Match.Status.OPEN:
        return None
    seats = seat_rows(match)
    seat_users = {s.seat: s.user_id for s in seats if s.user_id is not None}
    return _snapshots(match, seats, [*seat_users, None]), seat_users


def _snapshots(
    match: Match, seats: tuple[SeatRow, ...], viewers: list[int | None]
) -> dict[int | None, dict]:
    """The ``state`` of ``match`` as it stands for each of ``viewers`` (seats; ``None``: the
    spectators), ``prev_seq`` ``None`` (a snapshot): :func:`table_state`, :func:`table_states`."""
    if match.status == Match.Status.OPEN:
        info = table_info(match, seats, played=False)
        return state_messages(info, None, seq=match.seq, prev_seq=None, seats=viewers)
    played = cache.read(match, lambda live: live.round is not None and bool(live.round.plays))
    info = table_info(match, seats, played=played)

    def build(live: engine.Match) -> dict[int | None, dict]:
        return state_messages(info, live, seq=match.seq, prev_seq=None, seats=viewers)

    return cache.read(match, build)


def seat_to_move(match: Match) -> int | None:
    """The seat to move at ``match.seq`` (``None``: no round being played)."""
    return cache.read(
        match, lambda live: None if live.round is None or live.round.over else live.round.turn
    )


def turn_view(match: Match, seat: int) -> engine.SeatView | None:
    """The engine's view of ``seat`` at ``match.seq`` if it is that seat's turn, else ``None``."""

    def view(live: engine.Match) -> engine.SeatView | None:
        if live.round is None or live.round.over or live.round.turn != seat:
            return None
        return live.view(seat)

    return cache.read(match, view)


def online_since(now: datetime | None = None) -> datetime:
    """A seated person whose sockets beat after this moment is online (``Seat.last_seen``): two
    heartbeats and a few seconds back (``liveness.heartbeat_seconds()``)."""
    now = timezone.now() if now is None else now
    return now - timedelta(seconds=2 * liveness.heartbeat_seconds() + 5)


def open_tables() -> list[dict]:
    """The lobby rows (``docs/protocol.md`` "tables"): every open table that is not private,
    oldest first.

    Each row: ``id``, ``players``, ``rated``, ``rules``, ``target``, ``move_seconds``,
    ``watchers`` (``Match.watchers``), ``seats`` (``[{"seat", "username", "bot", "online",
    "title"}]`` of the taken seats; ``username`` null and ``bot`` a level for a computer seat;
    ``online``: a person whose table or lobby socket beat lately, :func:`online_since`;
    ``title``: the account's, ``games.core.titles``, asked once for every row), ``created_by``
    (username), ``created_by_online`` (the creator sits there and is online), ``created_at``
    (ISO 8601), ``commitment`` (the fair shuffle's, RULES.md "Provably fair shuffle" 1; ``None``
    for a table opened before it). A person's seat may carry a ``rating`` (the text to show), added
    by the receivers of ``signals.lobby_matches_read``.
    """
    since = online_since()
    matches = (
        Match.objects.filter(status=Match.Status.OPEN, private=False)
        .select_related("created_by")
        .prefetch_related(
            Prefetch("seats", queryset=Seat.objects.select_related("user").order_by("seat"))
        )
        .order_by("created_at", "pk")
    )
    marks = titles.titles(s.user_id for m in matches for s in m.seats.all())
    rows = [
        {
            "id": m.pk,
            "players": m.players,
            "rated": m.rated,
            "rules": m.rules,
            "target": m.rules.get("target"),
            "move_seconds": m.move_seconds,
            "watchers": m.watchers,
            "seats": [
                {
                    "seat": s.seat,
                    "username": s.user.get_username() if s.user_id is not None else None,
                    "bot": s.bot or None,
                    "online": s.user_id is not None and _seen_since(s, since),
                    "title": marks.get(s.user_id),
                }
                for s in m.seats.all()
            ],
            "created_by": m.created_by.get_username(),
            "created_by_online": any(
                s.user_id == m.created_by_id and _seen_since(s, since) for s in m.seats.all()
            ),
            "created_at": m.created_at.isoformat(),
            "commitment": shuffle.commitment(m.server_seed) if m.server_seed else None,
        }
        for m in matches
    ]
    signals.lobby_matches_read.send(sender=Match, rows=rows, waiting=True)
    return rows


def _seen_since(seat: Seat, since: datetime) -> bool:
    return seat.last_seen is not None and seat.last_seen >= since
