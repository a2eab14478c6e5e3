"""A table against the computer waits for its person (issue 35, item 3): paused while they are
away (games/core/actions/presence.py ``absent``), back when they open it again, abandoned after
``BASRA_COMPUTER_TABLE_WAIT_SECONDS`` (games/core/clock/clock.py ``_sweep``); the ``state``
message's ``paused``, the lobby's "Paused" and the rules page say so. Time is injected: the
clock's ``now``, never a sleep.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games.core import actions
from games.core.clock import clock
from games.core.models import Event, Match, Seat
from games.core.state import liveness, lobby, reads
from tests.core.helpers import event_kinds, turn_of

pytestmark = pytest.mark.django_db

GRACE = 60
WAIT = 6 * 3600


@pytest.fixture
def users(make_player):
    return [make_player(name).user for name in ("alice", "bob", "carol")]


@pytest.fixture(autouse=True)
def _times(settings):
    settings.BASRA_ABSENT_GRACE_SECONDS = GRACE
    settings.BASRA_COMPUTER_TABLE_WAIT_SECONDS = WAIT
    # Jumping ``now`` on between two ticks stands for time that passed with the clock running,
    # not for an outage (tests/core/clock/test_restart.py).
    settings.BASRA_CLOCK_OUTAGE_SECONDS = 10**9


def against_computer(user, players: int, *, start, move_seconds=None) -> Match:
    bots = {seat: "greedy" for seat in range(1, players)}
    match = actions.create_table(user=user, players=players, rules={}, rated=False,
                                 move_seconds=move_seconds, bots=bots, now=start)
    match.refresh_from_db()
    return match


def plays(match: Match) -> int:
    return Event.objects.filter(match=match, kind="play").count()


def tick_at(now) -> int:
    """One tick at ``now``, its sweep included (the sweep's own pace is real time)."""
    return clock.tick(now=now, sweep=True)


def assert_paused(match: Match, seat: int = 0) -> None:
    match.refresh_from_db()
    assert match.status == Match.Status.PLAYING and match.result == ""
    assert match.deadline is None
    row = Seat.objects.get(match=match, seat=seat)
    assert (row.absent, row.bot) == (True, "")
    assert not match.events.filter(kind__in=["bot_takeover", "match_end"]).exists()
    public = reads.table_state(match_id=match.pk, user=None)
    assert public["paused"] == seat and public["deadline"] is None


@pytest.mark.parametrize("players", [2, 4])
def test_the_person_leaving_pauses_the_table_and_the_computer_waits(users, known_decks, players):
    start = timezone.now()
    match = against_computer(users[0], players, start=start)
    assert turn_of(match) == 1  # seat 0 deals: the computer plays first, after its delay
    assert reads.table_state(match_id=match.pk, user=None)["paused"] is None
    left = start + timedelta(seconds=GRACE + 1)
    # The computer's deadline has long passed, but the person is gone first: nobody plays.
    assert tick_at(left) == 1
    absent = match.events.order_by("-seq").first()
    assert (absent.kind, absent.seat, absent.payload) == ("absent", 0, {"reason": "disconnected"})
    assert_paused(match)
    for later in (timedelta(minutes=5), timedelta(hours=1), timedelta(hours=5)):
        assert tick_at(start + later) == 0
    assert plays(match) == 0
    assert_paused(match)


def test_coming_back_resumes_the_table_and_the_computer_plays_again(users, known_decks):
    start = timezone.now()
    match = against_computer(users[0], 4, start=start)
    tick_at(start + timedelta(seconds=GRACE + 1))
    assert_paused(match)
    back = start + timedelta(hours=2)
    assert actions.player_connected(match_id=match.pk, user=users[0], now=back) is True
    match.refresh_from_db()
    assert event_kinds(match)[-2:] == ["absent", "returned"]
    assert Seat.objects.get(match=match, seat=0).absent is False
    # As if the computer's turn began now: its usual short delay.
    assert back < match.deadline <= back + timedelta(seconds=1.5)
    assert reads.table_state(match_id=match.pk, user=None)["paused"] is None
    assert tick_at(match.deadline) == 1
    assert plays(match) == 1 and turn_of(match) == 2
    # The person, seen again, is not found gone at once.
    assert tick_at(back + timedelta(seconds=GRACE - 1)) >= 1  # the computer seats play on
    assert Seat.objects.get(match=match, seat=0).absent is False


def test_a_person_with_a_clock_gets_a_whole_turn_back(users, known_decks):
    start = timezone.now()
    match = against_computer(users[0], 2, start=start, move_seconds=20)
    assert tick_at(match.deadline) == 1  # the computer's first play: the person's turn
    match.refresh_from_db()
    assert turn_of(match) == 0
    tick_at(start + timedelta(seconds=GRACE + 1))
    assert_paused(match)
    # No timeout is played for a person the table waits for.
    assert tick_at(start + timedelta(hours=1)) == 0
    assert plays(match) == 1
    back = start + timedelta(hours=3)
    # The socket's heartbeat (games/core/sockets/beats.py) brings the person back.
    actions.heartbeats(seated=[(match.pk, users[0].pk)], tables=[match.pk], now=back)
    match.refresh_from_db()
    assert event_kinds(match)[-1] == "returned"
    assert match.deadline == back + timedelta(seconds=20)


def test_a_play_brings_the_person_back_and_the_table_goes_on(users, known_decks):
    start = timezone.now()
    match = against_computer(users[0], 2, start=start)
    tick_at(match.deadline)  # the computer's first play
    tick_at(start + timedelta(seconds=GRACE + 1))
    assert_paused(match)
    match.refresh_from_db()
    state = reads.table_state(match_id=match.pk, user=users[0])
    back = start + timedelta(hours=1)
    actions.play_card(user=users[0], match_id=match.pk, card=state["round"]["hand"][0],
                      seq=state["seq"], now=back)
    match.refresh_from_db()
    assert event_kinds(match)[-2:] == ["returned", "play"]
    assert match.deadline is not None and match.deadline <= back + timedelta(seconds=1.5)
    assert tick_at(match.deadline) == 1 and plays(match) == 3


def test_the_table_is_abandoned_after_the_wait(users, known_decks):
    start = timezone.now()
    match = against_computer(users[0], 4, start=start)
    # The person's page was last seen a minute in; it never came back.
    actions.player_seen(match_id=match.pk, user=users[0], now=start + timedelta(seconds=60))
    tick_at(start + timedelta(seconds=60 + GRACE + 1))
    assert_paused(match)
    gone_until = start + timedelta(seconds=60 + WAIT)
    assert tick_at(gone_until) == 0
    assert_paused(match)
    assert tick_at(gone_until + timedelta(seconds=1)) == 1
    match.refresh_from_db()
    assert (match.status, match.result, match.winner_side) == ("finished", "abandoned", None)
    assert match.deadline is None and plays(match) == 0
    assert match.events.get(kind="match_end").payload["reason"] == "abandoned"
    assert reads.table_state(match_id=match.pk, user=None)["paused"] is None


def test_the_wait_is_a_setting(users, known_decks, settings):
    settings.BASRA_COMPUTER_TABLE_WAIT_SECONDS = 600
    start = timezone.now()
    match = against_computer(users[0], 2, start=start)
    tick_at(start + timedelta(seconds=GRACE + 1))
    assert tick_at(start + timedelta(seconds=599)) == 0
    assert tick_at(start + timedelta(seconds=601)) == 1
    match.refresh_from_db()
    assert match.result == Match.Result.ABANDONED


def test_an_outage_does_not_use_up_the_wait(users, known_decks, settings):
    settings.BASRA_CLOCK_OUTAGE_SECONDS = 5
    start = timezone.now()
    match = against_computer(users[0], 2, start=start)
    tick_at(start + timedelta(seconds=GRACE + 1))
    assert_paused(match)
    # The clock ran for five hours, then the server was down for one: nobody could come back.
    liveness.clock_ran(until=start + timedelta(hours=5))
    assert tick_at(start + timedelta(hours=6)) == 0
    assert_paused(match)
    # The clock runs on (each tick below stands for one of many): the wait ends an hour later.
    ends = start + timedelta(hours=7)
    liveness.clock_ran(until=ends - timedelta(seconds=3))
    assert tick_at(ends - timedelta(seconds=1)) == 0
    assert_paused(match)
    liveness.clock_ran(until=ends)
    assert tick_at(ends + timedelta(seconds=1)) == 1
    match.refresh_from_db()
    assert match.result == Match.Result.ABANDONED


def test_a_table_of_two_people_and_the_computer_keeps_the_takeover(users, known_decks):
    """Not a table against the computer: a person who leaves is taken over, and when every
    person has left the table ends at once, as before."""
    start = timezone.now()
    match = actions.create_table(user=users[0], players=4, rules={}, rated=False,
                                 move_seconds=None, bots={1: "greedy", 3: "greedy"}, now=start)
    actions.join_table(user=users[1], match_id=match.pk, seat=2, now=start)
    actions.player_seen(match_id=match.pk, user=users[1], now=start + timedelta(seconds=100))
    tick_at(start + timedelta(seconds=GRACE + 1))
    row = Seat.objects.get(match=match, seat=0)
    assert (row.absent, row.bot) == (True, "greedy")
    kinds = event_kinds(match)
    assert kinds[kinds.index("absent") + 1] == "bot_takeover"
    assert reads.table_state(match_id=match.pk, user=None)["paused"] is None
    tick_at(start + timedelta(seconds=100 + GRACE + 1))
    match.refresh_from_db()
    assert (match.status, match.result) == ("finished", "abandoned")


def test_the_lobby_lists_a_paused_table_as_paused_with_its_link(users, known_decks, client):
    start = timezone.now()
    paused = against_computer(users[0], 2, start=start)
    tick_at(start + timedelta(seconds=GRACE + 1))
    playing = against_computer(users[0], 2, start=timezone.now())
    tick_at(playing.deadline)  # the computer's first play: alice's turn there
    rows = {row["id"]: row for row in lobby.your_matches(users[0])}
    assert rows[paused.pk]["paused"] == "Paused"
    assert rows[playing.pk]["paused"] is None
    assert rows[playing.pk]["turn"]["text"] == "Your turn"
    client.force_login(users[0])
    page = client.get(reverse("lobby")).content.decode()
    mine = page.split('id="your-matches"')[1].split('id="live-matches"')[0]
    row = mine.split(f'data-match-id="{paused.pk}"')[1].split("</li>")[0]
    assert f'href="{reverse("table", args=[paused.pk])}"' in row
    assert '<span class="chip chip-paused">Paused</span>' in row and "Your turn" not in row
    other = mine.split(f'data-match-id="{playing.pk}"')[1].split("</li>")[0]
    assert "Your turn" in other and "Paused" not in other
    arabic = client.get(reverse("lobby"), HTTP_ACCEPT_LANGUAGE="ar").content.decode()
    mine_ar = arabic.split('id="your-matches"')[1].split('id="live-matches"')[0]
    assert "chip-paused" in mine_ar and "Paused" not in mine_ar


def test_the_rules_page_says_how_long_the_computer_waits(client, settings):
    page = client.get(reverse("rules")).content.decode()
    away = page.split('id="away"')[1].split("</section>")[0]
    assert "After 6 hours away the match is abandoned." in away
    assert "for more than 1 minute" in away
    arabic = client.get(reverse("rules"), HTTP_ACCEPT_LANGUAGE="ar").content.decode()
    assert "وبعد 6 ساعات من الغياب تنتهي المباراة متروكة." in arabic
    assert "أكثر من دقيقة واحدة." in arabic
    settings.BASRA_COMPUTER_TABLE_WAIT_SECONDS = 5400
    page = client.get(reverse("rules")).content.decode()
    assert "After 90 minutes away the match is abandoned." in page
