"""Every position of a game record, computed by the engine, for the replay viewer to step through.

Pure code over a ``basra-record/1`` record (RULES.md, "Game record"): no Django. The engine's
walker (:func:`games.engine.steps`, which checks the record as it goes, so a record that breaks
the rules raises its :class:`~games.engine.RecordError` naming the round and the play) plays
the record one card at a time and each position is written down: all hands face up
(the match is over when anyone sees this), the floor, the piles, the basras, the match totals.
The browser only displays them (``static/replays/replay.js``).

Numbering: a *position* is one entry of :func:`replay_data`'s ``positions``; position 0 is the
first round just dealt; each round has its dealt position, then one position after each of its
plays (the last one is the round's end: the leftover floor given to the last capturer, the
round's points added). The share link ``?ply=N`` opens position ``N``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games import engine

__all__ = ["replay_data", "PLAYS_PER_ROUND"]

#: Every round plays the 52 cards less the first floor's 4: 48 plays (RULES.md, "Dealing").
PLAYS_PER_ROUND = 48


def _codes(cards) -> list[str]:
    return [card.code for card in cards]


def _position(match: engine.Match, rnd: engine.Round, index: int, play: int, last: dict | None):
    return {
        "round": index,
        "play": play,
        "hands": [_codes(hand) for hand in rnd.hands],
        "floor": _codes(rnd.floor),
        "piles": [len(rnd.piles[0]), len(rnd.piles[1])],
        "basras": list(rnd.basras),
        "jack_basras": list(rnd.jack_basras),
        "stock": len(rnd.stock),
        "scores": list(match.scores),
        "turn": rnd.turn,
        "last": last,
    }


def replay_data(record: Mapping[str, Any]) -> dict[str, Any]:
    """The replay of ``record``: its rounds and every position, JSON-ready.

    Shape: ``{"players", "rules", "seats", "scores", "winner", "rounds": [{"number", "dealer",
    "deck", "first": position index of its deal, "last": of its end (or last play), "deals":
    [{"play": plays made before it, "stock": the stock's codes after it, top first}],
    "initial_floor", "buried", "score": RoundScore.to_dict() or None, "leftover": {"side",
    "cards"} or None, "totals": match totals after it, "basras": [{"play", "seat", "kind"}],
    "timeouts": [play indices]}], "positions": [{"round" (0-based), "play" (plays made in the
    round), "hands" (by seat), "floor", "piles" (card counts by side), "basras", "jack_basras",
    "stock" (cards left), "scores" (match totals), "turn", "last": {"seat", "card", "taken",
    "basra", "timeout"} or None}]}``. Plays are 0-based indices in the round; timeouts come
    from each round's optional ``"timeouts"``.

    :raises games.engine.RecordError: (a ``ValueError``) the record is malformed or breaks the
        rules; the message names the round and the play.
    """
    positions: list[dict] = []
    rounds: list[dict] = []  # finished entries
    walking: list[dict] = []  # what the round being walked gathers: first, deals, basras, timeouts

    def dealt(match: engine.Match) -> None:
        if walking:
            rounds.append(_entry(walking.pop(), match.rounds[-2], match))
        rnd = match.round
        index = len(rounds)
        timeouts = record["rounds"][index].get("timeouts")
        timeouts = {t for t in timeouts if isinstance(t, int)} if isinstance(timeouts, list) else set()
        walking.append({"first": len(positions), "deals": [{"play": 0, "stock": _codes(rnd.stock)}],
                        "basras": [], "timeouts": timeouts})
        positions.append(_position(match, rnd, index, 0, None))

    walk = engine.steps(record, on_deal=dealt)
    per_deal = 4 * walk.rules.players
    for step in walk:
        match = walk.match
        rnd = match.round  # as it stands after the play
        info = walking[-1]
        kind = None if step.capture.basra is None else step.capture.basra.value
        if kind:
            info["basras"].append({"play": step.play, "seat": step.seat, "kind": kind})
        last = {
            "seat": step.seat,
            "card": step.card.code,
            "taken": _codes(sorted(step.capture.taken)),
            "basra": kind,
            "timeout": step.play in info["timeouts"],
        }
        done = step.play + 1
        if done % per_deal == 0 and done < PLAYS_PER_ROUND:
            info["deals"].append({"play": done, "stock": _codes(rnd.stock)})  # a new deal
        positions.append(_position(match, rnd, step.round, done, last))
    match = walk.match
    if walking:
        rounds.append(_entry(walking.pop(), match.round, match))
    rules = walk.rules
    return {
        "players": rules.players,
        "rules": rules.to_dict(),
        "seats": list(walk.seats),
        "scores": list(match.scores),
        "winner": match.winner,
        "rounds": rounds,
        "positions": positions,
    }


def _entry(info: dict, rnd: engine.Round, match: engine.Match) -> dict:
    """The replay's entry of ``rnd`` (see :func:`replay_data`) once its last play is walked:
    ``info`` is what the walk gathered, ``match`` holds the totals after the round."""
    over = rnd.over
    leftover = None
    if over and rnd.leftover:
        leftover = {"side": rnd.last_capturer, "cards": _codes(rnd.leftover)}
    return {
        "number": match.rounds.index(rnd) + 1,
        "dealer": rnd.dealer,
        "deck": _codes(rnd.deck),
        "first": info["first"],
        "last": info["first"] + len(rnd.plays),
        "deals": info["deals"],
        "initial_floor": _codes(rnd.initial_floor),
        "buried": _codes(rnd.buried),
        "score": rnd.score_breakdown().to_dict() if over else None,
        "leftover": leftover,
        "totals": list(match.scores),
        "basras": info["basras"],
        "timeouts": sorted(info["timeouts"]),
    }
