"""What one process keeps of the tables it serves, only to spare the database (STYLE.md, "In this
project" 3: a cached snapshot is only a speed-up, and a test checks that it agrees with the log).

:class:`LiveCache` keeps the engine ``Match`` of each table at one ``seq`` (with a copy of the
``Match`` row as written at that ``seq``); a state that is behind the log catches up by the events
written since (``games.core.state.log.catch_up``) instead of replaying the match. :func:`seat_rows` keeps each
table's seating per ``Match.seating_token``.
"""

from __future__ import annotations

import copy
import dataclasses
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from games import engine
from games.core import signals, titles
from games.core.models import Match
from games.core.state import log
from games.core.state.queries import seat_values

T = TypeVar("T")


@dataclass
class Entry:
    """One kept table: its engine state ``live`` at ``seq``, and ``row``, a copy of the ``Match``
    row as written at ``seq`` (``token`` is its ``cache_token``)."""

    token: str
    seq: int
    live: engine.Match
    row: Match


class LiveCache:
    """Engine states of this process's tables, each valid for the ``seq`` it was built at.

    A writer takes the state out (:meth:`checkout`, :meth:`take`), so no reader sees it half
    changed, changes it inside its transaction, and puts it back after the commit
    (:meth:`checkin`); a rolled-back transaction simply never puts it back. Keyed by match id and
    checked against ``Match.cache_token`` (ids may be reused after a rolled-back insert on
    SQLite, a random token never is). At most ``size`` tables, the least recently used dropped.
    """

    def __init__(self, size: int = 2048) -> None:
        self.size = size
        self._entries: OrderedDict[int, Entry] = OrderedDict()
        self._lock = threading.Lock()

    def clear(self) -> None:
        """Forget everything (tests; a process that wants its memory back)."""
        with self._lock:
            self._entries.clear()

    def take(self, match_id: int) -> Entry | None:
        """The kept entry of ``match_id``, now owned by the caller (``None``: none kept).

        Nothing is read from the database: the entry may be behind the log (another process
        wrote since), and the caller must check it against the row it relies on.
        """
        with self._lock:
            return self._entries.pop(match_id, None)

    def checkout(self, match: Match) -> engine.Match:
        """The engine state of ``match`` at ``match.seq``, now owned by the caller.

        The kept state when it is at that ``seq``; caught up by the events since when it is
        behind (the clock or another server wrote them); else rebuilt from the whole log.
        """
        entry = self.take(match.pk)
        return self.bring_to(entry, match)

    @staticmethod
    def bring_to(entry: Entry | None, match: Match) -> engine.Match:
        """``entry``'s state brought to ``match.seq`` (caught up or rebuilt, see :meth:`checkout`)."""
        if entry is not None and entry.token == str(match.cache_token):
            if entry.seq == match.seq:
                return entry.live
            if entry.seq < match.seq:
                try:
                    return log.catch_up(entry.live, match.pk, entry.seq, match.seq)
                except engine.BasraError:
                    pass  # not a state these events follow from: replay the log instead
        return log.rebuild(match)

    def checkin(self, match: Match, live: engine.Match, *, owned: bool = False) -> None:
        """Keep ``live`` as the state of ``match`` at ``match.seq`` (after the commit that wrote it).

        ``match`` must be the row as written; a copy of it is kept, or ``match`` itself when
        ``owned`` (the caller hands it over and never touches it again: the funnel's copies).
        Two commits' callbacks may run out of order: an older ``seq`` never replaces a newer one.
        """
        with self._lock:
            entry = self._entries.get(match.pk)
            if entry and entry.token == str(match.cache_token) and entry.seq > match.seq:
                return
            self._entries[match.pk] = Entry(
                str(match.cache_token), match.seq, live, match if owned else copy.copy(match)
            )
            self._entries.move_to_end(match.pk)
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)

    def read(self, match: Match, build: Callable[[engine.Match], T]) -> T:
        """``build(live)`` for the engine state of ``match`` at ``match.seq``.

        ``build`` must not change ``live``. A kept state at that ``seq`` is read in place, under
        the cache's lock; otherwise it is brought there (:meth:`checkout`) and kept.
        """
        with self._lock:
            entry = self._entries.get(match.pk)
            if entry and entry.token == str(match.cache_token) and entry.seq == match.seq:
                self._entries.move_to_end(match.pk)
                return build(entry.live)
        live = self.checkout(match)
        result = build(live)
        self.checkin(match, live)
        return result


