"""Which sanctions run now: the reads behind the answers this app gives (the chat's
``for_apps.chat_refusal``, the core's ``games.core.standing`` question, the ladders and the
histories' cheat marks; registered in ``ModerationConfig.ready()``).

A sanction runs from its ``created_at`` until its ``until`` (``None``: until lifted) unless it
was lifted. An account closed for cheating carries the ``cheat`` sanction, never lifted.
"""

from __future__ import annotations

from collections.abc import Collection
from datetime import datetime

from django.db.models import Q, QuerySet
from django.utils import timezone

from games.moderation.models import Sanction


def running(now: datetime | None = None) -> QuerySet[Sanction]:
    """The sanctions running at ``now``."""
    now = timezone.now() if now is None else now
    return Sanction.objects.filter(lifted_at__isnull=True).filter(Q(until__isnull=True) | Q(until__gt=now))


def chat_refusal(user_id: int, now: datetime | None = None) -> str | None:
    """``"chat_banned"``, ``"chat_timeout"`` (a ban outranks a timeout) or ``None``. One query."""
    kinds = set(
        running(now).filter(user_id=user_id, kind__in=(Sanction.Kind.CHAT_BAN, Sanction.Kind.CHAT_TIMEOUT))
        .values_list("kind", flat=True)
    )
    if Sanction.Kind.CHAT_BAN in kinds:
        return "chat_banned"
    if Sanction.Kind.CHAT_TIMEOUT in kinds:
        return "chat_timeout"
    return None


def chat_timeout_until(user_id: int, now: datetime | None = None) -> datetime | None:
    """When ``user_id``'s running chat timeouts end (the latest), or ``None``. One query."""
    return max(
        running(now).filter(user_id=user_id, kind=Sanction.Kind.CHAT_TIMEOUT).values_list("until", flat=True),
        default=None,
    )


def off_rated_ids() -> QuerySet:
    """A query of the user ids barred from rated play now: a ranked ban, or closed for
    cheating (one subquery where it is used)."""
    return running().filter(kind__in=(Sanction.Kind.RANKED_BAN, Sanction.Kind.CHEAT)).values("user_id")


def banned_from_rated(user_ids: frozenset[int]) -> set[int]:
    """The answer to the core's ``standing`` question: those of ``user_ids`` barred from rated
    play now. One query."""
    return set(
        running().filter(user_id__in=user_ids, kind__in=(Sanction.Kind.RANKED_BAN, Sanction.Kind.CHEAT))
        .values_list("user_id", flat=True)
    )


def cheaters(user_ids: Collection[int]) -> set[int]:
    """Those of ``user_ids`` closed for cheating. One query."""
    return set(
        Sanction.objects.filter(user_id__in=set(user_ids), kind=Sanction.Kind.CHEAT)
        .values_list("user_id", flat=True)
    )


def of(user_id: int) -> list[Sanction]:
    """Every sanction of ``user_id``, newest first (the staff's page)."""
    return list(Sanction.objects.filter(user_id=user_id).select_related("by").order_by("-created_at", "-pk"))
