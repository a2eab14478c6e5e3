"""The ratings headers of a rated match's game record (RULES.md, "Game record": ``ratings_before``,
``ratings_after`` and ``not_rated``), given to the core's record writer through
``games.core.signals.record_headers`` (connected in ``RatingsConfig.ready()``; the core never
imports this app)."""

from __future__ import annotations

from typing import Any

from games.ratings.models import RatedMatch
from games.ratings.rating import not_rated_reason


def rating_headers(sender: Any, match: Any, **kwargs: Any) -> dict[str, Any] | None:
    """For a rated match that was rated: ``{"ratings_before": [per seat], "ratings_after": [per
    seat]}`` (Glicko-2 ratings rounded to 0.01, as ``RatedMatch.seats`` keeps them; ``None`` for
    a seat that was no person's or that the match did not rate: a stayer whose partner left).
    For a finished rated match that was not rated, or whose rating staff voided (its changes
    were undone): ``{"not_rated": code}``, a ``rating.Unrated`` code. Else ``None``: an unrated
    table's match, one not finished. One query for a rated match that was rated, up to three
    for another, none for a casual match."""
    if not match.rated:
        return None
    seats = (
        RatedMatch.objects.filter(match_id=match.pk, voided_at__isnull=True)
        .values_list("seats", flat=True)
        .first()
    )
    if not seats:
        reason = not_rated_reason(match)
        return None if reason is None else {"not_rated": reason}
    by_seat = {s["seat"]: s for s in seats}
    return {
        "ratings_before": [by_seat[i]["before"] if i in by_seat else None for i in range(match.players)],
        "ratings_after": [by_seat[i]["after"] if i in by_seat else None for i in range(match.players)],
    }
