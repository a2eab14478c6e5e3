"""The engine's view of every play of a match: the strong bot's choice and the points given up.

Pure code over a ``basra-record/1`` record (no Django), so it runs in worker processes.

For each play, the seat's view at that moment (``games.engine.Step.view``: its own hand, the
floor, the sizes of the other hands and of the stock, the piles, every card played this round;
never another hand, so the analysis knows no more than the player did) is given to the strong
bot's search (:meth:`games.engine.bots.StrongBot.evaluate`, perfect-information Monte Carlo:
the hidden cards dealt at random :data:`SAMPLES` times consistently with the view, each card of
the hand played on every such deal and the rest of the deal played out by a fast greedy policy).
A card's *value* is its mean round-points difference for the seat's side over those deals; the
bot's choice is the card of highest value, and the play's *loss* is that value less the value of
the card played (0 when the player chose as the bot did, or had one card to choose from).
A player's accuracy is their mean loss per play, in points; their biggest mistakes are the plays
of largest loss, each labelled with what it gave up in words a player understands (a basra left
to the next seat, a capture missed, the last capture given up: ``games.replays.mistakes``).

The values are estimates: two cards whose values differ by less than about a point are as good
as each other for the search (:data:`NOISE`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping
from concurrent.futures import Executor
from typing import Any

from games import engine
from games.engine.bots import StrongBot, greedy_values, same_class
from games.replays import mistakes

__all__ = ["SAMPLES", "TIME_LIMIT", "NOISE", "analyse_view", "analyse_record", "tasks", "summary"]

#: Sampled deals per play (the live strong bot samples at most 400).
SAMPLES = 1000
#: Seconds of search per play at most (a cap; :data:`SAMPLES` is normally reached first).
TIME_LIMIT = 0.5
#: Losses below this many points are noise of the sampling, not mistakes.
NOISE = 1.0
#: How many biggest mistakes each player's summary names.
WORST = 3


def analyse_view(
    view: engine.SeatView, played: str, *, seed: str | int = 0,
    samples: int = SAMPLES, time_limit: float = TIME_LIMIT,
    clock: Callable[[], float] = time.perf_counter,
) -> dict[str, Any]:
    """The strong bot's choice for ``view`` and what playing ``played`` gave up against it.

    :param view: the seat to move's view (``view.turn == view.seat``).
    :param played: the code of the card played, one of ``view.hand``.
    :param clock: what ``time_limit`` is measured on (seconds); a clock that stands still
        leaves ``samples`` alone to decide, the same answer on any machine.
    :returns: ``{"best": card code, "loss": points >= 0, "values": {card code: mean points}
        (one card of each class the rules tell apart; empty when the choice was forced),
        "forced": bool, "samples": deals sampled}``.
    :raises ValueError: ``played`` is not in the hand, or the view is not the seat to move's.
    """
    card = engine.Card.from_code(played)
    if card not in view.hand:
        raise ValueError(f"{played} is not in the hand of seat {view.seat}")
    rules = view.rules
    if all(same_class(card, other, rules) for other in view.hand):
        return {"best": played, "loss": 0.0, "values": {}, "forced": True, "samples": 0}
    bot = StrongBot(seed=seed, samples=samples, time_limit=time_limit, clock=clock)
    values = bot.evaluate(view)
    order = greedy_values(view)
    best = max(values, key=lambda c: (values[c], round(order[c], 9)))
    mine = next(c for c in values if same_class(c, card, rules))
    loss = max(0.0, values[best] - values[mine])
    return {
        "best": card.code if same_class(best, card, rules) else best.code,
        "loss": round(loss, 2),
        "values": {c.code: round(v, 2) for c, v in values.items()},
        "forced": False,
        "samples": bot.last_samples,
    }


def tasks(record: Mapping[str, Any]) -> list[tuple[int, int, engine.SeatView, str]]:
    """Every play of ``record`` as ``(round index, play index, view before it, card code)``.

    :raises games.engine.RecordError: the record is malformed or breaks the rules.
    """
    return [(step.round, step.play, step.view(), step.card.code) for step in engine.steps(record)]


def _run(task: tuple[int, int, engine.SeatView, str]) -> dict[str, Any]:
    index, number, view, code = task
    found = analyse_view(view, code, seed=f"analysis|{index}|{number}")
    return {"round": index, "play": number, "seat": view.seat, "card": code, **found}


def analyse_record(
    record: Mapping[str, Any], *, executor: Executor | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, Any]:
    """Analyse every play of ``record`` (see the module), in ``executor`` if given.

    :param progress: called as ``progress(done, total)`` as plays are analysed.
    :returns: ``{"plays": [{"round", "play", "seat", "card", "best", "loss", "values",
        "forced", "samples", "labels"?}, ...] in record order, "players": summary(...)}``; the
        plays that lost more than :data:`NOISE` carry ``"labels"``
        (:func:`games.replays.mistakes.labels_for`).
    :raises games.engine.RecordError: the record is malformed or breaks the rules.
    """
    work = tasks(record)
    total = len(work)
    results: Iterable[dict]
    if executor is None:
        results = map(_run, work)
    else:
        results = executor.map(_run, work, chunksize=8)
    plays = []
    for done, found in enumerate(results, 1):
        plays.append(found)
        if progress is not None and (done % 8 == 0 or done == total):
            progress(done, total)
    mistakes.label_plays(record, plays, threshold=NOISE)
    players = engine.Rules.from_dict(record["rules"]).players
    return {"plays": plays, "players": summary(plays, players)}


def summary(plays: list[dict[str, Any]], players: int) -> list[dict[str, Any]]:
    """Per seat: ``{"seat", "plays", "mean_loss" (points per play), "total_loss", "mistakes"
    (plays losing more than :data:`NOISE`), "worst": [indices into plays, largest loss first,
    at most :data:`WORST`, only losses above NOISE]}``."""
    out = []
    for seat in range(players):
        mine = [i for i, p in enumerate(plays) if p["seat"] == seat]
        total = sum(plays[i]["loss"] for i in mine)
        bad = sorted((i for i in mine if plays[i]["loss"] > NOISE), key=lambda i: -plays[i]["loss"])
        out.append({
            "seat": seat,
            "plays": len(mine),
            "mean_loss": round(total / len(mine), 2) if mine else 0.0,
            "total_loss": round(total, 2),
            "mistakes": len(bad),
            "worst": bad[:WORST],
        })
    return out