#: The one cache of this process.
cache = LiveCache()


@dataclass(frozen=True)
class SeatRow:
    """One taken seat, as the actions and the ``state`` message need it.

    ``user_id``/``username``: the person's, ``None`` for a computer seat (a person the computer
    replaced keeps them); ``bot``: the computer level playing the seat now, ``""`` for a person;
    ``absent``: marked absent by the clock; ``timeouts``: timeouts in a row;
    ``resign_offered``: offered to resign, waiting for the partner; ``client_seed``: the
    person's seed for the fair shuffle (``games.core.models.Seat``), never in :meth:`to_dict`: a
    ``state`` message shows it to its own seat only, and to everyone once the match started
    (``Match.client_seeds``). ``closed``: the person's account is closed (``is_active`` false:
    ``accounts.closing``): the ``state`` message then names nobody (``username`` null, ``closed``
    true; the table shows "Closed account").
    """

    seat: int
    user_id: int | None
    username: str | None
    bot: str = ""
    absent: bool = False
    timeouts: int = 0
    resign_offered: bool = False
    client_seed: str = ""
    closed: bool = False
    title: str | None = None

    def to_dict(self) -> dict:
        """The seat's object in a ``state`` message (``docs/protocol.md`` "state")."""
        return {
            "seat": self.seat,
            "username": None if self.closed else self.username,
            "closed": self.closed,
            "side": self.seat % 2,
            "bot": self.bot or None,
            "absent": self.absent,
            "resign_offer": self.resign_offered,
            "title": self.title,
        }


_seat_rows: OrderedDict[tuple[int, str, str], tuple[SeatRow, ...]] = OrderedDict()
_extras: OrderedDict[tuple, dict] = OrderedDict()
_kept_lock = threading.Lock()


def _kept(store: OrderedDict, key: tuple, build: Callable[[], T]) -> T:
    """``store[key]``, built by ``build()`` the first time (least recently used dropped past
    ``cache.size``). ``build`` runs outside the lock: two threads may both build, and either
    result is the same."""
    with _kept_lock:
        if key in store:
            store.move_to_end(key)
            return store[key]
    value = build()
    with _kept_lock:
        store[key] = value
        while len(store) > cache.size:
            store.popitem(last=False)
    return value


def seat_rows(match: Match) -> tuple[SeatRow, ...]:
    """The taken seats of ``match``, by seat number.

    Once a match has started they are kept per process under ``Match.seating_token``, which
    every change to a seat replaces (an absence, a takeover, a resign offer, a timeout count),
    so a seating is read once per change. The accounts' titles (``games.core.titles``) are
    asked once per read, for all its seats.
    """
    def read() -> tuple[SeatRow, ...]:
        rows = [
            SeatRow(*values[:-1], closed=values[-1] is False) for values in seat_values(match.pk)
        ]
        marks = titles.titles(row.user_id for row in rows)
        return tuple(
            dataclasses.replace(row, title=marks[row.user_id]) if row.user_id in marks else row
            for row in rows
        )

    if match.status == Match.Status.OPEN:
        return read()
    return _kept(_seat_rows, (match.pk, str(match.cache_token), str(match.seating_token)), read)


def table_extras(match: Match, seats: tuple[SeatRow, ...] | None = None) -> dict:
    """``{name: JSON value}``: what the apps add to the ``state`` message of ``match``
    (``games.core.signals.table_extras``; ``{}`` when none does), for its ``seats``
    (:func:`seat_rows` when not given).

    Kept like the seats, per seating and also per status (a finished match's extras differ from
    its playing ones: the ratings' change), so a match's plays never ask the apps again; an open
    table's are asked at every change (its seats change on every join). A finished match's are
    kept under its last ``seq`` too: they are first read inside the transaction that ends it,
    and should that commit fail, the match ends later at another ``seq``.
    """
    def ask() -> dict:
        found = signals.table_extras.send(
            sender=Match, match=match, seats=seat_rows(match) if seats is None else seats
        )
        return {reply[0]: reply[1] for _, reply in found if reply is not None}

    if match.status == Match.Status.OPEN:
        return ask()
    key = (match.pk, str(match.cache_token), str(match.seating_token), str(match.status))
    if match.status == Match.Status.FINISHED:
        key += (match.seq,)
    return _kept(_extras, key, ask)


def clear_caches() -> None:
    """Forget every kept state, seating and extras of this process (tests; freeing memory)."""
    cache.clear()
    with _kept_lock:
        _seat_rows.clear()
        _extras.clear()
