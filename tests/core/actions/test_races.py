"""Clicks that race: two accepts of one challenge, an accept racing a cancel, both players'
last rematch asks and a double click at once. Each call runs in its own thread with its own
connection, released together (tests/core/actions/test_concurrency.py); on PostgreSQL
(``DATABASE_URL``) the row locks really lock."""

from __future__ import annotations

import pytest

from games.core import actions
from games.core.errors import GameError
from games.core.models import Challenge, Match
from tests.core.helpers import seated_match
from tests.core.helpers import at_once

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.live]


@pytest.mark.parametrize("attempt", range(3))
def test_two_accepts_at_once_open_one_table(make_player, attempt):
    alice, bob = make_player(f"ra{attempt}").user, make_player(f"rb{attempt}").user
    made = actions.create_challenge(user=alice, username=bob.username, rules={}, rated=False,
                                    move_seconds=30)
    results = at_once([
        lambda: actions.accept_challenge(user=bob, challenge_id=made.pk),
        lambda: actions.accept_challenge(user=bob, challenge_id=made.pk),
        lambda: actions.cancel_challenge(user=alice, challenge_id=made.pk),
    ])
    errors = sorted(r.code for r in results if isinstance(r, GameError))
    assert errors == ["challenge_answered", "challenge_answered"]
    status = Challenge.objects.get().status
    assert Match.objects.count() == (1 if status == Challenge.Status.ACCEPTED else 0)


@pytest.mark.parametrize("attempt", range(3))
def test_the_last_rematch_asks_at_once_start_one_table(make_player, attempt):
    alice, bob = make_player(f"sa{attempt}").user, make_player(f"sb{attempt}").user
    old = seated_match([alice, bob])
    actions.resign(user=bob, match_id=old.pk)
    results = at_once([
        lambda: actions.ask_rematch(user=alice, match_id=old.pk),
        lambda: actions.ask_rematch(user=alice, match_id=old.pk),
        lambda: actions.ask_rematch(user=bob, match_id=old.pk),
        lambda: actions.ask_rematch(user=bob, match_id=old.pk),
    ])
    assert not any(isinstance(r, GameError) for r in results)
    assert Match.objects.count() == 2
    new = Match.objects.exclude(pk=old.pk).get()
    assert {r.pk for r in results if r is not None} == {new.pk}
