"""Rating points given back outside any match, and the reads a refund is computed from.

lichess gives back the points a closed cheater took from their victims (lila
``modules/mod/src/main/RatingRefund.scala``); the moderation app decides how many
(``games.moderation.refund``) from :func:`losses_to` and :func:`standing_in`, and gives them
with :func:`refund`, which records a :class:`~games.ratings.models.RatingRefund` that the
player's rating history shows (``/players/<name>/matches/``). Nothing is re-rated: the match
rows and the rating changes stay as they were.

A history row whose opponent was closed for cheating is marked (``register_cheat_marks``:
the app that knows says who).
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from datetime import datetime

from django.db import transaction
from django.utils import timezone

from games.ratings import glicko2
from games.ratings.models import PlayerRating, Pool, RatingChange, RatingRefund

#: ``marks(user ids) -> the ids of those closed for cheating`` (one query), or ``None``.
_cheat_marks: Callable[[Collection[int]], Collection[int]] | None = None


def register_cheat_marks(marks: Callable[[Collection[int]], Collection[int]] | None) -> None:
    """Let an app (``games.moderation``) say which accounts were closed for cheating, so that
    the match histories mark the matches played against them."""
    global _cheat_marks
    _cheat_marks = marks


def cheaters_among(user_ids: Collection[int]) -> set[int]:
    """Which of ``user_ids`` were closed for cheating (empty while no app says)."""
    ids = {uid for uid in user_ids if uid is not None}
    if _cheat_marks is None or not ids:
        return set()
    return set(_cheat_marks(ids)) & ids


def losses_to(user_id: int, *, since: datetime, limit: int = 40) -> list[dict]:
    """What ``user_id``'s opponents gained or lost in ``user_id``'s last ``limit`` rated
    matches rated at ``since`` or later (voided ones left out), newest first: one dict per
    opponent per match, ``{"match_id", "victim", "pool", "diff"`` (the rounded rating after
    less the rounded rating before, an int), ``"rating"`` (rounded, before the match),
    ``"provisional"`` (the opponent's deviation then was 110 or more)``}``. Two queries."""
    mine = list(
        RatingChange.objects.filter(user_id=user_id, voided=False, rated_at__gte=since)
        .order_by("-rated_at", "-pk").values_list("match_id", flat=True)[:limit]
    )
    sides = {
        (change.match_id, change.user_id): change
        for change in RatingChange.objects.filter(match_id__in=mine, voided=False).select_related("rated")
    }
    own_side = {}
    for (match_id, uid), change in sides.items():
        if uid == user_id:
            seat = next(s for s in change.rated.seats if s["user"] == user_id)
            own_side[match_id] = seat["side"]
    out = []
    for match_id in mine:
        for (mid, uid), change in sides.items():
            if mid != match_id or uid == user_id:
                continue
            seat = next((s for s in change.rated.seats if s["user"] == uid), None)
            if seat is None or seat["side"] == own_side.get(match_id):
                continue  # a partner, not an opponent
            out.append({
                "match_id": match_id, "victim": uid, "pool": change.pool,
                "diff": round(change.rating_after) - round(change.rating_before),
                "rating": round(change.rating_before),
                "provisional": change.deviation_before >= glicko2.PROVISIONAL_DEVIATION,
            })
    return out


def standing_in(user_id: int, pool: str) -> dict | None:
    """``{"rating": int, "top": int or None}`` of ``user_id`` in ``pool`` (rounded; ``top`` the
    highest recorded, ``PlayerRating.top``), or ``None`` without a rating there."""
    row = PlayerRating.objects.filter(user_id=user_id, pool=pool).first()
    if row is None:
        return None
    return {"rating": round(row.rating), "top": None if row.top is None else round(row.top)}


def refund(user_id: int, pool: str, points: float, reason: str, now: datetime | None = None) -> RatingRefund:
    """Give ``user_id`` ``points`` rating points back in ``pool`` (the row locked; the
    highest recorded rating raised when passed), recorded with ``reason`` for their history.

    :raises ValueError: ``points`` not above 0, an unknown pool, or no rating there.
    """
    if not points > 0 or pool not in Pool.values:
        raise ValueError(f"a refund is of positive points in a pool, got {points!r} in {pool!r}")
    now = timezone.now() if now is None else now
    with transaction.atomic():
        row = PlayerRating.objects.select_for_update().filter(user_id=user_id, pool=pool).first()
        if row is None:
            raise ValueError(f"player {user_id} has no rating in {pool}")
        before = row.rating
        row.rating = before + points
        row.top = row.rating if row.top is None else max(row.top, row.rating)
        row.save(update_fields=["rating", "top"])
        return RatingRefund.objects.create(
            user_id=user_id, pool=pool, points=points, rating_before=before,
            rating_after=row.rating, reason=reason[:200], created_at=now,
        )


def refunds_of(user_id: int, limit: int = 50) -> list[RatingRefund]:
    """``user_id``'s refunds, newest first (one query)."""
    return list(RatingRefund.objects.filter(user_id=user_id).order_by("-created_at", "-pk")[:limit])


def rating_history(user_id: int, limit: int = 20) -> list[dict]:
    """``user_id``'s last ``limit`` rating changes and refunds together, newest first:
    ``{"when", "pool", "before", "after", "match_id"`` (``None`` for a refund), ``"reason"``
    (a refund's, else ``""``), ``"voided"}``, ratings rounded. Two queries."""
    rows = [
        {"when": c.rated_at, "pool": c.pool, "before": round(c.rating_before),
         "after": round(c.rating_after), "match_id": c.match_id, "reason": "", "voided": c.voided}
        for c in RatingChange.objects.filter(user_id=user_id).order_by("-rated_at", "-pk")[:limit]
    ] + [
        {"when": r.created_at, "pool": r.pool, "before": round(r.rating_before),
         "after": round(r.rating_after), "match_id": None, "reason": r.reason, "voided": False}
        for r in refunds_of(user_id, limit)
    ]
    return sorted(rows, key=lambda row: row["when"], reverse=True)[:limit]
