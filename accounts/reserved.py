"""Usernames that players may not pick because they would confuse other players.

A name is reserved when, after case folding and dropping separators and trailing digits, it is
one of `RESERVED_USERNAMES`: so "Admin", "ad.min", "admin_2" and "BOT-7" are all refused while
"Botros" and "Sys" are fine. Staff can still create such accounts in the Django admin (for
example a real "system" account), because only the sign-up form asks the adapter.
"""

import re

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
    """Reduce a username to the form compared with `RESERVED_USERNAMES`.

    Case folding, then separators ``. _ @ + -`` removed, then trailing ASCII or Unicode digits removed.

    >>> username_key("Ad.Min_42")
    'admin'
    """
    folded = _SEPARATORS.sub("", username.casefold())
    return _TRAILING_DIGITS.sub("", folded)


def is_reserved_username(username: str) -> bool:
    """Tell whether `username` would impersonate the site, a bot or a placeholder.

    >>> is_reserved_username("BOT-7"), is_reserved_username("Botros")
    (True, False)
    """
    return username_key(username) in RESERVED_USERNAMES
