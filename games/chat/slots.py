"""What the chat adds to the core's pages (registered in ``ChatConfig.ready()``): the table's
chat panel, its script's config, the rules' section, the replay's lines, the link to its
settings from the profile-and-settings page."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.http import HttpRequest
from django.urls import reverse

from games.chat import services
from games.chat.text import MAX_LENGTH


def table_config(request: HttpRequest, page: Mapping[str, Any]) -> dict | None:
    """The table chat's config: ``{"loggedIn", "username", "on", "maxLength", "settings"}``."""
    if page.get("match") is None:
        return None
    user = request.user
    return {
        "loggedIn": user.is_authenticated,
        "username": user.get_username() if user.is_authenticated else None,
        "on": not user.is_authenticated or services.chat_enabled(user.pk),
        "maxLength": MAX_LENGTH,
        "settings": reverse("chat:settings"),
    }


def table_panel(request: HttpRequest, page: Mapping[str, Any]) -> dict | None:
    return {"chat_max": MAX_LENGTH} if page.get("match") is not None else None


def replay_panel(request: HttpRequest, page: Mapping[str, Any]) -> dict | None:
    """The match's lines for its players (none for anyone else: the fragment is not shown), each
    with ``own`` (the reader's: no report link)."""
    match = page.get("match")
    if match is None:
        return None
    lines = services.replay_lines(match.pk, request.user)
    if lines is None:
        return None
    me = request.user.get_username()
    return {"chat_lines": [{**line, "own": line["username"] == me} for line in lines]}


def settings_link(request: HttpRequest, page: Mapping[str, Any]) -> dict | None:
    """The link to the chat's settings with its state, ``{"chat_on"}``, for a signed-in user."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return None
    return {"chat_on": services.chat_enabled(user.pk)}
