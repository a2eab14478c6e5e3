"""Rating finished matches through the real actions: what is rated, how, exactly once, voids."""

from __future__ import annotations

import threading
import uuid
from datetime import timedelta

import pytest
from django.db import connection, transaction
from django.utils import timezone

from games.core import actions
from games.core.errors import GameError
from games.core.models import Match, Seat
from games.core.state import reads
from games.core.signals import match_finished
from games.ratings import glicko2
from games.ratings.glicko2 import NEW_PLAYER, Rating
from games.ratings.models import PlayerRating, RatedMatch, RatingChange
from games.ratings.rating import VoidRefused, rate_finished_match, void_match, win_chances
from tests.ratings.helpers import lose, rated_match, seat_of

pytestmark = pytest.mark.django_db


def rating_of(user, pool="1v1") -> PlayerRating:
    return PlayerRating.objects.get(user=user, pool=pool)


def set_rating(user, pool, rating, deviation, volatility=0.06, days_ago=0.0):
    PlayerRating.objects.create(
        user=user, pool=pool, rating=rating, deviation=deviation, volatility=volatility,
        matches=5, wins=3, losses=2,
        last_rated_at=timezone.now() - timedelta(days=days_ago),
    )


def test_a_resignation_is_a_loss_and_rates_both_players(users):
    alice, bob = users[:2]
    match = lose(rated_match([alice, bob]), bob)
    expected = glicko2.rate_match(NEW_PLAYER, NEW_PLAYER, 1.0, days_since_last=0)
    winner, loser = rating_of(alice), rating_of(bob)
    assert winner.rating == pytest.approx(expected.rating)
    assert winner.deviation == pytest.approx(expected.deviation)
    assert loser.rating == pytest.approx(3000 - expected.rating)  # symmetric from equal ratings
    assert (winner.matches, winner.wins, winner.losses) == (1, 1, 0)
    assert (loser.matches, loser.wins, loser.losses) == (1, 0, 1)
    assert winner.last_rated_at == match.finished_at
    record = RatedMatch.objects.get(match=match)
    assert record.pool == "1v1"
    assert [(s["seat"], s["before"], s["score"]) for s in record.seats] == [
        (0, 1500.0, 1.0), (1, 1500.0, 0.0)
    ]
    change = RatingChange.objects.get(match=match, user=alice)
    assert change.rating_before == 1500.0
    assert change.change == pytest.approx(expected.rating - 1500.0)
    assert change.deviation_before == 500.0
    assert winner.provisional and winner.deviation >= 110


def test_a_claim_is_a_loss_for_the_absent_player(users):
    alice, bob = users[:2]
    match = rated_match([alice, bob])
    Seat.objects.filter(match=match, user=bob).update(absent=True)
    Match.objects.filter(pk=match.pk).update(seating_token=uuid.uuid4())
    actions.claim_win(user=alice, match_id=match.pk)
    assert rating_of(alice).rating > 1500 > rating_of(bob).rating
    assert RatingChange.objects.get(match=match, user=bob).score == 0.0


def test_the_ratings_before_the_match_decide_the_change(users):
    alice, bob = users[:2]
    set_rating(alice, "1v1", 1800, 60, days_ago=40)
    set_rating(bob, "1v1", 1500, 80, days_ago=2)
    stored_alice = rating_of(alice)
    bob_now = rating_of(bob).current(timezone.now())
    lose(rated_match([alice, bob]), alice)
    # The upset: alice's deviation is widened for her 40 idle days first.
    expected = glicko2.rate_match(
        stored_alice.glicko, bob_now, 0.0, days_since_last=40
    )
    after = rating_of(alice)
    assert after.rating == pytest.approx(expected.rating, abs=0.01)
    change = RatingChange.objects.get(user=alice)
    assert change.deviation_before == pytest.approx(
        glicko2.cap(glicko2.widen(stored_alice.glicko, 40)).deviation, abs=0.01
    )
    assert change.deviation_before > 60
    assert (after.matches, after.wins, after.losses) == (6, 3, 3)


def test_partnership_rates_each_player_against_the_composite_opponent(users):
    alice, bob, carol, dave = users
    ratings = {alice: (1700, 60), bob: (1400, 70), carol: (1600, 80), dave: (1500, 90)}
    for user, (rating, deviation) in ratings.items():
        set_rating(user, "partnership", rating, deviation)
    match = rated_match(users)
    by_seat = {s.seat: s.user for s in match.seats.select_related("user")}
    now = timezone.now()
    current = {
        seat: PlayerRating.objects.get(user=user, pool="partnership").current(now)
        for seat, user in by_seat.items()
    }
    lose(match, by_seat[1])  # side 1 (seats 1 and 3) resigns
    for seat, user in by_seat.items():
        opponents = [current[s] for s in by_seat if s % 2 != seat % 2]
        composite = glicko2.composite_opponent(current[seat], current[(seat + 2) % 4], opponents)
        stored = Rating(*ratings[user], 0.06)
        expected = glicko2.rate_match(stored, composite, 1.0 if seat % 2 == 0 else 0.0,
                                      days_since_last=0)
        got = PlayerRating.objects.get(user=user, pool="partnership")
        assert got.rating == pytest.approx(expected.rating, abs=0.01), user
    assert not PlayerRating.objects.filter(pool="1v1").exists()
    assert RatedMatch.objects.get(match=match).pool == "partnership"


