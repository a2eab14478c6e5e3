"""The reads a table socket makes on opening, as ORM queries compiled once per connection.

Django compiles a ``QuerySet`` into SQL each time it runs. For the table's row and its seats,
read whenever a socket opens, the compiling cost more than the query: ``Match.objects.get``
took 0.49 ms of CPU, the same statement run by hand 0.16 ms, the round trip included
(PostgreSQL, this machine's micro-benchmark); a burst of 400 sockets opening read each twice.

:class:`Compiled` keeps what the ORM builds (the SQL, its parameters, the result converters) per
database connection and runs it again with new parameter values; the rows come back as the
ORM's would (``tests/games/test_queries.py`` compares them on SQLite and PostgreSQL).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from django.contrib.auth import get_user_model
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import QuerySet

from games.core.models import Match, Seat

#: Parameter values that mark where the caller's values go in the compiled statement: integers
#: no constant of these queries equals, within every integer field's range (Django compiles a
#: comparison with a value out of its field's range away, parameter and all).
_MARKERS = (2_147_301_941, 2_147_301_942, 2_147_301_943)


class Compiled:
    """A read-only query, ``build(*markers)`` with the values it is run with in place of the
    markers (integers), compiled once per database connection (connections are per thread).

    :param build: returns the ``QuerySet`` (plain columns or ``values_list``, no
        ``select_related``/``prefetch_related``); each marker must reach the SQL as one
        parameter.
    :param count: how many values it is run with.
    """

    def __init__(self, build: Callable[..., QuerySet], count: int = 1) -> None:
        self._build = build
        self._count = count
        self._local = threading.local()

    def _compiled(self, connection: Any) -> tuple:
        kept = getattr(self._local, "kept", None)
        if kept is not None and kept[0] is connection:
            return kept[1]
        markers = _MARKERS[: self._count]
        queryset = self._build(*markers)
        compiler = queryset.query.get_compiler(connection=connection)
        sql, params = compiler.as_sql()
        params = list(params)
        places = [params.index(marker) for marker in markers]
        if any(params.count(marker) != 1 for marker in markers):
            raise ValueError("each marker must reach the SQL once")
        columns = [column for column, _, _ in compiler.select]
        converters = compiler.get_converters(columns)
        names = [getattr(getattr(c, "target", None), "attname", None) for c in columns]
        compiled = (sql, params, places, compiler, converters, names, queryset.model)
        self._local.kept = (connection, compiled)
        return compiled

    def rows(self, *values: Any) -> list[list[Any]]:
        """The rows for ``values`` (in the markers' order), each a list of column values
        converted as the ORM converts them (JSON decoded, dates, …)."""
        connection = connections[DEFAULT_DB_ALIAS]
        sql, params, places, compiler, converters, _, _ = self._compiled(connection)
        params = list(params)
        for place, value in zip(places, values):
            params[place] = value
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            rows = cursor.fetchall()
        if converters:
            return [list(row) for row in compiler.apply_converters(rows, converters)]
        return [list(row) for row in rows]

    def instances(self, *values: Any) -> list[Any]:
        """The model instances for ``values`` (a query of whole rows), as the ORM builds them
        (``Model.from_db``)."""
        names, model = self._compiled(connections[DEFAULT_DB_ALIAS])[5:]
        return [model.from_db(DEFAULT_DB_ALIAS, names, row) for row in self.rows(*values)]


_match_row = Compiled(lambda pk: Match.objects.filter(pk=pk))

#: The columns of ``games.core.state.cache.SeatRow``, in its order.
SEAT_COLUMNS = (
    "seat", "user_id", "user__username", "bot", "absent", "timeouts", "resign_offered",
    "client_seed",
)
_seat_values = Compiled(
    lambda match_id: Seat.objects.filter(match_id=match_id).order_by("seat").values_list(
        *SEAT_COLUMNS
    )
)


_user_row = Compiled(lambda pk: get_user_model()._default_manager.filter(pk=pk))


def user_row(user_id: Any) -> Any:
    """The user ``user_id`` as ``ModelBackend.get_user`` reads it (``_default_manager``), or
    ``None``; compiled once (see the module)."""
    found = _user_row.instances(user_id)
    return found[0] if found else None


def match_row(match_id: int) -> Match | None:
    """``Match.objects.filter(pk=match_id).first()``, compiled once (see the module)."""
    found = _match_row.instances(match_id)
    return found[0] if found else None


def seat_values(match_id: int) -> list[list[Any]]:
    """The seats of table ``match_id`` by seat number, each the values of
    :data:`SEAT_COLUMNS` (``values_list``), compiled once (see the module)."""
    return _seat_values.rows(match_id)
