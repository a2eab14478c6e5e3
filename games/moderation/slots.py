"""What the moderation app adds to the core's pages (``games.core.pages.slots``), registered in
``ModerationConfig.ready()``:

- ``profile.sections`` (order 90, last): "Report this player" for a signed-in player on
  another's profile (``moderation/_profile.html``), and for staff "Moderate" (their page);
- ``header.mine`` (order 90): for staff, "Moderation" with the number of open reports
  (``moderation/_nav.html``);
- on every page of a signed-in player, ``static/moderation/notify.js`` (the moderators'
  messages, ``games.moderation.told``);
- on the people app's notifications page (the slot ``notifications.head``), a pointer to the
  moderators' messages while the player has any (``moderation/_notifications.html``): the page
  and the header's notice agree.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.http import HttpRequest

from games.moderation.models import Message, Report


def profile_section(request: HttpRequest, page: Mapping[str, Any]) -> dict | None:
    player = page["player"]
    me = request.user
    if not me.is_authenticated or me.pk == player.pk:
        return None
    return {"moderation_player": player, "moderation_staff": me.is_staff}


def nav(request: HttpRequest, page: Mapping[str, Any]) -> dict | None:
    if not (request.user.is_authenticated and request.user.is_staff):
        return None
    # Not their own report: a moderator does not act on their own account.
    mine = Report.objects.filter(status=Report.Status.OPEN).exclude(reported_id=request.user.pk)
    return {"moderation_open": mine.count()}


def notifications_part(request: HttpRequest, page: Mapping[str, Any]) -> dict | None:
    """The notifications page's pointer to the moderators' messages: ``None`` without any."""
    if not request.user.is_authenticated:
        return None
    mine = Message.objects.filter(user_id=request.user.pk)
    unread = mine.filter(read=False).count()
    if not unread and not mine.exists():
        return None
    return {"moderation_unread": unread}
