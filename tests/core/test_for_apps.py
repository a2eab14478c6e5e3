"""``games.core.for_apps.current_table``: the table a person sits at that is not over, what an
app names when it refuses them for it (the queues' ``queue_seated``, issue 35)."""

from __future__ import annotations

import pytest

from games.core import actions, for_apps
from games.core.models import Event, Seat, is_own_play

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


PAYLOADS = [
    ({"card": "7D"}, True),
    ({"card": "7D", "timeout": False}, True),
    ({"card": "7D", "timeout": True}, False),  # the clock's, on a time-out
    ({"card": "7D", "bot": "greedy"}, False),  # the computer's, standing in
    ({"card": "7D", "bot": "strong", "timeout": True}, False),
]


def test_an_own_play_is_one_definition_in_python_and_in_sql(users):
    """``for_apps.OWN_PLAY`` (the ratings' profile totals) picks out exactly the rows
    ``is_own_play`` (the core's ``first_deal_unplayed``) calls a person's own play."""
    alice, _bob = users("alice", "bob")
    match = for_apps.create_table(user=alice, players=2, rules={}, rated=False)
    events = [
        Event.objects.create(match=match, seq=1000 + n, kind=Event.Kind.PLAY, seat=0, payload=p)
        for n, (p, _own) in enumerate(PAYLOADS)
    ]
    deal = Event.objects.create(match=match, seq=2000, kind=Event.Kind.DEAL, payload={})
    assert [is_own_play(e.kind, e.payload) for e in events] == [own for _p, own in PAYLOADS]
    assert not is_own_play(deal.kind, deal.payload)
    found = set(Event.objects.filter(for_apps.OWN_PLAY, match=match).values_list("pk", flat=True))
    assert found == {e.pk for e, (_p, own) in zip(events, PAYLOADS) if own}
