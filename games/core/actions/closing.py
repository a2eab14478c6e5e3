"""What the live core ends when a player's account closes (``accounts.closing.account_closing``,
connected in ``games/core/apps.py``): accounts sits below the core, so the core answers its
signal.

- a match the player is playing (a seat of theirs the computer has not taken over): resigned at
  once for their side (:func:`~games.core.actions.endings.resign` with ``alone``: in a match of
  four the partner is not asked), so the other side wins, as after any resignation;
- a table waiting for players: the player leaves it (``leave_table``);
- a challenge waiting for its answer, sent or received: cancelled or declined;
- once closed, the seatings kept of its started matches are dropped (:func:`rename_seats_of`).

A seat the computer took over from the absent player stays the computer's: that match goes on.
"""

from __future__ import annotations

import uuid
from typing import Any

from django.db.models import Q
from django.utils import timezone

from games.core.actions.challenges import cancel_challenge, decline_challenge
from games.core.actions.endings import resign
from games.core.actions.seating import leave_table
from games.core.errors import GameError
from games.core.models import Challenge, Match, Seat


def end_play_of(sender: Any, user: Any, **kwargs: Any) -> None:
    """``account_closing``'s receiver: resign ``user``'s running matches, leave their open
    tables, answer their pending challenges (see the module). A match that ended meanwhile
    (``match_over``, ``cannot_leave``, an answered challenge) is passed over."""
    seats = (
        Seat.objects.filter(user_id=user.pk, absent=False)
        .exclude(match__status=Match.Status.FINISHED)
        .values_list("match_id", "match__status")
    )
    for match_id, status in list(seats):
        try:
            if status == Match.Status.PLAYING:
                resign(user=user, match_id=match_id, alone=True)
            else:
                leave_table(user=user, match_id=match_id)
        except GameError:
            continue
    now = timezone.now()
    pending = Challenge.objects.filter(
        Q(challenger=user) | Q(challenged=user), status=Challenge.Status.PENDING
    ).values_list("pk", "challenger_id")
    for challenge_id, challenger_id in list(pending):
        try:
            if challenger_id == user.pk:
                cancel_challenge(user=user, challenge_id=challenge_id, now=now)
            else:
                decline_challenge(user=user, challenge_id=challenge_id, now=now)
        except GameError:
            continue


def rename_seats_of(sender: Any, user: Any, **kwargs: Any) -> None:
    """``account_closed``'s receiver: every started match ``user`` sat at gets a new
    ``Match.seating_token``, so the seatings kept per process (``games.core.state.cache``) are
    read again and name the seat "Closed account" (a seat change does the same)."""
    Match.objects.filter(seats__user_id=user.pk).exclude(status=Match.Status.OPEN).update(
        seating_token=uuid.uuid4()
    )
