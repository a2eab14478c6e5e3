"""Template context on every page: the labels the tournaments' notices are worded with
(``static/tournaments/notify.js``, ``templates/base.html``; ``games.tournaments.news``)."""

from __future__ import annotations

from django.http import HttpRequest
from django.utils.translation import gettext as _


def notice_labels() -> dict:
    """Translated strings of ``static/tournaments/notify.js`` (``%(name)s`` marks a placeholder:
    ``event`` the event's name, ``round`` a round's number, ``id`` the table's number,
    ``inviter`` and ``partner`` usernames)."""
    return {
        "table": _("Your table in %(event)s is waiting: go to table %(id)s"),
        "tableRound": _("Your table in %(event)s (round %(round)s) is waiting: go to table %(id)s"),
        "started": _("%(event)s has started."),
        "bye": _("%(event)s, round %(round)s: you have a bye, a win."),
        "finished": _("%(event)s is over: see the final standings."),
        "invite": _("%(inviter)s invites you as a partner in %(event)s: answer on the event page."),
        "declined": _("%(partner)s declined your invitation to play %(event)s together."),
    }


def notices(request: HttpRequest) -> dict:
    """``tournament_notices``: ``{"labels": notice_labels()}`` for a signed-in player (the only
    one with a notice socket), ``None`` otherwise."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {"tournament_notices": None}
    return {"tournament_notices": {"labels": notice_labels()}}
