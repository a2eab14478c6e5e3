"""Accounts, tokens and calls for the API's tests."""

from __future__ import annotations

from asgiref.sync import async_to_sync
from django.contrib.auth import get_user_model
from django.test import Client

from games.api import tokens
from games.api.models import SCOPES


def account(name: str, *scopes: str) -> tuple:
    """A new account ``name`` and a token of it with ``scopes`` (every scope when none):
    ``(user, token)``."""
    user = get_user_model().objects.create_user(username=name, email=f"{name}@example.com", password=None)
    token, _row = tokens.create_token(user, scopes or SCOPES)
    return user, token


def bearer(token: str) -> dict:
    """The header of a call made with ``token``."""
    return {"Authorization": f"Bearer {token}"}


def call(method: str, path: str, token: str | None = None, data: dict | None = None, **extra):
    """``method`` (``get``/``post``) ``path`` with Django's test client, ``token`` as bearer."""
    headers = bearer(token) if token else {}
    return getattr(Client(), method)(path, data or {}, headers=headers, **extra)


def error_code(response) -> str:
    return response.json()["error"]["code"]


def collect(response) -> bytes:
    """The whole body of a streamed answer whose stream ends (an export)."""

    async def read() -> bytes:
        return b"".join([chunk async for chunk in response.streaming_content])

    return async_to_sync(read)()
