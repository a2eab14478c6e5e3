"""The reads a table socket makes on opening, as ORM queries compiled once per connection on the
fast path (``games.core.fastpath.Compiled``, which says why; plain ORM queries off it). The rows
come back as the ORM's would (``tests/core/state/test_queries.py`` compares them on SQLite and
PostgreSQL).
"""

from __future__ import annotations

from typing import Any

from games.core.fastpath import Compiled
from games.core.models import Match, Seat

_match_row = Compiled(lambda pk: Match.objects.filter(pk=pk))

#: The columns of ``games.core.state.cache.SeatRow``, in its order (``user__is_active``, ``None``
#: for a computer seat, is read as its ``closed``: ``is False``).
SEAT_COLUMNS = (
    "seat", "user_id", "user__username", "bot", "absent", "timeouts", "resign_offered",
    "client_seed", "user__is_active",
)
_seat_values = Compiled(
    lambda match_id: Seat.objects.filter(match_id=match_id).order_by("seat").values_list(
        *SEAT_COLUMNS
    )
)


def match_row(match_id: int) -> Match | None:
    """``Match.objects.filter(pk=match_id).first()`` (see the module)."""
    found = _match_row.instances(match_id)
    return found[0] if found else None


def seat_values(match_id: int) -> list[list[Any]]:
    """The seats of table ``match_id`` by seat number, each the values of
    :data:`SEAT_COLUMNS` (``values_list``) (see the module)."""
    return _seat_values.rows(match_id)
