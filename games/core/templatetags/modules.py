"""``{% modulepreload "games/table/main.js" %}``: a ``<link rel="modulepreload">`` for every
module a page's entry modules reach (``games.core.pages.modules``), for the page's head."""

from __future__ import annotations

from django import template
from django.utils.html import format_html_join

from games.core.pages.modules import preload_urls

register = template.Library()


@register.simple_tag
def modulepreload(*entries: str) -> str:
    """The links, one a line, in the graph's order (the entries first)."""
    return format_html_join("\n", '<link rel="modulepreload" href="{}">', ((url,) for url in preload_urls(*entries)))
