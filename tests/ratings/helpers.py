"""Helpers of the ratings tests: rated matches through the real ``games.core.actions``."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from typing import Any

from games.core import actions
from games.core.models import Match, Seat


def rated_match(users: Sequence[Any], *, rated: bool = True, played: bool = True) -> Match:
    """A started match created by ``users[0]`` and joined by the others in order; with
    ``played``, every seat has played one card of the first deal (so that a rated match that
    ends is rated, not aborted early)."""
    from tests.core.helpers import play_turn

    match = actions.create_table(user=users[0], players=len(users), rules={}, rated=rated)
    for user in users[1:]:
        actions.join_table(user=user, match_id=match.pk)
    match.refresh_from_db()
    if played:
        for _ in users:
            play_turn(match)
        match.refresh_from_db()
    return match


def seat_of(match: Match, user: Any) -> int:
    """``user``'s seat number at ``match``."""
    return Seat.objects.get(match=match, user=user).seat


def lose(match: Match, user: Any) -> Match:
    """``user``'s side resigns (both partners at a table for four); the match is finished."""
    actions.resign(user=user, match_id=match.pk)
    if match.players == 4:
        partner_seat = (seat_of(match, user) + 2) % 4
        partner = Seat.objects.get(match=match, seat=partner_seat).user
        actions.resign(user=partner, match_id=match.pk)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    return match


def leave_seat(match, user, bot="greedy"):
    """``user``'s seat left: absent, and taken over by the computer (``bot``)."""
    Seat.objects.filter(match=match, user=user).update(absent=True, bot=bot)
    Match.objects.filter(pk=match.pk).update(seating_token=uuid.uuid4())
