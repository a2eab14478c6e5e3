"""Every change to a table: one function per action (STYLE.md, "In this project" 4).

Each write function locks the match row (``select_for_update``) inside ``transaction.atomic``,
checks the request, asks the engine, appends ``Event`` rows numbered from ``Match.seq + 1`` and
registers the broadcast with ``transaction.on_commit``, so no socket ever sees a change that was
rolled back. Refusals raise ``ServiceError`` before anything is written. The protocol these
functions serve is ``docs/protocol.md``. One exception, for speed: a play at a table whose state
this process keeps at the client's ``seq`` is written by one compare-and-set statement instead
(:func:`_play_from_cache`), and falls back to the locked way whenever that statement finds the
row moved on.

The same write path serves the people at the table (create, join, leave, play, claim, resign),
their sockets (:func:`player_connected`, :func:`player_seen`) and the table clock
(``games.clock``: :func:`act_on_deadline`, :func:`bot_play`, :func:`mark_absent`). After every
change the match's ``deadline`` is set again: the seat to move's time per play, or for a
computer seat a short human-looking delay (:func:`bot_delay`).
"""

from __future__ import annotations

import random
import threading
import uuid
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.db.models import F, Prefetch, Q
from django.utils import timezone
from django.utils.translation import gettext

from games import broadcast, engine, state
from games.engine.bots import BOTS, GreedyBot
from games.models import MOVE_SECONDS, ClockTick, Event, Match, Seat, WebTick

#: The ``Match`` fields a service may change after creating the row (saved together).
_MATCH_FIELDS = [
    "seq", "status", "started_at", "finished_at", "scores", "winner_side", "result", "deadline",
    "seating_token",
]
#: The order seats are filled in (RULES.md "Four players": creator 0, partner 2, then 1, 3).
SEAT_ORDER = {2: (0, 1), 4: (0, 2, 1, 3)}
#: The time per play of a table whose creator did not say (seconds).
DEFAULT_MOVE_SECONDS = 30
#: How many tables that have not started yet one person may sit at when opening another: an
#: abandoned open table stays in the lobby, so one person must not be able to fill it.
MAX_OPEN_TABLES = 3
#: Timeouts in a row after which a seat is absent (the issue: "timing out three plays in a row").
TIMEOUTS_ABSENT = 3
#: The computer that plays for a timed-out person, and that takes over an absent one.
STAND_IN = Seat.Bot.GREEDY
#: Seconds a computer player may think per play (the strong bot uses it all; the others need
#: far less). It adds to the human-looking delay, so it is kept short.
BOT_TIME_LIMIT = 0.5
#: How often an open table socket tells the server its seat is still there (seconds). Much
#: shorter than the absence grace period, so a connected seat is never taken for gone.
HEARTBEAT_SECONDS = 15


# SQLite has no row locks (Django makes select_for_update a no-op there, and the in-memory test
# database answers a second writer with "table is locked" instead of waiting), so on SQLite the
# services of one process take turns through this lock instead. PostgreSQL uses the row lock.
_SQLITE_WRITE_LOCK = threading.RLock()


@contextmanager
def _write_transaction() -> Iterator[None]:
    """``transaction.atomic()``, serialized within the process when the database is SQLite."""
    if connection.vendor == "sqlite":
        with _SQLITE_WRITE_LOCK, transaction.atomic():
            yield
    else:
        with transaction.atomic():
            yield


