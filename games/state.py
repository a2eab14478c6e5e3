"""The live state of a match: the engine's replay of its event log, and the messages built from it.

The event log (``games.models.Event``) is the truth. ``rebuild`` turns a match's ``start``, ``deal``
and ``play`` events into a ``basra-record/1`` record and replays it with the engine
(RULES.md, "Game record"); ``LiveCache`` keeps the replayed ``games.engine.Match`` per process,
keyed by (match, ``cache_token``, ``seq``), only to skip that replay (STYLE.md, "In this project" 3).
``state_message`` builds the ``state`` message of ``docs/protocol.md`` for one seat or a spectator.
"""

from __future__ import annotations

import copy
import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, TypeVar

from django.utils import timezone

from games import engine
from games.models import Event, Match, Seat

#: The 52 card codes of one deck (RULES.md "Names"), in the engine's sorted order.
DECK_CODES = tuple(card.code for card in engine.full_deck())

T = TypeVar("T")


def shuffled_deck() -> list[str]:
    """A fresh 52-card deck order, ``deck[0]`` on top, shuffled with the OS's randomness.

    ``secrets.SystemRandom`` draws from ``os.urandom``, so no seed exists that a client could
    guess; the order is stored in the round's ``deal`` event (STYLE.md, "In this project" 2).
    Tests replace this function to deal a known deck.
    """
    deck = list(DECK_CODES)
    secrets.SystemRandom().shuffle(deck)
    return deck


def first_dealer(players: int) -> int:
    """The dealer of a match's first round, drawn at random (RULES.md leaves it open)."""
    return secrets.randbelow(players)


def record_from_events(rules: dict, events: Iterable[tuple[str, Any]]) -> dict:
    """A ``basra-record/1`` record from a match's log.

    :param rules: the match's ``Rules.to_dict()``.
    :param events: ``(kind, payload)`` pairs in ``seq`` order; kinds other than ``start``,
        ``deal`` and ``play`` are ignored (they are consequences, not causes).
    :returns: the record ``games.engine.replay`` takes (RULES.md, "Game record").
    :raises ValueError: a ``play`` before any ``deal``.
    """
    seats: list[str] = []
    rounds: list[dict] = []
    for kind, payload in events:
        if kind == Event.Kind.START:
            seats = list(payload["seats"])
        elif kind == Event.Kind.DEAL:
            rounds.append({"dealer": payload["dealer"], "deck": list(payload["deck"]), "plays": []})
        elif kind == Event.Kind.PLAY:
            if not rounds:
                raise ValueError("a play event before any deal event")
            rounds[-1]["plays"].append(payload["card"])
    if not seats:
        seats = [str(seat) for seat in range(rules.get("players", 2))]
    return {"format": "basra-record/1", "rules": dict(rules), "seats": seats, "rounds": rounds}


def rebuild(match: Match) -> engine.Match:
    """Replay ``match``'s log up to ``match.seq`` into an engine ``Match``.

    Events after ``match.seq`` (committed after ``match`` was read) are left out, so the result
    is the state at exactly ``match.seq``.

    :raises games.engine.RecordError: the log breaks the rules (never for a log the services wrote).
    """
    events = (
        Event.objects.filter(
            match_id=match.pk,
            seq__lte=match.seq,
            kind__in=[Event.Kind.START, Event.Kind.DEAL, Event.Kind.PLAY],
        )
        .order_by("seq")
        .values_list("kind", "payload")
    )
    return engine.replay(record_from_events(match.rules, events)).match


@dataclass
class _Entry:
    token: str
    seq: int
    live: engine.Match
    #: A copy of the ``Match`` row as it was at ``seq`` (``LiveCache.checkout_at``).
    row: Match


