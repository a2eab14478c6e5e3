"""Template context on every page: the notice socket's settings and labels
(``templates/base.html``, ``static/games/notices.js``; ``games.core.state.notices``)."""

from __future__ import annotations

from django.http import HttpRequest
from django.middleware.csrf import get_token
from django.urls import reverse
from django.utils.translation import gettext as _


def notice_labels() -> dict:
    """Translated strings of ``static/games/notices.js`` (``%(name)s`` marks a placeholder)."""
    return {
        "challengeFrom": _("%(name)s challenges you to a match."),
        "challengeTo": _("You challenged %(name)s; waiting for the answer."),
        "accept": _("Accept"),
        "decline": _("Decline"),
        "cancel": _("Cancel the challenge"),
        "dismiss": _("Close"),
        "declined": _("%(name)s declined your challenge."),
        "cancelled": _("%(name)s cancelled the challenge."),
        "expired": _("The challenge expired."),
        "accepted": _("Challenge accepted: to the table…"),
        "rated": _("Rated"),
        "casual": _("Casual"),
        "target": _("to %(target)s"),
        "perPlay": _("%(seconds)s s per play"),
        "noClock": _("No clock"),
        "notices": _("Notices"),
    }


def notices(request: HttpRequest) -> dict:
    """``notice_config`` for a signed-in player (``None`` otherwise): ``{"wsPath", "csrfToken",
    "urls": {"accept", "decline", "cancel"} with ``{id}``, "labels"}``."""
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
            "labels": notice_labels(),
        }
    }
