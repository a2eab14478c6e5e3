"""Rate limits of the API, per token and per address (``docs/api.md``, "Rate limits").

Fixed windows counted in the site's cache (``django.core.cache``: Redis under several servers,
so every process counts the same calls; the local memory cache under ``make run``). Each call
belongs to a *kind*; a kind allows ``calls`` per ``seconds`` window, one count per token (or,
without a token, per address) and one per address for everything that comes from it. Over
either: ``429 rate_limited`` with ``Retry-After``, the whole seconds to the window's end.

The clock is :data:`clock` (``time.time``), replaced by the tests (an injected clock, not real
load). The limits are :data:`LIMITS`, overridden by ``settings.BASRA_API_LIMITS`` (a bench on
one address raises them).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache

from games.api.errors import ApiError


@dataclass(frozen=True)
class Limit:
    """``calls`` per window of ``seconds``, per token (``per_token``) and per address
    (``per_address``: every call from one address, with or without a token)."""

    seconds: int
    per_token: int
    per_address: int


#: The published limits (the documentation page lists them from here).
LIMITS: dict[str, Limit] = {
    # GET /api/account and the other small reads: API.md asks for no more than 300 in 30 s.
    "read": Limit(seconds=30, per_token=300, per_address=600),
    # Reads without a token, per address: a token raises the limit.
    "public": Limit(seconds=30, per_token=60, per_address=60),
    # NDJSON exports of a player's matches.
    "export": Limit(seconds=60, per_token=20, per_address=30),
    # Plays, resignations and chat lines: a bot plays at most once a second on average.
    "play": Limit(seconds=10, per_token=60, per_address=600),
    # Challenges, accepts, declines, upgrades, follows.
    "write": Limit(seconds=60, per_token=60, per_address=120),
    # Streams opened (the event stream, game streams).
    "stream": Limit(seconds=60, per_token=60, per_address=120),
}

#: Game streams one account may hold open at once (the event stream: one per token).
MAX_GAME_STREAMS = 16

#: The clock of the windows (seconds since the epoch).
clock: Callable[[], float] = time.time


def limits() -> dict[str, Limit]:
    """:data:`LIMITS` with ``settings.BASRA_API_LIMITS`` (``{kind: (seconds, per_token,
    per_address)}``) over them."""
    extra = getattr(settings, "BASRA_API_LIMITS", None) or {}
    return {**LIMITS, **{kind: Limit(*values) for kind, values in extra.items()}}


def _count(key: str, window: int, seconds: int) -> int:
    """Add one to the count of ``key`` in window ``window``; the count now."""
    name = f"api-limit:{key}:{window}"
    if cache.add(name, 1, timeout=seconds + 1):
        return 1
    try:
        return cache.incr(name)
    except ValueError:  # expired between add and incr
        cache.add(name, 1, timeout=seconds + 1)
        return 1


def check(kind: str, *, token_id: int | None, address: str) -> None:
    """Count one call of ``kind`` for the token (or the address, without one) and the address.

    :raises ApiError: ``rate_limited`` (429) with ``Retry-After`` when either count is over.
    """
    limit = limits()[kind]
    now = clock()
    window = int(now // limit.seconds)
    retry = {"Retry-After": str(max(1, math.ceil((window + 1) * limit.seconds - now)))}
    who = f"t{token_id}" if token_id is not None else f"a{address}"
    if _count(f"{kind}:{who}", window, limit.seconds) > limit.per_token:
        raise ApiError("rate_limited", headers=retry)
    if _count(f"{kind}:addr:{address}", window, limit.seconds) > limit.per_address:
        raise ApiError("rate_limited", headers=retry)
