"""Usernames that players may not pick because they would confuse other players.

A name is reserved when, after dropping separators and trailing digits, it looks like one of
`RESERVED_USERNAMES` (case folded, in NFKC form, by the Unicode skeleton of
`accounts.confusables`): so "Admin", "ad.min", "admin_2", "BOT-7", full-width "ａｄｍｉｎ" and
"аdmin" with a Cyrillic "а" are all refused while "Botros" and "Sys" are fine. Staff can still create such accounts in the Django admin (for
example a real "system" account), because only the sign-up form asks the adapter.
"""

import functools
import re
import unicodedata

from accounts.confusables import name_keys

RESERVED_USERNAMES = frozenset(
    {
        # People who look like they speak for the site.
        "admin",
        "administrator",
        "moderator",
        "mod",
        "staff",
        "support",
        "help",
        "helpdesk",
        "root",
        "owner",
        "official",
        "basra",
        "team",
        # Names the site itself may show in the game log or chat.
        "system",
        "server",
        "bot",
        "robot",
        "computer",
        "dealer",
        "referee",
        "tournament",
        # Placeholders that read like missing data.
        "anonymous",
        "guest",
        "player",
        "nobody",
        "null",
        "none",
        "undefined",
        "unknown",
        "deleted",
        "me",
        "you",
    }
)

# Characters Django allows in a username besides letters and digits.
_SEPARATORS = re.compile(r"[._@+\-]+")
_TRAILING_DIGITS = re.compile(r"\d+$")


def username_key(username: str) -> str:
    """Reduce a username to the part compared with `RESERVED_USERNAMES`: its NFKC form (full-width
    letters and digits are the plain ones), separators ``. _ @ + -`` removed, then trailing ASCII
    or Unicode digits removed. Case is left to the comparison (`name_keys`).

    >>> username_key("Ad.Min_42")
    'AdMin'
    """
    plain = _SEPARATORS.sub("", unicodedata.normalize("NFKC", username))
    return _TRAILING_DIGITS.sub("", plain)


@functools.cache
def _reserved_keys() -> frozenset[str]:
    return frozenset().union(*(name_keys(name) for name in RESERVED_USERNAMES))


def is_reserved_username(username: str) -> bool:
    """Tell whether `username` would impersonate the site, a bot or a placeholder, or looks like
    a name that would.

    >>> is_reserved_username("BOT-7"), is_reserved_username("Botros"), is_reserved_username("ｂｏｔ")
    (True, False, True)
    """
    return bool(name_keys(username_key(username)) & _reserved_keys())
