"""Template context the ratings app gives pages of the core, so the core never imports it.

Listed in ``settings.TEMPLATES``; the core's table template shows ``win_chances`` when present.
"""

from __future__ import annotations

from typing import Any

from django.apps import apps
from django.http import HttpRequest
from django.utils.functional import SimpleLazyObject

from games.ratings.rating import win_chances as chances_of


def win_chances(request: HttpRequest) -> dict[str, Any]:
    """On the table page (URL name ``table``): ``win_chances``, each side's expected score before
    the match (``games.ratings.rating.win_chances``: a list of two ``SideChance``), or ``None``
    for a casual match, an open table or an abort. Computed only if the template reads it."""
    match = getattr(request, "resolver_match", None)
    if match is None or match.url_name != "table" or "match_id" not in match.kwargs:
        return {}
    match_id = match.kwargs["match_id"]

    def compute():
        row = apps.get_model("games", "Match").objects.filter(pk=match_id).first()
        return chances_of(row) if row is not None else None

    return {"win_chances": SimpleLazyObject(compute)}
