"""The lobby's rules (issue 10) and who may watch (issue 12): games/core/state/lobby.py, games/core/state/watching.py,
the seating refusals, and the clock closing abandoned open tables. Time is injected, never slept.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation

from games.core import actions
from games.core.clock import clock
from games.core.models import Event, Match, Seat, Watcher, seat_display_names
from games.core.state import liveness, lobby, reads, watching
from games.ratings.models import PlayerRating
from tests.core.helpers import refused, seated_match

pytestmark = pytest.mark.django_db


@pytest.fixture
def users(make_player):
    return [make_player(name).user for name in ("alice", "bob", "carol", "dave", "erin")]


@pytest.fixture(autouse=True)
def _long_grace(settings):
    settings.BASRA_ABSENT_GRACE_SECONDS = 10_000
    settings.BASRA_CLOCK_OUTAGE_SECONDS = 10**9



def seating_of(match: Match) -> tuple:
    """What a refused join must leave as it was: the row's seq and status, the log, the seats."""
    match.refresh_from_db()
    return (
        match.seq, match.status,
        list(Event.objects.filter(match=match).values_list("seq", "kind")),
        list(Seat.objects.filter(match=match).values_list("seat", "user_id", "bot")),
    )


# --- seating: bad input changes nothing ------------------------------------------------------


def test_joining_a_taken_or_missing_seat_or_twice_is_refused_and_changes_nothing(users):
    match = actions.create_table(user=users[0], players=4, rules={}, rated=False)
    actions.join_table(user=users[1], match_id=match.pk, seat=1)
    before = seating_of(match)
    refused("seat_taken", actions.join_table, user=users[2], match_id=match.pk, seat=1)
    refused("seat_taken", actions.join_table, user=users[2], match_id=match.pk, seat=0)
    for bad in (4, -1, 99, True, "2", 2.0):
        refused("bad_seat", actions.join_table, user=users[2], match_id=match.pk, seat=bad)
    refused("already_seated", actions.join_table, user=users[1], match_id=match.pk)
    refused("already_seated", actions.join_table, user=users[1], match_id=match.pk, seat=3)
    assert seating_of(match) == before


def test_a_chosen_seat_is_the_one_taken(users):
    match = actions.create_table(user=users[0], players=4, rules={}, rated=False)
    # bob chooses to partner alice: seat 2, opposite her.
    assert actions.join_table(user=users[1], match_id=match.pk, seat=3) == 3
    assert actions.join_table(user=users[2], match_id=match.pk, seat=2) == 2
    assert dict(Seat.objects.filter(match=match).values_list("seat", "user__username")) == {
        0: "alice", 2: "carol", 3: "bob"}


def test_the_join_view_refuses_a_seat_out_of_range(users, client):
    match = actions.create_table(user=users[0], players=2, rules={}, rated=False)
    client.force_login(users[1])
    before = seating_of(match)
    for bad in ("2", "-1", "x"):
        response = client.post(reverse("table_join", args=[match.pk]), {"seat": bad}, follow=True)
        assert "That is not a seat of this table." in response.content.decode()
    assert seating_of(match) == before


# --- who may watch -----------------------------------------------------------------------------


def test_who_may_watch_is_chosen_at_creation_everyone_by_default(users):
    assert actions.create_table(user=users[0], players=2, rules={}, rated=False).watchers == (
        "everyone")
    match = actions.create_table(
        user=users[1], players=2, rules={}, rated=False, watchers="registered")
    assert Match.objects.get(pk=match.pk).watchers == "registered"
    count = Match.objects.count()
    refused("bad_watchers", actions.create_table, user=users[2], players=2, rules={},
            rated=False, watchers="friends")
    assert Match.objects.count() == count


