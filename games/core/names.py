"""How the core names the people and computers at a table, in the reader's language: a
computer level's name ("Greedy", "Greedy 2" among several), a closed account's, a record's
seat names. The models (``games.core.models``, which re-exports these) and every page use
them, so that a seat reads the same everywhere."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.utils.translation import gettext_lazy as _

from games.engine.bots import BOTS


#: The computer levels' names people read, by level; the levels are ``games.engine.bots.BOTS``.
BOT_NAMES = {
    "random": _("Random"), "greedy": _("Greedy"), "strong": _("Strong"), "expert": _("Expert"),
}


def bot_choices() -> list[tuple[str, str]]:
    """``(level, translated name)`` of every computer level, in ``BOTS``'s order."""
    return [(level, BOT_NAMES.get(level, level)) for level in BOTS]


def bot_display_name(level: str, number: int | None = None) -> str:
    """A computer seat's name in the active language, the one the table gives it
    (``static/games/table/kit.js`` ``botName``) and every page repeats (the lobby, replays,
    match histories): its level's name, "Greedy", for a level of ``games.engine.bots.BOTS``
    (an unknown level as it is); with ``number`` (one of several computer seats at a table,
    :func:`bot_numbers`), "Greedy 2" in the catalogue's order."""
    name = BOT_NAMES.get(level, level)
    if number is None:
        return str(name)
    return _("%(level)s %(number)s") % {"level": name, "number": number}


def bot_numbers(computer_seats: Iterable[int]) -> dict[int, int | None]:
    """``{seat: number}`` for a table's computer seats (seat numbers): 1, 2, … in seat order
    when the table has more than one, else ``None`` (one computer is named by its level alone),
    as the table numbers them (``static/games/table/kit.js`` ``botNumber``)."""
    seats = sorted(computer_seats)
    return {seat: i + 1 if len(seats) > 1 else None for i, seat in enumerate(seats)}


def seat_account(seat: Any) -> dict:
    """``{"username", "closed"}`` of a seat as the lobby and the tables show it: a person's
    username, ``None`` for a computer seat and for a closed account (``is_active`` false:
    ``accounts.closing``), whose ``closed`` is true (its name shows as "Closed account")."""
    if seat.user_id is None:
        return {"username": None, "closed": False}
    if not seat.user.is_active:
        return {"username": None, "closed": True}
    return {"username": seat.user.get_username(), "closed": False}


def seat_display_names(seats: list[dict]) -> dict[int, str]:
    """``{seat: name to show}`` for the seats of one table, ``[{"seat", "username", "bot",
    "closed"}]`` (``closed`` optional).

    A person's seat is the username (also when the computer plays it for them); a closed
    account's (``closed`` true) is "Closed account" translated, as ``games.core.models.Seat.display_name`` says. A computer seat
    is its level, "Greedy", or, at a table with more than one computer seat, numbered in seat
    order, "Greedy 1", "Greedy 2" (:func:`bot_display_name`): two seats never read the same.
    An empty seat (neither) is left out.
    """
    numbers = bot_numbers(
        s["seat"] for s in seats if not s.get("username") and not s.get("closed") and s.get("bot")
    )
    names = {}
    for seat in seats:
        if seat.get("closed"):
            names[seat["seat"]] = str(_("Closed account"))
        elif seat.get("username"):
            names[seat["seat"]] = seat["username"]
        elif seat.get("bot"):
            names[seat["seat"]] = bot_display_name(seat["bot"], numbers[seat["seat"]])
    return names


def record_seat_names(names: Iterable[str]) -> list[str]:
    """A game record's seat names (``Seat.name``: a username, or ``bot:<level>`` for a computer
    seat), by seat, as people read them: a computer seat as :func:`seat_display_names` names it
    ("Greedy", "Greedy 2" among several), any other name as it is (an imported record's names
    are no accounts; the record itself keeps ``bot:<level>``, RULES.md "Game record")."""
    names = list(names)
    shown = seat_display_names([
        {"seat": i, "username": None, "bot": name[4:]} if name.startswith("bot:")
        else {"seat": i, "username": name, "bot": None}
        for i, name in enumerate(names)
    ])
    return [shown.get(i, name) for i, name in enumerate(names)]
