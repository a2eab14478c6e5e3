"""The players' ratings on the lobby's lists (issues 10 and 21): at every open table, and at the
matches being played only where they are rated, read by the ratings app.

The core's lobby (``games.core.state.lobby``: the open tables, your matches, the matches to
watch) never imports this app: it sends ``games.core.signals.lobby_matches_read`` with its rows
and :func:`add_ratings` (connected in ``RatingsConfig.ready()``) adds what the app knows.
"""

from __future__ import annotations

from typing import Any

from django.utils import timezone

from games.ratings import glicko2
from games.ratings.models import PlayerRating, Pool
from games.ratings.rating import shown

#: A person without a rating in the pool yet, as shown: Glicko-2's new player, provisional.
NEW_SHOWN = shown(glicko2.NEW_PLAYER.rating, glicko2.NEW_PLAYER.deviation)


def add_ratings(sender: Any, rows: list[dict], *, waiting: bool = False, **kwargs: Any) -> None:
    """Give each person's seat of ``rows`` a ``rating``: their rating in the table's pool
    (``Pool.of_players``: 1v1 for two, partnership for four) as shown at the table
    (``rating.shown``: rounded, "?" while provisional, the deviation widened for idle days as
    the win chances do), ``"1500?"`` for a person with none there yet. One query for all rows.
    Computer seats (no ``username``) and empty seats get no key, nor, unless ``waiting`` (the
    rows are open tables, ``reads.open_tables``), any seat of a casual row, as the table shows no
    rating at a casual match (``games.ratings.table``); a person the computer took over at a
    rated table keeps theirs."""
    # A casual match (every match against the computer is one) moves nobody's rating: a rating
    # beside its names, "(1500?)" for a newcomer, would read as what is at stake. An open table
    # keeps its players' ratings, casual or rated, as a lichess seek shows its creator's: they
    # tell whoever would sit down whom they would meet.
    if not waiting:
        rows = [row for row in rows if row["rated"]]
    wanted: dict[str, set[str]] = {}
    for row in rows:
        pool = Pool.of_players(row["players"])
        for seat in row["seats"]:
            if seat.get("username"):
                wanted.setdefault(pool, set()).add(seat["username"])
    if not wanted:
        return
    now = timezone.now()
    found: dict[tuple[str, str], str] = {}
    for pool, names in wanted.items():
        for row in PlayerRating.objects.filter(pool=pool, user__username__in=names).select_related("user"):
            current = row.current(now)
            found[(pool, row.user.get_username())] = shown(current.rating, current.deviation)
    for row in rows:
        pool = Pool.of_players(row["players"])
        for seat in row["seats"]:
            if seat.get("username"):
                seat["rating"] = found.get((pool, seat["username"]), NEW_SHOWN)
