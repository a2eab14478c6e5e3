"""What the tournaments app adds to the core's pages (``games.core.pages.slots``; registered in
``TournamentsConfig.ready()``), so the core never names it: on every page of a signed-in
player the labels its notices are worded with (``tournament-notice-config``, :func:`notice_config`)
and ``static/tournaments/notify.js``; the header's "Tournaments" (``tournaments/_nav.html``); on a
tournament table's page the link back to its event (``table.head``, :func:`table_link`); the
profile's events (``games.tournaments.profile.results_section``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.http import HttpRequest
from django.urls import reverse
from django.utils.translation import gettext as _

from games.tournaments.bracket import round_name
from games.tournaments.models import Game, Tournament


def notice_labels() -> dict:
    """Translated strings of ``static/tournaments/notify.js`` (``%(name)s`` marks a placeholder:
    ``event`` the event's name, ``round`` a round's number, ``id`` the table's number,
    ``inviter`` and ``partner`` usernames, ``changes`` the changed settings' names, worded
    from ``fields``: a ``Tournament`` field's name to its label, and ``start`` the start in
    the reader's zone)."""
    return {
        "table": _("Your table in %(event)s is waiting: go to table %(id)s"),
        "tableRound": _("Your table in %(event)s (round %(round)s) is waiting: go to table %(id)s"),
        "started": _("%(event)s has started."),
        "bye": _("%(event)s, round %(round)s: you have a bye, a win."),
        "finished": _("%(event)s is over: see the final standings."),
        "cancelled": _("%(event)s was cancelled by its organiser."),
        "removed": _("The organiser of %(event)s removed you from its entrants."),
        "invite": _("%(inviter)s invites you as a partner in %(event)s: answer on the event page."),
        "declined": _("%(partner)s declined your invitation to play %(event)s together."),
        "arbiter": _("The organiser of %(event)s named you an arbiter of it."),
        "edited": _("The organiser of %(event)s changed %(changes)s. It starts at %(start)s."),
        "fields": {f.name: str(f.verbose_name) for f in Tournament._meta.concrete_fields},
    }


def notice_config(request: HttpRequest, page: Mapping[str, Any]) -> dict:
    """The ``tournament-notice-config`` JSON: ``{"labels": notice_labels()}`` (written only for
    a signed-in player, the only one with a notice socket: the ``notices`` page)."""
    return {"labels": notice_labels()}


def table_link(request: HttpRequest, page: Mapping[str, Any]) -> dict | None:
    """The ``table.head`` context of ``page["match"]``: ``tournament_link``, ``{"name", "url",
    "round"}`` of the event a tournament table belongs to (its round's name or number, ``None``
    in an arena), or ``None`` (nothing shown) for any other table. One query, two in a
    knockout."""
    game = (Game.objects.filter(match_id=page["match"].pk)
            .select_related("pairing__tournament", "pairing__round").first())
    if game is None:
        return None
    t, number = game.pairing.tournament, game.pairing.round.number
    if t.format == Tournament.Format.ARENA:
        label = None
    elif t.format == Tournament.Format.KNOCKOUT:
        seeded = t.entrants.filter(seed__isnull=False).count()
        label = round_name(number, t.planned_rounds(seeded) or number)
    else:
        label = _("Round %(n)s") % {"n": number}
    return {"tournament_link": {"name": t.name, "url": reverse("tournament", args=[t.pk]),
                                "round": label}}
