"""The NDJSON export of a player's matches (``GET /api/games/user/{username}``), streamed.

Read in pages of :data:`PAGE` rows by keyset (``finished_at``, id: newest first), each page in
a database worker, its records written and sent before the next is read: the server holds one
page, whatever the count (``bench/api.py`` measures it).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from django.db.models import Q
from django.urls import reverse

from games.api import shapes
from games.api.streams import line
from games.api.errors import ApiError
from games.core.for_apps import Match, Seat, in_worker, match_record

#: Matches read per query.
PAGE = 100
#: The ``pool`` query's values: players at the table.
POOLS = {"1v1": 2, "partnership": 4}


@dataclass(frozen=True)
class Query:
    """A checked export query."""

    user_id: int
    max: int | None
    since: datetime | None
    until: datetime | None
    rated: bool | None
    players: int | None
    vs_id: int | None

    @classmethod
    def parse(cls, username: str, *, max: int | None, since: int | None, until: int | None,
              rated: str | None, pool: str | None, vs: str | None) -> "Query":
        """:raises ApiError: ``not_found`` (no such player, or ``vs`` none), ``bad_request``."""
        user = shapes.user_named(username)
        if user is None:
            raise ApiError("not_found")
        if max is not None and max < 0:
            raise ApiError("bad_request")
        if rated not in (None, "", "true", "false") or pool not in (None, "", *POOLS):
            raise ApiError("bad_request")
        vs_id = None
        if vs:
            other = shapes.user_named(vs)
            if other is None:
                raise ApiError("not_found")
            vs_id = other.pk

        def when(ms: int | None) -> datetime | None:
            if ms is None:
                return None
            try:
                return datetime.fromtimestamp(ms / 1000, tz=UTC)
            except (OverflowError, OSError, ValueError):
                raise ApiError("bad_request") from None

        return cls(
            # ``until`` counts its whole millisecond: a match finished within it is in.
            user_id=user.pk, max=max, since=when(since),
            until=None if until is None else when(until + 1),
            rated=None if not rated else rated == "true", players=POOLS.get(pool or ""),
            vs_id=vs_id,
        )

    def matches(self) -> Any:
        rows = Match.objects.filter(
            status=Match.Status.FINISHED, seats__user_id=self.user_id, finished_at__isnull=False
        )
        if self.since is not None:
            rows = rows.filter(finished_at__gte=self.since)
        if self.until is not None:
            rows = rows.filter(finished_at__lt=self.until)
        if self.rated is not None:
            rows = rows.filter(rated=self.rated)
        if self.players is not None:
            rows = rows.filter(players=self.players)
        if self.vs_id is not None:
            rows = rows.filter(
                pk__in=Seat.objects.filter(user_id=self.vs_id).values("match_id")
            )
        return rows.order_by("-finished_at", "-pk")


def record_of(match: Match, base: str) -> dict:
    """``match``'s ``basra-record/1`` with its ``headers.id`` (the match id) and ``match`` (its
    table's address under ``base``, the site's root)."""
    url = base + reverse("table", kwargs={"match_id": match.pk})
    record = match_record(match, url=url)
    record["headers"]["id"] = match.pk
    return record


def _page(query: Query, after: tuple[datetime, int] | None, size: int, base: str) -> tuple[list[bytes], tuple | None]:
    rows = query.matches()
    if after is not None:
        rows = rows.filter(Q(finished_at__lt=after[0]) | Q(finished_at=after[0], pk__lt=after[1]))
    page = list(rows[:size])
    lines = [line(record_of(m, base)) for m in page]
    last = (page[-1].finished_at, page[-1].pk) if page else None
    return lines, last


async def records(query: Query, base: str) -> AsyncIterator[bytes]:
    """The export's lines, a page at a time."""
    sent, after = 0, None
    while query.max is None or sent < query.max:
        size = PAGE if query.max is None else min(PAGE, query.max - sent)
        lines, after = await in_worker(_page)(query, after, size, base)
        for text in lines:
            yield text
        sent += len(lines)
        if len(lines) < size:
            return
