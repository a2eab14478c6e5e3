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

from games.ratings.rating import NOT_RATED_MESSAGES, not_rated_reason
from games.ratings.rating import win_chances as chances_of


def win_chances(request: HttpRequest) -> dict[str, Any]:
    """On the table page (URL name ``table``): ``win_chances``, each side's expected score before
    the match (``games.ratings.rating.win_chances``: a list of two ``SideChance``), or ``None``
    for a casual match, an open table or an abort; and ``not_rated``, the sentence saying why a
    finished rated match was not rated (for the viewer when they sat there:
    ``games.ratings.rating.not_rated_reason``), or ``""``; ``rating_config``, ``{"rated": true}`` for a rated
    table (its presence turns ``table_ratings.js`` on; the script's words are its own
    ``gettext``'s), else ``None``.
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
        return {"rated": True} if match is not None and match.rated else None

    return {
        "win_chances": SimpleLazyObject(compute),
        "not_rated": SimpleLazyObject(reason),
        # A function, which the template calls when it reads it: json_script needs the dict itself.
        "rating_config": functools.cache(labels),
    }
