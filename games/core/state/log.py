"""Reading a match's append-only event log back into the engine (STYLE.md, "In this project" 3).

The log (``games.core.models.Event``) is the truth: the live state of a match is the engine's replay of
its ``start``, ``deal`` and ``play`` events. :func:`record_from_events` turns them into a
``basra-record/1`` record (RULES.md, "Game record"), :func:`rebuild` replays a whole match, and
:func:`catch_up` brings a state kept in memory forward by only the events written since.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from games import engine
from games.core.models import Event, Match
from games.core.fastpath import Compiled

#: The kinds of event that change the engine's state; the others are consequences (round and
#: match ends) or about the seats (absence, claims, …).
ENGINE_KINDS = (Event.Kind.START, Event.Kind.DEAL, Event.Kind.PLAY)


def record_from_events(
    rules: dict, events: Iterable[tuple[str, Any]], *, timeouts: bool = False,
    headers: dict | None = None, shuffle: dict | None = None,
) -> dict:
    """A ``basra-record/1`` record from a match's log, written by the engine's one writer
    (``games.engine.write_record``).

    :param rules: the match's ``Rules.to_dict()``.
    :param events: ``(kind, payload)`` pairs in ``seq`` order; kinds other than ``start``,
        ``deal`` and ``play`` are ignored.
    :param timeouts: give each round its ``"timeouts"``, the indices of the plays the clock
        made (``"timeout": true`` in the ``play`` event), when it has some.
    :param headers: the record's ``"headers"``; ``shuffle`` its ``"shuffle"`` (when given).
    :returns: the record ``games.engine.replay`` takes (RULES.md, "Game record").
    :raises ValueError: a ``play`` before any ``deal``.
    """
    seats: list[str] = []
    rounds: list[dict] = []
    for kind, payload in events:
        if kind == Event.Kind.START:
            seats = list(payload["seats"])
        elif kind == Event.Kind.DEAL:
            rounds.append({"dealer": payload["dealer"], "deck": payload["deck"], "plays": [],
                           "timeouts": []})
        elif kind == Event.Kind.PLAY:
            if not rounds:
                raise ValueError("a play event before any deal event")
            plays = rounds[-1]["plays"]
            if timeouts and payload.get("timeout") is True:
                rounds[-1]["timeouts"].append(len(plays))
            plays.append(payload["card"])
    if not seats:
        seats = [str(seat) for seat in range(rules.get("players", 2))]
    return engine.write_record(rules, seats, rounds, headers=headers, shuffle=shuffle)


#: ``(kind, payload)`` of a match's engine events after one ``seq`` up to another, compiled
#: once on the fast path (``games.core.fastpath.Compiled``): read whenever a process first
#: serves a table or catches up.
_ENGINE_EVENTS = Compiled(
    lambda match_id, after, upto: Event.objects.filter(
        match_id=match_id, seq__gt=after, seq__lte=upto, kind__in=ENGINE_KINDS
    )
    .order_by("seq")
    .values_list("kind", "payload"),
    count=3,
)


def _engine_events(match_id: int, after: int, upto: int) -> list[list[Any]]:
    return _ENGINE_EVENTS.rows(match_id, after, upto)


def rebuild(match: Match) -> engine.Match:
    """Replay ``match``'s log up to ``match.seq`` into an engine ``Match`` (one query).

    Events after ``match.seq`` (committed after ``match`` was read) are left out, so the result
    is the state at exactly ``match.seq``.

    :raises games.engine.RecordError: the log breaks the rules (never for a log the core wrote).
    """
    events = _engine_events(match.pk, 0, match.seq)
    return engine.replay(record_from_events(match.rules, events)).match


def catch_up(live: engine.Match, match_id: int, held: int, upto: int) -> engine.Match:
    """Bring ``live``, the state of match ``match_id`` at event ``held``, forward to ``upto`` by
    applying only the events in between (one query): each ``deal`` deals its stored deck, each
    ``play`` plays its card, through the engine's walker (``games.engine.Walk``) as the replay
    does.

    :returns: ``live`` itself, changed.
    :raises games.engine.BasraError: an event the state cannot take (the caller rebuilds).
    """
    walk = engine.Walk(live)
    for kind, payload in _engine_events(match_id, held, upto):
        if kind == Event.Kind.DEAL:
            walk.deal(payload["deck"])
        elif kind == Event.Kind.PLAY:
            walk.play(payload["card"])  # its step's view is never asked for: never computed
        else:  # a start after a state exists: never written by the core
            raise engine.GameStateError("a start event after the match started")
    return live
