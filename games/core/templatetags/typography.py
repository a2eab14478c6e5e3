"""``{% colon %}``: the colon after a label, as the reader's language writes it
(``games.core.pages.labels``: a no-break space before it in French), for a label the
template writes itself: ``{{ pool.label }}{% colon %} <bdi>1741</bdi>``."""

from __future__ import annotations

from django import template

from games.core.pages import labels

register = template.Library()


@register.simple_tag
def colon() -> str:
    """The active language's colon after a label (":", French U+00A0 ":")."""
    return labels.colon()