class ServiceError(Exception):
    """A refused request. ``code`` is stable (``docs/protocol.md`` "error"); ``message`` is
    translated text for the user.
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    @classmethod
    def of(cls, code: str) -> ServiceError:
        """The error for ``code`` with its translated message (in the active language)."""
        return cls(code, _messages()[code])


def _messages() -> dict[str, str]:
    # Built per call so each message is translated into the language active at that moment.
    return {
        "not_found": gettext("This table does not exist."),
        "login_required": gettext("Log in to play."),
        "not_seated": gettext("You do not have a seat at this table."),
        "not_started": gettext("The match has not started: the table is waiting for players."),
        "match_over": gettext("The match is over."),
        "stale": gettext("The table has changed since your last update; here is the current state."),
        "timed_out": gettext(
            "Too late: your time ran out and the server already played for you."
        ),
        "not_your_turn": gettext("It is not your turn."),
        "bad_card": gettext("That is not a card."),
        "card_not_in_hand": gettext("That card is not in your hand."),
        "table_full": gettext("This table is full."),
        "seat_taken": gettext("That seat is taken."),
        "already_seated": gettext("You already have a seat at this table."),
        "cannot_leave": gettext("The match has started: you can no longer leave the table."),
        "bad_rules": gettext("These rules are not valid."),
        "bad_clock": gettext(
            "Choose a time per play of 10, 20, 30 or 60 seconds; only a casual table may have "
            "no clock."
        ),
        "bad_bot": gettext("Choose a computer level (random, greedy or strong) for a free seat."),
        "bot_not_rated": gettext("A match with a computer player cannot be rated."),
        "too_many_open_tables": gettext(
            "You already sit at %(count)s tables waiting for players: start or leave one of "
            "them before opening another."
        ) % {"count": MAX_OPEN_TABLES},
        "not_bot_seat": gettext("That seat is not played by the computer."),
        "replaced_by_bot": gettext(
            "You were away too long: the computer plays your seat for the rest of this match."
        ),
        "claim_not_allowed": gettext(
            "You can claim the win only when your opponent has left a two-player match."
        ),
        "opponent_returned": gettext("Your opponent is back: the win can no longer be claimed."),
        "resign_offered": gettext(
            "You already offered to resign; your side resigns when your partner does too."
        ),
    }


def _require_login(user: Any) -> None:
    if user is None or not user.is_authenticated:
        raise ServiceError.of("login_required")


def _now(now: datetime | None) -> datetime:
    return timezone.now() if now is None else now


def _lock(match_id: int) -> Match:
    """The match row, locked until the end of the transaction.

    :raises ServiceError: ``not_found``.
    """
    if connection.vendor == "sqlite":
        # No row locks in SQLite. Making this transaction's first statement a write takes the
        # database's write lock now, waiting for it as BEGIN IMMEDIATE would: the clock process
        # cannot write between this read and this transaction's own writes, and the two never
        # deadlock on a read lock that wants to become a write lock.
        Match.objects.filter(pk=match_id).update(seq=F("seq"))
    try:
        # NO KEY UPDATE: the key never changes, and new events referencing the row must not wait.
        return Match.objects.select_for_update(no_key=True).get(pk=match_id)
    except Match.DoesNotExist:
        raise ServiceError.of("not_found") from None


def _seats(match: Match) -> list[Seat]:
    return list(Seat.objects.filter(match_id=match.pk).select_related("user").order_by("seat"))


def _changed_seating(match: Match) -> None:
    """Note that a seat changed: cached seatings of this match are no longer used."""
    match.seating_token = uuid.uuid4()


class _Log:
    """The events one action appends, numbered on from ``match.seq``, written in one query."""

    def __init__(self, match: Match) -> None:
        self.match = match
        self.events: list[Event] = []

    def add(self, kind: str, payload: dict, seat: int | None = None) -> None:
        self.match.seq += 1
        self.events.append(
            Event(match=self.match, seq=self.match.seq, kind=kind, seat=seat, payload=payload)
        )

    def write(self) -> None:
        Event.objects.bulk_create(self.events)


def _broadcast_lobby() -> None:
    broadcast.send_tables(open_tables())


def bot_delay() -> timedelta:
    """How long a computer seat waits before it plays: uniform in ``BASRA_BOT_DELAY_SECONDS``.

    Default 0.6-1.5 s: long enough to see each play land, short enough not to bore (the issue:
    "bots play after a short, human-looking delay").
    """
    low, high = settings.BASRA_BOT_DELAY_SECONDS
    return timedelta(seconds=random.uniform(low, high))


def _deadline(match: Match, bots: Mapping[int, str], live: engine.Match | None, now: datetime):
    """When the seat to move runs out (a person) or plays (the computer); ``None`` if no clock."""
    if match.status != Match.Status.PLAYING or live is None or live.over:
        return None
    turn = live.round.turn if live.round is not None else None
    if turn is None:
        return None
    if bots.get(turn):
        return now + bot_delay()
    if match.move_seconds:
        return now + timedelta(seconds=match.move_seconds)
    return None


def _after_change(
    match: Match,
    live: engine.Match | None,
    prev_seq: int,
    *,
    lobby: bool = False,
    log: _Log | None = None,
) -> None:
    """After the commit: keep ``live`` in the cache and send every seat and the spectators
    their new ``state`` (``prev_seq``: the ``seq`` before the change; ``log``: this change's
    events, which spare a query for the last play when they hold it)."""
    info_seats = state.seat_rows(match)
    info = state.TableInfo.of(match, info_seats, log.events if log is not None else ())
    seq = match.seq
    seat_users = {s.seat: s.user_id for s in info_seats if s.user_id is not None}

    def after_commit() -> None:
        states = state.state_messages(
            info, live, seq=seq, prev_seq=prev_seq, seats=[*seat_users, None]
        )
        if live is not None:
            state.cache.checkin(match, live, seq)
        broadcast.send_states(match.pk, states, seat_users)
        if lobby:
            _broadcast_lobby()

    transaction.on_commit(after_commit)


# --- seating ----------------------------------------------------------------------------------


def _check_clock(rated: bool, move_seconds: int | None) -> None:
    if move_seconds is None:
        if rated:
            raise ServiceError.of("bad_clock")
    elif isinstance(move_seconds, bool) or move_seconds not in MOVE_SECONDS:
        raise ServiceError.of("bad_clock")


def _check_bots(players: int, bots: Mapping[int, str]) -> dict[int, str]:
    checked = {}
    for seat, level in bots.items():
        if (
            isinstance(seat, bool)
            or not isinstance(seat, int)
            or not 1 <= seat < players
            or level not in Seat.Bot.values
            or level not in BOTS
        ):
            raise ServiceError.of("bad_bot")
        checked[seat] = level
    return checked


def create_table(
    *,
    user: Any,
    players: int,
    rules: dict,
    rated: bool,
    move_seconds: int | None = DEFAULT_MOVE_SECONDS,
    bots: Mapping[int, str] | None = None,
    now: datetime | None = None,
) -> Match:
    """Open a table; ``user`` takes seat 0 and the computer the seats in ``bots``.

    :param players: 2 or 4.
    :param rules: ``Rules`` fields other than ``players`` (RULES.md, "The engine's public
        interface"); missing fields take the engine's defaults. A ``players`` key is accepted only
        if it equals ``players``.
    :param rated: stored for the ratings; never with a computer seat.
    :param move_seconds: the time per play, one of ``models.MOVE_SECONDS``; ``None`` (no clock)
        only at a casual table.
    :param bots: ``{seat: level}``, a level of ``games.engine.bots.BOTS`` for seats 1 and up.
        When they fill the table with the creator it starts at once.
    :returns: the new ``Match`` (status ``open``, or ``playing`` if every seat is taken).
    :raises ServiceError: ``login_required``; ``bad_rules`` (players not 2 or 4, an unknown
        option or a bad value); ``bad_clock``; ``bad_bot`` (not a level, or not a free seat);
        ``bot_not_rated``; ``too_many_open_tables`` (``user`` already sits at
        ``MAX_OPEN_TABLES`` tables that have not started).
    """
    _require_login(user)
    if players not in SEAT_ORDER or not isinstance(rules, dict):
        raise ServiceError.of("bad_rules")
    options = dict(rules)
    if options.pop("players", players) != players:
        raise ServiceError.of("bad_rules")
    try:
        rules_obj = engine.Rules(players=players, **options)
    except (TypeError, ValueError):
        raise ServiceError.of("bad_rules") from None
    _check_clock(bool(rated), move_seconds)
    bots = _check_bots(players, bots or {})
    if bots and rated:
        raise ServiceError.of("bot_not_rated")
    now = _now(now)
    with _write_transaction():
        open_seats = Seat.objects.filter(user=user, match__status=Match.Status.OPEN)
        if open_seats.count() >= MAX_OPEN_TABLES:
            raise ServiceError.of("too_many_open_tables")
        match = Match.objects.create(
            created_by=user,
            players=players,
            rules=rules_obj.to_dict(),
            rated=bool(rated),
            scores=[0, 0],
            move_seconds=move_seconds,
        )
        seats = [Seat.objects.create(match=match, seat=0, user=user, last_seen=now)]
        seats += Seat.objects.bulk_create(
            [Seat(match=match, seat=seat, bot=level) for seat, level in sorted(bots.items())]
        )
        log = _Log(match)
        log.add(Event.Kind.JOIN, {"user": user.pk, "username": user.get_username()}, seat=0)
        for seat, level in sorted(bots.items()):
            log.add(Event.Kind.JOIN, {"bot": level}, seat=seat)
        live = None
        if len(seats) == players:
            live = _start(match, seats, log, now)
        log.write()
        match.save(update_fields=_MATCH_FIELDS)

        def after_commit() -> None:
            if live is not None:
                state.cache.checkin(match, live, match.seq)
            _broadcast_lobby()

        transaction.on_commit(after_commit)
    return match


def join_table(
    *, user: Any, match_id: int, seat: int | None = None, now: datetime | None = None
) -> int:
    """Take a seat of an open table; the match starts when the last seat is taken.

    Without ``seat``, the next empty seat in the order 0, 1 (2 players) or 0, 2, 1, 3 (4 players;
    RULES.md "Four players"). With ``seat``, that seat: an empty one, or a computer's (the person
    replaces the computer there, before the start only). Starting appends ``start`` (the names by
    seat and a random first dealer) and ``deal`` (round 1 with a fresh ``secrets`` shuffle).

    :returns: the seat taken.
    :raises ServiceError: ``login_required``, ``not_found``, ``already_seated``, ``table_full``
        (no empty seat, or the match already started), ``seat_taken`` (``seat`` is a person's or
        not a seat).
    """
    _require_login(user)
    now = _now(now)
    with _write_transaction():
        match = _lock(match_id)
        seats = _seats(match)
        if any(s.user_id == user.pk for s in seats):
            raise ServiceError.of("already_seated")
        if match.status != Match.Status.OPEN:
            raise ServiceError.of("table_full")
        by_number = {s.seat: s for s in seats}
        free = [n for n in SEAT_ORDER[match.players] if n not in by_number]
        payload = {"user": user.pk, "username": user.get_username()}
        if seat is None:
            if not free:
                raise ServiceError.of("table_full")
            seat = free[0]
            taken = Seat.objects.create(match=match, seat=seat, user=user, last_seen=now)
            seats.append(taken)
        elif seat in free:
            taken = Seat.objects.create(match=match, seat=seat, user=user, last_seen=now)
            seats.append(taken)
        elif isinstance(seat, int) and seat in by_number and by_number[seat].user_id is None:
            taken = by_number[seat]
            payload["replaced_bot"] = taken.bot
            taken.user, taken.bot, taken.last_seen = user, "", now
            taken.save(update_fields=["user", "bot", "last_seen"])
        else:
            raise ServiceError.of("seat_taken")
        _changed_seating(match)
        log = _Log(match)
        log.add(Event.Kind.JOIN, payload, seat=seat)
        live = None
        if len(seats) == match.players:
            live = _start(match, seats, log, now)
        log.write()
        match.save(update_fields=_MATCH_FIELDS)
        seated = [s.user_id for s in seats if s.user_id is not None]

        def after_commit() -> None:
            if live is not None:
                state.cache.checkin(match, live, match.seq)
            broadcast.send_seating(match.pk, seated)
            _broadcast_lobby()

        transaction.on_commit(after_commit)
    return seat


def _start(match: Match, seats: Sequence[Seat], log: _Log, now: datetime) -> engine.Match:
    """Start ``match`` (every seat taken): ``start`` and the first ``deal`` events."""
    ordered = sorted(seats, key=lambda s: s.seat)
    dealer = state.first_dealer(match.players)
    log.add(
        Event.Kind.START,
        {
            "seats": [s.name for s in ordered],
            "bots": [s.bot or None for s in ordered],
            "dealer": dealer,
        },
    )
    live = engine.Match(engine.Rules.from_dict(match.rules), dealer=dealer)
    _deal(live, log)
    match.status = Match.Status.PLAYING
    match.started_at = now
    match.deadline = _deadline(match, {s.seat: s.bot for s in ordered}, live, now)
    return live


def _deal(live: engine.Match, log: _Log) -> None:
    """Deal ``live``'s next round from a fresh shuffle and log the whole deck order."""
    deck = state.shuffled_deck()
    live.start_round(deck)
    log.add(
        Event.Kind.DEAL,
        {"round": live.round_number, "dealer": live.round.dealer, "deck": deck},
    )


