"""``games.core.for_apps.current_table``: the table a person sits at that is not over, what an
app names when it refuses them for it (the queues' ``queue_seated``, issue 35)."""

from __future__ import annotations

import pytest

from games.core import actions, for_apps
from games.core.models import Seat

pytestmark = pytest.mark.django_db


@pytest.fixture
def users(django_user_model):
    def make(*names):
        return [django_user_model.objects.create_user(username=n, password=None) for n in names]
    return make


def test_a_match_being_played_comes_before_an_open_table_and_a_finished_one_is_none(users):
    alice, bob, carol = users("alice", "bob", "carol")
    assert for_apps.current_table(alice.pk) is None
    played = for_apps.create_table(user=alice, players=2, rules={}, rated=False)
    for_apps.join_table(user=bob, match_id=played.pk)
    waiting = actions.create_table(user=alice, players=2, rules={}, rated=False)  # newer, open
    assert for_apps.current_table(alice.pk) == {
        "match_id": played.pk, "url": f"/table/{played.pk}/", "playing": True}
    actions.resign(user=bob, match_id=played.pk)
    assert for_apps.current_table(alice.pk) == {
        "match_id": waiting.pk, "url": f"/table/{waiting.pk}/", "playing": False}
    assert for_apps.current_table(bob.pk) is None
    assert for_apps.current_table(carol.pk) is None


def test_a_seat_the_computer_took_over_is_no_longer_the_persons(users):
    alice, bob, carol, dan = users("alice", "bob", "carol", "dan")
    match = for_apps.create_table(user=alice, players=4, rules={}, rated=False)
    for person in (bob, carol, dan):
        for_apps.join_table(user=person, match_id=match.pk)
    assert for_apps.current_table(dan.pk)["match_id"] == match.pk
    Seat.objects.filter(match=match, user=dan).update(absent=True)
    assert for_apps.current_table(dan.pk) is None
