"""What the ratings app publishes for the other apps built on the core (``games.tournaments``,
``games.queues``), and nothing else.

Those apps import the ratings app only from here; ``lint-imports`` checks it
(``pyproject.toml``, "The apps import nothing of each other but their for_apps"). An app that
needs more of the ratings gets it added here, with a line below, where the ratings' authors see
what others rely on.

- A player's rating in the pool of tables for 2 or 4 players (``Pool.of_players``): one
  player's, ``rating_of`` (``NEW_RATING``, Glicko-2's 1500 for a new player, without one
  there yet), or those of many at once, ``ratings_of`` (one query).
- A finished match's ratings as its table showed them: ``match_ratings`` (the replay).
- Which accounts are bots, said by the app that makes them (the public API): ``register_bots``
  (the ladder's Bots tab holds them, apart from people; their names are marked BOT there).
- A player's standing in each pool, for the public API's account and profile reads:
  ``pool_standings`` (rating, deviation as it stands now, provisional, matches, wins, losses).
- For the moderation app (``games/ratings/refunds.py``): what a player's opponents lost to them
  lately, ``losses_to``; a player's rating and highest recorded rating in a pool,
  ``standing_in``; points given back outside any match, ``refund`` (recorded, shown on the
  player's rating history); a player's recent rating history, ``rating_history``; who is kept
  off the ladders although open (a ranked ban), ``register_off_ladder``; who was closed for
  cheating, so that the histories mark their matches, ``register_cheat_marks``; and who of
  some players it named, ``cheaters_among`` (the tournaments flag them in the standings).
"""

from __future__ import annotations

from collections.abc import Iterable

from games.ratings import glicko2
from django.utils import timezone

from games.ratings.ladder import register_bots, register_off_ladder
from games.ratings.refunds import (
    cheaters_among, losses_to, rating_history, refund, register_cheat_marks, standing_in,
)
from games.ratings.models import PlayerRating, Pool, RatedMatch
from games.ratings.rating import shown

#: The rating a player has before their first rated match in a pool (Glicko-2's 1500).
NEW_RATING = float(glicko2.NEW_PLAYER.rating)


__all__ = [
    "NEW_RATING", "cheaters_among", "losses_to", "match_ratings", "pool_standings", "rating_history", "rating_of",
    "ratings_of", "refund", "register_bots", "register_cheat_marks", "register_off_ladder",
    "standing_in",
]


def ratings_of(user_ids: Iterable[int], players: int) -> dict[int, float]:
    """``{user id: rating}`` in the pool of tables for ``players`` of those of ``user_ids`` who
    have one there (a player without one is left out). One query.

    :raises ValueError: ``players`` not 2 or 4.
    """
    rows = PlayerRating.objects.filter(user_id__in=set(user_ids), pool=Pool.of_players(players))
    return {user_id: float(rating) for user_id, rating in rows.values_list("user_id", "rating")}


def rating_of(user_id: int, players: int) -> float:
    """``user_id``'s rating in the pool of tables for ``players``, or :data:`NEW_RATING` without
    one there yet. One query.

    :raises ValueError: ``players`` not 2 or 4.
    """
    return ratings_of([user_id], players).get(user_id, NEW_RATING)


def match_ratings(match_id: int) -> dict[int, dict]:
    """``{seat: {"rating", "change"}}`` of the seats a finished match rated, as its table showed
    them at the end (``games.ratings.table``): ``rating`` before the match ("1523?": rounded,
    "?" while provisional), ``change`` the rounded rating after minus the rounded rating before
    (an int). ``{}`` for a match not rated, or voided. One query."""
    record = RatedMatch.objects.filter(match_id=match_id, voided_at__isnull=True).first()
    if record is None:
        return {}
    return {
        s["seat"]: {
            "rating": shown(s["before"], s["deviation_before"]),
            "change": round(s["after"]) - round(s["before"]),
        }
        for s in record.seats
    }


def pool_standings(user_id: int) -> dict[str, dict | None]:
    """``{"1v1": S or None, "partnership": S or None}`` for ``user_id``, ``None`` before a first
    rated match in that pool; S = ``{"rating", "rd", "provisional", "matches", "wins",
    "losses"}``, the deviation widened for the idle time (``PlayerRating.current``), both
    rounded to one decimal. One query."""
    now = timezone.now()
    found: dict[str, dict | None] = {pool.value: None for pool in Pool}
    for row in PlayerRating.objects.filter(user_id=user_id, matches__gt=0):
        current = row.current(now)
        found[row.pool] = {
            "rating": round(float(current.rating), 1), "rd": round(float(current.deviation), 1),
            "provisional": glicko2.is_provisional(current), "matches": row.matches,
            "wins": row.wins, "losses": row.losses,
        }
    return found
