"""The labels of the table's keyboard and screen-reader layer (``static/games/table/keys.js``,
``static/games/table/speak.js``): what the polite live region says after each play and when a
reading key is pressed (the "Keys" help itself is in ``templates/games/table.html``).
Translated when called (the request's language), like ``games.core.pages.table_page.labels``:
the scripts get every string from ``table-config``.

Cards are named as everywhere else on the site (``cardName``, ``ranks``, ``suits`` of
``views.table_labels``, shared with the replay), so "10 of hearts" reads the same on both pages.
Source of the key set: lichess's blind mode for chess (single keys that read the position,
each of which may be turned off: WCAG 2.2 success criterion 2.1.4, Character Key Shortcuts).
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import pgettext


def labels() -> dict:
    """``{key: translated text}`` (``%(name)s`` marks a placeholder)."""
    return {
        # Announcements of the live region, one sentence each.
        "saidPlayedTook": _("%(name)s played %(card)s and took %(cards)s."),
        "saidPlayedStays": _("%(name)s played %(card)s; it stays on the floor."),
        "saidYouPlayedTook": _("You played %(card)s and took %(cards)s."),
        "saidYouPlayedStays": _("You played %(card)s; it stays on the floor."),
        "saidRoundOver": _("Round %(number)s over."),
        "saidYourCards": _("Your cards: %(cards)s."),
        "saidYouMoreTime": _("You have %(seconds)s more seconds."),
        "saidMoreTime": _("%(name)s has %(seconds)s more seconds."),
        "saidFloor": _("Floor: %(cards)s."),
        "saidHand": _("%(name)s: %(count)s in hand."),
        "saidScore": _("%(side)s: %(score)s points."),
        "saidTarget": _("The match is played to %(target)s."),
        "saidNotYourTurn": _("It is not your turn."),
        "saidNoRound": _("No round is being played."),
        "listSeparator": pgettext("between the names of cards read aloud", ", "),
    }