def leave_table(*, user: Any, match_id: int) -> None:
    """Give up one's seat before the match starts.

    When the last seated person leaves, the table is removed (it holds no game; computer seats
    do not keep it): its sockets get ``closed`` and the lobby drops it. If other people still
    wait, the table stays open.

    :raises ServiceError: ``login_required``, ``not_found``, ``not_seated``, ``cannot_leave``
        (the match has started).
    """
    _require_login(user)
    with _write_transaction():
        match = _lock(match_id)
        seats = _seats(match)
        mine = next((s for s in seats if s.user_id == user.pk), None)
        if mine is None:
            raise ServiceError.of("not_seated")
        if match.status != Match.Status.OPEN:
            raise ServiceError.of("cannot_leave")
        mine.delete()
        match_pk = match.pk
        # The leaver's sockets are in their user group only: tell them too.
        seated = [s.user_id for s in seats if s.user_id is not None]
        if len(seated) == 1:
            match.delete()

            def after_removal() -> None:
                broadcast.send_closed(match_pk, seated)
                _broadcast_lobby()

            transaction.on_commit(after_removal)
            return
        _changed_seating(match)
        log = _Log(match)
        log.add(Event.Kind.LEAVE, {"user": user.pk, "username": user.get_username()}, seat=mine.seat)
        log.write()
        match.save(update_fields=["seq", "seating_token"])

        def after_commit() -> None:
            broadcast.send_seating(match_pk, seated)
            _broadcast_lobby()

        transaction.on_commit(after_commit)


# --- playing ----------------------------------------------------------------------------------


def _in_play(match: Match) -> None:
    """:raises ServiceError: ``not_started`` or ``match_over`` unless the match is being played."""
    if match.status == Match.Status.OPEN:
        raise ServiceError.of("not_started")
    if match.status == Match.Status.FINISHED:
        raise ServiceError.of("match_over")


def _timed_out_since(match: Match, seat: int, seq: int) -> bool:
    """Whether the server played for ``seat`` on a timeout after event ``seq``."""
    return Event.objects.filter(
        match_id=match.pk, seq__gt=seq, kind=Event.Kind.PLAY, seat=seat, payload__timeout=True
    ).exists()


