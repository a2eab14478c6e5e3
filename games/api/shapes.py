"""The API's shapes (``../shared/API.md``): P (a player), R (a rating), C (a challenge), G (a
match of the account), built from the rows. Synchronous: the streams call them in a worker.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db.models import Q
from django.utils import timezone

from games.api.models import BotAccount
from games.core.for_apps import Challenge, GameError, Match, Seat, relations, table_state
from games.ratings.for_apps import pool_standings, ratings_of

#: API.md's challenge statuses by the core's.
CHALLENGE_STATUS = {
    Challenge.Status.PENDING: "created",
    Challenge.Status.ACCEPTED: "accepted",
    Challenge.Status.DECLINED: "declined",
    Challenge.Status.CANCELLED: "canceled",
}


def is_bot(user_id: int) -> bool:
    """Whether the account is a bot (``BotAccount``). One query."""
    return BotAccount.objects.filter(user_id=user_id).exists()


def title(user_id: int) -> str | None:
    """``"BOT"`` for a bot account, else ``None`` (API.md's ``title``)."""
    return "BOT" if is_bot(user_id) else None


def ratings(user_id: int) -> dict:
    """``{"1v1": R, "partnership": R}``, R ``{"rating", "rd", "provisional", "matches"}`` or
    ``None`` before a first rated match."""
    return {
        pool: None if s is None else {k: s[k] for k in ("rating", "rd", "provisional", "matches")}
        for pool, s in pool_standings(user_id).items()
    }


def player(user: Any) -> dict:
    """P: ``{"username", "title", "rating"}`` (the 1v1 rating, rounded; ``None`` without one)."""
    rating = ratings_of([user.pk], 2).get(user.pk)
    return {
        "username": user.get_username(),
        "title": title(user.pk),
        "rating": None if rating is None else round(rating),
    }


def decline_reason_key(challenge_id: int) -> str:
    return f"api-decline-reason:{challenge_id}"


def challenge(row: Challenge, user_id: int) -> dict:
    """C for ``user_id`` (``direction`` ``out`` for the challenger's)."""
    status = CHALLENGE_STATUS.get(row.status, str(row.status))
    if status == "created" and row.expires_at <= timezone.now():
        status = "expired"
    shape = {
        "id": row.pk,
        "status": status,
        "challenger": player(row.challenger),
        "destUser": player(row.challenged),
        "players": 2,
        "rated": row.rated,
        "target": (row.rules or {}).get("target"),
        "move_seconds": row.move_seconds,
        "direction": "out" if row.challenger_id == user_id else "in",
    }
    if status == "declined":
        shape["declineReason"] = cache.get(decline_reason_key(row.pk)) or "generic"
    return shape


def challenge_by_id(challenge_id: int, user_id: int) -> dict | None:
    row = (
        Challenge.objects.select_related("challenger", "challenged")
        .filter(pk=challenge_id).first()
    )
    return None if row is None else challenge(row, user_id)


def expiries(challenge_ids: Any) -> dict[int, datetime]:
    """``{id: expires_at}`` of the challenges among ``challenge_ids`` still waiting (one
    query): when an event stream tells of each one's expiry."""
    return dict(
        Challenge.objects.filter(pk__in=list(challenge_ids), status=Challenge.Status.PENDING)
        .values_list("pk", "expires_at")
    )


def open_challenges(user: Any) -> list[dict]:
    """C of every challenge to or from ``user`` still waiting, oldest first; none from a player
    ``user`` blocked (``relations.SILENT``: the blocker never hears of it)."""
    rows = list(
        Challenge.objects.filter(status=Challenge.Status.PENDING, expires_at__gt=timezone.now())
        .filter(Q(challenger_id=user.pk) | Q(challenged_id=user.pk))
        .select_related("challenger", "challenged").order_by("created_at", "pk")
    )
    senders = {r.challenger_id for r in rows if r.challenger_id != user.pk}
    silent = {
        actor for (actor, _t), verdict in relations.barriers("challenge", senders, (user.pk,)).items()
        if verdict == relations.SILENT
    } if senders else set()
    return [challenge(r, user.pk) for r in rows if r.challenger_id not in silent]


def game(match_id: int, user: Any) -> dict | None:
    """G for ``user``: ``{"id", "seat", "players", "rated", "isMyTurn"}``; ``None`` when the
    account does not sit in that match."""
    try:
        state = table_state(match_id=match_id, user=user)
    except GameError:  # not_found: a table removed is no match of the account
        return None
    if state["you"] is None:
        return None
    turn = (state.get("round") or {}).get("turn")
    return {
        "id": match_id,
        "seat": state["you"],
        "players": state["match"]["players"],
        "rated": state["match"]["rated"],
        "isMyTurn": state["match"]["status"] == "playing" and turn == state["you"],
    }


def games_in_play(user: Any) -> list[dict]:
    """G of every match ``user`` sits in that is being played, oldest first."""
    ids = (
        Seat.objects.filter(user_id=user.pk, match__status=Match.Status.PLAYING)
        .order_by("match_id").values_list("match_id", flat=True)
    )
    return [g for g in (game(match_id, user) for match_id in ids) if g is not None]


def user_named(username: str) -> Any:
    """The active account ``username`` or ``None``."""
    return get_user_model().objects.filter(username=username, is_active=True).first()