@pytest.mark.parametrize(
    ("setting", "anonymous", "registered"),
    [("everyone", None, None), ("registered", "watch_login_required", None),
     ("nobody", "watch_nobody", "watch_nobody")],
)
def test_the_watching_rule_while_the_match_is_played(users, setting, anonymous, registered):
    match = actions.create_table(user=users[0], players=2, rules={}, rated=False, watchers=setting)
    # The waiting room is open to all: people must see a table to join it.
    reads.table_state(match_id=match.pk, user=None, watching_rule=True)
    actions.join_table(user=users[1], match_id=match.pk)
    for user, code in ((None, anonymous), (users[2], registered)):
        if code is None:
            state = reads.table_state(match_id=match.pk, user=user, watching_rule=True)
            assert state["you"] is None and state["round"]["hand"] == []  # never a hand
        else:
            refused(code, reads.table_state, match_id=match.pk, user=user, watching_rule=True)
    # The players always see their own table, with their own hand.
    mine = reads.table_state(match_id=match.pk, user=users[0], watching_rule=True)
    assert mine["you"] == 0 and len(mine["round"]["hand"]) == 4
    # Once over, the result is anyone's (as the replay shows it).
    actions.resign(user=users[0], match_id=match.pk)
    reads.table_state(match_id=match.pk, user=None, watching_rule=True)


def test_the_table_page_refuses_a_spectator_with_the_reason(users):
    match = seated_match([users[0], users[1]])
    Match.objects.filter(pk=match.pk).update(watchers="registered")
    anonymous = Client().get(reverse("table", args=[match.pk]))
    assert anonymous.status_code == 403
    page = anonymous.content.decode()
    assert "Only registered players may watch this table" in page and 'id="table-config"' not in page
    carol = Client()
    carol.force_login(users[2])
    assert carol.get(reverse("table", args=[match.pk])).status_code == 200
    Match.objects.filter(pk=match.pk).update(watchers="nobody")
    refused_page = carol.get(reverse("table", args=[match.pk]))
    assert refused_page.status_code == 403
    assert "do not allow anyone to watch" in refused_page.content.decode()
    alice = Client()
    alice.force_login(users[0])
    assert alice.get(reverse("table", args=[match.pk])).status_code == 200


def test_the_create_form_sets_who_may_watch(users, client):
    client.force_login(users[0])
    client.post(reverse("table_create"), {
        "players": 2, "target": 101, "mode": "casual", "move_seconds": "30",
        "majority_points": 30, "basra_points": 10, "jack_basra_points": 30,
        "seven_diamonds": "wild", "watchers": "nobody", "client_seed": "abc",
    })
    assert Match.objects.get().watchers == "nobody"


# --- the count of watchers ------------------------------------------------------------------


def test_watcher_rows_count_open_sockets_and_stale_ones_stop_counting(users):
    match = seated_match([users[0], users[1]])
    other = seated_match([users[2], users[3]])
    now = timezone.now()
    assert watching.watch_started(match_id=match.pk, channel="a", user=None, now=now) == 1
    assert watching.watch_started(match_id=match.pk, channel="b", user=users[4], now=now) == 2
    assert watching.watch_started(match_id=other.pk, channel="c", user=None, now=now) == 1
    # The same socket twice is one row.
    assert watching.watch_started(match_id=match.pk, channel="b", user=users[4], now=now) == 2
    assert watching.watch_ended(match_id=match.pk, channel="a", now=now) == 1
    assert watching.watcher_counts([match.pk, other.pk, 999], now=now) == {
        match.pk: 1, other.pk: 1, 999: 0}
    # A socket whose process died beats no more: it stops counting, and the sweep removes it.
    later = now + watching.stale_after() + timedelta(seconds=1)
    actions.heartbeats(seated=[], tables=[match.pk], watching=["b"], now=later)
    assert watching.watcher_counts([match.pk, other.pk], now=later) == {match.pk: 1, other.pk: 0}
    assert watching.sweep_watchers(now=later) == 1
    assert list(Watcher.objects.values_list("channel", flat=True)) == ["b"]
    refused("not_found", watching.watch_started, match_id=999, channel="d", user=None)


