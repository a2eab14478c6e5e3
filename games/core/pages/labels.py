"""A label before its value as the reader's language writes it: "Pool: 1v1" in English,
"Classement : 1741" in French, whose typography puts a no-break space before ":" (and ";",
"?", "!"). The words come from one catalogue entry, "%(label)s:" in the context "a label
before its value", which the pages (``{% colon %}``, ``games.core.templatetags.typography``)
and the scripts (``colon`` of ``static/games/live.js``) share, so that a page that joins a
label and its value in code never writes a bare English ": " in French."""

from __future__ import annotations

from django.utils.translation import pgettext


def labelled(label: str) -> str:
    """``label`` and the colon after it, in the active language: "Pool:", French "Pool :"
    (a no-break space, U+00A0, before the colon)."""
    return pgettext("a label before its value", "%(label)s:") % {"label": label}


def colon() -> str:
    """What follows a label written on its own (a link, a name in markup): ":" in English,
    U+00A0 and ":" in French."""
    return labelled("")
