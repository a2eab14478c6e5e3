"""Where the databases differ: the write transaction, and the compare-and-set write of a change
made on a kept state (STYLE.md: storage differences behind one interface).

The compare-and-set is an event store's "expected version" check: the row and the new events are
written only if the match row is still at the ``seq`` the change was made on, with the same
tokens, still being played.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterator, Sequence
from datetime import datetime
from typing import Any

import orjson
from django.db import connection, transaction
from django.db import models
from django.db.models import JSONField

from games.core import fastpath
from games.core.models import Event, Match

# SQLite has no row locks: Django makes select_for_update a no-op there, and every write
# transaction begins IMMEDIATE (settings: the write lock is taken at BEGIN, waiting for the clock
# process if it writes). The in-memory test database answers a second writer of the same process
# with "table is locked" instead of waiting, so one process's actions also take turns here.
_SQLITE_WRITE_LOCK = threading.RLock()


@contextlib.contextmanager
def write_transaction() -> Iterator[None]:
    """``transaction.atomic()``, one at a time within the process when the database is SQLite."""
    if connection.vendor == "sqlite":
        with _SQLITE_WRITE_LOCK, transaction.atomic():
            yield
    else:
        with transaction.atomic():
            yield


def compare_and_set_scope() -> contextlib.AbstractContextManager:
    """What a compare-and-set change runs in.

    PostgreSQL: nothing more. Its write is one statement, a transaction of its own, and the only
    other write such a change may make, the end of the match, opens its own transaction around
    that statement and the ``match_finished`` receivers (``endings.finish``). Sparing the
    ``BEGIN``/``COMMIT`` saves about a tenth of a play's server time (py-spy, bench/live.py).
    Elsewhere (SQLite): :func:`write_transaction`, since the write there is two statements.
    """
    if connection.vendor == "postgresql":
        return contextlib.nullcontext()
    return write_transaction()


#: The ``Match`` fields a play may change, written by :func:`write_if_unchanged`.
PLAY_FIELDS = ["seq", "status", "finished_at", "scores", "winner_side", "result", "deadline"]


def write_if_unchanged(match: Match, seen: int, events: Sequence[Event], now: datetime) -> bool:
    """Write ``match``'s :data:`PLAY_FIELDS` and ``events`` if the row is still as it was at
    ``seen``: same ``seq``, same ``cache_token`` and ``seating_token``, status ``playing``.

    PostgreSQL: one statement (an ``UPDATE … RETURNING`` feeding the ``INSERT`` of the events).
    Other databases: the same conditional ``UPDATE``, then the ``INSERT`` when it matched.

    :returns: whether it was written (``False``: the row had moved on; nothing was written).
    """
    if connection.vendor == "postgresql":
        return _one_statement(match, seen, events, now)
    unchanged = Match.objects.filter(
        pk=match.pk,
        seq=seen,
        cache_token=match.cache_token,
        seating_token=match.seating_token,
        status=Match.Status.PLAYING,
    )
    if not unchanged.update(**{name: getattr(match, name) for name in PLAY_FIELDS}):
        return False
    Event.objects.bulk_create(events)
    return True


#: The play statement's text by the number of events it inserts (``_play_sql``).
_PLAY_SQL: dict[int, str] = {}


def _play_sql(count: int) -> str:
    """The compare-and-set statement writing :data:`PLAY_FIELDS` and ``count`` events
    (PostgreSQL), written once per count: building it was about a tenth of the write."""
    sql = _PLAY_SQL.get(count)
    if sql is not None:
        return sql
    quote = connection.ops.quote_name

    def column(model: Any, name: str) -> str:
        return quote(model._meta.get_field(name).column)

    sets = ", ".join(
        f"{column(Match, name)} = %s" + ("::jsonb" if _is_json(Match, name) else "")
        for name in PLAY_FIELDS
    )
    rows = ", ".join(
        ["(%s::integer, %s::text, %s::smallint, %s::jsonb, %s::timestamptz)"] * count
    )
    fields = ["match", "seq", "kind", "seat", "payload", "created_at"]
    sql = _PLAY_SQL[count] = (
        f"WITH moved AS (UPDATE {quote(Match._meta.db_table)} SET {sets} "
        f"WHERE {column(Match, 'id')} = %s AND {column(Match, 'seq')} = %s "
        f"AND {column(Match, 'cache_token')} = %s AND {column(Match, 'seating_token')} = %s "
        f"AND {column(Match, 'status')} = %s RETURNING {column(Match, 'id')}) "
        f"INSERT INTO {quote(Event._meta.db_table)} "
        f"({', '.join(column(Event, name) for name in fields)}) "
        f"SELECT moved.{column(Match, 'id')}, e.seq, e.kind, e.seat, e.payload, e.created_at "
        f"FROM moved, (VALUES {rows}) AS e (seq, kind, seat, payload, created_at)"
    )
    return sql


def _is_json(model: Any, name: str) -> bool:
    return isinstance(model._meta.get_field(name), JSONField)


def _json_text(value: Any) -> str | None:
    """A JSON field's value as the text of a ``jsonb`` parameter, by ``orjson`` (the statement
    casts it): the same value Django's ``JSONField`` writes through ``json.dumps`` and psycopg's
    ``Jsonb`` (``jsonb`` keeps no formatting), a few times faster."""
    return None if value is None else orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()


#: Fields whose value psycopg takes as it is on PostgreSQL: Django's ``get_db_prep_save`` gives
#: them back unchanged (an ``int``, a ``str`` or ``TextChoices`` member, an aware ``datetime``, a
#: ``UUID``), only more slowly.
_AS_IS = (models.IntegerField, models.CharField, models.DateTimeField, models.UUIDField)


def _preparer(model: Any, name: str) -> Callable[[Any], Any]:
    """The function turning ``model.name``'s value into the play statement's parameter: JSON as
    text (:func:`_json_text`), the fields of :data:`_AS_IS` as they are, anything else as Django
    would (``get_db_prep_save``)."""
    if _is_json(model, name):
        return _json_text
    field = model._meta.get_field(name)
    if isinstance(field, _AS_IS):
        return _as_is
    return lambda value: field.get_db_prep_save(value, connection)


def _as_is(value: Any) -> Any:
    return value


#: :data:`PLAY_FIELDS`' preparers, found once (looking each field up on every play, and Django's
#: ``Jsonb`` dumped through ``json.dumps``, were about 6% of a play's server CPU; py-spy).
_PREPARE: dict[str, Callable[[Any], Any]] = {}


def _params(match: Match, seen: int, events: Sequence[Event], now: datetime) -> list[Any]:
    """The parameters of :func:`_play_sql` for ``match``, written at ``seen``, and ``events``."""
    if not _PREPARE:
        for name in PLAY_FIELDS:
            _PREPARE[name] = _preparer(Match, name)
        for name in ("cache_token", "seating_token"):
            _PREPARE[name] = _preparer(Match, name)
        _PREPARE["event.created_at"] = _preparer(Event, "created_at")
    prepare = _PREPARE
    params = [prepare[name](getattr(match, name)) for name in PLAY_FIELDS]
    params += [
        match.pk,
        seen,
        prepare["cache_token"](match.cache_token),
        prepare["seating_token"](match.seating_token),
        Match.Status.PLAYING.value,
    ]
    created_at = prepare["event.created_at"](now)
    for event in events:
        params += [event.seq, event.kind, event.seat, _json_text(event.payload), created_at]
    return params


def _one_statement(match: Match, seen: int, events: Sequence[Event], now: datetime) -> bool:
    params = _params(match, seen, events, now)
    # On the fast path a prepared, server-binding cursor; off it Django's own (games.core.fastpath).
    with fastpath.play_cursor() as cursor:
        cursor.execute(_play_sql(len(events)), params)
        return cursor.rowcount == len(events)
