"""What the tournaments app adds to the core's pages (``games.core.pages.slots``; registered in
``TournamentsConfig.ready()``), so the core never names it: on every page of a signed-in
player ``static/tournaments/notify.js`` and the settings' names it words an organiser's edit
with (``tournament-notice-config``, :func:`notice_config`); the header's "Tournaments" (``tournaments/_nav.html``); on a
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


def notice_config(request: HttpRequest, page: Mapping[str, Any]) -> dict:
    """The ``tournament-notice-config`` JSON (written only for a signed-in player, the only one
    with a notice socket: the ``notices`` page): ``{"fields": {...}}``, a ``Tournament``
    field's name to its verbose name in the request's language, which the script words an
    organiser's edit with (its own words are its ``gettext``'s, the ``/jsi18n/`` catalogue)."""
    return {"fields": {f.name: str(f.verbose_name) for f in Tournament._meta.concrete_fields}}


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


def closing_entries(request: HttpRequest, page: Mapping[str, Any]) -> dict | None:
    """The ``account.close`` context: ``closing_entries``, the events not over that the
    signed-in player is entered in (``[{"name", "url", "running"}]``), from which closing the
    account withdraws them (``registration.withdraw_closing``); ``None`` without any."""
    from django.db.models import Q

    from games.tournaments.models import Entrant

    rows = (
        Entrant.objects.filter(Q(user=request.user) | Q(partner=request.user))
        .exclude(status=Entrant.Status.WITHDRAWN)
        .filter(tournament__status__in=[Tournament.Status.UPCOMING, Tournament.Status.RUNNING])
        .select_related("tournament").order_by("tournament__starts_at")
    )
    entries = [{"name": e.tournament.name, "url": reverse("tournament", args=[e.tournament_id]),
                "running": e.tournament.status == Tournament.Status.RUNNING} for e in rows]
    return {"closing_entries": entries} if entries else None
