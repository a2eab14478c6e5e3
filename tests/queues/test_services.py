"""The queues' services (games/queues/services.py): join, leave, waves, no-shows, partners.

Every time is injected (``now``): a wave and the no-show check are called directly, never
waited for."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.core import actions
from games.core.models import Match, Seat
from games.queues import news, services
from games.queues.errors import Code, QueueError
from games.queues.models import Entry, Invitation, QueueTable, Record
from tests.queues.helpers import rate, users
from tests.core.helpers import play_turn

pytestmark = pytest.mark.django_db

T0 = timezone.now().replace(microsecond=0)


def at(seconds: float):
    return T0 + timedelta(seconds=seconds)


def came(match_id: int, user, when) -> None:
    """``user`` opened the table at ``when`` (what the table socket's connect writes)."""
    Seat.objects.filter(match_id=match_id, user=user).update(last_seen=when)


def test_joining_twice_keeps_one_entry_and_another_queue_moves_it():
    (a,) = users("a")
    first = services.join(user=a, players=2, move_seconds=10, now=at(0))
    again = services.join(user=a, players="2", move_seconds="10", now=at(5))
    assert again.pk == first.pk and again.joined_at == at(0)
    moved = services.join(user=a, players=4, move_seconds=30, now=at(6))
    assert Entry.objects.filter(user=a).count() == 1
    assert (moved.players, moved.move_seconds, moved.joined_at) == (4, 30, at(6))


@pytest.mark.parametrize("players, seconds", [(2, 15), (3, 10), ("x", 10), (2, None), (4, "60; drop")])
def test_a_forged_queue_is_refused_and_nothing_is_written(players, seconds):
    (a,) = users("a")
    with pytest.raises(QueueError) as error:
        services.join(user=a, players=players, move_seconds=seconds)
    assert error.value.code == Code.BAD_QUEUE
    assert not Entry.objects.exists()


def test_joining_while_seated_at_a_table_that_is_not_over_is_refused():
    a, b = users("a", "b")
    actions.create_table(user=a, players=2, rules={}, rated=False)
    with pytest.raises(QueueError) as error:
        services.join(user=a, players=2, move_seconds=10)
    assert error.value.code == Code.SEATED
    assert "finish it" in error.value.message
    services.join(user=b, players=2, move_seconds=10)  # b is free


def test_joining_while_playing_in_a_running_tournament_is_refused():
    from tests.tournaments.helpers import enter, event

    org, a, b, c = users("org", "a", "b", "c")
    t = event(org, "swiss", swiss_rounds=2)
    enter(t, [a, b, c])
    from games.tournaments import services as tournaments

    tournaments.start(user=org, tournament_id=t.pk)
    for player in (a, b, c):  # two seated, one with a bye: all three are in the event
        with pytest.raises(QueueError) as error:
            services.join(user=player, players=2, move_seconds=10)
        assert error.value.code in (Code.IN_TOURNAMENT, Code.SEATED)
    assert not Entry.objects.exists()


def test_leaving_when_not_in_a_queue_is_a_no_op():
    (a,) = users("a")
    assert services.leave(user=a) is False
    services.join(user=a, players=2, move_seconds=20)
    assert services.leave(user=a) is True
    assert not Entry.objects.exists()


def test_a_wave_seats_two_waiting_players_at_one_rated_table_and_tells_both(sent, django_capture_on_commit_callbacks):
    a, b = users("a", "b")
    services.join(user=a, players=2, move_seconds=20, now=at(0))
    services.join(user=b, players=2, move_seconds=20, now=at(1))
    with django_capture_on_commit_callbacks(execute=True):
        (match_id,) = services.wave(2, 20, now=at(2))
    match = Match.objects.get(pk=match_id)
    assert (match.players, match.rated, match.move_seconds, match.status) == (2, True, 20, Match.Status.PLAYING)
    assert set(match.seats.values_list("user_id", flat=True)) == {a.pk, b.pk}
    assert not Entry.objects.exists()
    paired = [(u, p) for u, k, p in sent if k == news.PAIRED]
    assert sorted(u for u, _ in paired) == sorted([a.pk, b.pk])
    assert all(p["match_id"] == match_id and p["url"] == f"/table/{match_id}/" for _, p in paired)
    # A second wave finds nobody: never two tables for one player.
    assert services.wave(2, 20, now=at(3)) == []
    assert Record.objects.get(user=a).last_opponents == [b.pk]


def test_far_ratings_wait_until_the_gap_has_widened():
    a, b = users("a", "b")
    rate(a, "1v1", 1500)
    rate(b, "1v1", 1800)
    services.join(user=a, players=2, move_seconds=10, now=at(0))
    services.join(user=b, players=2, move_seconds=10, now=at(0))
    assert services.wave(2, 10, now=at(5)) == []
    assert len(services.wave(2, 10, now=at(20))) == 1  # 300 apart: a gap of 300 after 20 s


def test_a_player_who_sat_at_another_table_leaves_the_queue_at_the_next_wave():
    a, b, c = users("a", "b", "c")
    services.join(user=a, players=2, move_seconds=10, now=at(0))
    services.join(user=b, players=2, move_seconds=10, now=at(0))
    actions.create_table(user=a, players=2, rules={}, rated=False)
    assert services.wave(2, 10, now=at(1)) == []
    assert list(Entry.objects.values_list("user_id", flat=True)) == [b.pk]
    del c


def test_a_no_show_is_called_off_cooled_down_and_the_other_requeued_at_the_front(sent, django_capture_on_commit_callbacks):
    a, b = users("a", "b")
    services.join(user=a, players=2, move_seconds=10, now=at(0))
    services.join(user=b, players=2, move_seconds=10, now=at(1))
    (match_id,) = services.wave(2, 10, now=at(3))
    came(match_id, a, at(5))
    # Not yet: 20 s to come.
    assert services.settle_tables(now=at(22))["settled"] == 0
    with django_capture_on_commit_callbacks(execute=True):
        assert services.settle_tables(now=at(23)) == {"settled": 1, "no_shows": 1, "requeued": 1}
    match = Match.objects.get(pk=match_id)
    assert match.status == Match.Status.FINISHED and match.result == Match.Result.ABORT
    record = Record.objects.get(user=b)
    assert record.no_shows == 1 and record.cooldown_until == at(23 + 60)
    entry = Entry.objects.get()
    assert (entry.user_id, entry.front, entry.joined_at) == (a.pk, True, at(0))
    assert [(u, k) for u, k, _ in sent if k == news.REQUEUED] == [(a.pk, news.REQUEUED)]
    with pytest.raises(QueueError) as error:
        services.join(user=b, players=2, move_seconds=10, now=at(30))
    assert error.value.code == Code.COOLDOWN and "54 seconds" in error.value.message
    # Once more: the cooldown doubles.
    services.join(user=b, players=2, move_seconds=10, now=at(90))
    (second,) = services.wave(2, 10, now=at(91))  # a and b alone: a rematch is allowed
    came(second, a, at(92))
    services.settle_tables(now=at(120))
    assert Record.objects.get(user=b).cooldown_until == at(120 + 120)
    assert services.settle_tables(now=at(200))["settled"] == 0  # each table settled once


def test_a_table_everyone_came_to_is_settled_and_left_alone():
    a, b = users("a", "b")
    for u in (a, b):
        services.join(user=u, players=2, move_seconds=10, now=at(0))
    (match_id,) = services.wave(2, 10, now=at(1))
    came(match_id, a, at(2))
    came(match_id, b, at(4))
    assert services.settle_tables(now=at(30)) == {"settled": 1, "no_shows": 0, "requeued": 0}
    assert Match.objects.get(pk=match_id).status == Match.Status.PLAYING
    assert not Record.objects.filter(no_shows__gt=0).exists()
    assert QueueTable.objects.get().settled


def test_no_immediate_rematch_while_a_third_player_waits():
    a, b, c = users("a", "b", "c")
    for u in (a, b):
        services.join(user=u, players=2, move_seconds=10, now=at(0))
    (first,) = services.wave(2, 10, now=at(1))
    actions.resign(user=a, match_id=first)
    for u in (a, b, c):
        services.join(user=u, players=2, move_seconds=10, now=at(10))
    # Their ratings moved apart with the result: the wave waits for the widest gap (40 s).
    (second,) = services.wave(2, 10, now=at(50))
    assert c.pk in set(Seat.objects.filter(match_id=second).values_list("user_id", flat=True))


def test_four_singles_get_one_table_with_balanced_sides():
    people = users("p1900", "p1500", "p1700", "p1300")
    for person, rating in zip(people, (1900, 1500, 1700, 1300)):
        rate(person, "partnership", rating)
        services.join(user=person, players=4, move_seconds=30, now=at(0))
    (match_id,) = services.wave(4, 30, now=at(40))
    seats = dict(Seat.objects.filter(match_id=match_id).values_list("user__username", "seat"))
    assert {seats["p1900"] % 2, seats["p1300"] % 2} == {0}  # seats 0 and 2: one side
    assert {seats["p1500"] % 2, seats["p1700"] % 2} == {1}
    assert Match.objects.get(pk=match_id).rated


def test_four_players_apart_after_their_first_match_are_seated_at_the_next_wave():
    # Issue 35: after a first rated match (1741 the winners, 1259 the losers) four players,
    # alone in the partnership queue, waited about 40 s for the gap between the sides the
    # gap rule made (the winners together) to widen. They fill a table: seated at once.
    people = users("w1", "w2", "l1", "l2")
    for k, (person, rating) in enumerate(zip(people, (1741, 1741, 1259, 1259))):
        rate(person, "partnership", rating)
        services.join(user=person, players=4, move_seconds=10, now=at(k))
    (match_id,) = services.wave(4, 10, now=at(4))
    seats = dict(Seat.objects.filter(match_id=match_id).values_list("user__username", "seat"))
    assert {seats["w1"] % 2, seats["l1"] % 2} in ({0}, {1})  # each winner with a loser
    assert seats["w1"] % 2 != seats["w2"] % 2


def test_an_invited_pair_and_two_players_alone_are_seated_at_the_next_wave():
    a, b, c, d = users("a", "b", "c", "d")
    for person, rating in zip((a, b, c, d), (1741, 1741, 1259, 1259)):
        rate(person, "partnership", rating)
    services.invite(user=a, username="b", move_seconds=10, now=at(0))
    services.accept(user=b, inviter="a", now=at(1))
    for u in (c, d):
        services.join(user=u, players=4, move_seconds=10, now=at(1))
    (match_id,) = services.wave(4, 10, now=at(2))
    seats = dict(Seat.objects.filter(match_id=match_id).values_list("user_id", "seat"))
    assert seats[a.pk] % 2 == seats[b.pk] % 2 != seats[c.pk] % 2 == seats[d.pk] % 2


def test_an_invited_partner_accepts_and_the_pair_sits_together(sent, django_capture_on_commit_callbacks):
    a, b, c, d = users("a", "b", "c", "d")
    with django_capture_on_commit_callbacks(execute=True):
        services.invite(user=a, username="B", move_seconds=10, now=at(0))
    assert [(u, k) for u, k, _ in sent] == [(b.pk, news.INVITE)]
    with pytest.raises(QueueError) as error:
        services.accept(user=c, inviter="a", now=at(1))
    assert error.value.code == Code.NOT_INVITED
    entry = services.accept(user=b, inviter="a", now=at(1))
    assert entry.members == (a.pk, b.pk) and entry.players == 4
    for u in (c, d):
        services.join(user=u, players=4, move_seconds=10, now=at(1))
    (match_id,) = services.wave(4, 10, now=at(2))
    seats = dict(Seat.objects.filter(match_id=match_id).values_list("user_id", "seat"))
    assert seats[a.pk] % 2 == seats[b.pk] % 2  # partners opposite, one side
    # Either partner leaving takes the pair out.
    services.leave(user=b)


def test_inviting_oneself_or_nobody_is_refused():
    (a,) = users("a")
    for name, code in (("a", Code.PARTNER_SELF), ("ghost", Code.NO_SUCH_PLAYER)):
        with pytest.raises(QueueError) as error:
            services.invite(user=a, username=name, move_seconds=10)
        assert error.value.code == code


def test_a_page_opened_while_the_table_waits_is_offered_it():
    a, b = users("a", "b")
    for u in (a, b):
        services.join(user=u, players=2, move_seconds=10, now=at(0))
    (match_id,) = services.wave(2, 10, now=at(1))
    assert news.pending_tables(a) == [(news.PAIRED, news.paired_payload(match_id, 2, 10))]
    came(match_id, a, at(2))
    came(match_id, b, at(2))
    services.settle_tables(now=at(30))
    assert news.pending_tables(a) == []


def test_the_counts_show_who_waits_and_who_plays():
    a, b, c = users("a", "b", "c")
    for u in (a, b, c):
        services.join(user=u, players=2, move_seconds=10, now=at(0))
    services.wave(2, 10, now=at(1))
    counts = {(q.players, q.move_seconds): (q.waiting, q.playing) for q in services.counts()}
    assert counts[(2, 10)] == (1, 2)
    assert counts[(4, 10)] == (0, 0)
    state = services.status(Entry.objects.get().user, now=at(9))
    assert state["mine"] == {"players": 2, "move_seconds": 10, "waited": 9, "partner": None}


def test_a_match_played_to_its_end_takes_a_no_show_off_and_a_called_off_one_does_not():
    a, b = users("a", "b")
    Record.objects.create(user=b, no_shows=2)
    for u in (a, b):
        services.join(user=u, players=2, move_seconds=10, now=at(0))
    (first,) = services.wave(2, 10, now=at(1))
    for _ in (a, b):  # each plays a card of the first deal: the match is played, not aborted early
        play_turn(Match.objects.get(pk=first))
    actions.resign(user=a, match_id=first)
    assert Record.objects.get(user=b).no_shows == 1
    assert not Record.objects.filter(user=a, no_shows__gt=0).exists()  # never below 0
    for u in (a, b):
        services.join(user=u, players=2, move_seconds=10, now=at(10))
    (second,) = services.wave(2, 10, now=at(50))
    actions.abort_match(user=a, match_id=second)
    assert Record.objects.get(user=b).no_shows == 1


def test_the_no_show_count_halves_for_each_quiet_day():
    day = services.QUIET_PERIOD
    assert services.decayed_no_shows(5, at(0), at(0) + day - timedelta(seconds=1)) == 5
    assert services.decayed_no_shows(5, at(0), at(0) + day) == 2
    assert services.decayed_no_shows(5, at(0), at(0) + 2 * day) == 1
    assert services.decayed_no_shows(5, None, at(0)) == 5
    # Three no-shows two days ago weigh as 0 now: the next one is a first one (a minute).
    a, b = users("a", "b")
    Record.objects.create(user=b, no_shows=3, last_no_show_at=at(0) - 2 * day)
    for u in (a, b):
        services.join(user=u, players=2, move_seconds=10, now=at(0))
    (match_id,) = services.wave(2, 10, now=at(1))
    came(match_id, a, at(2))
    services.settle_tables(now=at(30))
    record = Record.objects.get(user=b)
    assert (record.no_shows, record.last_no_show_at, record.cooldown_until) == (1, at(30), at(30 + 60))


def test_an_expired_invitation_is_refused_no_longer_shown_and_cleared():
    a, b = users("a", "b")
    services.invite(user=a, username="b", move_seconds=10, now=at(0))
    last = services.invitation_seconds() - 1
    assert services.status(b, now=at(last))["invitations"] == [{"inviter": "a", "move_seconds": 10}]
    with pytest.raises(QueueError) as error:
        services.accept(user=b, inviter="a", now=at(last + 1))
    assert error.value.code == Code.INVITATION_EXPIRED and "expired" in error.value.message
    assert not Entry.objects.exists() and Invitation.objects.count() == 1  # nothing changed
    state = services.status(b, now=at(last + 1))
    assert state["invitations"] == [] and services.status(a, now=at(last + 1))["invited"] is None
    assert services.expire_invitations(now=at(last)) == 0
    assert services.expire_invitations(now=at(last + 1)) == 1
    with pytest.raises(QueueError) as error:
        services.accept(user=b, inviter="a", now=at(last + 1))
    assert error.value.code == Code.NOT_INVITED


def test_an_invitation_is_accepted_until_it_expires():
    a, b = users("a", "b")
    services.invite(user=a, username="b", move_seconds=10, now=at(0))
    entry = services.accept(user=b, inviter="a", now=at(services.invitation_seconds() - 1))
    assert set(entry.members) == {a.pk, b.pk}