def _apply_play(
    match: Match,
    bots: Mapping[int, str],
    live: engine.Match,
    seat: int,
    card: engine.Card,
    log: _Log,
    now: datetime,
    extra: dict | None = None,
) -> None:
    """Play ``card`` for ``seat`` (checked legal): the ``play`` event, and after the last play of
    a round ``round_end`` then ``match_end`` or the next ``deal``; the new deadline."""
    capture = live.play(card)
    log.add(
        Event.Kind.PLAY,
        {
            "card": card.code,
            "taken": [c.code for c in sorted(capture.taken)],
            "basra": state.basra_name(capture.basra),
            **(extra or {}),
        },
        seat=seat,
    )
    if live.round.over:
        _end_round(match, live, log, now)
    match.deadline = _deadline(match, bots, live, now)


def play_card(
    *, user: Any, match_id: int, card: str, seq: int, now: datetime | None = None
) -> int:
    """Play ``card`` for ``user``'s seat.

    The play is applied only if ``seq`` is the table's current ``seq`` (the client saw the latest
    state), which also turns a double click into a ``stale`` refusal; when the server played for
    the seat on a timeout since ``seq``, the refusal is ``timed_out``. The engine decides the
    capture; the ``play`` event records it. After the last play of a round, ``round_end`` and
    then ``match_end`` (a side won; RULES.md "Winning a match") or the next ``deal`` follow. A
    player marked absent who plays is back: ``returned`` comes first.

    :param card: a card code (RULES.md "Names"; ``T`` accepted for 10).
    :param seq: the latest ``seq`` the client has seen.
    :returns: the table's new ``seq``.
    :raises ServiceError: ``login_required``, ``not_found``, ``not_seated``, ``not_started``,
        ``match_over``, ``replaced_by_bot``, ``timed_out``, ``stale``, ``not_your_turn``,
        ``bad_card``, ``card_not_in_hand``.
    """
    _require_login(user)
    now = _now(now)
    if connection.vendor == "postgresql" and isinstance(seq, int):
        played = _play_from_cache(user, match_id, card, seq, now)
        if played is not None:
            return played
    with _write_transaction():
        match = _lock(match_id)
        seats = state.seat_rows(match)
        mine = _my_seat_in_play(match, seats, user)
        if seq != match.seq:
            if isinstance(seq, int) and _timed_out_since(match, mine.seat, seq):
                raise ServiceError.of("timed_out")
            raise ServiceError.of("stale")
        prev_seq = match.seq
        live = state.cache.checkout(match)
        try:
            chosen = _check_play(live, mine.seat, card)
        except ServiceError:
            state.cache.checkin(match, live, prev_seq)
            raise
        log = _Log(match)
        if mine.absent or mine.timeouts:
            if mine.absent:
                log.add(Event.Kind.RETURNED, {"by": "play"}, seat=mine.seat)
            Seat.objects.filter(match_id=match.pk, seat=mine.seat).update(absent=False, timeouts=0)
            _changed_seating(match)
        _apply_play(match, {s.seat: s.bot for s in seats}, live, mine.seat, chosen, log, now)
        log.write()
        match.save(update_fields=_MATCH_FIELDS)
        _after_change(match, live, prev_seq, log=log)
        return match.seq


def _play_from_cache(user: Any, match_id: int, card: str, seq: int, now: datetime) -> int | None:
    """:func:`play_card` in one statement, when this process keeps the table at ``seq``.

    The usual case at a live table: the process that wrote the last change still holds the row
    and the engine state at that ``seq`` (``state.LiveCache.checkout_at``), so the play is
    checked and applied there, and written by :func:`_write_if_unchanged` only if the row is
    still at ``seq`` with the same seating: a compare-and-set on the event number, the
    "expected version" check of event stores, instead of a lock held over five round trips.
    Anything unusual (no such state here, another seat or a refusal, a seat to bring back from
    absence, the row moved on meanwhile) returns ``None``, and the locked path decides, with its
    own reading of the row. A state checked out here and not written is dropped.

    :returns: the table's new ``seq``, or ``None``.
    """
    kept = state.cache.checkout_at(match_id, seq)
    if kept is None:
        return None
    match, live = kept
    seats = state.seat_rows(match)
    mine = next((s for s in seats if s.user_id == user.pk), None)
    if (
        match.status != Match.Status.PLAYING
        or mine is None
        or mine.bot
        or mine.absent
        or mine.timeouts
    ):
        state.cache.checkin(match, live, seq)
        return None
    try:
        chosen = _check_play(live, mine.seat, card)
    except ServiceError:
        state.cache.checkin(match, live, seq)
        return None
    log = _Log(match)
    _apply_play(match, {s.seat: s.bot for s in seats}, live, mine.seat, chosen, log, now)
    if not _write_if_unchanged(match, seq, log, now):
        return None
    _after_change(match, live, seq, log=log)
    return match.seq


#: The ``Match`` fields a play may change (``_apply_play``), written by ``_write_if_unchanged``.
_PLAY_FIELDS = ["seq", "status", "finished_at", "scores", "winner_side", "result", "deadline"]


