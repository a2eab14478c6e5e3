"""Who calls: the bearer token (``games.api.tokens``), its scopes, and the rate limits.

``TokenAuth`` is django-ninja's bearer scheme (the OpenAPI description names it): a call without
a live token is answered ``401 unauthorized`` before its view runs. :func:`guard` is every
view's first line: the scopes it needs and the kind of call it is for the rate limits.
"""

from __future__ import annotations

from typing import Any

from ninja.security import HttpBearer

from games.api import limits, tokens
from games.api.errors import ApiError
from games.api.models import AccessToken
from games.core.for_apps import in_worker


class TokenAuth(HttpBearer):
    """``Authorization: Bearer <token>``: the live ``AccessToken`` row, or ``None`` (401)."""

    openapi_scheme = "bearer"

    def authenticate(self, request: Any, token: str) -> AccessToken | None:
        return tokens.find(token.strip())


class AsyncTokenAuth(TokenAuth):
    """:class:`TokenAuth` for the async views (the streams): the token is looked up on the
    core's database threads (``in_worker``), so that an open stream holds no connection of
    its own (a request's thread would keep one checked out for the stream's life)."""

    is_async = True  # django-ninja awaits what ``__call__`` returns

    async def authenticate(self, request: Any, token: str) -> AccessToken | None:
        return await in_worker(tokens.find)(token.strip())


def optional_token(request: Any) -> AccessToken | None:
    """A public read's token, if one is sent (it raises the rate limit).

    :raises ApiError: ``unauthorized``: a token sent that is not live (a caller who sends one
        wants to be known: silently reading as anonymous would hide a revoked token).
    """
    header = request.headers.get("Authorization", "")
    if not header:
        return None
    scheme, _, value = header.partition(" ")
    row = tokens.find(value.strip()) if scheme.lower() == "bearer" else None
    if row is None:
        raise ApiError("unauthorized")
    return row


def address(request: Any) -> str:
    """The caller's address (``REMOTE_ADDR``: the proxy's ``X-Forwarded-For`` is turned into it
    by the site's middleware where it is trusted)."""
    return request.META.get("REMOTE_ADDR") or "unknown"


def guard(request: Any, kind: str, *scopes: str, token: AccessToken | None = None) -> AccessToken | None:
    """Check the call: the token has one of ``scopes`` (none named: any token, or none for a
    public read), then count it against the rate limits of ``kind``.

    :returns: the token (``request.auth``, or ``token``), ``None`` for an anonymous public read.
    :raises ApiError: ``missing_scope`` (403), ``rate_limited`` (429).
    """
    row = token if token is not None else getattr(request, "auth", None)
    if scopes and (row is None or not set(scopes) & set(row.scopes)):
        raise ApiError("missing_scope")
    limits.check(
        "public" if row is None and kind == "read" else kind,
        token_id=None if row is None else row.pk, address=address(request),
    )
    return row