def test_a_user_watching_in_two_tabs_is_one_watcher(users):
    """A signed-in user watching in two tabs is one watcher, not "2 watching": they count once
    however many sockets they watch with; anonymous sockets count one each."""
    match = seated_match([users[0], users[1]])
    other = seated_match([users[2], users[3]])
    now = timezone.now()
    assert watching.watch_started(match_id=match.pk, channel="tab1", user=users[4], now=now) == 1
    assert watching.watch_started(match_id=match.pk, channel="tab2", user=users[4], now=now) == 1
    assert watching.watch_started(match_id=other.pk, channel="tab3", user=users[4], now=now) == 1
    assert watching.watch_started(match_id=match.pk, channel="anon1", user=None, now=now) == 2
    assert watching.watch_started(match_id=match.pk, channel="anon2", user=None, now=now) == 3
    assert watching.watcher_counts([match.pk, other.pk], now=now) == {match.pk: 3, other.pk: 1}
    # One of the user's tabs closes: they still watch.
    assert watching.watch_ended(match_id=match.pk, channel="tab1", now=now) == 3
    assert watching.watch_ended(match_id=match.pk, channel="tab2", now=now) == 2


# --- abandoned open tables -------------------------------------------------------------------


def test_the_clock_closes_an_open_table_nobody_there_has_had_a_socket_at(users, settings):
    settings.BASRA_OPEN_TABLE_ABANDON_SECONDS = 180
    start = timezone.now()
    left = actions.create_table(user=users[0], players=2, rules={}, rated=False, now=start)
    waiting = actions.create_table(user=users[1], players=2, rules={}, rated=False, now=start)
    playing = seated_match([users[2], users[3]])
    Seat.objects.filter(match=playing).update(last_seen=start)
    # bob's lobby socket beats two minutes on: his table is not abandoned.
    actions.seen_waiting(user=users[1], now=start + timedelta(seconds=120))
    # Not yet: three minutes have not passed.
    clock.tick(now=start + timedelta(seconds=170), sweep=True)
    assert Match.objects.filter(pk=left.pk).exists()
    clock.tick(now=start + timedelta(seconds=200), sweep=True)
    assert not Match.objects.filter(pk=left.pk).exists()
    assert [row["id"] for row in reads.open_tables()] == [waiting.pk]
    assert Match.objects.get(pk=playing.pk).status == Match.Status.PLAYING
    clock.tick(now=start + timedelta(seconds=310), sweep=True)
    assert not Match.objects.filter(pk=waiting.pk).exists()
    assert Match.objects.get(pk=playing.pk).status == Match.Status.PLAYING


def test_closing_rechecks_under_the_lock(users):
    start = timezone.now()
    match = actions.create_table(user=users[0], players=2, rules={}, rated=False, now=start)
    silent_since = start + timedelta(seconds=10)
    # alice came back after the sweep listed the table: it stays.
    actions.player_seen(match_id=match.pk, user=users[0], now=start + timedelta(seconds=20))
    assert not actions.close_abandoned(
        match_id=match.pk, now=start + timedelta(seconds=30), silent_since=silent_since)
    assert Match.objects.filter(pk=match.pk).exists()
    assert actions.close_abandoned(
        match_id=match.pk, now=start + timedelta(seconds=30),
        silent_since=start + timedelta(seconds=25))
    assert not Match.objects.filter(pk=match.pk).exists()
    assert not actions.close_abandoned(match_id=match.pk, now=start, silent_since=start)


def test_an_outage_does_not_make_open_tables_abandoned(users, settings):
    settings.BASRA_OPEN_TABLE_ABANDON_SECONDS = 180
    settings.BASRA_CLOCK_OUTAGE_SECONDS = 5
    start = timezone.now()
    match = actions.create_table(user=users[0], players=2, rules={}, rated=False, now=start)
    liveness.clock_ran(until=start)
    liveness.web_seen(now=start)
    # Nothing ran for ten minutes; the servers and the clock come back together.
    back = start + timedelta(minutes=10)
    liveness.web_seen(now=back)
    clock.tick(now=back, sweep=True)
    assert Match.objects.filter(pk=match.pk).exists()
    assert Seat.objects.get(match=match).last_seen == back
    # Nobody came back to it: closed once the abandon time has passed from there (with the
    # clock running meanwhile: no outage this time).
    settings.BASRA_CLOCK_OUTAGE_SECONDS = 10**9
    liveness.web_seen(now=back + timedelta(seconds=200))
    clock.tick(now=back + timedelta(seconds=200), sweep=True)
    assert not Match.objects.filter(pk=match.pk).exists()


