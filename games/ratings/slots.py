"""What the ratings app adds to the core's pages (``games.core.pages.slots``; registered in
``RatingsConfig.ready()``), so the core never names it:

- ``header.links``: the ladder (``ratings/_nav_ladder.html``); ``header.mine``: "My matches"
  (``ratings/_nav_history.html``).
- ``table.head``: each side's win chances and why a finished rated match was not rated
  (``ratings/_table_head.html``, :func:`table_head`).
- On the table page: the ``rating-config`` JSON (:func:`rating_config`) and the script that
  shows the live ratings, ``static/ratings/table_ratings.js``.
- ``profile.sections``: the ratings section (``games.ratings.profile.profile_section``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.http import HttpRequest
from django.utils.functional import SimpleLazyObject
from django.utils.translation import gettext

from games.ratings.rating import NOT_RATED_MESSAGES, Unrated, not_rated_reason
from games.ratings.rating import win_chances as chances_of


def table_head(request: HttpRequest, page: Mapping[str, Any]) -> dict[str, Any]:
    """The ``table.head`` context of ``page["match"]``: ``win_chances``, each side's expected
    score before the match (``games.ratings.rating.win_chances``: a list of two
    ``SideChance``), or ``None`` for a casual match, an open table or an abort; and
    ``not_rated``, the sentence saying why a finished rated match was not rated (for the viewer
    when they sat there: ``games.ratings.rating.not_rated_reason``), or ``""``. Each computed
    only if the template reads it."""
    match = page["match"]

    def reason() -> str:
        user = request.user if request.user.is_authenticated else None
        code = not_rated_reason(match, user)
        if code is None and user is not None:
            code = not_rated_reason(match)
        return str(NOT_RATED_MESSAGES[code]) if code else ""

    return {
        "win_chances": SimpleLazyObject(lambda: chances_of(match)),
        "not_rated": SimpleLazyObject(reason),
    }


def rating_config(request: HttpRequest, page: Mapping[str, Any]) -> dict[str, Any] | None:
    """The table page's ``rating-config`` JSON: :func:`rating_labels` at a rated table, else
    ``None`` (none written)."""
    return rating_labels() if page["match"].rated else None


def rating_labels() -> dict[str, Any]:
    """What ``static/ratings/table_ratings.js`` writes, in the request's language: ``labels``
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
