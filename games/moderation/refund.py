"""Giving back the rating points a player closed for cheating took (lichess's ``RatingRefund``,
lila ``modules/mod/src/main/RatingRefund.scala``).

Over the cheater's last :data:`GAMES` rated, finished matches of the last :data:`DAYS` days
(voided ones left out), each opponent who was not provisional then (deviation under 110) and
lost rating in it is a victim; per victim and pool their losses are summed (``loss``, rounded
points, positive) and the highest of their ratings before those matches kept (``top``). Then
:func:`points_to_refund`, each victim's refund given through the ratings app's published
``refund`` (a history entry on their rating history; nothing is re-rated), and each told.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.utils import timezone

from games.ratings import for_apps as ratings

#: How many of the cheater's last rated matches, and from how many days back.
GAMES = 40
DAYS = 5
#: The cap without a recorded highest rating, and the bounds of a refund.
NO_HIGHEST_CAP = 100
MOST = 150


def points_to_refund(loss: int, current: int, top: int, highest: int | None) -> int:
    """The points given back to a victim in one pool (lila's ``pointsToRefund``):

    ``loss − max(0, loss + current − top) // 2``, at most ``highest − current + 20`` (at most
    :data:`NO_HIGHEST_CAP` without a recorded highest), then between 0 and :data:`MOST`.
    ``loss``: the points lost to the cheater (positive); ``current``: the victim's rating
    now; ``top``: the highest of the victim's ratings before those matches; ``highest``: the
    highest rating ever recorded for the victim in the pool. Half of what the victim regained
    since (``loss + current − top`` above 0) is kept back, and nobody is lifted more than 20
    points over their best.
    """
    points = loss - max(0, loss + current - top) // 2
    points = min(points, NO_HIGHEST_CAP if highest is None else highest - current + 20)
    return max(0, min(MOST, points))


def victims_of(cheater_id: int, now: datetime) -> dict[tuple[int, str], dict]:
    """``{(victim id, pool): {"loss", "top"}}`` over the cheater's last :data:`GAMES` rated
    matches of the last :data:`DAYS` days (see the module)."""
    found: dict[tuple[int, str], dict] = {}
    for row in ratings.losses_to(cheater_id, since=now - timedelta(days=DAYS), limit=GAMES):
        if row["provisional"] or row["diff"] >= 0:
            continue
        key = (row["victim"], row["pool"])
        entry = found.setdefault(key, {"loss": 0, "top": row["rating"]})
        entry["loss"] += -row["diff"]
        entry["top"] = max(entry["top"], row["rating"])
    return found


def give_back(cheater_id: int, now: datetime | None = None) -> list[dict]:
    """Refund every victim of ``cheater_id`` (see the module); returns ``[{"user", "pool",
    "points"}]`` of the refunds given (none of 0 points), each victim told."""
    from games.moderation import told

    now = timezone.now() if now is None else now
    given = []
    for (victim, pool), lost in sorted(victims_of(cheater_id, now).items()):
        standing = ratings.standing_in(victim, pool)
        if standing is None:
            continue
        points = points_to_refund(lost["loss"], standing["rating"], lost["top"], standing["top"])
        if points <= 0:
            continue
        ratings.refund(victim, pool, points, "cheat", now=now)
        told.tell(victim, "refund", {"points": points, "pool": pool}, now=now)
        given.append({"user": victim, "pool": pool, "points": points})
    return given
