"""What the queues app adds to the core's pages (``games.core.pages.slots``; registered in
``QueuesConfig.ready()``), so the core never names it: "Play now" in the header and the lobby
(``queues/_nav_play.html``, ``queues/_lobby_play.html``); on every page of a signed-in player the
labels its notices are worded with (``queue-notice-config``, :func:`notice_config`) and
``static/queues/notify.js``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.http import HttpRequest
from django.utils.translation import gettext as _


def notice_config(request: HttpRequest, page: Mapping[str, Any]) -> dict:
    """The ``queue-notice-config`` JSON: ``{"labels": {...}}`` (written only for a signed-in
    player, the only one with a notice socket: the ``notices`` page). ``%(name)s`` marks a
    placeholder: ``seconds`` the time per play, ``inviter`` a username."""
    return {"labels": {
        "paired": _("Paired: to your table…"),
        "requeued": _("Your opponent did not come to the table: you are back at the front of the queue."),
        "invite": _("%(inviter)s invites you to wait together in the partnership queue (%(seconds)s s per play): answer on the Play now page."),
    }}
