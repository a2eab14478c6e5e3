"""The ``state`` message of ``docs/protocol.md``, built per seat: pure functions, no database.

Everything a message needs from the database comes in a :class:`TableInfo` (``games.core.state.reads``
builds it); the cards come from the engine's views only, so a seat's message holds that seat's
hand and no other (STYLE.md, "In this project" 6).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.utils import timezone

from games import engine
from games.core.models import Match
from games.core.state import liveness
from games.core.state.cache import SeatRow


#: ``result.not_rated`` of a rated match aborted early (RULES.md's ``not_rated`` code).
ABORTED_EARLY = "aborted_early"


@dataclass(frozen=True)
class TableInfo:
    """What a ``state`` message needs from the database, copied so it outlives the transaction.

    ``seats``: the taken seats (:class:`games.core.state.cache.SeatRow`), by seat number. ``deadline``: when
    the seat to move runs out (``None``: no clock is running); ``move_seconds``: the time per play
    (``None``: no clock). ``winner``, ``result`` and ``scores``: ``Match.winner_side``,
    ``Match.result`` and ``Match.scores``, which tell how a finished match ended (a claim or a
    resignation ends it in the middle of a round). ``last_play_by``: who made the match's last
    ``play`` event, from its payload, ``{"seat", "timeout": bool, "bot": level or None}``
    (``None``: no play yet); the engine's replay knows the cards but not that the server played
    them. ``extras``: what the apps add (``games.core.state.cache.table_extras``). ``missed``:
    after a rated match aborted early, the seats of the persons who never played a card of the
    first deal themselves (``match_end``'s ``missed``), else ``None``. ``aborted_by``: after a
    match a player called off (``endings.abort_match``), their seat (the ``abort`` event's),
    else ``None``.
    """

    id: int
    status: str
    players: int
    rated: bool
    rules: dict
    seats: tuple[SeatRow, ...]
    deadline: datetime | None = None
    move_seconds: int | None = None
    winner: int | None = None
    result: str = ""
    scores: tuple[int, int] = (0, 0)
    last_play_by: dict | None = None
    shuffle: dict | None = None
    extras: dict | None = None
    missed: tuple[int, ...] | None = None
    aborted_by: int | None = None


def play_by(seat: int | None, payload: dict) -> dict:
    """``{"seat", "timeout", "bot"}`` of a ``play`` event (``docs/protocol.md`` "Event log")."""
    return {
        "seat": seat,
        "timeout": payload.get("timeout") is True,
        "bot": payload.get("bot") or None,
    }


def round_results(live: engine.Match) -> list[dict]:
    """One ``{"number", ...breakdown, "leftover"}`` per finished round of ``live``, in order.

    The breakdown is ``RoundScore.to_dict()``; ``leftover`` is ``{"side": 0|1|None, "cards":
    [codes]}``: the floor cards the side that captured last took when the round ended (RULES.md,
    "Basra"); ``side`` is ``None`` and ``cards`` empty when the floor was empty or nobody captured.
    """
    return [
        {
            "number": number,
            **rnd.score_breakdown().to_dict(),
            "leftover": {
                "side": rnd.last_capturer if rnd.leftover else None,
                "cards": [card.code for card in rnd.leftover],
            },
        }
        for number, rnd in enumerate(live.rounds, start=1)
        if rnd.over
    ]


def round_dict(view: engine.SeatView) -> dict:
    """The ``round`` object of a ``state`` message, from an engine ``SeatView.to_dict()``."""
    values = view.to_dict()
    return {
        "number": values["round_number"],
        "dealer": values["dealer"],
        "turn": values["turn"],
        "floor": values["floor"],
        "hand": values["hand"],
        "hand_sizes": values["hand_sizes"],
        "stock_size": values["stock_size"],
        "pile_sizes": values["pile_sizes"],
        "basras": values["basras"],
        "jack_basras": values["jack_basras"],
        "last_play": values["last_play"],
        "over": values["round_over"],
    }


def _mark_last_play(round_: dict, by: dict | None) -> None:
    """Add ``timeout`` and ``bot`` to ``round_["last_play"]`` (``docs/protocol.md`` "state").

    ``by`` is ``TableInfo.last_play_by``; the round's last play is the match's last ``play``
    event, the seat check only guards against a ``TableInfo`` read at another ``seq``.
    """
    last = round_["last_play"]
    if last is None:
        return
    same = by is not None and by["seat"] == last["seat"]
    last["timeout"] = bool(same and by["timeout"])
    last["bot"] = by["bot"] if same else None


def _iso(moment: datetime | None) -> str | None:
    return None if moment is None else moment.isoformat()


def state_messages(
    info: TableInfo,
    live: engine.Match | None,
    *,
    seq: int,
    prev_seq: int | None,
    seats: Iterable[int | None],
    now: datetime | None = None,
) -> dict[int | None, dict]:
    """The ``state`` message (``docs/protocol.md``) for each of ``seats`` (``None``: spectator).

    Everything but ``you``, ``client_seed`` and ``round.hand`` is built once. A seat's hand comes
    only from that seat's engine view, so a message never holds another seat's cards; the
    server seed is in ``match.shuffle`` only once the match is over (``TableInfo.shuffle``), and
    ``client_seed`` is the seat's own seed while the table is open (``None`` otherwise). ``now`` (default
    ``timezone.now()``) is the server time written into the message, so that a client counts
    down to ``deadline`` whatever its own clock says.
    """
    rules = info.rules
    finished = info.status == Match.Status.FINISHED
    base: dict[str, Any] = {
        "type": "state",
        "seq": seq,
        "prev_seq": prev_seq,
        "match": {
            "id": info.id,
            "status": info.status,
            "players": info.players,
            "rated": info.rated,
            "rules": rules,
            "shuffle": info.shuffle,
        },
        "seats": [seat.to_dict() for seat in info.seats],
        "you": None,
        "round": None,
        "scores": [0, 0],
        "target": rules.get("target"),
        "round_results": [],
        "result": None,
        "move_seconds": info.move_seconds,
        "deadline": None if finished else _iso(info.deadline),
        "paused": liveness.waiting_for(info.seats) if info.status == Match.Status.PLAYING else None,
        "now": _iso(timezone.now() if now is None else now),
        "extras": info.extras or {},
    }
    public_round = None
    if live is not None:
        base["scores"] = list(live.scores)
        base["round_results"] = round_results(live)
        if live.round is not None:
            public_round = round_dict(live.public_view())
            _mark_last_play(public_round, info.last_play_by)
    if finished:
        # The row, not the engine, has the last word: a claim or a resignation ends the match
        # in the middle of a round, with the scores of the finished rounds; an abort has no
        # winner.
        base["result"] = {
            "winner": info.winner,
            "scores": list(live.scores) if live is not None else list(info.scores),
            "reason": info.result or Match.Result.TARGET.value,
        }
        if info.aborted_by is not None:
            # Called off by a player: every seat and spectator is told who.
            base["result"]["by"] = info.aborted_by
        if info.missed is not None:
            # Aborted early: who never played, for every seat and spectator to be told.
            base["result"].update(
                early=True, missed=list(info.missed), not_rated=ABORTED_EARLY
            )
    # Before the start each person sees their own client seed, to keep or change it.
    own_seeds = (
        {s.seat: s.client_seed for s in info.seats if s.user_id is not None and not s.bot}
        if info.status == Match.Status.OPEN
        else {}
    )
    messages: dict[int | None, dict] = {}
    for seat in seats:
        message = dict(base, you=seat, client_seed=own_seeds.get(seat))
        if public_round is not None:
            if seat is None:
                message["round"] = public_round
            else:
                hand = [card.code for card in live.view(seat).hand]
                message["round"] = dict(public_round, hand=hand)
        messages[seat] = message
    return messages
