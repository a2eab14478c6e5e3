"""What the live table page's scripts need from the server on top of the state: the quick
phrases' texts, the log-in URL and the round's pause (``static/games/table/``: ``main.js`` and
``talk.js``). The scripts' own words are not here: they come from Django's JavaScript catalogue
(``static/games/table/labels.js``), translated in ``locale/ar/LC_MESSAGES/djangojs.po``.
"""

from __future__ import annotations

from django.conf import settings
from django.urls import reverse

from games.core.state import phrases


def config() -> dict:
    """The config keys the scripts read: ``talk`` (``{"phrases": {id: text}, "emoji": {id:
    character}, "seconds": BASRA_PHRASE_SECONDS}``), the log-in URL (``login``, for the
    ``urls`` map) and ``roundPauseSeconds`` (``BASRA_ROUND_PAUSE_SECONDS``: how long a round's
    breakdown stays over the table before the next round's first play is due)."""
    return {
        "talk": phrases.texts() | {"seconds": settings.BASRA_PHRASE_SECONDS},
        "login": reverse("account_login"),
        "roundPauseSeconds": settings.BASRA_ROUND_PAUSE_SECONDS,
    }
