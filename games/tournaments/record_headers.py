"""The ``event`` header of a tournament table's game record (RULES.md, "Game record": the
tournament's name and round), given to the core's record writer through
``games.core.signals.record_headers`` (connected in ``TournamentsConfig.ready()``)."""

from __future__ import annotations

from typing import Any

from games.tournaments.models import Game, Tournament


def event_header(sender: Any, match: Any, **kwargs: Any) -> dict[str, str] | None:
    """``{"event": "<name>, round <n>"}`` (an arena's name alone: it has no rounds) for a match
    played at a tournament's table, else ``None``. One query."""
    game = (
        Game.objects.filter(match_id=match.pk)
        .select_related("pairing__tournament", "pairing__round")
        .first()
    )
    if game is None:
        return None
    t = game.pairing.tournament
    if t.format == Tournament.Format.ARENA:
        return {"event": t.name}
    return {"event": f"{t.name}, round {game.pairing.round.number}"}
