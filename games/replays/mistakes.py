"""What a mistake was, in words a player understands: labels computed from the position.

Pure code over a ``basra-record/1`` record and the analysis of its plays (no Django), run once
an analysis is done (:func:`games.replays.analysis.analyse_record`). The analysis says *how
much* a play gave up (points, from the seat's own view); this module says *what* it gave up,
by comparing what the card played and the best card (the strong bot's choice) take from the
floor with :func:`games.engine.capture` (RULES.md, "What a play takes", "Basra"), and by what
the match then shows (the hands are face up once it is over):

- ``missed_basra`` (``points``): the best card made a basra (or a jack basra) here, the card
  played did not;
- ``left_basra`` (``card``): after the card played, the next seat (always an opponent) held
  ``card``, which takes the whole floor as a basra; after the best card it could not have;
- ``gave_up_last_capture`` (``cards``): in the round's last deal the best card captured and
  the card played did not, and the floor's ``cards`` left at the end went to the other side
  (RULES.md: they go to the side that captured last);
- ``missed_capture`` (``cards``): the best card took ``cards`` more cards to the pile (the
  played card counts; the most cards win the round's 30 points);
- ``spent_jack`` / ``spent_komi``: a Jack (which takes any floor) or the wild seven of
  diamonds was played when another card was better, and kept for later is worth more;
- ``weaker_card``: none of the above: the search found the best card better over the deals it
  tried (e.g. what it leaves for later plays), with no single reason to name.

A play gets every label that holds, most telling first; ``weaker_card`` only when none does.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from games import engine

__all__ = ["LABELS", "labels_for", "label_plays"]

#: Every label code, most telling first.
LABELS = (
    "missed_basra", "left_basra", "gave_up_last_capture", "missed_capture", "spent_jack",
    "spent_komi", "weaker_card",
)

JACK = 11


def _after(card: engine.Card, floor: Sequence[engine.Card], rules: engine.Rules):
    """``(capture, floor after card is played)``."""
    got = engine.capture(card, floor, rules)
    if got.taken:
        return got, [c for c in floor if c not in got.taken]
    return got, [*floor, card]


def _basra_for(hand: Iterable[engine.Card], floor: Sequence[engine.Card], rules: engine.Rules):
    """A card of ``hand`` that takes the whole of ``floor`` as a basra, or ``None``."""
    if not floor:
        return None
    for card in sorted(hand):
        if engine.capture(card, floor, rules).basra is not None:
            return card
    return None


def _is_komi(card: engine.Card, rules: engine.Rules) -> bool:
    return card.code == "7D" and rules.seven_diamonds != "plain"


def labels_for(
    *, rules: engine.Rules, floor: Sequence[engine.Card], stock_size: int, seat: int,
    played: engine.Card, best: engine.Card, next_hand: Sequence[engine.Card] = (),
    last_side: int | None = None, leftover: int = 0,
) -> list[dict[str, Any]]:
    """The labels of playing ``played`` instead of ``best`` (see the module).

    :param floor: the floor before the play; ``stock_size`` the stock's cards before it.
    :param next_hand: the next seat's hand when it is to play after ``played`` (face up once the
        match is over; empty when the round ended).
    :param last_side: the side that captured last in the round (``None``: the round did not
        end, or nobody captured); ``leftover`` the floor's cards it was given at the end.
    :returns: ``[{"code": one of LABELS, ...its parameters}]``, never empty.
    """
    mine, floor_mine = _after(played, floor, rules)
    other, floor_best = _after(best, floor, rules)
    out: list[dict[str, Any]] = []
    if other.basra is not None and mine.basra is None:
        points = rules.jack_basra_points if other.basra == "jack_basra" else rules.basra_points
        out.append({"code": "missed_basra", "points": points})
    threat = _basra_for(next_hand, floor_mine, rules)
    if threat is not None and _basra_for(next_hand, floor_best, rules) is None:
        out.append({"code": "left_basra", "card": threat.code})
    if (stock_size == 0 and other.taken and not mine.taken and last_side is not None
            and last_side != seat % 2 and leftover):
        out.append({"code": "gave_up_last_capture", "cards": leftover})
    cards_mine = len(mine.taken) + 1 if mine.taken else 0
    cards_best = len(other.taken) + 1 if other.taken else 0
    if cards_best > cards_mine:
        out.append({"code": "missed_capture", "cards": cards_best - cards_mine})
    if played.rank == JACK and best.rank != JACK:
        out.append({"code": "spent_jack"})
    elif _is_komi(played, rules) and not _is_komi(best, rules):
        out.append({"code": "spent_komi"})
    return out or [{"code": "weaker_card"}]


def label_plays(record: Mapping[str, Any], plays: list[dict[str, Any]], *,
                threshold: float = 0.0) -> None:
    """Add ``"labels"`` (:func:`labels_for`) to every play of ``plays`` (analysis results in
    record order, each ``{"round", "play", "seat", "card", "best", "loss", ...}``) that lost
    more than ``threshold`` points; the others get none. Walks ``record`` with the engine
    (:func:`games.engine.steps`).

    :raises games.engine.RecordError: the record is malformed or breaks the rules.
    """
    wanted = {(p["round"], p["play"]): p for p in plays
              if p.get("loss", 0) > threshold and p.get("best") != p.get("card")}
    if not wanted:
        return
    walk = engine.steps(record)
    rules = walk.rules
    pending = []
    for step in walk:
        found = wanted.get((step.round, step.play))
        if found:
            before = step.view()
            rnd = walk.match.round  # as it stands after the play
            nxt = (step.seat + 1) % rules.players
            next_hand = () if rnd.over else tuple(rnd.hands[nxt])
            pending.append((found, before, next_hand))
    rounds = walk.match.rounds
    for found, before, next_hand in pending:
        rnd = rounds[found["round"]]
        found["labels"] = labels_for(
            rules=rules, floor=list(before.floor), stock_size=before.stock_size,
            seat=before.seat, played=engine.Card.from_code(found["card"]),
            best=engine.Card.from_code(found["best"]), next_hand=next_hand,
            last_side=rnd.last_capturer if rnd.over else None,
            leftover=len(rnd.leftover) if rnd.over and rnd.leftover else 0,
        )
