"""The compare-and-set write of a change made on a kept state: the only place the databases differ.

An event store's "expected version" check: the row and the new events are written only if the
match row is still at the ``seq`` the change was made on, with the same tokens, still being
played. The caller runs it inside its transaction (``funnel.run``), so whatever else that
transaction does (``match_finished`` receivers) commits or rolls back with it.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from django.db import connection

from games.models import Event, Match

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


def _one_statement(match: Match, seen: int, events: Sequence[Event], now: datetime) -> bool:
    quote = connection.ops.quote_name

    def column(model: Any, name: str) -> str:
        return quote(model._meta.get_field(name).column)

    def value(model: Any, name: str, raw: Any) -> Any:
        return model._meta.get_field(name).get_db_prep_save(raw, connection)

    sets = ", ".join(f"{column(Match, name)} = %s" for name in PLAY_FIELDS)
    params = [value(Match, name, getattr(match, name)) for name in PLAY_FIELDS]
    params += [
        match.pk,
        seen,
        value(Match, "cache_token", match.cache_token),
        value(Match, "seating_token", match.seating_token),
        Match.Status.PLAYING.value,
    ]
    rows = []
    for event in events:
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
        return cursor.rowcount == len(events)
