"""Template context the ratings app gives pages of the core, so the core never imports it.

Listed in ``settings.TEMPLATES``; the core's table template shows ``win_chances`` and
``not_rated`` when present, and hands ``rating_config`` to its scripts (``table_ratings.js``).
"""

from __future__ import annotations

import functools
from typing import Any

from django.apps import apps
from django.http import HttpRequest
from django.utils.functional import SimpleLazyObject
from django.utils.translation import gettext

from games.ratings.rating import NOT_RATED_MESSAGES, Unrated, not_rated_reason
from games.ratings.rating import win_chances as chances_of


def win_chances(request: HttpRequest) -> dict[str, Any]:
    """On the table page (URL name ``table``): ``win_chances``, each side's expected score before
    the match (``games.ratings.rating.win_chances``: a list of two ``SideChance``), or ``None``
    for a casual match, an open table or an abort; and ``not_rated``, the sentence saying why a
    finished rated match was not rated (for the viewer when they sat there:
    ``games.ratings.rating.not_rated_reason``), or ``""``; ``rating_config``, for a rated table,
    the labels its scripts show the live ratings with (:func:`rating_labels`), else ``None``.
    Computed only if the template reads them."""
    match = getattr(request, "resolver_match", None)
    if match is None or match.url_name != "table" or "match_id" not in match.kwargs:
        return {}
    match_id = match.kwargs["match_id"]

    @functools.cache
    def row():
        return apps.get_model("games", "Match").objects.filter(pk=match_id).first()

    def compute():
        match = row()
        return chances_of(match) if match is not None else None

    def reason():
        match = row()
        user = request.user if request.user.is_authenticated else None
        code = not_rated_reason(match, user) if match is not None else None
        if code is None and user is not None and match is not None:
            code = not_rated_reason(match)
        return str(NOT_RATED_MESSAGES[code]) if code else ""

    def labels():
        match = row()
        return rating_labels() if match is not None and match.rated else None

    return {
        "win_chances": SimpleLazyObject(compute),
        "not_rated": SimpleLazyObject(reason),
        # A function, which the template calls when it reads it: json_script needs the dict itself.
        "rating_config": functools.cache(labels),
    }


def rating_labels() -> dict[str, Any]:
    """What ``static/games/table_ratings.js`` writes, in the request's language: ``labels``
    (``winChances``; ``percent``, "%(percent)s%" with its placeholder; ``changes``; what a
    person's leaving means for the reader's rating, added to the table's notices,
    ``partnerLeft``, ``opponentLeft`` and ``resignPartnerLeft``, after
    ``games.ratings.rating.seat_scores``), ``notRated``, the sentence of each ``Unrated`` code
    (``NOT_RATED_MESSAGES``), and ``notRatedRow``, the short reason in a person's row of the
    result where it differs from that sentence (one that says "for you")."""
    return {
        "labels": {
            "winChances": gettext("Win chances:"),
            # The template's "{{ percent }}%" has this msgid; the script's formatting has no "%%".
            "percent": gettext("%(percent)s%%").replace("%%", "%"),
            "changes": gettext("Rating changes"),
            # A leaver is rated as having lost; their partner is not rated (partner_left); the
            # others are rated by the result (seat_scores).
            "partnerLeft": gettext("This match no longer counts for your rating."),
            "opponentLeft": gettext(
                "They are rated as having lost; you are rated by the result as usual."
            ),
            "resignPartnerLeft": gettext("Resigning changes nothing for your rating."),
        },
        "notRated": {str(code): str(text) for code, text in NOT_RATED_MESSAGES.items()},
        "notRatedRow": {str(Unrated.PARTNER_LEFT): gettext("not rated: partner left")},
    }
