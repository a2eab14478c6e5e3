"""Lists of words or names written as the reader's language writes them: CLDR's list patterns
through ``babel`` ("Amira, Omar, and Hala" in English, "Amira, Omar et Hala" in French, "Amira
وOmar وHala" in Arabic, whose lists take "و", never the Latin comma). The scripts write theirs
with ``Intl.ListFormat`` of the same data (``list`` of ``static/games/live.js``)."""

from __future__ import annotations

import functools
from collections.abc import Iterable

from babel import Locale
from babel.lists import format_list
from django.conf import settings
from django.utils.translation import get_language, to_locale


def _locale() -> str:
    return to_locale(get_language() or settings.LANGUAGE_CODE)


def listing(items: Iterable[str]) -> str:
    """``items`` joined as one list ("and" between the last two) in the active language."""
    return format_list([str(item) for item in items], locale=_locale())


@functools.cache
def _separators(locale: str) -> dict[str, str]:
    """What CLDR's ``standard`` patterns put between two items: ``{"start": ", ", ...}``."""
    patterns = Locale.parse(locale).list_patterns["standard"]
    return {key: patterns[key].split("{0}", 1)[1].split("{1}", 1)[0] for key in ("start", "middle", "end", "2")}


def separator_after(position: int, length: int) -> str:
    """What follows item ``position`` (1 for the first) of a list of ``length`` items, so that
    a template's loop over items with markup (links) writes what :func:`listing` would; empty
    after the last."""
    if position >= length:
        return ""
    found = _separators(_locale())
    if length == 2:
        return found["2"]
    if position == length - 1:
        return found["end"]
    return found["start"] if position == 1 else found["middle"]