class LiveCache:
    """Replayed engine matches of this process, valid only for the ``seq`` they were built at.

    A writer ``checkout``s the object (it leaves the cache, so no reader sees it half-changed),
    changes it inside its transaction and ``checkin``s it after the commit; a rolled-back
    transaction simply never checks it in. Readers build their views under the lock.
    """

    def __init__(self, size: int = 2048) -> None:
        self.size = size
        self._entries: OrderedDict[int, _Entry] = OrderedDict()
        self._lock = threading.Lock()

    def clear(self) -> None:
        """Forget everything (tests; a process that wants its memory back)."""
        with self._lock:
            self._entries.clear()

    def _valid(self, match: Match) -> _Entry | None:
        entry = self._entries.get(match.pk)
        if entry and entry.token == str(match.cache_token) and entry.seq == match.seq:
            self._entries.move_to_end(match.pk)
            return entry
        return None

    def checkout(self, match: Match) -> engine.Match:
        """The live engine match at ``match.seq``, now owned by the caller (a locked writer)."""
        with self._lock:
            entry = self._valid(match)
            if entry:
                del self._entries[match.pk]
                return entry.live
        return rebuild(match)

    def checkout_at(self, match_id: int, seq: int) -> tuple[Match, engine.Match] | None:
        """The kept row and live engine match of ``match_id`` if they are at ``seq``, now owned by
        the caller; ``None`` if this process keeps none at that ``seq``.

        Nothing is read from the database: the caller must make its write conditional on the
        row still being at ``seq`` (``games.services`` compares and sets), since another process
        may have moved the table on.
        """
        with self._lock:
            entry = self._entries.get(match_id)
            if entry is None or entry.seq != seq:
                return None
            del self._entries[match_id]
            return entry.row, entry.live

    def checkin(self, match: Match, live: engine.Match, seq: int) -> None:
        """Keep ``live`` as the state of ``match`` at ``seq`` (after the commit that wrote it).

        ``match`` must be the row as written at ``seq``; a copy of it is kept. Two commits'
        callbacks may run out of order; an older ``seq`` never replaces a newer one.
        """
        with self._lock:
            entry = self._entries.get(match.pk)
            if entry and entry.token == str(match.cache_token) and entry.seq > seq:
                return
            self._entries[match.pk] = _Entry(str(match.cache_token), seq, live, copy.copy(match))
            self._entries.move_to_end(match.pk)
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)

    def read(self, match: Match, build: Callable[[engine.Match], T]) -> T:
        """``build(live)`` for the live engine match at ``match.seq``, under the cache lock."""
        with self._lock:
            entry = self._valid(match)
            if entry:
                return build(entry.live)
        live = rebuild(match)
        with self._lock:
            result = build(live)
        self.checkin(match, live, match.seq)
        return result


#: The one cache of this process.
cache = LiveCache()


def _codes(cards: Iterable[engine.Card]) -> list[str]:
    return [card.code for card in cards]


def basra_name(value: Any) -> str | None:
    """``"basra"``, ``"jack_basra"`` or None for an engine ``Basra`` value (or None)."""
    if value is None:
        return None
    return str(getattr(value, "value", value))


def play_dict(play: Any) -> dict | None:
    """``{"seat", "card", "taken", "basra"}`` of an engine ``Play`` (``taken`` sorted), or None."""
    if play is None:
        return None
    return {
        "seat": play.seat,
        "card": play.card.code,
        "taken": _codes(sorted(play.taken)),
        "basra": basra_name(play.basra),
    }


def breakdown_dict(score: Any) -> dict:
    """The per-side lists of an engine ``RoundScore`` (RULES.md "Scoring a round")."""
    return {
        "cards": list(score.cards),
        "majority": list(score.majority),
        "basras": list(score.basras),
        "jack_basras": list(score.jack_basras),
        "card_points": list(score.card_points),
        "total": list(score.total),
    }


def round_results(live: engine.Match) -> list[dict]:
    """One ``{"number", ...breakdown, "leftover"}`` per finished round of ``live``, in order.

    ``leftover`` is ``{"side": 0|1|None, "cards": [codes]}``: the floor cards the side that
    captured last took when the round ended (RULES.md, "Basra"); ``side`` is ``None`` and
    ``cards`` empty when the floor was empty or nobody captured.
    """
    return [
        {
            "number": number,
            **breakdown_dict(rnd.score_breakdown()),
            "leftover": {
                "side": rnd.last_capturer if rnd.leftover else None,
                "cards": _codes(rnd.leftover),
            },
        }
        for number, rnd in enumerate(live.rounds, start=1)
        if rnd.over
    ]


