"""``match_started`` (games/core/signals.py): sent once, from the one place a match starts
(``games.core.actions.seating.start``), with the people seated in seat order."""

from __future__ import annotations

import pytest

from games.core import actions
from games.core.signals import match_started
from tests.core.helpers import seated_match

pytestmark = [pytest.mark.django_db]


def test_a_match_start_is_told_once_with_its_people(make_player):
    heard = []

    def listen(sender, match, people, **kwargs):
        heard.append((match.pk, match.status, match.rated, people))

    match_started.connect(listen, dispatch_uid="test.match_started")
    try:
        alice, bob = make_player("alice").user, make_player("bob").user
        table = actions.create_table(user=alice, players=2, rules={"target": 61}, rated=True)
        assert heard == []  # open, not started
        actions.join_table(user=bob, match_id=table.pk)
        assert heard == [(table.pk, "playing", True, [alice.pk, bob.pk])]
        seated_match([alice, bob])
        assert len(heard) == 2
    finally:
        match_started.disconnect(dispatch_uid="test.match_started")
