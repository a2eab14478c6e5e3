"""Event results on player profiles: the ``profile.sections`` slot of the core's pages."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Q

from games.tournaments.models import Entrant, Tournament

#: How many finished events a profile lists.
PROFILE_EVENTS = 10


@dataclass(frozen=True)
class EventResult:
    """One finished event of a player: the ``tournament``, the ``place`` (rank in the final
    standings) among ``entrants``, and the entrant's name (a partnership's both names)."""

    tournament: Tournament
    place: int | None
    entrants: int
    entrant: str


def event_results(player: Any, limit: int = PROFILE_EVENTS) -> list[EventResult]:
    """``player``'s latest ``limit`` finished events, newest first, with their places."""
    from games.tournaments import services

    entries = (
        Entrant.objects.filter(Q(user=player) | Q(partner=player))
        .filter(tournament__status=Tournament.Status.FINISHED)
        .exclude(status=Entrant.Status.INVITED)
        .select_related("tournament", "user", "partner")
        .order_by("-tournament__finished_at")[:limit]
    )
    out = []
    for e in entries:
        lines = services.standings(e.tournament)
        place = next((line.rank for line in lines if line.entrant.pk == e.pk), None)
        out.append(EventResult(tournament=e.tournament, place=place, entrants=len(lines), entrant=e.name))
    return out


def results_section(request: Any, page: Any) -> dict | None:
    """The ``profile.sections`` context of ``page["player"]``'s events (``TournamentsConfig.ready``):
    ``{"tournament_results": [EventResult, ...]}``, or ``None`` (nothing shown) without any."""
    results = event_results(page["player"])
    return {"tournament_results": results} if results else None