def test_casual_and_computer_matches_are_not_rated(users):
    alice, bob = users[:2]
    lose(rated_match([alice, bob], rated=False), bob)
    computer = actions.create_table(
        user=alice, players=2, rules={}, rated=False, bots={1: "random"}
    )
    actions.resign(user=alice, match_id=computer.pk)
    with pytest.raises(GameError):
        actions.create_table(user=alice, players=2, rules={}, rated=True, bots={1: "random"})
    assert not RatedMatch.objects.exists()
    assert not PlayerRating.objects.exists()
    # A computer seat is refused again by the rating itself, even if the row says rated.
    Match.objects.filter(pk=computer.pk).update(rated=True)
    computer.refresh_from_db()
    assert rate_finished_match(computer, 1) is None
    assert not RatedMatch.objects.exists()


def test_an_abort_is_not_rated(users):
    alice, bob = users[:2]
    match = rated_match([alice, bob], played=False)
    actions.abort_match(user=alice, match_id=match.pk)
    match.refresh_from_db()
    assert match.result == "abort" and match.winner_side is None
    assert not RatedMatch.objects.exists()
    assert not PlayerRating.objects.exists()
    assert win_chances(match) is None


def test_a_match_decided_away_from_the_table_is_not_rated(users):
    # A tournament forfeit or withdrawal ended it (``end_by_decision``): it was not played out.
    alice, bob = users[:2]
    match = rated_match([alice, bob])
    actions.end_by_decision(match_id=match.pk, winner=1)
    match.refresh_from_db()
    assert match.result == "decided" and match.winner_side == 1
    assert not RatedMatch.objects.exists()
    assert not PlayerRating.objects.exists()


def test_a_second_finish_rates_nothing(users):
    alice, bob = users[:2]
    match = lose(rated_match([alice, bob]), bob)
    before = list(PlayerRating.objects.order_by("pk").values())
    match_finished.send(sender=Match, match=match, winner=0, result="resign")
    assert rate_finished_match(match, 0) is None
    with pytest.raises(GameError):
        actions.resign(user=alice, match_id=match.pk)
    assert list(PlayerRating.objects.order_by("pk").values()) == before
    assert RatingChange.objects.count() == 2


def test_win_chances_favour_the_stronger_side(users):
    alice, bob = users[:2]
    set_rating(alice, "1v1", 1900, 50)
    set_rating(bob, "1v1", 1500, 50)
    match = rated_match([alice, bob])
    chances = win_chances(match)
    assert chances[0].names == ["alice"] and chances[1].names == ["bob"]
    assert chances[0].chance == pytest.approx(
        glicko2.expected_score(rating_of(alice).current(timezone.now()),
                               rating_of(bob).current(timezone.now()))
    )
    assert chances[0].percent + chances[1].percent == 100
    assert chances[0].chance > 0.85
    lose(match, alice)
    # After the match: still the chances from before it (the record's "before").
    assert win_chances(match)[0].chance == pytest.approx(chances[0].chance, abs=0.001)
    assert win_chances(rated_match([users[2], users[3]], rated=False)) is None


def test_provisional_ratings_are_shown_with_a_question_mark(users):
    from games.ratings.rating import shown

    assert shown(1523.4, 110) == "1523?"
    assert shown(1523.6, 109.9) == "1524"


# --- Void ------------------------------------------------------------------------------------


def test_void_puts_every_row_back_and_a_second_void_changes_nothing(users, admin_user):
    alice, bob = users[:2]
    set_rating(alice, "1v1", 1650, 70, days_ago=3)
    before = {u.pk: PlayerRating.objects.filter(user=u).values().first() for u in (alice, bob)}
    match = lose(rated_match([alice, bob]), bob)
    assert rating_of(alice).rating != 1650
    record = void_match(match.pk, by=admin_user)
    assert record.voided_at is not None and record.voided_by == admin_user
    assert PlayerRating.objects.filter(user=alice).values().first() == before[alice.pk]
    bob_row = rating_of(bob)
    assert (bob_row.rating, bob_row.deviation, bob_row.matches, bob_row.last_rated_at) == (
        1500.0, 500.0, 0, None
    )
    assert set(RatingChange.objects.values_list("voided", flat=True)) == {True}
    snapshot = list(PlayerRating.objects.order_by("pk").values())
    with pytest.raises(VoidRefused, match="void already"):
        void_match(match.pk, by=admin_user)
    assert list(PlayerRating.objects.order_by("pk").values()) == snapshot
    with pytest.raises(VoidRefused, match="not rated"):
        void_match(999_999)


