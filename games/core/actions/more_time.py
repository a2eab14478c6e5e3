"""More time for the seat to move, asked for by its player at a casual table.

WCAG 2.2, success criterion 2.2.1 Timing Adjustable ("Extend": the user may extend a time limit
with a simple action, at least ten times): a player who reads the table with a screen reader,
or plays by keyboard, may need longer than the table's time per play. A rated match keeps its
clock, the same for both sides, as lichess's rated games do; at a casual table the player to
move may ask, and the table's deadline moves on by one time per play. The time left is never
more than two times per play: asked again while more than one is left, the request is refused
(a double click changes nothing). Every grant is an event, ``more_time``, in the log.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from games.core.actions import funnel
from games.core.actions.endings import my_seat_in_play
from games.core.actions.funnel import Change, require_login
from games.core.errors import GameError
from games.core.models import Event


def ask_more_time(*, user: Any, match_id: int, now: datetime | None = None) -> datetime:
    """Give the seat to move, ``user``'s, one more time per play (``Match.move_seconds``).

    Logs ``more_time`` (``{"seconds": move_seconds}``, the seat) and moves ``Match.deadline``
    from ``deadline`` to ``deadline + move_seconds``; every seat is sent the new state.

    :returns: the new deadline (aware ``datetime``).
    :raises GameError: ``login_required``, ``not_found``, ``not_seated``, ``not_started``,
        ``match_over``, ``replaced_by_bot``; ``more_time_not_allowed`` (a rated table, or one
        without a clock); ``not_your_turn`` (another seat is to move, or the round is over);
        ``timed_out`` (the deadline has passed: the clock plays for the seat);
        ``more_time_not_yet`` (more than one time per play is left).
    """
    require_login(user)

    def body(change: Change) -> datetime:
        mine = my_seat_in_play(change, user)
        match = change.match
        if match.rated or not match.move_seconds:
            raise GameError("more_time_not_allowed")
        live = change.live.round
        if live is None or live.over or live.turn != mine.seat:
            raise GameError("not_your_turn")
        if match.deadline is None or match.deadline <= change.now:
            raise GameError("timed_out")
        per_play = timedelta(seconds=match.move_seconds)
        if match.deadline - change.now > per_play:
            raise GameError("more_time_not_yet")
        match.deadline += per_play
        change.log(Event.Kind.MORE_TIME, {"seconds": match.move_seconds}, seat=mine.seat)
        return match.deadline

    return funnel.run(match_id, body, now=now)
