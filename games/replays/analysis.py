"""The engine's view of every play of a match: the expert's choice, the chance given up, a grade.

Pure code over a ``basra-record/1`` record (no Django), so it runs in worker processes.

**The judge.** For each play, the seat's view at that moment (``games.engine.Step.view``: its
own hand, the floor, the sizes of the other hands and of the stock, the piles, every card
played this round; never another hand, so the analysis knows no more than the player did) is
given to the expert bot's search (:meth:`games.engine.bots.ExpertBot.evaluate`: Information
Set MCTS over the hidden cards dealt at random consistently with the view, and a two-player
round's last deal solved exactly; with four players the strong bot's determinized search over
``ITERATIONS / 2`` deals, each keeping out of a seat's hand what its plays say it lacks), at
most :data:`ITERATIONS` iterations and :data:`TIME_LIMIT` seconds a play. A card's *value* is
the round points the seat's side makes from here on less the other side's; the expert's choice is the card of highest value; a play's *loss* in points
is that value less the value of the card played (0 for a forced play).

**The chance of winning the match** (:func:`win_chance`), for the seat's side, after a card of
value ``v``: the match's remaining points are taken as a normal walk. The expected final lead
is ``d = lead in the match totals + bonuses already made this round by each side + v``; its
variance is ``SIGMA² · R`` for ``R`` rounds still to play: the part of this round left
(plays left / 48) plus the rounds the leader still needs at :data:`PACE` points a round. The
chance is ``Φ(d / (SIGMA·√R))`` (``Φ`` the standard normal distribution), in percent.
:data:`SIGMA` and :data:`PACE` are measured on bot matches (bench/bots.py: a round's margin has a
standard deviation of about 40 points; a match to 101 lasts about 4 rounds).

**Grades.** A play's *chance loss* is the chance after the best card less the chance after the
card played, in percentage points (lichess's ``Advice`` uses the drop in winning chances the
same way). Where the chance says little (the match all but decided: both cards' chances below
1% or above 99%), the grade uses the loss in points instead. The thresholds
(:data:`GRADES`): inaccuracy 5, mistake 10, blunder 20 percentage points (in points: 4, 8,
15). Calibrated with ``bench/grades.py``: two matches the expert (1,500 iterations a move)
played against itself, its 277 unforced plays judged at 4,000 iterations: chance lost median
0, 90th percentile 1.5, 95th 3.8 percentage points; 1.4% graded inaccuracies, 0.7% mistakes,
0.7% blunders (where the weaker search really erred, or the two searches' noise); accuracy
97.5-98.0.

**Accuracy** (lichess's ``AccuracyPercent``): a play's accuracy is ``103.1668 ·
exp(-0.04354 · L) - 3.1669`` for a chance loss ``L`` in percentage points, clipped to 0..100;
a player's accuracy is the mean over their unforced plays (100 with none).

**Luck** (:func:`summary`), per side, in points: the match's point difference plus the points
the side's own plays gave up less the points the other side's plays gave up. Two sides that
play equally well share the points equally on average; what is left over is what the cards
gave: positive, the cards helped; negative, they cost.

The values are estimates: two cards whose values differ by less than about a point are as good
as each other for the search (:data:`NOISE`).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable, Mapping
from concurrent.futures import Executor
from typing import Any

from games import engine
from games.engine.bots import ExpertBot, greedy_values, same_class
from games.replays import mistakes

__all__ = [
    "ITERATIONS", "SAMPLES", "TIME_LIMIT", "NOISE", "GRADES", "SIGMA", "PACE", "accuracy",
    "analyse_view", "analyse_record", "grade", "tasks", "summary", "win_chance",
]

#: ISMCTS iterations per play at most (about a quarter of a second of one core).
ITERATIONS = 4000
#: The same figure under the name the replay page and older callers read.
SAMPLES = ITERATIONS
#: Seconds of search per play at most.
TIME_LIMIT = 0.25
#: Losses below this many points are noise of the search, not mistakes (labels start above).
NOISE = 1.0
#: How many biggest mistakes each player's summary names.
WORST = 3
#: Standard deviation of one round's point margin (points), and the points a round gives the
#: leading side on average (bench/bots.py).
SIGMA = 40.0
PACE = 25.0
#: Plays in a round (52 cards less the first floor's four).
ROUND_PLAYS = 48
#: ``(grade, chance lost at least, points lost at least)``, worst first.
GRADES = (("blunder", 20.0, 15.0), ("mistake", 10.0, 8.0), ("inaccuracy", 5.0, 4.0))


def win_chance(view: engine.SeatView, value: float) -> float:
    """The chance, in percent, that the seat's side wins the match after a card of ``value``.

    ``value``: round points the side makes from here on less the other side's (the search's).
    The model and its constants: see the module.
    """
    rules = view.rules
    side = view.seat % 2
    made = [view.basras[s] * rules.basra_points + view.jack_basras[s] * rules.jack_basra_points
            for s in (0, 1)]
    lead = view.scores[side] - view.scores[1 - side] + made[side] - made[1 - side] + value
    left = sum(view.hand_sizes) + view.stock_size
    rounds = left / ROUND_PLAYS + max(0.0, (rules.target - max(view.scores)) / PACE - 1)
    z = lead / (SIGMA * math.sqrt(max(rounds, 0.02)))
    return 50.0 * (1.0 + math.erf(z / math.sqrt(2.0)))


def accuracy(chance_loss: float) -> float:
    """A play's accuracy, 0..100, from the winning chance it lost (percentage points), as
    lichess's ``AccuracyPercent``."""
    return max(0.0, min(100.0, 103.1668 * math.exp(-0.04354 * chance_loss) - 3.1669))


