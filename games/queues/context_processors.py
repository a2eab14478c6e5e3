"""Template context on every page: whether the queues' notices are listened to
(``static/queues/notify.js``, ``templates/base.html``; ``games.queues.news``)."""

from __future__ import annotations

from django.http import HttpRequest


def notices(request: HttpRequest) -> dict:
    """``queue_notices``: true for a signed-in player (the only one with a notice socket). The
    script's words are its own (``gettext``, the ``/jsi18n/`` catalogue)."""
    user = getattr(request, "user", None)
    return {"queue_notices": bool(user is not None and user.is_authenticated)}