def test_the_abandon_time_is_a_setting(users, settings):
    settings.BASRA_OPEN_TABLE_ABANDON_SECONDS = 30
    start = timezone.now()
    match = actions.create_table(user=users[0], players=2, rules={}, rated=False, now=start)
    clock.tick(now=start + timedelta(seconds=40), sweep=True)
    assert not Match.objects.filter(pk=match.pk).exists()


# --- the lobby's lists -----------------------------------------------------------------------


def test_computer_seats_have_distinct_names():
    seats = [{"seat": 0, "username": "alice", "bot": None},
             {"seat": 1, "username": None, "bot": "greedy"},
             {"seat": 2, "username": None, "bot": "greedy"},
             {"seat": 3, "username": "dave", "bot": "greedy"}]  # the computer plays for dave
    assert seat_display_names(seats) == {
        0: "alice", 1: "Greedy 1", 2: "Greedy 2", 3: "dave"}
    assert seat_display_names(seats[:2]) == {0: "alice", 1: "Greedy"}
    with translation.override("ar"):
        names = seat_display_names(seats)
    assert names[1] != names[2] and "Greedy" not in names[1]


def test_open_tables_show_age_presence_and_sides(users):
    start = timezone.now()
    match = actions.create_table(user=users[0], players=4, rules={}, rated=False, now=start)
    actions.join_table(user=users[1], match_id=match.pk, seat=2, now=start)
    start = Match.objects.get(pk=match.pk).created_at  # the row's own time (auto_now_add)
    tables = reads.open_tables()
    [row] = lobby.open_table_rows(tables, username="bob", now=start + timedelta(seconds=10))
    assert row["mine"] and row["taken"] == 2 and row["age"] == "created just now"
    assert [side["label"] for side in row["sides"]] == [
        "Side 1: alice & bob", "Side 2: two empty seats"]
    [row] = lobby.open_table_rows(tables, username="carol", now=start + timedelta(minutes=3))
    assert not row["mine"] and row["age"] == "created 3\xa0minutes ago"
    with translation.override("ar"):
        [arabic] = lobby.open_table_rows(tables, username=None, now=start + timedelta(minutes=3))
    assert arabic["age"] != row["age"] and "3" in arabic["age"]
    # Online: seen within two heartbeats; a creator silent longer shows away.
    assert tables[0]["created_by_online"] is True
    Seat.objects.filter(match=match, user=users[0]).update(last_seen=start - timedelta(minutes=5))
    [later] = reads.open_tables()
    assert later["created_by_online"] is False
    assert [s["online"] for s in later["seats"]] == [False, True]


def test_an_empty_seat_is_never_named_as_a_partner():
    """An empty seat of a table of four is said as a seat, not joined to the partner's name as
    if it were one."""
    entries = lobby.seat_entries(4, [{"seat": 0, "username": "alice"}, {"seat": 3, "bot": "greedy"}])
    assert [side["label"] for side in lobby.sides(entries)] == [
        "Side 1: alice and an empty seat", "Side 2: Greedy and an empty seat"]
    entries = lobby.seat_entries(4, [{"seat": 1, "username": "bob"}])
    assert [side["names"] for side in lobby.sides(entries)] == ["two empty seats", "bob and an empty seat"]
    with translation.override("fr"):
        assert lobby.sides(entries)[1]["names"] == "bob et une place libre"
    # Two seats: a lone player's side, or its empty seat.
    entries = lobby.seat_entries(2, [{"seat": 0, "username": "alice"}])
    assert [side["names"] for side in lobby.sides(entries)] == ["alice", "Empty seat"]