def grade(chance_best: float, chance_played: float, loss: float) -> str | None:
    """``"blunder"``, ``"mistake"``, ``"inaccuracy"`` or ``None`` (see :data:`GRADES`)."""
    decided = max(chance_best, chance_played) < 1.0 or min(chance_best, chance_played) > 99.0
    lost = chance_best - chance_played
    for name, by_chance, by_points in GRADES:
        if (loss >= by_points) if decided else (lost >= by_chance):
            return name
    return None


def analyse_view(
    view: engine.SeatView, played: str, *, seed: str | int = 0,
    iterations: int = ITERATIONS, time_limit: float = TIME_LIMIT,
    clock: Callable[[], float] = time.perf_counter,
) -> dict[str, Any]:
    """The expert's choice for ``view`` and what playing ``played`` gave up against it.

    :param view: the seat to move's view (``view.turn == view.seat``).
    :param played: the code of the card played, one of ``view.hand``.
    :param clock: what ``time_limit`` is measured on (seconds); a clock that stands still
        leaves ``iterations`` alone to decide, the same answer on any machine.
    :returns: ``{"best": card code, "loss": points >= 0, "values": {card code: mean points}
        (one card of each class the rules tell apart; empty when the choice was forced),
        "forced": bool, "samples": iterations run (1 for a solved last deal), "chance": the
        side's winning chance after the card played (percent), "chance_loss": percentage
        points >= 0, "grade": None or a name of :data:`GRADES`}``.
    :raises ValueError: ``played`` is not in the hand, or the view is not the seat to move's.
    """
    card = engine.Card.from_code(played)
    if card not in view.hand:
        raise ValueError(f"{played} is not in the hand of seat {view.seat}")
    rules = view.rules
    if all(same_class(card, other, rules) for other in view.hand):
        return {"best": played, "loss": 0.0, "values": {}, "forced": True, "samples": 0,
                "chance": None, "chance_loss": 0.0, "grade": None}
    bot = ExpertBot(seed=seed, iterations=iterations, time_limit=time_limit, clock=clock)
    values = bot.evaluate(view)
    order = greedy_values(view)
    best = max(values, key=lambda c: (values[c], round(order[c], 9)))
    mine = next(c for c in values if same_class(c, card, rules))
    loss = max(0.0, values[best] - values[mine])
    chance_best = win_chance(view, values[best])
    chance = win_chance(view, values[mine])
    return {
        "best": card.code if same_class(best, card, rules) else best.code,
        "loss": round(loss, 2),
        "values": {c.code: round(v, 2) for c, v in values.items()},
        "forced": False,
        "samples": bot.last_samples,
        "chance": round(chance, 2),
        "chance_loss": round(max(0.0, chance_best - chance), 2),
        "grade": grade(chance_best, chance, loss),
    }


def tasks(record: Mapping[str, Any]) -> list[tuple[int, int, engine.SeatView, str]]:
    """Every play of ``record`` as ``(round index, play index, view before it, card code)``.

    :raises games.engine.RecordError: the record is malformed or breaks the rules.
    """
    return [(step.round, step.play, step.view(), step.card.code) for step in engine.steps(record)]


def _run(task: tuple[int, int, engine.SeatView, str], seed: str | int | None = None,
         iterations: int = ITERATIONS, clock: Callable[[], float] = time.perf_counter) -> dict[str, Any]:
    index, number, view, code = task
    found = analyse_view(view, code, seed=f"analysis|{index}|{number}" if seed is None else seed,
                         iterations=iterations, clock=clock)
    return {"round": index, "play": number, "seat": view.seat, "card": code, **found}


