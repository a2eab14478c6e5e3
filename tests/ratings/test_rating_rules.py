"""The rules that make a rating mean something (the rules page, ``docs/protocol.md`` "Rated
matches"): an early ending is aborted, a leaver never gains, a stayer is never punished, and
every unrated ending says why (record, history, table page)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone
from django.utils import translation

from games.core import actions
from games.core.models import Event, Seat
from games.core.state import reads
from games.core.state.records import match_record
from games.ratings.models import NotRated, PlayerRating, RatedMatch, RatingChange
from games.ratings.rating import NOT_RATED_MESSAGES, not_rated_reason
from tests.core.helpers import play_turn, users_by_seat
from tests.ratings.helpers import leave_seat, lose, rated_match

pytestmark = pytest.mark.django_db
# ``users``: alice, bob, carol and dave (tests/ratings/conftest.py).


def test_a_resignation_after_one_play_is_aborted_and_rates_nobody(users, client):
    alice, bob = users[:2]
    match = rated_match([alice, bob], played=False)
    play_turn(match)
    actions.resign(user=bob, match_id=match.pk)
    match.refresh_from_db()
    assert match.result == "abort" and match.winner_side is None
    end = Event.objects.get(match=match, kind="match_end").payload
    assert end["reason"] == "abort" and end["early"] is True
    assert not RatedMatch.objects.exists() and not PlayerRating.objects.exists()
    assert not_rated_reason(match) == "aborted_early"
    headers = match_record(match)["headers"]
    assert headers["termination"] == "abort" and headers["not_rated"] == "aborted_early"
    assert "ratings_before" not in headers
    client.force_login(alice)
    sentence = str(NOT_RATED_MESSAGES["aborted_early"])
    assert sentence in client.get(reverse("table", kwargs={"match_id": match.pk})).content.decode()
    history = client.get(reverse("match_history", kwargs={"username": "alice"})).content.decode()
    assert sentence in history


def test_the_clock_running_out_on_a_first_card_aborts_at_once_and_rates_nobody(users):
    """Issue 35: the clock does not play a person's first card of the first deal at a rated
    table; the match is aborted there and then, and everyone reads why."""
    alice, bob = users[:2]
    match = rated_match([alice, bob], played=False)
    play_turn(match)  # the first to move plays a card themselves
    match.refresh_from_db()
    second = 1 - Event.objects.get(match=match, kind="play").seat
    actions.act_on_deadline(match_id=match.pk, now=match.deadline + timedelta(seconds=1))
    match.refresh_from_db()
    assert match.result == "abort" and match.winner_side is None
    assert Event.objects.filter(match=match, kind="play").count() == 1
    end = Event.objects.get(match=match, kind="match_end").payload
    assert end["early"] is True and end["missed"] == [second]
    assert not RatedMatch.objects.exists()
    assert not_rated_reason(match) == "aborted_early"
    for user in (alice, bob, None):
        state = reads.table_state(match_id=match.pk, user=user)
        assert state["result"]["not_rated"] == "aborted_early"
        assert state["extras"]["ratings"]["not_rated"] == "aborted_early"
    headers = match_record(match)["headers"]
    assert headers["termination"] == "abort" and headers["not_rated"] == "aborted_early"


def test_a_card_the_clock_played_does_not_count_at_a_tournament_table(users):
    alice, bob = users[:2]
    match = actions.create_table(user=alice, players=2, rules={}, rated=True, early_abort=False)
    actions.join_table(user=bob, match_id=match.pk)
    match.refresh_from_db()
    play_turn(match)  # the first to move plays a card themselves
    match.refresh_from_db()
    actions.act_on_deadline(match_id=match.pk, now=match.deadline + timedelta(seconds=1))
    first = Event.objects.filter(match=match, kind="play").order_by("seq").first().seat
    player = alice if Seat.objects.get(match=match, user=alice).seat == first else bob
    actions.resign(user=player, match_id=match.pk)
    match.refresh_from_db()
    assert match.result == "resign"
    assert not RatedMatch.objects.exists()
    assert not_rated_reason(match) == "ended_early"


def test_once_everyone_played_a_first_deal_card_a_resignation_is_rated(users):
    alice, bob = users[:2]
    match = lose(rated_match([alice, bob]), bob)
    assert match.result == "resign" and match.winner_side is not None
    assert RatedMatch.objects.filter(match=match).exists()
    assert not_rated_reason(match) is None
    assert "not_rated" not in match_record(match)["headers"]


def test_a_tournament_table_keeps_its_result_but_is_not_rated(users):
    alice, bob = users[:2]
    match = actions.create_table(user=alice, players=2, rules={}, rated=True, early_abort=False)
    actions.join_table(user=bob, match_id=match.pk)
    match.refresh_from_db()
    play_turn(match)
    actions.resign(user=bob, match_id=match.pk)
    match.refresh_from_db()
    assert match.result == "resign" and match.winner_side == 0
    assert not RatedMatch.objects.exists()
    assert not_rated_reason(match) == "ended_early"
    assert match_record(match)["headers"]["not_rated"] == "ended_early"


def test_a_leaver_loses_even_when_their_side_wins_and_their_partner_is_not_rated(users):
    for user in users:
        PlayerRating.objects.create(user=user, pool="partnership", rating=1500, deviation=80,
                                    last_rated_at=timezone.now())
    match = rated_match(users)
    by_seat = users_by_seat(match)
    leaver, partner, opponents = by_seat[0], by_seat[2], [by_seat[1], by_seat[3]]
    leave_seat(match, leaver)
    lose(match, opponents[0])  # both opponents resign: the leaver's side wins
    match.refresh_from_db()
    assert match.result == "resign" and match.winner_side == 0
    change = RatingChange.objects.get(match=match, user=leaver)
    assert change.score == 0.0 and change.rating_after < change.rating_before == 1500
    assert not RatingChange.objects.filter(match=match, user=partner).exists()
    assert NotRated.objects.get(match=match, user=partner).reason == "partner_left"
    assert PlayerRating.objects.get(user=partner).matches == 0
    scores = dict(RatingChange.objects.filter(match=match, user__in=opponents)
                  .values_list("user_id", "score"))
    assert scores == {opponents[0].pk: 0.0, opponents[1].pk: 0.0}
    headers = match_record(match)["headers"]
    assert headers["ratings_before"][2] is None and headers["ratings_before"][0] == 1500
    assert not_rated_reason(match) is None
    assert not_rated_reason(match, partner) == "partner_left"


def test_an_abandoned_table_rates_only_its_leavers_as_lost(users):
    match = rated_match(users)
    actions.mark_absent(match_id=match.pk, now=timezone.now() + timedelta(days=1))
    match.refresh_from_db()
    assert match.result == "abandoned" and match.winner_side is None
    scores = dict(RatingChange.objects.filter(match=match).values_list("user_id", "score"))
    assert scores == {user.pk: 0.0 for user in users}


def test_a_table_abandoned_before_everyone_played_rates_nobody(users):
    match = rated_match(users, played=False)
    actions.mark_absent(match_id=match.pk, now=timezone.now() + timedelta(days=1))
    match.refresh_from_db()
    assert match.result == "abandoned"
    assert not RatedMatch.objects.exists()
    assert match_record(match)["headers"]["not_rated"] == "abandoned"


def test_a_manual_abort_says_so(users):
    match = rated_match(users[:2], played=False)
    actions.abort_match(user=users[0], match_id=match.pk)
    match.refresh_from_db()
    assert match_record(match)["headers"]["not_rated"] == "aborted"


def test_a_casual_match_has_no_reason(users):
    match = lose(rated_match(users[:2], rated=False, played=False), users[1])
    assert not_rated_reason(match) is None
    assert "not_rated" not in match_record(match)["headers"]


@pytest.mark.parametrize("code", sorted(NOT_RATED_MESSAGES))
def test_every_reason_reads_in_arabic(code):
    with translation.override("ar"):
        arabic = str(NOT_RATED_MESSAGES[code])
    with translation.override("en"):
        english = str(NOT_RATED_MESSAGES[code])
    assert arabic != english


def test_the_rules_page_states_the_rating_rules(client):
    html = client.get(reverse("rules")).content.decode()
    assert 'id="rated"' in html
    assert "is rated as having lost, even when their side won" in html
    assert "a player whose partner left is not rated" in html
