"""Template context on every page: the settings' names the tournaments' notices are worded with
(``static/tournaments/notify.js``, ``templates/base.html``; ``games.tournaments.news``), and on
a tournament table's page the link back to its event."""

from __future__ import annotations

from django.http import HttpRequest
from django.urls import reverse
from django.utils.functional import SimpleLazyObject
from django.utils.translation import gettext as _

from games.tournaments.bracket import round_name
from games.tournaments.models import Game, Tournament


def notice_fields() -> dict:
    """The changed settings' names ``static/tournaments/notify.js`` words an organiser's edit
    with: a ``Tournament`` field's name to its verbose name, in the request's language (the
    script's own words are its ``gettext``'s, the ``/jsi18n/`` catalogue)."""
    return {f.name: str(f.verbose_name) for f in Tournament._meta.concrete_fields}


def notices(request: HttpRequest) -> dict:
    """``tournament_notices``: ``{"fields": notice_fields()}`` for a signed-in player (the only
    one with a notice socket), ``None`` otherwise."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {"tournament_notices": None}
    return {"tournament_notices": {"fields": notice_fields()}}


def event_link(request: HttpRequest) -> dict:
    """On the table page (URL name ``table``): ``tournament_link``, ``{"name", "url", "round"}``
    of the event a tournament table belongs to (its round's name or number, ``None`` in an
    arena), or ``None`` for any other table; read only if the template reads it. The core's
    table template shows it, as it does the ratings' ``win_chances``, so the core never
    imports this app."""
    match = getattr(request, "resolver_match", None)
    if match is None or match.url_name != "table" or "match_id" not in match.kwargs:
        return {}
    match_id = match.kwargs["match_id"]

    def compute():
        game = (Game.objects.filter(match_id=match_id)
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
        return {"name": t.name, "url": reverse("tournament", args=[t.pk]), "round": label}

    return {"tournament_link": SimpleLazyObject(compute)}
