"""The one question the core asks about a name it shows: what title does its account carry?

A title marks an account wherever its name is shown (lichess's ``BOT``): the table's seats, the
lobby's tables, profiles, match history. Which accounts are bots is an app's knowledge
(``games.api``'s ``BotAccount``), and the core never imports an app (``import-linter``,
``pyproject.toml``); so the core asks :func:`titles`, and the app that knows answers it: it
registers its answerer with :func:`answer_with` in its ``AppConfig.ready()``, as
:mod:`games.core.relations` is answered. Without an answerer nobody has a title.

The places that may not seat a titled account (quick pairing, tournaments for people) ask the
same question through :func:`is_bot`.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping

#: The title of a bot account (``../shared/API.md``: ``"title": "BOT"``).
BOT = "BOT"

#: ``answerer(user ids)``: ``{user id: title}`` for the titled accounts among them (one query).
Answerer = Callable[[frozenset[int]], Mapping[int, str]]

_answerer: Answerer | None = None


def answer_with(answerer: Answerer | None) -> None:
    """Register the app's answerer (its ``AppConfig.ready()``; ``None``: none, as in a test)."""
    global _answerer
    _answerer = answerer


def titles(user_ids: Collection[int | None]) -> dict[int, str]:
    """``{user id: title}`` of the titled accounts among ``user_ids`` (``None`` entries, a
    computer seat's, are skipped): one call, one query, for a whole page's names; ``{}``
    without an answerer or when none is titled."""
    ids = frozenset(uid for uid in user_ids if uid is not None)
    if _answerer is None or not ids:
        return {}
    return {uid: title for uid, title in _answerer(ids).items() if uid in ids and title}


def title(user_id: int | None) -> str | None:
    """:func:`titles` for one account: its title, or ``None``."""
    return titles((user_id,)).get(user_id) if user_id is not None else None


def is_bot(user_id: int | None) -> bool:
    """Whether ``user_id`` is a bot account (title :data:`BOT`)."""
    return title(user_id) == BOT
