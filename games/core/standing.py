"""The one question the core asks about a player's standing: may these players play rated?

A moderator may ban a player from rated play (lichess's "rankban": no rated matches, no
queues, no tournaments). Who is banned is an app's knowledge (``games.moderation``), and the
core never imports an app (``import-linter``, ``pyproject.toml``); so the core asks
:func:`banned_from_rated`, and the app that knows answers it: it registers its answerer with
:func:`answer_with` in its ``AppConfig.ready()``, as :mod:`games.core.relations` and
:mod:`games.core.titles` are answered. Without an answerer everyone may play rated.

Where the core asks (:func:`check_rated`, refusing with ``ranked_banned``): a rated table
opened or started (``actions.seating.create_table``, which challenges and rematches go
through too), a seat taken at a rated table (``actions.seating.join_table``), a rated
challenge sent by or to a barred player (``actions.challenges.create_challenge``) and a rematch of a rated match asked
(``actions.rematch.ask_rematch``). The queues and the tournaments ask the same question
through ``games.core.for_apps.standing`` (``queue_ranked_banned``,
``tournament_ranked_banned``).
"""

from __future__ import annotations

from collections.abc import Callable, Collection

from games.core.errors import GameError

#: ``answerer(user ids)``: those of them barred from rated play now (one query).
Answerer = Callable[[frozenset[int]], Collection[int]]

_answerer: Answerer | None = None


def answer_with(answerer: Answerer | None) -> None:
    """Register the app's answerer (its ``AppConfig.ready()``; ``None``: none, as in a test)."""
    global _answerer
    _answerer = answerer


def banned_from_rated(user_ids: Collection[int | None]) -> frozenset[int]:
    """Which of ``user_ids`` may not play rated now (``None`` entries, computer seats, are
    skipped): one call, one query; empty without an answerer."""
    ids = frozenset(uid for uid in user_ids if uid is not None)
    if _answerer is None or not ids:
        return frozenset()
    return frozenset(uid for uid in _answerer(ids) if uid in ids)


def may_play_rated(user_ids: Collection[int | None]) -> bool:
    """Whether every one of ``user_ids`` may play rated now."""
    return not banned_from_rated(user_ids)


def check_rated(rated: bool, user_ids: Collection[int | None]) -> None:
    """Refuse a rated table, seat, challenge or rematch to a player banned from rated play.

    :raises GameError: ``ranked_banned``.
    """
    if rated and not may_play_rated(user_ids):
        raise GameError("ranked_banned")
