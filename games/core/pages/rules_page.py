"""The "How to play" page: RULES.md told to players, its examples drawn as cards.

The examples are RULES.md's "Examples (default rules)" table. Only the floor, the card played
and a note are written here; what each play takes, and whether it is a basra, is asked of the
engine (``games.engine.capture``) when the page is drawn, so the page cannot teach anything the
tables do not do. The cards are drawn as the table page draws them (``static/games/live.js``
``cardNode``, ``static/games/games.css``), on the server, so the page needs no script.

Its "Rated matches" section tells the least target of a rated table (``errors.RATED_TARGET_MIN``)
and what rates a match (``games.core.actions.endings``: a rated
match is aborted at once when a person's time runs out, or the computer takes their seat over,
before they played a card of the first deal, and when it ends before every person did;
``games.ratings.rating``: leavers, stayers, abandoned tables, the reasons shown when a match is
not rated; ``docs/protocol.md``, "Rated matches"). Its "Leaving a table" section tells how long
a player may be away before they count as absent, and how long a table against the computer
waits for its player (``BASRA_ABSENT_GRACE_SECONDS``, ``BASRA_COMPUTER_TABLE_WAIT_SECONDS``; the
settings' values; ``docs/protocol.md``, "Clock, absence, claim and resign").
"""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_GET

from games.core.errors import RATED_TARGET_MIN
from games.core.pages.cards import card_name
from games.engine import Basra, Card, Rules, capture, parse_cards

#: Suit symbols, as on the table (``live.js`` ``SUIT_SYMBOLS``).
SUIT_SYMBOLS = {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"}


@dataclass(frozen=True)
class Example:
    """One row of RULES.md's examples: the floor and the card played (codes), and a note on
    why it takes what it takes (translated lazily; ``None`` for none)."""

    floor: str
    played: str
    note: Promise | None = None


#: RULES.md, "Examples (default rules)", in its order.
EXAMPLES = (
    Example("5H KS 5C", "5D", gettext_lazy("A number card takes the cards of its value.")),
    Example("5S 4H 2D 7C", "9S", gettext_lazy("9 = 5 + 4 = 2 + 7: every card on the floor.")),
    Example("3S 2H AD 4C 6H", "6S", gettext_lazy(
        "The largest set it can take: the 6, and 3 + 2 + 1. The 4 stays.")),
    Example("AS 2H 3C 3D 4S 5H", "6C", gettext_lazy("6 = 1 + 5 = 2 + 4 = 3 + 3.")),
    Example("10C 5D 4S AH", "10H", gettext_lazy("The 10, and 5 + 4 + 1.")),
    Example("QS KH 9D", "8C", gettext_lazy("Nothing makes 8: the card stays on the floor.")),
    Example("QS QH 2D", "QC", gettext_lazy("A Queen takes only Queens.")),
    Example("QS 5H 9C", "JD", gettext_lazy("A Jack takes the whole floor, but that is no basra.")),
    Example("JS", "JD", gettext_lazy("A Jack on a lone Jack.")),
    Example("", "7D", gettext_lazy("On an empty floor any card stays, even the komi.")),
    Example("3C 4D", "7D", gettext_lazy("The komi plays as a 7: 3 + 4.")),
    Example("5C KD", "7D", gettext_lazy("No card would take both: the komi sweeps like a Jack.")),
    Example("7D", "4S", gettext_lazy("The komi on the floor matches any card.")),
)


def card_face(card: Card | str, *, size: str = "") -> dict:
    """What ``templates/games/_card.html`` draws: ``{"code", "rank", "suit", "symbol", "red",
    "court", "name", "size"}``; ``name`` is the spoken name, as the table page's ("ten of
    hearts", :func:`games.core.pages.cards.card_name`), in the active language.

    :raises games.engine.CardError: (a ``ValueError``) for a string that is not a card code.
    """
    code = card.code if isinstance(card, Card) else Card.from_code(card).code
    rank, suit = code[:-1], code[-1]
    return {
        "code": code,
        "rank": rank,
        "suit": suit,
        "symbol": SUIT_SYMBOLS[suit],
        "red": suit in "DH",
        "court": rank in ("J", "Q", "K"),
        "name": card_name(code),
        "size": size,
    }


def example_rows(rules: Rules | None = None) -> list[dict]:
    """Every example with the engine's verdict: ``{"floor": [face], "played": face, "taken":
    [face] (floor order), "stays": bool (the card stays on the floor), "basra": None,
    "basra" or "jack_basra", "sweep": bool (the whole floor taken), "note"}``."""
    rules = rules or Rules()
    rows = []
    for example in EXAMPLES:
        floor = parse_cards(example.floor)
        played = Card.from_code(example.played)
        result = capture(played, floor, rules)
        taken = [card for card in floor if card in result.taken]
        rows.append({
            "floor": [card_face(card, size="small") for card in floor],
            "played": card_face(played, size="small"),
            "taken": [card_face(card, size="mini") for card in taken],
            "stays": not taken,
            "basra": None if result.basra is None else Basra(result.basra).value,
            "sweep": bool(floor) and len(taken) == len(floor),
            "note": example.note,
        })
    return rows


def duration_text(seconds: float) -> str:
    """``seconds`` in words, in the active language, in the largest whole unit that fits:
    "6 hours", "90 minutes", "45 seconds" (a part of a second is dropped)."""
    whole = int(seconds)
    if whole and whole % 3600 == 0:
        count = whole // 3600
        return ngettext("%(count)s hour", "%(count)s hours", count) % {"count": count}
    if whole and whole % 60 == 0:
        count = whole // 60
        return ngettext("%(count)s minute", "%(count)s minutes", count) % {"count": count}
    return ngettext("%(count)s second", "%(count)s seconds", whole) % {"count": whole}


@require_GET
def rules(request: HttpRequest) -> HttpResponse:
    """How to play: the rules as the site plays them by default (RULES.md), with the table
    options a creator may change, and RULES.md's examples drawn as cards."""
    defaults = Rules()
    return render(request, "games/rules.html", {
        "examples": example_rows(defaults),
        "defaults": defaults,
        "komi": card_face("7D", size="small"),
        "absent_grace": duration_text(settings.BASRA_ABSENT_GRACE_SECONDS),
        "computer_wait": duration_text(settings.BASRA_COMPUTER_TABLE_WAIT_SECONDS),
        "rated_target_min": RATED_TARGET_MIN,
    })