def test_void_is_refused_while_later_rated_matches_exist(users):
    alice, bob, carol = users[:3]
    first = lose(rated_match([alice, bob]), bob)
    second = lose(rated_match([carol, alice]), carol)
    snapshot = list(PlayerRating.objects.order_by("pk").values())
    with pytest.raises(VoidRefused) as refused:
        void_match(first.pk)
    assert str(second.pk) in refused.value.message
    assert list(PlayerRating.objects.order_by("pk").values()) == snapshot
    # Newest first works.
    void_match(second.pk)
    void_match(first.pk)
    assert rating_of(alice).matches == 0 and rating_of(alice).rating == 1500.0


# --- Exactly once under concurrency (PostgreSQL) ---------------------------------------------


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks need PostgreSQL")
def test_two_processes_finishing_one_match_rate_it_once(django_user_model):
    """Two threads (two connections) send ``match_finished`` for one match at once; the second
    insert of the record waits on the first transaction, then fails: one rating."""
    alice, bob = (django_user_model.objects.create_user(username=n, password=None)
                  for n in ("alice", "bob"))
    match = lose(rated_match([alice, bob]), bob)
    RatingChange.objects.all().delete()
    RatedMatch.objects.all().delete()
    PlayerRating.objects.all().delete()
    barrier = threading.Barrier(2)
    results, errors = [], []

    def finish() -> None:
        try:
            with transaction.atomic():
                row = Match.objects.get(pk=match.pk)
                barrier.wait(timeout=10)
                results.append(rate_finished_match(row, 0))
        except Exception as error:  # noqa: BLE001 - reported below
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=finish) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert not errors
    assert sorted(result is None for result in results) == [False, True]
    assert RatedMatch.objects.count() == 1
    assert RatingChange.objects.count() == 2
    assert rating_of(alice).matches == 1 and rating_of(bob).matches == 1


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks need PostgreSQL")
def test_two_resignations_at_once_rate_once(django_user_model):
    alice, bob = (django_user_model.objects.create_user(username=n, password=None)
                  for n in ("alice", "bob"))
    match = rated_match([alice, bob])
    barrier = threading.Barrier(2)
    outcomes = []

    def resign(user) -> None:
        try:
            barrier.wait(timeout=10)
            outcomes.append(actions.resign(user=user, match_id=match.pk))
        except GameError as error:
            outcomes.append(error.code)
        finally:
            connection.close()

    threads = [threading.Thread(target=resign, args=(user,)) for user in (alice, bob)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert sorted(outcomes) == ["match_over", "resigned"]
    assert RatedMatch.objects.count() == 1
    assert RatingChange.objects.count() == 2
    assert PlayerRating.objects.get(user=alice).matches == 1


def _played_out_by_the_clock(match: Match, first_by=None, stays=None) -> Match:
    """Play ``match`` to its end: ``first_by`` (a user) makes their first play by hand if given,
    then every play is the clock's (each deadline passed: a timeout, then the computer standing
    in for an absent person), except that ``stays`` (a user) plays every turn of theirs by hand."""
    from tests.core.helpers import play_turn, users_by_seat

    seats = users_by_seat(match)
    by_hand = {user for user in (stays, first_by) if user is not None}
    for _ in range(3000):
        match.refresh_from_db()
        if match.status == Match.Status.FINISHED:
            return match
        turn = reads.table_state(match_id=match.pk, user=None)["round"]
        if turn and seats[turn["turn"]] in by_hand:
            play_turn(match)
            if seats[turn["turn"]] == first_by:
                by_hand.discard(first_by)
            continue
        actions.act_on_deadline(match_id=match.pk, now=match.deadline + timedelta(seconds=1))
    raise AssertionError("the match did not end")


def test_a_match_only_the_computer_and_the_clock_played_is_not_rated(users):
    """A rated table for four whose people all closed the tab before the first play: not
    played out by the stand-ins, it is aborted when the clock runs out on the first of them
    (issue 35), and no rating moves."""
    match = actions.create_table(user=users[0], players=4, rules={"target": 61}, rated=True)
    for user in users[1:]:
        actions.join_table(user=user, match_id=match.pk)
    match = _played_out_by_the_clock(match)
    assert match.winner_side is None and match.result == "abort"
    assert not match.events.filter(kind="play").exists()
    assert not RatedMatch.objects.exists()
    assert not PlayerRating.objects.exists()


def test_a_match_a_person_played_in_is_rated_however_it_went_on(users):
    alice, bob = users[:2]
    match = actions.create_table(user=alice, players=2, rules={"target": 61}, rated=True)
    actions.join_table(user=bob, match_id=match.pk)
    # Alice plays once and leaves (the clock plays for her); bob stays to the end.
    match = _played_out_by_the_clock(match, first_by=alice, stays=bob)
    assert match.result == "target"
    assert RatedMatch.objects.filter(match=match).exists()
    # She left (absent at the end): a loss for her, whoever reached the target.
    assert RatingChange.objects.get(match=match, user=alice).score == 0.0
