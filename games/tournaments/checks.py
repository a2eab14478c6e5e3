"""What every change to an event starts with: the constants, the entrants' ratings, the
event's row lock, the organiser check and the audit trail (``games.tournaments.services``)."""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Any

from games.core.for_apps import standing, titles
from games.ratings import for_apps as ratings
from games.tournaments.errors import Code, TournamentError
from games.tournaments.models import AuditEntry, Pairing, Tournament

log = logging.getLogger("games.tournaments.services")


#: The rating an entrant is seeded and paired with until the ratings app reports one.
DEFAULT_RATING = ratings.NEW_RATING


#: A knockout pairing played as best of 3 is won by the first to this many match wins.
BEST_OF_3_WINS = 2


#: How often one pairing's match may be aborted before the first play and set up again; the
#: next abort is a double forfeit.
MAX_ABORTS = 2


Format = Tournament.Format


def rating_of(user: Any, players: int = 2) -> float:
    """The rating a player is seeded and paired with: their Glicko-2 rating in the pool of tables
    for ``players`` (``games.ratings``), or :data:`DEFAULT_RATING` (a new player's, 1500) when
    they have none there yet."""
    return ratings.rating_of(user.pk, players)


def require_login(user: Any) -> None:
    if user is None or not user.is_authenticated:
        raise TournamentError(Code.LOGIN_REQUIRED)


def require_people(*users: Any) -> None:
    """Refuse a bot account among ``users`` (``games.core.titles``, one ask; ``None`` entries
    skipped; docs/api.md says why tournaments are for people).

    A player a moderator barred from rated play may enter no tournament either (lichess's
    rankban; ``games.core.standing``).

    :raises TournamentError: ``tournament_bot``; ``tournament_ranked_banned``.
    """
    ids = [user.pk for user in users if user is not None]
    found = titles.titles(ids)
    if any(title == titles.BOT for title in found.values()):
        raise TournamentError(Code.BOT)
    if not standing.may_play_rated(ids):
        raise TournamentError(Code.RANKED_BANNED)


def lock(tournament_id: int) -> Tournament:
    """The event row, locked until the end of the transaction.

    :raises TournamentError: ``not_found``.
    """
    try:
        return Tournament.objects.select_for_update().get(pk=tournament_id)
    except Tournament.DoesNotExist:
        raise TournamentError(Code.NOT_FOUND) from None


def locked_pairing(pairing_id: int) -> tuple[Tournament, Pairing]:
    tournament_id = Pairing.objects.filter(pk=pairing_id).values_list("tournament_id", flat=True).first()
    if tournament_id is None:
        raise TournamentError(Code.NOT_FOUND)
    t = lock(tournament_id)
    return t, Pairing.objects.select_related("a", "b", "round").get(pk=pairing_id)


def check_organiser(t: Tournament, user: Any) -> None:
    """:raises TournamentError: ``login_required``, ``not_organiser``."""
    require_login(user)
    if not t.can_manage(user):
        raise TournamentError(Code.NOT_ORGANISER)


def audit(t: Tournament, user: Any, action: str, now: datetime, *, pairing_row=None, **details) -> None:
    if user is not None:
        AuditEntry.objects.create(
            tournament=t, actor=user, action=action, pairing=pairing_row, details=details,
            created_at=now,
        )
