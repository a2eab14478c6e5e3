"""Template context on every page: the labels the queues' notices are worded with
(``static/queues/notify.js``, ``templates/base.html``; ``games.queues.news``)."""

from __future__ import annotations

from django.http import HttpRequest
from django.utils.translation import gettext as _


def notices(request: HttpRequest) -> dict:
    """``queue_notices``: ``{"labels": {...}}`` for a signed-in player (the only one with a
    notice socket), ``None`` otherwise. ``%(name)s`` marks a placeholder: ``seconds`` the time
    per play, ``inviter`` a username."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {"queue_notices": None}
    return {"queue_notices": {"labels": {
        "paired": _("Paired: to your table…"),
        "requeued": _("Your opponent did not come to the table: you are back at the front of the queue."),
        "invite": _("%(inviter)s invites you to wait together in the partnership queue (%(seconds)s s per play): answer on the Play now page."),
    }}}
