"""Personal access tokens: made, found, revoked (``docs/api.md``, "Tokens").

A token is ``basra_`` and 32 random bytes in URL-safe base64 (``secrets.token_urlsafe``); only
its SHA-256 is stored (``AccessToken.digest``), so a stolen database holds no usable token and
the token is shown once, when made. A request names it in ``Authorization: Bearer <token>``
only: a token in the query string (``token``, ``access_token``) is refused before it is read
(``games.api.auth``), and the proxy logs no query strings under ``/api/`` (README).
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import Any

from django.utils import timezone

from games.api.models import SCOPES, AccessToken

#: Every token begins so: a secret scanner (and a person) recognises one.
PREFIX = "basra_"
#: How often a token's ``last_used_at`` is written at most: one write a minute, not one a call.
LAST_USED_EVERY = timedelta(minutes=1)


def digest(token: str) -> str:
    """The SHA-256 of ``token`` (hex, 64 characters): what is stored and looked up."""
    return hashlib.sha256(token.encode()).hexdigest()


def check_scopes(scopes: Iterable[str]) -> list[str]:
    """``scopes`` in the order of ``SCOPES``, without repeats.

    :raises ValueError: a name that is not a scope.
    """
    wanted = set(scopes)
    unknown = wanted - set(SCOPES)
    if unknown:
        raise ValueError(f"unknown scopes: {', '.join(sorted(unknown))}")
    return [scope for scope in SCOPES if scope in wanted]


def create_token(
    user: Any, scopes: Iterable[str], *, description: str = "", expires_at: datetime | None = None
) -> tuple[str, AccessToken]:
    """A new token of ``user`` with ``scopes``: ``(the token, its row)``. The token is never
    stored: show it now or lose it.

    :raises ValueError: an unknown scope.
    """
    token = PREFIX + secrets.token_urlsafe(32)
    row = AccessToken.objects.create(
        user=user, digest=digest(token), prefix=token[: len(PREFIX) + 4],
        scopes=check_scopes(scopes), description=description[:100], expires_at=expires_at,
    )
    return token, row


def find(token: str, now: datetime | None = None) -> AccessToken | None:
    """The live row of ``token`` (its user's row joined), or ``None``: unknown, revoked, expired,
    or its user inactive. Writes ``last_used_at`` at most once per :data:`LAST_USED_EVERY`."""
    if not token or len(token) > 200:
        return None
    now = timezone.now() if now is None else now
    row = (
        AccessToken.objects.select_related("user")
        .filter(digest=digest(token), revoked_at__isnull=True)
        .first()
    )
    if row is None or not row.user.is_active or (row.expires_at and row.expires_at <= now):
        return None
    if row.last_used_at is None or now - row.last_used_at >= LAST_USED_EVERY:
        AccessToken.objects.filter(pk=row.pk).update(last_used_at=now)
        row.last_used_at = now
    return row


def revoke(user: Any, token_id: int, now: datetime | None = None) -> bool:
    """Revoke ``user``'s token ``token_id``; ``False`` when they have no such live token."""
    now = timezone.now() if now is None else now
    return bool(
        AccessToken.objects.filter(pk=token_id, user=user, revoked_at__isnull=True).update(
            revoked_at=now
        )
    )
