"""Requests for one table arriving at the same moment: the row lock lets exactly one through.

Each request runs in its own thread with its own database connection, as two websocket
connections' requests would; a barrier releases them together. Run against PostgreSQL in CI
(``DATABASE_URL``), where ``select_for_update`` really locks the row.
"""

from __future__ import annotations


import pytest

from games.core import actions
from games.core.errors import GameError
from games.core.models import Event, Match, Seat
from games.core.state import reads
from tests.core.helpers import at_once, seated_match, users_by_seat

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.live]


@pytest.mark.parametrize("attempt", range(5))
def test_two_plays_at_once_exactly_one_applied(make_player, attempt):
    users = [make_player(f"p{attempt}{name}").user for name in ("a", "b")]
    match = seated_match(users)
    by_seat = users_by_seat(match)
    turn = reads.table_state(match_id=match.pk, user=None)["round"]["turn"]
    mover, other = by_seat[turn], by_seat[1 - turn]
    hand = reads.table_state(match_id=match.pk, user=mover)["round"]["hand"]
    other_hand = reads.table_state(match_id=match.pk, user=other)["round"]["hand"]
    seq = match.seq
    # The mover from two tabs with two different cards, and the other seat out of turn.
    results = at_once([
        lambda: actions.play_card(user=mover, match_id=match.pk, card=hand[0], seq=seq),
        lambda: actions.play_card(user=mover, match_id=match.pk, card=hand[1], seq=seq),
        lambda: actions.play_card(user=other, match_id=match.pk, card=other_hand[0], seq=seq),
    ])
    applied = [r for r in results if isinstance(r, int)]
    assert applied == [seq + 1]
    codes = sorted(r.code for r in results if isinstance(r, GameError))
    assert codes in (["not_your_turn", "stale"], ["stale", "stale"])
    match.refresh_from_db()
    assert match.seq == seq + 1
    plays = list(Event.objects.filter(match=match, kind="play"))
    assert len(plays) == 1 and plays[0].payload["card"] in hand[:2]


@pytest.mark.parametrize("attempt", range(3))
def test_two_joins_for_the_last_seat(make_player, attempt):
    users = [make_player(f"j{attempt}{name}").user for name in ("a", "b", "c")]
    match = actions.create_table(user=users[0], players=2, rules={}, rated=False)
    results = at_once([
        lambda: actions.join_table(user=users[1], match_id=match.pk),
        lambda: actions.join_table(user=users[2], match_id=match.pk),
    ])
    assert [r for r in results if isinstance(r, int)] == [1]
    assert [r.code for r in results if isinstance(r, GameError)] == ["table_full"]
    match.refresh_from_db()
    assert match.status == Match.Status.PLAYING
    assert Seat.objects.filter(match=match).count() == 2
    assert Event.objects.filter(match=match, kind="deal").count() == 1
