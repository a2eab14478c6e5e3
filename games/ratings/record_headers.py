"""The ratings headers of a rated match's game record (RULES.md, "Game record": ``ratings_before``
and ``ratings_after``), given to the core's record writer through ``games.core.signals.record_headers``
(connected in ``RatingsConfig.ready()``; the core never imports this app)."""

from __future__ import annotations

from typing import Any

from games.ratings.models import RatedMatch


def rating_headers(sender: Any, match: Any, **kwargs: Any) -> dict[str, list] | None:
    """``{"ratings_before": [per seat], "ratings_after": [per seat]}`` for a rated match that was
    rated (Glicko-2 ratings rounded to 0.01, as ``RatedMatch.seats`` keeps them; ``None`` for a
    seat that was no person's), else ``None``: an unrated match, one not rated yet or an abort,
    and a match whose rating staff voided (its changes were undone). One query for a rated
    match, none for another."""
    if not match.rated:
        return None
    seats = (
        RatedMatch.objects.filter(match_id=match.pk, voided_at__isnull=True)
        .values_list("seats", flat=True)
        .first()
    )
    if not seats:
        return None
    by_seat = {s["seat"]: s for s in seats}
    return {
        "ratings_before": [by_seat[i]["before"] if i in by_seat else None for i in range(match.players)],
        "ratings_after": [by_seat[i]["after"] if i in by_seat else None for i in range(match.players)],
    }