def _write_if_unchanged(match: Match, seen: int, log: _Log, now: datetime) -> bool:
    """Write ``match``'s play fields and ``log``'s events if the row is still as it was at
    ``seen``: same ``seq``, same tokens, still being played. One PostgreSQL statement (an
    ``UPDATE ... RETURNING`` feeding an ``INSERT``), atomic on its own.

    :returns: whether it was written (``False``: the row had moved on; nothing was written).
    """
    quote = connection.ops.quote_name

    def column(model: Any, name: str) -> str:
        return quote(model._meta.get_field(name).column)

    def value(model: Any, name: str, raw: Any) -> Any:
        return model._meta.get_field(name).get_db_prep_save(raw, connection)

    sets = ", ".join(f"{column(Match, name)} = %s" for name in _PLAY_FIELDS)
    params = [value(Match, name, getattr(match, name)) for name in _PLAY_FIELDS]
    params += [
        match.pk,
        seen,
        value(Match, "cache_token", match.cache_token),
        value(Match, "seating_token", match.seating_token),
        Match.Status.PLAYING.value,
    ]
    rows = []
    for event in log.events:
        rows.append("(%s::integer, %s::text, %s::smallint, %s::jsonb, %s::timestamptz)")
        params += [
            event.seq,
            event.kind,
            event.seat,
            value(Event, "payload", event.payload),
            value(Event, "created_at", now),
        ]
    fields = ["match", "seq", "kind", "seat", "payload", "created_at"]
    sql = (
        f"WITH moved AS (UPDATE {quote(Match._meta.db_table)} SET {sets} "
        f"WHERE {column(Match, 'id')} = %s AND {column(Match, 'seq')} = %s "
        f"AND {column(Match, 'cache_token')} = %s AND {column(Match, 'seating_token')} = %s "
        f"AND {column(Match, 'status')} = %s RETURNING {column(Match, 'id')}) "
        f"INSERT INTO {quote(Event._meta.db_table)} "
        f"({', '.join(column(Event, name) for name in fields)}) "
        f"SELECT moved.{column(Match, 'id')}, e.seq, e.kind, e.seat, e.payload, e.created_at "
        f"FROM moved, (VALUES {', '.join(rows)}) AS e (seq, kind, seat, payload, created_at)"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.rowcount == len(log.events)


def _check_play(live: engine.Match, seat: int, card: str) -> engine.Card:
    """The card ``seat`` may play now, or the reason it may not."""
    if live.round is None or live.round.over or live.round.turn != seat:
        raise ServiceError.of("not_your_turn")
    try:
        chosen = engine.Card.from_code(card)
    except (TypeError, ValueError):
        raise ServiceError.of("bad_card") from None
    if chosen not in live.round.hands[seat]:
        raise ServiceError.of("card_not_in_hand")
    return chosen


def _end_round(match: Match, live: engine.Match, log: _Log, now: datetime) -> None:
    """Log the end of the round just played out, then the match end or the next deal."""
    finished = live.rounds[-1]
    log.add(
        Event.Kind.ROUND_END,
        {
            "round": len(live.rounds),
            "breakdown": state.breakdown_dict(finished.score_breakdown()),
            "scores": list(live.scores),
        },
    )
    match.scores = list(live.scores)
    if live.over:
        _finish(match, live.winner, Match.Result.TARGET, log, now)
    else:
        _deal(live, log)


def _finish(match: Match, winner: int, result: str, log: _Log, now: datetime) -> None:
    """End ``match`` with side ``winner`` the winner: ``match_end``, and the row's end fields.

    Every way a match ends (the target, a claim, a resignation) goes through here, so the
    finished row always looks the same to whatever reads it later (ratings).
    """
    log.add(
        Event.Kind.MATCH_END,
        {"scores": list(match.scores), "winner": winner, "reason": str(result)},
    )
    match.status = Match.Status.FINISHED
    match.finished_at = now
    match.winner_side = winner
    match.result = result
    match.deadline = None


# --- the computer and the clock ---------------------------------------------------------------


@dataclass(frozen=True)
class BotTurn:
    """What a computer seat needs to choose its card, read at one ``seq`` of the table.

    ``view`` is the engine's ``SeatView`` of ``seat`` (plain values, picklable: it can be sent
    to another process to think); ``seed`` makes the choice repeatable for this table, seat and
    ``seq``; ``level`` is a key of ``games.engine.bots.BOTS``.
    """

    match_id: int
    seat: int
    seq: int
    level: str
    seed: str
    view: Any


def bot_turn(*, match_id: int, seat: int) -> BotTurn:
    """The turn of the computer seat ``seat`` at table ``match_id``, as the table is now.

    :raises ServiceError: ``not_found``, ``not_bot_seat`` (a person plays ``seat``, or it is not a
        seat), ``not_started``, ``match_over``, ``not_your_turn``.
    """
    try:
        match = Match.objects.get(pk=match_id)
    except Match.DoesNotExist:
        raise ServiceError.of("not_found") from None
    mine = next((s for s in state.seat_rows(match) if s.seat == seat), None)
    if mine is None or not mine.bot:
        raise ServiceError.of("not_bot_seat")
    _in_play(match)

    def seat_view(live: engine.Match) -> Any:
        if live.round is None or live.round.over or live.round.turn != seat:
            return None
        return live.view(seat)

    view = state.cache.read(match, seat_view)
    if view is None:
        raise ServiceError.of("not_your_turn")
    return BotTurn(
        match_id=match.pk, seat=seat, seq=match.seq, level=mine.bot,
        seed=f"{match.pk}:{seat}:{match.seq}", view=view,
    )


def choose_card(turn: BotTurn) -> engine.Card:
    """The card the computer of ``turn.level`` plays on ``turn`` (pure: no database; it may run
    in another process). Thinks at most ``BOT_TIME_LIMIT`` seconds."""
    return BOTS[turn.level](seed=turn.seed, time_limit=BOT_TIME_LIMIT).choose(turn.view)


def bot_play(
    *,
    match_id: int,
    seat: int,
    now: datetime | None = None,
    card: engine.Card | None = None,
    seen: int | None = None,
) -> int:
    """The computer plays for ``seat``, which it holds, seeing only that seat's view.

    Without ``card``, the bot thinks here (:func:`bot_turn`, :func:`choose_card`), outside the
    transaction. With ``card`` (chosen elsewhere, e.g. in a worker process, on the table as it
    was at ``seen``), it is only applied. Either way the card is applied only if the table is
    still at that ``seq``, like a person's play. The clock calls this when the seat's delay is
    over.

    :returns: the table's new ``seq``.
    :raises ServiceError: ``not_found``, ``not_bot_seat`` (a person plays ``seat``, or it is not a
        seat), ``not_started``, ``match_over``, ``not_your_turn``, ``stale`` (the table changed
        while the bot thought).
    """
    now = _now(now)
    if card is None:
        turn = bot_turn(match_id=match_id, seat=seat)
        card, seen = choose_card(turn), turn.seq
    with _write_transaction():
        match = _lock(match_id)
        if match.seq != seen:
            raise ServiceError.of("stale")
        seats = state.seat_rows(match)
        mine = next((s for s in seats if s.seat == seat), None)
        if mine is None or not mine.bot:
            raise ServiceError.of("not_bot_seat")
        _in_play(match)
        prev_seq = match.seq
        live = state.cache.checkout(match)
        try:
            chosen = _check_play(live, seat, card.code)
        except ServiceError:
            state.cache.checkin(match, live, prev_seq)
            raise
        log = _Log(match)
        _apply_play(
            match, {s.seat: s.bot for s in seats}, live, seat, chosen, log, now, {"bot": mine.bot}
        )
        log.write()
        match.save(update_fields=_MATCH_FIELDS)
        _after_change(match, live, prev_seq, log=log)
        return match.seq


def act_on_deadline(*, match_id: int, now: datetime) -> bool:
    """What the clock does when a table's ``deadline`` has passed at ``now``.

    The computer to move plays (:func:`bot_play`). A person to move runs out of time: the server
    plays the greedy bot's card for them (RULES.md leaves the choice open; the issue asks for
    the greedy bot), logged as a ``play`` with ``"timeout": true``; after ``TIMEOUTS_ABSENT``
    timeouts in a row the seat is absent (:func:`mark_absent`'s consequences follow).

    :returns: whether a play was made (False: the deadline had not passed, or the table changed
        meanwhile; the next tick looks again).
    """
    try:
        match = Match.objects.get(pk=match_id)
    except Match.DoesNotExist:
        return False
    if match.status != Match.Status.PLAYING or match.deadline is None or match.deadline > now:
        return False
    turn = state.cache.read(
        match, lambda live: None if live.round is None or live.round.over else live.round.turn
    )
    if turn is None:
        return False
    mover = next((s for s in state.seat_rows(match) if s.seat == turn), None)
    if mover is not None and mover.bot:
        try:
            bot_play(match_id=match_id, seat=turn, now=now)
        except ServiceError:
            return False
        return True
    return _timeout(match_id, turn, match.seq, now)


def _timeout(match_id: int, seat: int, seen: int, now: datetime) -> bool:
    """Play the greedy bot's card for person ``seat`` whose time ran out (see
    :func:`act_on_deadline`)."""
    with _write_transaction():
        match = _lock(match_id)
        if (
            match.seq != seen
            or match.status != Match.Status.PLAYING
            or match.deadline is None
            or match.deadline > now
        ):
            return False
        seats = _seats(match)
        mine = seats_by_number(seats)[seat]
        if mine.bot:
            return False
        prev_seq = match.seq
        live = state.cache.checkout(match)
        if live.round is None or live.round.over or live.round.turn != seat:
            state.cache.checkin(match, live, prev_seq)
            return False
        card = GreedyBot().choose(live.view(seat))
        log = _Log(match)
        bots = {s.seat: s.bot for s in seats}
        _apply_play(match, bots, live, seat, card, log, now, {"timeout": True})
        mine.timeouts += 1
        fields = ["timeouts"]
        if (
            mine.timeouts >= TIMEOUTS_ABSENT
            and not mine.absent
            and match.status == Match.Status.PLAYING
        ):
            _absent(match, mine, "timeouts", log)
            fields += ["absent", "bot"]
            if mine.bot:
                bots[seat] = mine.bot
                match.deadline = _deadline(match, bots, live, now)
        mine.save(update_fields=fields)
        _changed_seating(match)
        log.write()
        match.save(update_fields=_MATCH_FIELDS)
        _after_change(match, live, prev_seq, log=log)
    return True


def _lock_clock() -> ClockTick | None:
    """The clock's heartbeat row, locked until the end of the transaction (``None``: no row)."""
    if connection.vendor == "sqlite":
        # As in _lock: take SQLite's write lock with the first statement.
        ClockTick.objects.filter(pk=ClockTick.ONE).update(last_tick=F("last_tick"))
    return ClockTick.objects.select_for_update().filter(pk=ClockTick.ONE).first()


def resume_clock(*, now: datetime, outage: timedelta) -> timedelta | None:
    """Give every table its time back if the clock was not running before ``now``.

    The clock's last tick ended at ``ClockTick.last_tick``; a gap longer than ``outage`` means
    no clock ran (the server, the clock process or the database was down), and nobody could
    play or keep a socket open meanwhile. Each match being played is then, under its row lock
    (one transaction with the heartbeat row's lock, so a second clock process does not do it
    again): its ``deadline`` moved on by the gap, but never past a whole time per play from
    ``now`` (``_resume_deadline``), and each person seated there and not absent counted as seen
    at ``now`` (``Seat.last_seen``), so the absence grace starts again. No event is logged and
    ``seq`` does not change: nothing happened at the tables. The first tick ever (no row) is
    not an outage.

    :param outage: the longest gap between ticks that is not an outage
        (``games.clock.outage_after``).
    :returns: the gap that was given back, or ``None`` (the clock was running).
    """
    last = (
        ClockTick.objects.filter(pk=ClockTick.ONE).values_list("last_tick", flat=True).first()
    )
    if last is None or now - last <= outage:
        return None
    with _write_transaction():
        row = _lock_clock()
        if row is None or now - row.last_tick <= outage:
            return None  # another clock process resumed meanwhile
        gap = now - row.last_tick
        playing = Match.objects.filter(status=Match.Status.PLAYING).order_by("pk")
        for match_id in playing.values_list("pk", flat=True):
            _resume_match(match_id, now, gap)
        row.last_tick = now
        row.save(update_fields=["last_tick"])
    return gap


def _resume_match(match_id: int, now: datetime, gap: timedelta) -> None:
    """One table's part of :func:`resume_clock` (inside its transaction)."""
    with _write_transaction():
        match = _lock(match_id)
        if match.status != Match.Status.PLAYING:
            return
        Seat.objects.filter(
            match_id=match.pk, user__isnull=False, bot="", absent=False
        ).filter(Q(last_seen__isnull=True) | Q(last_seen__lt=now)).update(last_seen=now)
        if match.deadline is not None:
            match.deadline = _resume_deadline(match, match.deadline + gap, now)
            match.save(update_fields=["deadline"])


def _resume_deadline(match: Match, moved: datetime, now: datetime) -> datetime:
    """``moved`` (a deadline plus the outage), but no later than a whole wait from ``now``.

    A deadline set before the outage keeps exactly the time it had left. One set during it
    (the web server ran while only the clock was down, and someone played) must not turn the
    outage into extra time: the cap is the table's time per play, or for a computer to move
    the longest human-looking delay (``BASRA_BOT_DELAY_SECONDS``).
    """
    turn = state.cache.read(
        match, lambda live: None if live.round is None or live.round.over else live.round.turn
    )
    mover = next((s for s in state.seat_rows(match) if s.seat == turn), None)
    if mover is not None and mover.bot:
        wait = timedelta(seconds=max(settings.BASRA_BOT_DELAY_SECONDS))
    elif match.move_seconds:
        wait = timedelta(seconds=match.move_seconds)
    else:
        return moved
    return min(moved, now + wait)


def clock_ran(*, until: datetime) -> None:
    """Note that a tick of the clock ended at ``until`` (``ClockTick.last_tick``, never back)."""
    with _write_transaction():
        updated = ClockTick.objects.filter(pk=ClockTick.ONE, last_tick__lt=until).update(
            last_tick=until
        )
        if not updated:
            ClockTick.objects.get_or_create(pk=ClockTick.ONE, defaults={"last_tick": until})


def web_seen(*, now: datetime | None = None) -> None:
    """A server process with open sockets is up: ``WebTick.last_seen`` is ``now`` (never back).

    One ``UPDATE`` (the row is created the first time).
    """
    now = _now(now)
    if not WebTick.objects.filter(pk=WebTick.ONE, last_seen__lt=now).update(last_seen=now):
        WebTick.objects.get_or_create(pk=WebTick.ONE, defaults={"last_seen": now})


def web_last_seen() -> datetime | None:
    """When a web server last said it was up (:func:`web_seen`); ``None``: none ever has."""
    return WebTick.objects.filter(pk=WebTick.ONE).values_list("last_seen", flat=True).first()


def clock_paused(*, at: datetime) -> None:
    """The web servers went silent at ``at``: count the clock as stopped from then on
    (``ClockTick.last_tick`` moved back to ``at`` if later), so that the time given back when
    a server returns (:func:`resume_clock`) starts when the players lost their tables."""
    ClockTick.objects.filter(pk=ClockTick.ONE, last_tick__gt=at).update(last_tick=at)


def seats_by_number(seats: Sequence[Any]) -> dict[int, Any]:
    """``{seat number: seat}``."""
    return {s.seat: s for s in seats}


def _absent(match: Match, seat: Seat, reason: str, log: _Log) -> None:
    """Mark ``seat`` absent (``absent`` event); in a 4-player match the computer takes it over
    for the rest of the match (``bot_takeover``). The caller saves the seat."""
    seat.absent = True
    log.add(Event.Kind.ABSENT, {"reason": reason}, seat=seat.seat)
    if match.players == 4:
        # The issue: "in a 4-player match a bot takes the absent seat for the rest of the match".
        seat.bot = STAND_IN
        log.add(
            Event.Kind.BOT_TAKEOVER,
            {"bot": STAND_IN.value, "user": seat.user_id, "username": seat.user.get_username()},
            seat=seat.seat,
        )


def mark_absent(*, match_id: int, now: datetime) -> int:
    """Mark absent every person at the table whose sockets have been silent too long.

    A seat is silent since ``max(last_seen, started_at)`` (its sockets refresh ``last_seen``);
    too long is more than ``games.clock.absent_grace()``. 2 players: the opponent may then claim
    the win (:func:`claim_win`). 4 players: the computer takes the seat over.

    :returns: the number of seats marked absent.
    """
    from games.clock import absent_grace

    cutoff = now - absent_grace()
    with _write_transaction():
        match = _lock(match_id)
        if match.status != Match.Status.PLAYING or match.started_at >= cutoff:
            return 0
        seats = _seats(match)
        gone = [
            s for s in seats
            if s.user_id is not None and not s.bot and not s.absent
            and (s.last_seen is None or s.last_seen < cutoff)
        ]
        if not gone:
            return 0
        prev_seq = match.seq
        log = _Log(match)
        for seat in gone:
            _absent(match, seat, "disconnected", log)
            seat.save(update_fields=["absent", "bot"])
        _changed_seating(match)
        live = state.cache.checkout(match)
        turn = live.round.turn if live.round is not None else None
        if any(seat.seat == turn and seat.bot for seat in gone):
            # The computer took over the seat to move: it plays after its delay, not the
            # person's remaining time.
            match.deadline = _deadline(match, {s.seat: s.bot for s in seats}, live, now)
        log.write()
        match.save(update_fields=_MATCH_FIELDS)
        _after_change(match, live, prev_seq, log=log)
        return len(gone)


def heartbeat(*, match_id: int, user: Any, now: datetime | None = None) -> int | None:
    """A socket at the table is alive: :func:`player_connected` for ``user`` (if seated: seen,
    and back if the clock had marked them absent, say while their server was stalled), and the
    table's ``seq`` now, so that a socket that missed a broadcast (the server that wrote the
    change died before sending it) reads the table again.

    :returns: ``Match.seq``, or ``None`` if the table is gone.
    """
    if user is not None and user.is_authenticated:
        player_seen(match_id=match_id, user=user, now=now)
        row = (
            Seat.objects.filter(match_id=match_id, user_id=user.pk)
            .values_list("absent", "bot", "match__seq")
            .first()
        )
        if row is not None:
            absent, bot, seq = row
            if not absent or bot:
                return seq
            _back(match_id, user)
    return Match.objects.filter(pk=match_id).values_list("seq", flat=True).first()


def player_seen(*, match_id: int, user: Any, now: datetime | None = None) -> None:
    """A socket of ``user`` at the table is alive (heartbeat, disconnect): refresh ``last_seen``.

    One ``UPDATE``, no lock and no event: the clock reads ``last_seen`` to find absent seats.
    """
    if user is None or not user.is_authenticated:
        return
    Seat.objects.filter(match_id=match_id, user_id=user.pk).update(last_seen=_now(now))


def player_connected(*, match_id: int, user: Any, now: datetime | None = None) -> bool:
    """A socket of ``user`` opened at the table: refresh ``last_seen``; an absent player is back.

    The ``returned`` event clears the absence (and the timeouts), so a claim is no longer
    allowed; a seat the computer has taken over (4 players) stays the computer's.

    :returns: whether ``returned`` was logged.
    """
    if user is None or not user.is_authenticated:
        return False
    now = _now(now)
    player_seen(match_id=match_id, user=user, now=now)
    if not Seat.objects.filter(
        match_id=match_id, user_id=user.pk, absent=True, bot="",
        match__status=Match.Status.PLAYING,
    ).exists():
        return False
    return _back(match_id, user)


def _back(match_id: int, user: Any) -> bool:
    """Log ``returned`` for ``user``'s seat if it is still absent and a person's, under the row
    lock (:func:`player_connected`, :func:`heartbeat`); returns whether it was logged."""
    with _write_transaction():
        try:
            match = _lock(match_id)
        except ServiceError:
            return False
        mine = Seat.objects.filter(match_id=match.pk, user_id=user.pk).first()
        if match.status != Match.Status.PLAYING or mine is None or not mine.absent or mine.bot:
            return False
        prev_seq = match.seq
        mine.absent, mine.timeouts = False, 0
        mine.save(update_fields=["absent", "timeouts"])
        _changed_seating(match)
        log = _Log(match)
        log.add(Event.Kind.RETURNED, {"by": "connect"}, seat=mine.seat)
        log.write()
        match.save(update_fields=_MATCH_FIELDS)
        _after_change(match, state.cache.checkout(match), prev_seq)
    return True


# --- claim and resign -------------------------------------------------------------------------


def _my_seat_in_play(match: Match, seats: Sequence[Seat], user: Any) -> Seat:
    mine = next((s for s in seats if s.user_id == user.pk), None)
    if mine is None:
        raise ServiceError.of("not_seated")
    _in_play(match)
    if mine.bot:
        raise ServiceError.of("replaced_by_bot")
    return mine


def claim_win(*, user: Any, match_id: int, now: datetime | None = None) -> int:
    """Win a 2-player match whose opponent is absent (the issue; lichess's "claim victory").

    Logs ``claim`` then ``match_end`` (``"reason": "claim"``); the match ends with the claimer's
    side the winner and the scores of the finished rounds.

    :returns: the table's new ``seq``.
    :raises ServiceError: ``login_required``, ``not_found``, ``not_seated``, ``not_started``,
        ``match_over``, ``claim_not_allowed`` (4 players, a computer opponent, or an opponent who
        is not absent), ``opponent_returned`` (the opponent was absent and came back).
    """
    _require_login(user)
    now = _now(now)
    with _write_transaction():
        match = _lock(match_id)
        seats = _seats(match)
        mine = _my_seat_in_play(match, seats, user)
        if match.players != 2:
            raise ServiceError.of("claim_not_allowed")
        other = seats_by_number(seats)[1 - mine.seat]
        if other.user_id is None or not other.absent:
            returned = Event.objects.filter(
                match_id=match.pk, kind=Event.Kind.RETURNED, seat=other.seat
            ).exists()
            raise ServiceError.of("opponent_returned" if returned else "claim_not_allowed")
        prev_seq = match.seq
        log = _Log(match)
        log.add(Event.Kind.CLAIM, {"absent_seat": other.seat}, seat=mine.seat)
        _finish(match, mine.side, Match.Result.CLAIM, log, now)
        log.write()
        match.save(update_fields=_MATCH_FIELDS)
        _after_change(match, state.cache.checkout(match), prev_seq, lobby=False)
        return match.seq


def resign(*, user: Any, match_id: int, now: datetime | None = None) -> str:
    """Resign for one's side (the issue; the client asks for a confirmation first).

    2 players: the side loses at once (``resign``, ``match_end`` with ``"reason": "resign"``).
    4 players: the side resigns when both partners agree, or at once when the partner is absent
    or played by the computer; otherwise this is an offer (``resign_offer``) that stands until
    the partner resigns too or the match ends.

    :returns: ``"resigned"`` or ``"offered"``.
    :raises ServiceError: ``login_required``, ``not_found``, ``not_seated``, ``not_started``,
        ``match_over``, ``replaced_by_bot``, ``resign_offered`` (an offer of this seat stands).
    """
    _require_login(user)
    now = _now(now)
    with _write_transaction():
        match = _lock(match_id)
        seats = _seats(match)
        mine = _my_seat_in_play(match, seats, user)
        prev_seq = match.seq
        log = _Log(match)
        partner = None
        if match.players == 4:
            partner = seats_by_number(seats)[(mine.seat + 2) % 4]
        if partner is None or partner.bot or partner.absent or partner.resign_offered:
            agreed = [mine.seat] + ([partner.seat] if partner and partner.resign_offered else [])
            log.add(Event.Kind.RESIGN, {"side": mine.side, "seats": agreed}, seat=mine.seat)
            _finish(match, 1 - mine.side, Match.Result.RESIGN, log, now)
            outcome = "resigned"
        elif mine.resign_offered:
            raise ServiceError.of("resign_offered")
        else:
            mine.resign_offered = True
            mine.save(update_fields=["resign_offered"])
            _changed_seating(match)
            log.add(Event.Kind.RESIGN_OFFER, {"side": mine.side}, seat=mine.seat)
            outcome = "offered"
        log.write()
        match.save(update_fields=_MATCH_FIELDS)
        _after_change(match, state.cache.checkout(match), prev_seq)
    return outcome


# --- reading ----------------------------------------------------------------------------------


def table_state(*, match_id: int, user: Any) -> dict:
    """The ``state`` message (``docs/protocol.md``) of table ``match_id`` as ``user`` may see it.

    A seated user gets their seat's view (their own hand); anyone else, logged in or not, the
    spectator view (no hand). ``prev_seq`` is ``None``: this is a snapshot.

    :raises ServiceError: ``not_found``.
    """
    try:
        match = Match.objects.get(pk=match_id)
    except Match.DoesNotExist:
        raise ServiceError.of("not_found") from None
    seats = state.seat_rows(match)
    you = None
    if user is not None and user.is_authenticated:
        you = next((s.seat for s in seats if s.user_id == user.pk), None)
    info = state.TableInfo.of(match, seats)

    def build(live: engine.Match | None) -> dict:
        return state.state_messages(info, live, seq=match.seq, prev_seq=None, seats=[you])[you]

    if match.status == Match.Status.OPEN:
        return build(None)
    return state.cache.read(match, build)


def open_tables() -> list[dict]:
    """The lobby rows (``docs/protocol.md`` "tables"): every open table, oldest first.

    Each row: ``id``, ``players``, ``rated``, ``rules``, ``target``, ``move_seconds``, ``seats``
    (``[{"seat", "username", "bot"}]`` of the taken seats; ``username`` null and ``bot`` a level
    for a computer seat), ``created_by`` (username), ``created_at`` (ISO 8601).
    """
    matches = (
        Match.objects.filter(status=Match.Status.OPEN)
        .select_related("created_by")
        .prefetch_related(
            Prefetch("seats", queryset=Seat.objects.select_related("user").order_by("seat"))
        )
        .order_by("created_at", "pk")
    )
    return [
        {
            "id": m.pk,
            "players": m.players,
            "rated": m.rated,
            "rules": m.rules,
            "target": m.rules.get("target"),
            "move_seconds": m.move_seconds,
            "seats": [
                {
                    "seat": s.seat,
                    "username": s.user.get_username() if s.user_id is not None else None,
                    "bot": s.bot or None,
                }
                for s in m.seats.all()
            ],
            "created_by": m.created_by.get_username(),
            "created_at": m.created_at.isoformat(),
        }
        for m in matches
    ]
