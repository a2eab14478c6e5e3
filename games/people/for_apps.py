"""What the people app publishes to the apps above it (the moderation app).

- ``add_notifications_part(template, context, order=50)``: a part of the notifications page
  (``/notifications/``, ``people_notifications``) that an app fills, e.g. the moderation app's
  pointer to the moderators' messages. ``context(request) -> dict | None`` (``None``: nothing
  shown); ``template`` is rendered with it above the page's notices, in ``order``. Called from
  the app's ``AppConfig.ready()``. While any part shows, the page does not say "No notices".
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.http import HttpRequest
from django.template.loader import render_to_string

_PARTS: list[tuple[int, str, Callable[[HttpRequest], dict | None]]] = []


def add_notifications_part(template: str, context: Callable[[HttpRequest], dict | None], order: int = 50) -> None:
    """Add ``template`` to the notifications page (see the module); once per template."""
    if any(name == template for _order, name, _context in _PARTS):
        return
    _PARTS.append((order, template, context))
    _PARTS.sort(key=lambda part: part[0])


def notifications_parts(request: HttpRequest) -> list[Any]:
    """The parts shown to ``request``'s player, rendered (the people app's own view)."""
    shown = []
    for _order, template, context in _PARTS:
        values = context(request)
        if values is not None:
            shown.append(render_to_string(template, values, request=request))
    return shown
