"""Template context on every page: the notice socket's settings
(``templates/base.html``, ``static/games/notices.js``; ``games.core.state.notices``)."""

from __future__ import annotations

from django.http import HttpRequest
from django.middleware.csrf import get_token
from django.urls import reverse


def notices(request: HttpRequest) -> dict:
    """``notice_config`` for a signed-in player (``None`` otherwise): ``{"wsPath", "csrfToken",
    "urls": {"accept", "decline", "cancel"} with ``{id}``}``; the script's words are its own
    (``gettext``)."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {"notice_config": None}

    def pattern(name: str) -> str:
        return reverse(name, kwargs={"challenge_id": 0}).replace("/0/", "/{id}/")

    return {
        "notice_config": {
            "wsPath": "/ws/me/",
            "csrfToken": get_token(request),
            "urls": {
                "accept": pattern("challenge_accept"),
                "decline": pattern("challenge_decline"),
                "cancel": pattern("challenge_cancel"),
            },
        }
    }
