"""What the live table page's scripts need on top of ``games.core.pages.views.table_labels``: the labels of
the round's end, the connection and session banners and the quick phrases, and the phrases
themselves (``static/games/table/``: ``main.js`` and its modules, ``fx.js``, ``talk.js``). Translated when
called (the request's language), like the other labels: the page's scripts get every string
from the ``table-config`` JSON, not from a JavaScript catalog.
"""

from __future__ import annotations

from django.conf import settings
from django.urls import reverse
from django.utils.translation import gettext as _

from games.core.state import phrases


def labels() -> dict:
    """The extra labels, ``{key: translated text}`` (``%(name)s`` marks a placeholder)."""
    return {
        "allRounds": _("Every round"),
        # The round's breakdown counts basras as the scoreboard does, with their points beside.
        "countPoints": _("%(count)s (+%(points)s)"),
        "connLost": _("Connection lost: reconnecting…"),
        "connLostCards": _("Your cards are disabled until the table is back."),
        "connLostWatch": _("The table is not live until the connection is back."),
        "loggedOut": _("You are logged out in this tab: you are only watching now."),
        "logIn": _("Log in"),
        "logInToPlay": _("Log in to play"),
        # The seat picker's sides at four (static/games/table/sides.js).
        "sideNumber": _("Side %(number)s"),
        "yourSeat": _("Your seat"),
        "partnerSeat": _("Your partner's seat"),
        "opponentSeat": _("Opponents' seat"),
        # On the board at four: the viewer's partner's seat is marked (static/games/table/board.js).
        "partner": _("Partner"),
        # A tap on a card while the round's score covers the floor shows the floor instead.
        "scoreClosed": _("The floor is in view again: tap your card to play it."),
        # A tap on a card while another seat is to play.
        "waitTurn": _("Not your turn yet: %(name)s is to play."),
        # The phrases' menu while the next phrase must wait (the server's own refusal's words).
        "phraseWait": _("Wait a few seconds before sending another phrase."),
    }


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
