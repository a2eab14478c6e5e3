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

from games.ratings.rating import NOT_RATED_MESSAGES, not_rated_reason
from games.ratings.rating import win_chances as chances_of


def table_head(request: HttpRequest, page: Mapping[str, Any]) -> dict[str, Any]:
    """The ``table.head`` context of ``page["match"]``: ``win_chances``, each side's expected
    score before the match (``games.ratings.rating.win_chances``: a list of two
    ``SideChance``), or ``None`` for a casual match, an open table, or a match that is over
    (the chances are a forecast: the result and the ratings' changes replace them); and
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
        "win_chances": SimpleLazyObject(
            lambda: None if match.finished_at is not None else chances_of(match)
        ),
        "not_rated": SimpleLazyObject(reason),
    }


def rating_config(request: HttpRequest, page: Mapping[str, Any]) -> dict[str, Any] | None:
    """The table page's ``rating-config`` JSON: ``{"rated": true}`` at a rated table (its
    presence turns ``static/ratings/table_ratings.js`` on; the script's words are its own
    ``gettext``'s, the ``/jsi18n/`` catalogue), else ``None`` (none written)."""
    return {"rated": True} if page["match"].rated else None
