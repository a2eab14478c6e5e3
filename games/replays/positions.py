"""Every position of a game record, computed by the engine, for the replay viewer to step through.

Pure code over a ``basra-record/1`` record (RULES.md, "Game record"): no Django. The engine
replays the record (:func:`games.engine.replay` checks it first, so a record that breaks the
rules raises its :class:`~games.engine.RecordError` naming the round and the play), then the
record is played again one card at a time and each position is written down: all hands face up
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
    result = engine.replay(record)  # validates everything the loop below assumes
    rules = result.match.rules
    match = engine.Match(rules, record["rounds"][0]["dealer"] if record["rounds"] else 0)
    per_deal = 4 * rules.players
    positions: list[dict] = []
    rounds: list[dict] = []
    for index, data in enumerate(record["rounds"]):
        timeouts = data.get("timeouts") if isinstance(data, Mapping) else None
        timeouts = {t for t in timeouts if isinstance(t, int)} if isinstance(timeouts, list) else set()
        rnd = match.start_round(data["deck"])
        first = len(positions)
        deals = [{"play": 0, "stock": _codes(rnd.stock)}]
        basras = []
        positions.append(_position(match, rnd, index, 0, None))
        for number, code in enumerate(data["plays"]):
            seat = rnd.turn
            taken = match.play(code)
            played = rnd.plays[-1]
            kind = None if taken.basra is None else taken.basra.value
            if kind:
                basras.append({"play": number, "seat": seat, "kind": kind})
            last = {
                "seat": seat,
                "card": played.card.code,
                "taken": _codes(sorted(played.taken)),
                "basra": kind,
                "timeout": number in timeouts,
            }
            done = number + 1
            if done % per_deal == 0 and done < PLAYS_PER_ROUND:
                deals.append({"play": done, "stock": _codes(rnd.stock)})  # a new deal
            positions.append(_position(match, rnd, index, done, last))
        over = rnd.over
        leftover = None
        if over and rnd.leftover:
            leftover = {"side": rnd.last_capturer, "cards": _codes(rnd.leftover)}
        rounds.append({
            "number": index + 1,
            "dealer": rnd.dealer,
            "deck": _codes(rnd.deck),
            "first": first,
            "last": len(positions) - 1,
            "deals": deals,
            "initial_floor": _codes(rnd.initial_floor),
            "buried": _codes(rnd.buried),
            "score": rnd.score_breakdown().to_dict() if over else None,
            "leftover": leftover,
            "totals": list(match.scores),
            "basras": basras,
            "timeouts": sorted(timeouts),
        })
    return {
        "players": rules.players,
        "rules": rules.to_dict(),
        "seats": list(result.seats),
        "scores": list(result.scores),
        "winner": result.winner,
        "rounds": rounds,
        "positions": positions,
    }