def analyse_record(
    record: Mapping[str, Any], *, executor: Executor | None = None,
    progress: Callable[[int, int], None] | None = None,
    seed: str | int | None = None, iterations: int = ITERATIONS,
    clock: Callable[[], float] = time.perf_counter,
) -> dict[str, Any]:
    """Analyse every play of ``record`` (see the module), in ``executor`` if given.

    :param progress: called as ``progress(done, total)`` as plays are analysed.
    :param seed: the judge's seed for every play (``None``: one seed a play, from its place);
        with ``iterations`` and a ``clock`` that stands still, the judge is exactly the expert
        bot built with that seed and cap (so the expert's own plays score 100). ``executor``
        needs the default ``clock`` (a worker process cannot be sent a local function).
    :returns: ``{"plays": [{"round", "play", "seat", "card", "best", "loss", "values",
        "forced", "samples", "chance", "chance_loss", "grade", "labels"?}, ...] in record
        order, "players": summary(...), "curve": side 0's winning chance (percent) before the
        first play and after each, "luck": per side (points)}``; the plays that lost more than
        :data:`NOISE` carry ``"labels"`` (:func:`games.replays.mistakes.labels_for`).
    :raises games.engine.RecordError: the record is malformed or breaks the rules.
    """
    work = tasks(record)
    total = len(work)
    results: Iterable[dict]
    if executor is None:
        results = (_run(task, seed, iterations, clock) for task in work)
    else:
        results = executor.map(_run, work, [seed] * total, [iterations] * total, chunksize=8)
    plays = []
    for done, found in enumerate(results, 1):
        plays.append(found)
        if progress is not None and (done % 8 == 0 or done == total):
            progress(done, total)
    mistakes.label_plays(record, plays, threshold=NOISE)
    players = engine.Rules.from_dict(record["rules"]).players
    scores = engine.replay(record).scores
    return {"plays": plays, "players": summary(plays, players), "curve": curve(plays),
            "luck": luck(plays, scores)}


def curve(plays: list[dict[str, Any]]) -> list[float]:
    """Side 0's winning chance (percent): 50 before the first play, then after each play (a
    forced play keeps the chance before it)."""
    out = [50.0]
    for p in plays:
        chance = p.get("chance")
        if chance is None:
            out.append(out[-1])
        else:
            out.append(chance if p["seat"] % 2 == 0 else round(100.0 - chance, 2))
    return out


def luck(plays: list[dict[str, Any]], scores: tuple[int, int]) -> list[float]:
    """Per side, in points: the match's point difference plus what the side's own plays gave
    up less what the other side's gave up (see the module). ``scores`` counts finished rounds
    only, so the plays of a round left unfinished (a resignation) are left out too."""
    per_round: dict[int, int] = {}
    for p in plays:
        per_round[p["round"]] = per_round.get(p["round"], 0) + 1
    lost = [0.0, 0.0]
    for p in plays:
        if per_round[p["round"]] == ROUND_PLAYS:
            lost[p["seat"] % 2] += p["loss"]
    margin = scores[0] - scores[1]
    first = round(margin + lost[0] - lost[1], 2)
    return [first, -first]


def summary(plays: list[dict[str, Any]], players: int) -> list[dict[str, Any]]:
    """Per seat: ``{"seat", "plays", "mean_loss" (points per play), "total_loss", "accuracy"
    (0..100, the mean of :func:`accuracy` over unforced plays), "inaccuracies", "mistakes",
    "blunders" (plays of each grade), "worst": [indices into plays, largest chance loss then
    points loss first, at most :data:`WORST`, only losses above NOISE]}``."""
    out = []
    for seat in range(players):
        mine = [i for i, p in enumerate(plays) if p["seat"] == seat]
        total = sum(plays[i]["loss"] for i in mine)
        bad = sorted((i for i in mine if plays[i]["loss"] > NOISE),
                     key=lambda i: (-plays[i].get("chance_loss", 0.0), -plays[i]["loss"]))
        free = [plays[i] for i in mine if not plays[i].get("forced")]
        acc = (sum(accuracy(p.get("chance_loss", 0.0)) for p in free) / len(free)) if free else 100.0
        grades = [plays[i].get("grade") for i in mine]
        out.append({
            "seat": seat,
            "plays": len(mine),
            "mean_loss": round(total / len(mine), 2) if mine else 0.0,
            "total_loss": round(total, 2),
            "accuracy": round(acc, 1),
            "inaccuracies": grades.count("inaccuracy"),
            "mistakes": grades.count("mistake"),
            "blunders": grades.count("blunder"),
            "worst": bad[:WORST],
        })
    return out