def test_your_matches_say_whose_turn_it_is(users, known_decks):
    match = seated_match([users[0], users[1]])
    # Four seats, three of them the computer's: it starts at once.
    other = actions.create_table(user=users[0], players=4, rules={}, rated=False,
                                 bots={1: "greedy", 2: "greedy", 3: "random"})
    turn = reads.table_state(match_id=match.pk, user=None)["round"]["turn"]
    mover, waiter = (users[0], users[1]) if turn == 0 else (users[1], users[0])
    mine = {row["id"]: row for row in lobby.your_matches(mover)}
    assert mine[match.pk]["turn"]["mine"] and mine[match.pk]["turn"]["text"] == "Your turn"
    theirs = {row["id"]: row for row in lobby.your_matches(waiter)}
    assert not theirs[match.pk]["turn"]["mine"]
    assert theirs[match.pk]["turn"]["text"] == f"{mover.username} to play"
    alice_rows = {row["id"]: row for row in lobby.your_matches(users[0])}
    assert set(alice_rows) == {match.pk, other.pk}
    four = alice_rows[other.pk]
    assert [s["name"] for s in four["seats"]] == [
        "alice", "Greedy 1", "Greedy 2", "Random 3"]
    computer_turn = four["turn"]
    if computer_turn["seat"] != 0:
        assert computer_turn["bot"]
        assert computer_turn["text"] == four["seats"][computer_turn["seat"]]["name"] + " to play"
    assert lobby.your_matches(None) == [] and lobby.your_matches(users[4]) == []


def test_live_matches_follow_the_watching_rule_and_carry_ratings_and_watchers(users):
    open_ = seated_match([users[0], users[1]], rated=True)  # a casual match carries no rating
    members = seated_match([users[2], users[3]])
    Match.objects.filter(pk=members.pk).update(watchers="registered")
    hidden = seated_match([users[4], users[0]])
    Match.objects.filter(pk=hidden.pk).update(watchers="nobody")
    actions.create_table(user=users[1], players=2, rules={}, rated=False)  # open: not live
    PlayerRating.objects.create(user=users[0], pool="1v1", rating=1612.4)
    PlayerRating.objects.create(user=users[2], pool="partnership", rating=1800)  # other pool
    watching.watch_started(match_id=open_.pk, channel="x", user=None)
    anonymous = lobby.live_matches(None)
    assert [row["id"] for row in anonymous] == [open_.pk]
    assert anonymous[0]["watchers"] == 1
    # As shown at the table: rounded, "?" while provisional (a new player: "1500?").
    assert [seat["rating"] for seat in anonymous[0]["seats"]] == ["1612?", "1500?"]
    assert anonymous[0]["scores"] == [0, 0]
    # A registered player sees the members' table too, and not the tables they sit at.
    assert [row["id"] for row in lobby.live_matches(users[4])] == [members.pk, open_.pk]
    assert [row["id"] for row in lobby.live_matches(users[0])] == [members.pk]
    # A private table is listed nowhere, being played or not: only its invite link opens it.
    Match.objects.filter(pk=open_.pk).update(private=True)
    assert [row["id"] for row in lobby.live_matches(None)] == []


def test_the_lobby_page_lists_the_three_sections(users, client):
    mine = seated_match([users[0], users[1]])
    watch = seated_match([users[2], users[3]])
    waiting = actions.create_table(user=users[4], players=2, rules={}, rated=False)
    client.force_login(users[0])
    page = client.get(reverse("lobby")).content.decode()
    assert page.index('id="your-matches"') < page.index('id="live-matches"') < page.index(
        'id="open-tables"')
    assert f'href="/table/{mine.pk}/"' in page.split('id="live-matches"')[0]
    assert f'data-match-id="{watch.pk}"' in page.split('id="live-matches"')[1]
    assert "1 watching" not in page and "0 watching" in page
    assert f'class="table-row" data-match-id="{waiting.pk}"' in page
    assert "created just now" in page and "created by erin · online" in page
