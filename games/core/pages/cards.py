"""Cards' spoken names, one source for every page and script: the table (``cardNode``'s
``aria-label`` and title, the screen reader's sentences), the replay's play list and its
analysis, and the rules page's examples.

A card is named by words in the reader's language ("seven of diamonds", "سبعة ديناري"), as a
screen reader should say it and as players say it at the table (issue 22, "every card a button
with an accessible name"); every rank in lower case in English, the court cards and the ace too
("king of spades", as "six of hearts").
Translated when called, in the request's language.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import pgettext


def card_labels() -> dict:
    """``{"cardName": "%(rank)s of %(suit)s", "suits": {"C"..."S": name}, "ranks": {"A", "2"
    ... "10", "J", "Q", "K": name}}``: what ``B.cardName`` (``static/games/live.js``) names a
    card code ("7D") with."""
    return {
        "cardName": _("%(rank)s of %(suit)s"),
        "suits": {"C": _("clubs"), "D": _("diamonds"), "H": _("hearts"), "S": _("spades")},
        "ranks": {
            "A": pgettext("card", "ace"), "2": pgettext("card", "two"), "3": pgettext("card", "three"),
            "4": pgettext("card", "four"), "5": pgettext("card", "five"), "6": pgettext("card", "six"),
            "7": pgettext("card", "seven"), "8": pgettext("card", "eight"),
            "9": pgettext("card", "nine"), "10": pgettext("card", "ten"),
            "J": pgettext("card", "jack"), "Q": pgettext("card", "queen"),
            "K": pgettext("card", "king"),
        },
    }


def card_name(code: str) -> str:
    """The spoken name of a card code ("7D" -> "seven of diamonds"), as :func:`card_labels`.

    :raises KeyError: for a code whose rank or suit is not a card's (callers check the code
        first, as ``games.engine.Card.from_code`` does).
    """
    labels = card_labels()
    return labels["cardName"] % {"rank": labels["ranks"][code[:-1]], "suit": labels["suits"][code[-1]]}
