"""Every change to a table: one function per action (STYLE.md, "In this project" 4).

Each write function locks the match row (``select_for_update``) inside ``transaction.atomic``,
checks the request, asks the engine, appends ``Event`` rows numbered from ``Match.seq + 1`` and
registers the broadcast with ``transaction.on_commit``, so no socket ever sees a change that was
rolled back. Refusals raise ``ServiceError`` before anything is written. The protocol these
functions serve is ``docs/protocol.md``.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.db import connection, transaction
from django.db.models import Prefetch
from django.utils import timezone
from django.utils.translation import gettext

from games import broadcast, engine, state
from games.models import Event, Match, Seat

#: The order seats are filled in (RULES.md "Four players": creator 0, partner 2, then 1, 3).
SEAT_ORDER = {2: (0, 1), 4: (0, 2, 1, 3)}


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
        "not_your_turn": gettext("It is not your turn."),
        "bad_card": gettext("That is not a card."),
        "card_not_in_hand": gettext("That card is not in your hand."),
        "table_full": gettext("This table is full."),
        "already_seated": gettext("You already have a seat at this table."),
        "cannot_leave": gettext("The match has started: you can no longer leave the table."),
        "bad_rules": gettext("These rules are not valid."),
    }


def _require_login(user: Any) -> None:
    if user is None or not user.is_authenticated:
        raise ServiceError.of("login_required")


def _lock(match_id: int) -> Match:
    """The match row, locked until the end of the transaction.

    :raises ServiceError: ``not_found``.
    """
    try:
        # NO KEY UPDATE: the key never changes, and new events referencing the row must not wait.
        return Match.objects.select_for_update(no_key=True).get(pk=match_id)
    except Match.DoesNotExist:
        raise ServiceError.of("not_found") from None


def _seats(match: Match) -> list[Seat]:
    return list(Seat.objects.filter(match_id=match.pk).select_related("user").order_by("seat"))


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


def create_table(*, user: Any, players: int, rules: dict, rated: bool) -> Match:
    """Open a table; ``user`` takes seat 0.

    :param players: 2 or 4.
    :param rules: ``Rules`` fields other than ``players`` (RULES.md, "The engine's public
        interface"); missing fields take the engine's defaults. A ``players`` key is accepted only
        if it equals ``players``.
    :param rated: stored for the ratings.
    :returns: the new ``Match`` (status ``open``, ``seq`` 1: the creator's ``join`` event).
    :raises ServiceError: ``login_required``; ``bad_rules`` (players not 2 or 4, an unknown
        option or a bad value).
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
    with _write_transaction():
        match = Match.objects.create(
            created_by=user,
            players=players,
            rules=rules_obj.to_dict(),
            rated=bool(rated),
            scores=[0, 0],
        )
        Seat.objects.create(match=match, seat=0, user=user)
        log = _Log(match)
        log.add(Event.Kind.JOIN, {"user": user.pk, "username": user.get_username()}, seat=0)
        log.write()
        match.save(update_fields=["seq"])
        transaction.on_commit(_broadcast_lobby)
    return match


def join_table(*, user: Any, match_id: int) -> int:
    """Take the next free seat of an open table; the match starts when the last seat is taken.

    Seats are filled in the order 0, 1 (2 players) or 0, 2, 1, 3 (4 players; RULES.md "Four
    players"). Starting appends ``start`` (the usernames by seat and a random first dealer) and
    ``deal`` (round 1 with a fresh ``secrets`` shuffle).

    :returns: the seat taken.
    :raises ServiceError: ``login_required``, ``not_found``, ``already_seated``, ``table_full``
        (no free seat, or the match already started).
    """
    _require_login(user)
    with _write_transaction():
        match = _lock(match_id)
        seats = _seats(match)
        if any(s.user_id == user.pk for s in seats):
            raise ServiceError.of("already_seated")
        taken = {s.seat for s in seats}
        free = [seat for seat in SEAT_ORDER[match.players] if seat not in taken]
        if match.status != Match.Status.OPEN or not free:
            raise ServiceError.of("table_full")
        seat = free[0]
        seats.append(Seat.objects.create(match=match, seat=seat, user=user))
        log = _Log(match)
        log.add(Event.Kind.JOIN, {"user": user.pk, "username": user.get_username()}, seat=seat)
        fields = ["seq"]
        live = None
        if len(free) == 1:
            live = _start(match, seats, log)
            fields += ["status", "started_at"]
        log.write()
        match.save(update_fields=fields)

        seated = [s.user_id for s in seats]

        def after_commit() -> None:
            if live is not None:
                state.cache.checkin(match, live, match.seq)
            broadcast.send_seating(match.pk, seated)
            _broadcast_lobby()

        transaction.on_commit(after_commit)
    return seat


def _start(match: Match, seats: list[Seat], log: _Log) -> engine.Match:
    """Start ``match`` (every seat taken): ``start`` and the first ``deal`` events."""
    names = [s.user.get_username() for s in sorted(seats, key=lambda s: s.seat)]
    dealer = state.first_dealer(match.players)
    log.add(Event.Kind.START, {"seats": names, "dealer": dealer})
    live = engine.Match(engine.Rules.from_dict(match.rules), dealer=dealer)
    _deal(live, log)
    match.status = Match.Status.PLAYING
    match.started_at = timezone.now()
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

    When the last seated player leaves, the table is removed (it holds no game): its sockets get
    ``closed`` and the lobby drops it. If others still wait, the table stays open.

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
        seated = [s.user_id for s in seats]
        if len(seats) == 1:
            match.delete()

            def after_removal() -> None:
                broadcast.send_closed(match_pk, seated)
                _broadcast_lobby()

            transaction.on_commit(after_removal)
            return
        log = _Log(match)
        log.add(Event.Kind.LEAVE, {"user": user.pk, "username": user.get_username()}, seat=mine.seat)
        log.write()
        match.save(update_fields=["seq"])

        def after_commit() -> None:
            broadcast.send_seating(match_pk, seated)
            _broadcast_lobby()

        transaction.on_commit(after_commit)


def play_card(*, user: Any, match_id: int, card: str, seq: int) -> int:
    """Play ``card`` for ``user``'s seat.

    The play is applied only if ``seq`` is the table's current ``seq`` (the client saw the latest
    state), which also turns a double click into a ``stale`` refusal. The engine decides the
    capture; the ``play`` event records it. After the last play of a round, ``round_end`` and
    then ``match_end`` (a side won; RULES.md "Winning a match") or the next ``deal`` follow.

    :param card: a card code (RULES.md "Names"; ``T`` accepted for 10).
    :param seq: the latest ``seq`` the client has seen.
    :returns: the table's new ``seq``.
    :raises ServiceError: ``login_required``, ``not_found``, ``not_seated``, ``not_started``,
        ``match_over``, ``stale``, ``not_your_turn``, ``bad_card``, ``card_not_in_hand``.
    """
    _require_login(user)
    with _write_transaction():
        match = _lock(match_id)
        seats = state.seat_rows(match)
        mine = next((s for s in seats if s.user_id == user.pk), None)
        if mine is None:
            raise ServiceError.of("not_seated")
        if match.status == Match.Status.OPEN:
            raise ServiceError.of("not_started")
        if match.status == Match.Status.FINISHED:
            raise ServiceError.of("match_over")
        if seq != match.seq:
            raise ServiceError.of("stale")
        prev_seq = match.seq
        live = state.cache.checkout(match)
        try:
            chosen = _check_play(live, mine.seat, card)
        except ServiceError:
            state.cache.checkin(match, live, prev_seq)
            raise
        capture = live.play(chosen)
        log = _Log(match)
        log.add(
            Event.Kind.PLAY,
            {
                "card": chosen.code,
                "taken": [c.code for c in sorted(capture.taken)],
                "basra": state.basra_name(capture.basra),
            },
            seat=mine.seat,
        )
        fields = ["seq"]
        if live.round.over:
            _end_round(match, live, log)
            fields.append("scores")
            if live.over:
                fields += ["status", "finished_at", "winner_side"]
        log.write()
        match.save(update_fields=fields)
        info = state.TableInfo.of(match, seats)

        def after_commit() -> None:
            states = state.state_messages(
                info,
                live,
                seq=match.seq,
                prev_seq=prev_seq,
                seats=[*range(match.players), None],
            )
            state.cache.checkin(match, live, match.seq)
            broadcast.send_states(match.pk, states, {s.seat: s.user_id for s in seats})

        transaction.on_commit(after_commit)
        return match.seq


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


def _end_round(match: Match, live: engine.Match, log: _Log) -> None:
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
        log.add(Event.Kind.MATCH_END, {"scores": list(live.scores), "winner": live.winner})
        match.status = Match.Status.FINISHED
        match.finished_at = timezone.now()
        match.winner_side = live.winner
    else:
        _deal(live, log)


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

    Each row: ``id``, ``players``, ``rated``, ``rules``, ``target``, ``seats`` (``[{"seat",
    "username"}]`` of the taken seats), ``created_by`` (username), ``created_at`` (ISO 8601).
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
            "seats": [{"seat": s.seat, "username": s.user.get_username()} for s in m.seats.all()],
            "created_by": m.created_by.get_username(),
            "created_at": m.created_at.isoformat(),
        }
        for m in matches
    ]
