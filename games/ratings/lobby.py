"""The players' ratings on the lobby's live matches (issue 10), read by the ratings app.

The core's lobby (``games.core.state.lobby.live_matches``) never imports this app: it sends
``games.core.signals.lobby_matches_read`` with its rows and :func:`add_ratings` (connected in
``RatingsConfig.ready()``) adds what the app knows.
"""

from __future__ import annotations

from typing import Any

from games.ratings.models import PlayerRating, Pool


def add_ratings(sender: Any, rows: list[dict], **kwargs: Any) -> None:
    """Give each person's seat of ``rows`` a ``rating``: their rating in the table's pool
    (``Pool.of_players``: 1v1 for two, partnership for four), rounded to an int, where they have
    one (a ``PlayerRating`` row: at least one rated match there). One query for all rows.
    Seats without a rating get no key."""
    wanted: dict[str, set[str]] = {}
    for row in rows:
        pool = Pool.of_players(row["players"])
        for seat in row["seats"]:
            if seat.get("username"):
                wanted.setdefault(pool, set()).add(seat["username"])
    if not wanted:
        return
    found: dict[tuple[str, str], float] = {}
    for pool, names in wanted.items():
        for username, rating in PlayerRating.objects.filter(
            pool=pool, user__username__in=names
        ).values_list("user__username", "rating"):
            found[(pool, username)] = rating
    for row in rows:
        pool = Pool.of_players(row["players"])
        for seat in row["seats"]:
            rating = found.get((pool, seat.get("username")))
            if rating is not None:
                seat["rating"] = round(rating)