def round_dict(view: Any) -> dict:
    """The ``round`` object of a ``state`` message from an engine ``SeatView``."""
    return {
        "number": view.round_number,
        "dealer": view.dealer,
        "turn": view.turn,
        "floor": _codes(view.floor),
        "hand": _codes(view.hand),
        "hand_sizes": list(view.hand_sizes),
        "stock_size": view.stock_size,
        "pile_sizes": list(view.pile_sizes),
        "basras": list(view.basras),
        "jack_basras": list(view.jack_basras),
        "last_play": play_dict(view.last_play),
        "over": view.round_over,
    }


@dataclass(frozen=True)
class SeatRow:
    """One taken seat, as the services and the ``state`` message need it.

    ``user_id``/``username``: the person's, ``None`` for a computer seat (a person the computer
    replaced keeps them); ``bot``: the computer level playing the seat now, ``""`` for a person;
    ``absent``: marked absent by the clock; ``timeouts``: timeouts in a row;
    ``resign_offered``: offered to resign, waiting for the partner (``games.models.Seat``).
    """

    seat: int
    user_id: int | None
    username: str | None
    bot: str = ""
    absent: bool = False
    timeouts: int = 0
    resign_offered: bool = False

    def to_dict(self) -> dict:
        """The seat's object in a ``state`` message (``docs/protocol.md`` "state")."""
        return {
            "seat": self.seat,
            "username": self.username,
            "side": self.seat % 2,
            "bot": self.bot or None,
            "absent": self.absent,
            "resign_offer": self.resign_offered,
        }


_seat_rows: OrderedDict[tuple[int, str, str], tuple[SeatRow, ...]] = OrderedDict()
_seat_rows_lock = threading.Lock()


def seat_rows(match: Match) -> tuple[SeatRow, ...]:
    """The taken seats of ``match``, by seat number.

    Once a match has started they are cached per process under ``Match.seating_token``, which
    every change to a seat replaces (an absence, a takeover, a resign offer, a timeout count),
    so a cached seating is read once per change.
    """
    key = (match.pk, str(match.cache_token), str(match.seating_token))
    if match.status != Match.Status.OPEN:
        with _seat_rows_lock:
            rows = _seat_rows.get(key)
        if rows is not None:
            return rows
    rows = tuple(
        SeatRow(*values)
        for values in Seat.objects.filter(match_id=match.pk)
        .order_by("seat")
        .values_list(
            "seat", "user_id", "user__username", "bot", "absent", "timeouts", "resign_offered"
        )
    )
    if match.status != Match.Status.OPEN:
        with _seat_rows_lock:
            _seat_rows[key] = rows
            while len(_seat_rows) > cache.size:
                _seat_rows.popitem(last=False)
    return rows


def clear_caches() -> None:
    """Forget every cached state and seating of this process (tests; freeing memory)."""
    cache.clear()
    with _seat_rows_lock:
        _seat_rows.clear()


@dataclass(frozen=True)
class TableInfo:
    """What a ``state`` message needs from the database, copied so it outlives the transaction.

    ``seats``: the taken seats (:class:`SeatRow`), by seat number. ``deadline``: when the seat to
    move runs out (``None``: no clock is running); ``move_seconds``: the time per play (``None``:
    no clock). ``winner``, ``result`` and ``scores``: ``Match.winner_side``, ``Match.result`` and
    ``Match.scores``, which tell how a finished match ended (a claim or a resignation ends it in
    the middle of a round). ``last_play_by``: who made the match's last ``play`` event, from its
    payload, ``{"seat", "timeout": bool, "bot": level or None}`` (``None``: no play yet); the
    engine's replay knows the cards but not that the server played them.
    """

    id: int
    status: str
    players: int
    rated: bool
    rules: dict
    seats: tuple[SeatRow, ...]
    deadline: datetime | None = None
    move_seconds: int | None = None
    winner: int | None = None
    result: str = ""
    scores: tuple[int, int] = (0, 0)
    last_play_by: dict | None = None

    @classmethod
    def of(
        cls, match: Match, seats: Sequence[SeatRow], events: Sequence[Event] = ()
    ) -> TableInfo:
        """From a ``Match`` row and its :func:`seat_rows`.

        :param events: the events a service just appended (up to ``match.seq``); when one is a
            ``play``, ``last_play_by`` comes from it instead of a query.
        """
        scores = match.scores if len(match.scores or ()) == 2 else (0, 0)
        return cls(
            id=match.pk,
            status=str(match.status),
            players=match.players,
            rated=match.rated,
            rules=dict(match.rules),
            seats=tuple(sorted(seats, key=lambda s: s.seat)),
            deadline=match.deadline,
            move_seconds=match.move_seconds,
            winner=match.winner_side,
            result=str(match.result or ""),
            scores=(scores[0], scores[1]),
            last_play_by=_last_play_in(events) or last_play_by(match),
        )


