"""What the queues publish for the apps above them (``games.people``), and nothing else.

- Who waits in a queue now: ``waiting`` (as a player or a partner).
- Taking a player out of every queue (a moderator's ranked ban, ``games.moderation``):
  ``leave`` (as the player's own "Leave" does it: a pair leaves together).
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db.models import Q

from games.queues import services
from games.queues.models import Entry


def leave(user) -> bool:
    """Take ``user`` out of the queue they wait in (their pair too) and withdraw an invitation
    they sent; whether there was anything to leave (``services.leave``)."""
    return services.leave(user=user)


def waiting(user_ids: Iterable[int]) -> set[int]:
    """Which of ``user_ids`` wait in a queue (one query)."""
    ids = set(user_ids)
    if not ids:
        return set()
    rows = Entry.objects.filter(Q(user_id__in=ids) | Q(partner_id__in=ids)).values_list("user_id", "partner_id")
    return {u for row in rows for u in row if u in ids}
