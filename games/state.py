"""The live state of a match: the engine's replay of its event log, and the messages built from it.

The event log (``games.models.Event``) is the truth. ``rebuild`` turns a match's ``start``, ``deal``
and ``play`` events into a ``basra-record/1`` record and replays it with the engine
(RULES.md, "Game record"); ``LiveCache`` keeps the replayed ``games.engine.Match`` per process,
keyed by (match, ``cache_token``, ``seq``), only to skip that replay (STYLE.md, "In this project" 3).
``state_message`` builds the ``state`` message of ``docs/protocol.md`` for one seat or a spectator.
"""

from __future__ import annotations

import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

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

    def checkin(self, match: Match, live: engine.Match, seq: int) -> None:
        """Keep ``live`` as the state of ``match`` at ``seq`` (after the commit that wrote it).

        Two commits' callbacks may run out of order; an older ``seq`` never replaces a newer one.
        """
        with self._lock:
            entry = self._entries.get(match.pk)
            if entry and entry.token == str(match.cache_token) and entry.seq > seq:
                return
            self._entries[match.pk] = _Entry(str(match.cache_token), seq, live)
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
    """One ``{"number", ...breakdown}`` per finished round of ``live``, in order."""
    return [
        {"number": number, **breakdown_dict(rnd.score_breakdown())}
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
    """One taken seat: ``seat`` number, the sitting user's id and username."""

    seat: int
    user_id: int
    username: str


_seat_rows: OrderedDict[tuple[int, str], tuple[SeatRow, ...]] = OrderedDict()
_seat_rows_lock = threading.Lock()


def seat_rows(match: Match) -> tuple[SeatRow, ...]:
    """The taken seats of ``match``, by seat number.

    Seats change only while a table is open (RULES.md: the match starts when every seat is
    taken, and nobody leaves after), so once it has started they are read once per process.
    """
    key = (match.pk, str(match.cache_token))
    if match.status != Match.Status.OPEN:
        with _seat_rows_lock:
            rows = _seat_rows.get(key)
        if rows is not None:
            return rows
    rows = tuple(
        SeatRow(seat, user_id, username)
        for seat, user_id, username in Seat.objects.filter(match_id=match.pk)
        .order_by("seat")
        .values_list("seat", "user_id", "user__username")
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

    ``seats`` is ``[(seat, username), ...]`` of the taken seats, by seat number.
    """

    id: int
    status: str
    players: int
    rated: bool
    rules: dict
    seats: tuple[tuple[int, str], ...]

    @classmethod
    def of(cls, match: Match, seats: Sequence[Any]) -> TableInfo:
        """From a ``Match`` row and its ``Seat`` rows (with ``user`` loaded)."""
        return cls(
            id=match.pk,
            status=str(match.status),
            players=match.players,
            rated=match.rated,
            rules=dict(match.rules),
            seats=tuple(sorted((s.seat, s.username) for s in seats)),
        )


def state_messages(
    info: TableInfo,
    live: engine.Match | None,
    *,
    seq: int,
    prev_seq: int | None,
    seats: Iterable[int | None],
) -> dict[int | None, dict]:
    """The ``state`` message (``docs/protocol.md``) for each of ``seats`` (``None``: spectator).

    Everything but ``you`` and ``round.hand`` is built once. A seat's hand comes only from that
    seat's engine view, so a message never holds another seat's cards.
    """
    rules = info.rules
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
        "seats": [{"seat": s, "username": name, "side": s % 2} for s, name in info.seats],
        "you": None,
        "round": None,
        "scores": [0, 0],
        "target": rules.get("target"),
        "round_results": [],
        "result": None,
    }
    public_round = None
    if live is not None:
        base["scores"] = list(live.scores)
        base["round_results"] = round_results(live)
        if live.over:
            base["result"] = {"winner": live.winner, "scores": list(live.scores)}
        if live.round is not None:
            public_round = round_dict(live.public_view())
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