def _play_by(seat: int | None, payload: dict) -> dict:
    return {
        "seat": seat,
        "timeout": payload.get("timeout") is True,
        "bot": payload.get("bot") or None,
    }


def _last_play_in(events: Sequence[Event]) -> dict | None:
    """:func:`last_play_by` of the newest ``play`` among ``events``, or ``None`` if none is."""
    for event in reversed(events):
        if event.kind == Event.Kind.PLAY:
            return _play_by(event.seat, event.payload)
    return None


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
    if row is None:
        return None
    return _play_by(*row)


def _mark_last_play(round_: dict, by: dict | None) -> None:
    """Add ``timeout`` and ``bot`` to ``round_["last_play"]`` (``docs/protocol.md`` "state").

    ``by`` is :func:`last_play_by`; the round's last play is the match's last ``play`` event,
    the seat check only guards against a ``TableInfo`` read at another ``seq``.
    """
    last = round_["last_play"]
    if last is None:
        return
    same = by is not None and by["seat"] == last["seat"]
    last["timeout"] = bool(same and by["timeout"])
    last["bot"] = by["bot"] if same else None


def _iso(moment: datetime | None) -> str | None:
    return None if moment is None else moment.isoformat()


def state_messages(
    info: TableInfo,
    live: engine.Match | None,
    *,
    seq: int,
    prev_seq: int | None,
    seats: Iterable[int | None],
    now: datetime | None = None,
) -> dict[int | None, dict]:
    """The ``state`` message (``docs/protocol.md``) for each of ``seats`` (``None``: spectator).

    Everything but ``you`` and ``round.hand`` is built once. A seat's hand comes only from that
    seat's engine view, so a message never holds another seat's cards. ``now`` (default
    ``timezone.now()``) is the server time written into the message, so that a client counts
    down to ``deadline`` whatever its own clock says.
    """
    rules = info.rules
    finished = info.status == Match.Status.FINISHED
    base: dict[str, Any] = {
        "type": "state",
        "seq": seq,
        "prev_seq": prev_seq,
        "match": {
            "id": info.id,
            "status": info.status,
            "players": info.players,
            "rated": info.rated,
            "rules": rules,
        },
        "seats": [seat.to_dict() for seat in info.seats],
        "you": None,
        "round": None,
        "scores": [0, 0],
        "target": rules.get("target"),
        "round_results": [],
        "result": None,
        "move_seconds": info.move_seconds,
        "deadline": None if finished else _iso(info.deadline),
        "now": _iso(timezone.now() if now is None else now),
    }
    public_round = None
    if live is not None:
        base["scores"] = list(live.scores)
        base["round_results"] = round_results(live)
        if live.round is not None:
            public_round = round_dict(live.public_view())
            _mark_last_play(public_round, info.last_play_by)
    if finished and info.winner is not None:
        # The row, not the engine, has the last word: a claim or a resignation ends the match
        # in the middle of a round, with the scores of the finished rounds.
        base["result"] = {
            "winner": info.winner,
            "scores": list(live.scores) if live is not None else list(info.scores),
            "reason": info.result or Match.Result.TARGET.value,
        }
    messages: dict[int | None, dict] = {}
    for seat in seats:
        message = dict(base, you=seat)
        if public_round is not None:
            if seat is None:
                message["round"] = public_round
            else:
                message["round"] = dict(public_round, hand=_codes(live.view(seat).hand))
        messages[seat] = message
    return messages
