"""Computer seats, the table clock, absence, claims and resignations (games/core/actions/,
games/core/clock/clock.py). Time is injected: ``tick(now=...)`` and the services' ``now``, never a sleep.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone

from games import engine
from games.core import actions
from games.core.clock import clock
from games.core.models import Event, Match, Seat
from games.core.state import broadcast, reads, cache as table_cache, log as event_log
from games.engine.bots import BOTS, GreedyBot
from tests.core.helpers import event_kinds, hand_of, play_human, refused, seated_match, snapshot, turn_of, users_by_seat

pytestmark = pytest.mark.django_db


@pytest.fixture
def users(make_player):
    return [make_player(name).user for name in ("alice", "bob", "carol", "dave")]


@pytest.fixture(autouse=True)
def _long_grace(settings):
    """Tests that are not about absence move time on far: keep the grace out of their way."""
    settings.BASRA_ABSENT_GRACE_SECONDS = 10_000
    # Jumping ``now`` on between two ticks is a clock outage too (tests/core/clock/test_restart.py):
    # here it stands for time that passed with the clock running.
    settings.BASRA_CLOCK_OUTAGE_SECONDS = 10**9



def run_clock_to(match: Match) -> int:
    """Tick once at the table's deadline (the clock's time jumps there); returns the actions."""
    match.refresh_from_db()
    assert match.deadline is not None
    return clock.tick(now=match.deadline)


def last_event(match: Match) -> Event:
    return Event.objects.filter(match=match).order_by("-seq").first()


# --- creating tables with the computer --------------------------------------------------------


def test_bot_levels_are_the_engines_bots():
    assert [level for level, _ in Seat._meta.get_field("bot").choices] == list(BOTS)


def test_two_players_against_the_computer_start_at_once(users, known_decks):
    before = timezone.now()
    match = actions.create_table(
        user=users[0], players=2, rules={"target": 11}, rated=False, bots={1: "greedy"}
    )
    match.refresh_from_db()
    assert match.status == Match.Status.PLAYING
    assert event_kinds(match) == ["join", "join", "start", "deal"]
    assert match.events.get(seq=2).payload == {"bot": "greedy"}
    start = match.events.get(kind="start").payload
    assert start["client_seeds"][1] == ""  # a computer seat's client seed
    del start["algorithm"], start["commitment"], start["client_seeds"]
    assert start == {"seats": ["alice", "bot:greedy"], "bots": [None, "greedy"], "dealer": 0}
    seats = list(match.seats.values_list("seat", "user", "bot"))
    assert seats == [(0, users[0].pk, ""), (1, None, "greedy")]
    # Dealer 0: seat 1, the computer, plays first after a short human-looking delay.
    assert turn_of(match) == 1
    assert before + timedelta(seconds=0.6) <= match.deadline
    assert match.deadline <= timezone.now() + timedelta(seconds=1.5)
    public = reads.table_state(match_id=match.pk, user=None)
    assert public["seats"][1] == {"seat": 1, "username": None, "closed": False, "side": 1,
                                  "bot": "greedy", "absent": False, "resign_offer": False,
                                  "title": None}
    assert public["deadline"] == match.deadline.isoformat()
    assert public["move_seconds"] == 30


def test_create_refusals(users):
    cases = [
        ("bot_not_rated", dict(players=2, rated=True, bots={1: "greedy"})),
        ("bad_clock", dict(players=2, rated=True, move_seconds=None)),
        ("bad_clock", dict(players=2, rated=False, move_seconds=15)),
        ("bad_clock", dict(players=2, rated=False, move_seconds=True)),
        ("bad_bot", dict(players=2, rated=False, bots={1: "genius"})),
        ("bad_bot", dict(players=2, rated=False, bots={0: "greedy"})),
        ("bad_bot", dict(players=2, rated=False, bots={2: "greedy"})),
        ("bad_bot", dict(players=4, rated=False, bots={"1": "greedy"})),
    ]
    for code, kwargs in cases:
        refused(code, actions.create_table, user=users[0], rules={}, **kwargs)
    assert not Match.objects.exists()


def test_a_casual_table_may_have_no_clock(users):
    match = actions.create_table(
        user=users[0], players=2, rules={}, rated=False, move_seconds=None
    )
    actions.join_table(user=users[1], match_id=match.pk)
    match.refresh_from_db()
    assert match.status == Match.Status.PLAYING
    assert match.move_seconds is None and match.deadline is None
    assert clock.tick(now=timezone.now() + timedelta(hours=2)) == 0


def test_a_person_takes_a_computer_seat_before_the_start(users, known_decks):
    match = actions.create_table(
        user=users[0], players=4, rules={}, rated=False, bots={1: "random", 3: "strong"}
    )
    assert list(match.seats.values_list("seat", "bot")) == [(0, ""), (1, "random"), (3, "strong")]
    # bob takes the random bot's seat; the table is still waiting for the partner's seat.
    assert actions.join_table(user=users[1], match_id=match.pk, seat=1) == 1
    join = last_event(match)
    assert (join.kind, join.seat) == ("join", 1)
    assert join.payload == {"user": users[1].pk, "username": "bob", "replaced_bot": "random"}
    match.refresh_from_db()
    assert match.status == Match.Status.OPEN
    row = reads.open_tables()[0]
    assert row["seats"] == [
        # The ratings app adds each person's rating (new players: "1500?").
        {"seat": 0, "username": "alice", "bot": None, "online": True, "rating": "1500?", "title": None},
        {"seat": 1, "username": "bob", "bot": None, "online": True, "rating": "1500?", "title": None},
        {"seat": 3, "username": None, "bot": "strong", "online": False, "title": None},
    ]
    before = snapshot(match)
    refused("seat_taken", actions.join_table, user=users[2], match_id=match.pk, seat=1)
    refused("bad_seat", actions.join_table, user=users[2], match_id=match.pk, seat=7)
    assert snapshot(match) == before
    # The next plain join takes the empty seat, and the match starts with the strong bot at 3.
    assert actions.join_table(user=users[2], match_id=match.pk) == 2
    match.refresh_from_db()
    assert match.status == Match.Status.PLAYING
    assert match.events.get(kind="start").payload["bots"] == [None, None, None, "strong"]
    refused("table_full", actions.join_table, user=users[3], match_id=match.pk, seat=3)


def test_the_last_person_leaving_removes_a_table_with_computer_seats(users):
    match = actions.create_table(
        user=users[0], players=4, rules={}, rated=False, bots={1: "greedy"}
    )
    actions.leave_table(user=users[0], match_id=match.pk)
    assert not Match.objects.filter(pk=match.pk).exists()
    assert not Seat.objects.exists()


# --- the computer plays, and only its own seat --------------------------------------------


def test_the_clock_does_nothing_before_the_deadline(users, known_decks):
    match = actions.create_table(user=users[0], players=2, rules={}, rated=False,
                                  bots={1: "greedy"})
    match.refresh_from_db()
    before = snapshot(match)
    assert clock.tick(now=match.deadline - timedelta(milliseconds=1)) == 0
    assert snapshot(match) == before


def test_the_computer_plays_at_its_deadline_and_then_waits_for_the_person(users, known_decks):
    match = actions.create_table(user=users[0], players=2, rules={}, rated=False,
                                  bots={1: "greedy"}, move_seconds=20)
    match.refresh_from_db()
    deadline = match.deadline
    live = event_log.rebuild(match)
    expected = GreedyBot().choose(live.view(1))
    assert run_clock_to(match) == 1
    play = last_event(match)
    assert (play.kind, play.seat) == ("play", 1)
    assert play.payload["card"] == expected.code and play.payload["bot"] == "greedy"
    assert "timeout" not in play.payload
    match.refresh_from_db()
    # Now the person's clock runs from the moment the computer played.
    assert match.deadline == deadline + timedelta(seconds=20)
    assert turn_of(match) == 0
    assert clock.tick(now=deadline + timedelta(seconds=19)) == 0


class SpyBot:
    """Records the views it is given and plays like the greedy bot."""

    views: list = []

    def __init__(self, *, seed, time_limit):
        self.seed = seed

    def choose(self, view):
        SpyBot.views.append(view)
        return GreedyBot().choose(view)


def test_a_computer_seat_sees_only_its_own_view(users, known_decks, monkeypatch):
    monkeypatch.setitem(BOTS, "strong", SpyBot)
    SpyBot.views = []
    match = actions.create_table(user=users[0], players=4, rules={"target": 11}, rated=False,
                                  bots={1: "strong", 2: "strong", 3: "strong"},
                                  move_seconds=None)
    for _ in range(12):
        if turn_of(match) == 0:
            play_human(match, users[0])
        else:
            run_clock_to(match)
    plays = list(Event.objects.filter(match=match, kind="play", seat__in=[1, 2, 3]).order_by("seq"))
    assert len(plays) >= 9 and len(SpyBot.views) == len(plays)
    for play, view in zip(plays, SpyBot.views):
        assert play.payload["bot"] == "strong"
        # What the bot was given is exactly its own seat's view of the table before its play.
        before = Match.objects.get(pk=match.pk)
        before.seq = play.seq - 1
        assert view == event_log.rebuild(before).view(play.seat)
        assert view.seat == play.seat == view.turn


def test_a_bot_asked_to_play_a_persons_seat_is_refused(users, known_decks):
    match = actions.create_table(user=users[0], players=2, rules={}, rated=False,
                                  bots={1: "greedy"})
    run_clock_to(match)  # the bot's first play: now it is alice's turn
    assert turn_of(match) == 0
    before = snapshot(match)
    refused("not_bot_seat", actions.bot_play, match_id=match.pk, seat=0)
    refused("not_bot_seat", actions.bot_play, match_id=match.pk, seat=5)
    # Its own seat, but not its turn.
    refused("not_your_turn", actions.bot_play, match_id=match.pk, seat=1)
    assert snapshot(match) == before
    people = seated_match(users[1:3])
    refused("not_bot_seat", actions.bot_play, match_id=people.pk, seat=turn_of(people))


def test_a_whole_match_against_three_computers(users, known_decks):
    match = actions.create_table(
        user=users[0], players=4, rules={"target": 31}, rated=False,
        bots={1: "random", 2: "greedy", 3: "strong"}, move_seconds=None,
    )
    for _ in range(2000):
        match.refresh_from_db()
        if match.status == Match.Status.FINISHED:
            break
        if turn_of(match) == 0:
            play_human(match, users[0])
        else:
            assert run_clock_to(match) == 1
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.result == Match.Result.TARGET
    assert match.deadline is None
    record = event_log.record_from_events(
        match.rules, match.events.order_by("seq").values_list("kind", "payload")
    )
    assert list(engine.replay(record).scores) == match.scores
    bots = {p.seat: p.payload.get("bot") for p in match.events.filter(kind="play")}
    assert bots == {0: None, 1: "random", 2: "greedy", 3: "strong"}
    assert match.events.get(kind="match_end").payload["reason"] == "target"


def test_the_clock_survives_a_restart(users, known_decks):
    match = actions.create_table(user=users[0], players=2, rules={}, rated=False,
                                  bots={1: "greedy"})
    table_cache.clear_caches()  # nothing in memory: the deadline is in the database
    match.refresh_from_db()
    assert clock.tick(now=match.deadline) == 1
    assert last_event(match).kind == "play"


def test_the_run_clock_command_ticks_at_the_real_time(users, known_decks):
    match = actions.create_table(user=users[0], players=2, rules={}, rated=False,
                                  bots={1: "greedy"})
    # A deadline already in the past: the command's one tick at the real time plays.
    Match.objects.filter(pk=match.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    call_command("run_clock", "--once")
    assert last_event(match).kind == "play" and last_event(match).seat == 1


# --- a person's clock runs out ----------------------------------------------------------------


def test_a_timeout_plays_the_greedy_card_and_a_late_play_is_refused(users, known_decks):
    match = seated_match(users[:2])
    mover = users_by_seat(match)[turn_of(match)]
    seat = turn_of(match)
    seen = match.seq
    late_card = hand_of(match, mover)[0]
    expected = GreedyBot().choose(event_log.rebuild(match).view(seat))
    assert match.deadline == match.started_at + timedelta(seconds=30)
    assert run_clock_to(match) == 1
    play = last_event(match)
    assert (play.kind, play.seat) == ("play", seat)
    assert play.payload["timeout"] is True and play.payload["card"] == expected.code
    assert Seat.objects.get(match=match, seat=seat).timeouts == 1
    # The play the person sent against the state before the timeout arrives too late.
    before = snapshot(match)
    refused("timed_out", actions.play_card, user=mover, match_id=match.pk, card=late_card,
            seq=seen)
    assert snapshot(match) == before
    # A play against a state after the timeout is an ordinary stale one.
    other = users_by_seat(match)[1 - seat]
    play_human(match, other)
    refused("stale", actions.play_card, user=other, match_id=match.pk,
            card=hand_of(match, other)[0], seq=match.seq)
    # Playing again in time resets the count of timeouts in a row.
    play_human(match, mover)
    assert Seat.objects.get(match=match, seat=seat).timeouts == 0


def test_the_state_tells_who_made_the_last_play(users, known_decks, monkeypatch,
                                                django_capture_on_commit_callbacks):
    match = seated_match(users[:2])
    seat = turn_of(match)
    mover, other = users_by_seat(match)[seat], users_by_seat(match)[1 - seat]
    sent = []
    monkeypatch.setattr(broadcast, "send_states",
                        lambda match_id, states, seat_users: sent.append(states))
    with django_capture_on_commit_callbacks(execute=True):
        assert run_clock_to(match) == 1
    # The broadcast of the timeout and every later read say the server played for the seat.
    assert sent and all(
        message["round"]["last_play"]["timeout"] is True
        and message["round"]["last_play"]["bot"] is None
        and message["round"]["last_play"]["seat"] == seat
        for message in sent[-1].values()
    )
    for user in (mover, other, None):
        last = reads.table_state(match_id=match.pk, user=user)["round"]["last_play"]
        assert (last["seat"], last["timeout"], last["bot"]) == (seat, True, None)
    play_human(match, other)
    last = reads.table_state(match_id=match.pk, user=mover)["round"]["last_play"]
    assert (last["seat"], last["timeout"], last["bot"]) == (1 - seat, False, None)


def test_the_state_tells_a_computer_play(users, known_decks):
    match = actions.create_table(user=users[0], players=2, rules={}, rated=False,
                                  bots={1: "strong"})
    assert reads.table_state(match_id=match.pk, user=users[0])["round"]["last_play"] is None
    assert run_clock_to(match) == 1
    last = reads.table_state(match_id=match.pk, user=users[0])["round"]["last_play"]
    assert (last["seat"], last["timeout"], last["bot"]) == (1, False, "strong")


def time_out_three_times(match: Match, seat: int, other) -> None:
    """Let ``seat`` time out three plays in a row while ``other`` (or the clock) plays between."""
    for _ in range(3):
        while turn_of(match) != seat:
            if other is None:
                run_clock_to(match)
            else:
                play_human(match, other)
        run_clock_to(match)


def test_three_timeouts_make_a_two_player_seat_absent_and_the_opponent_may_claim(
    users, known_decks
):
    match = seated_match(users[:2])
    by_seat = users_by_seat(match)
    seat = turn_of(match)
    sleeper, opponent = by_seat[seat], by_seat[1 - seat]
    before = snapshot(match)
    refused("claim_not_allowed", actions.claim_win, user=opponent, match_id=match.pk)
    assert snapshot(match) == before
    time_out_three_times(match, seat, opponent)
    kinds = event_kinds(match)
    assert kinds[-2:] == ["play", "absent"]
    assert last_event(match).payload == {"reason": "timeouts"}
    assert reads.table_state(match_id=match.pk, user=opponent)["seats"][seat]["absent"] is True
    # The absent player may not claim against the one who stayed.
    refused("claim_not_allowed", actions.claim_win, user=sleeper, match_id=match.pk)
    scores = Match.objects.get(pk=match.pk).scores
    actions.claim_win(user=opponent, match_id=match.pk)
    match.refresh_from_db()
    assert event_kinds(match)[-2:] == ["claim", "match_end"]
    claim = match.events.get(kind="claim")
    assert (claim.seat, claim.payload) == (1 - seat, {"absent_seat": seat})
    assert match.events.get(kind="match_end").payload == {
        "scores": scores, "winner": (1 - seat) % 2, "reason": "claim"}
    assert match.status == Match.Status.FINISHED and match.finished_at is not None
    assert match.winner_side == (1 - seat) % 2 and match.result == Match.Result.CLAIM
    assert match.deadline is None
    final = reads.table_state(match_id=match.pk, user=opponent)
    assert final["result"] == {"winner": (1 - seat) % 2, "scores": scores, "reason": "claim"}
    assert final["deadline"] is None
    refused("match_over", actions.claim_win, user=opponent, match_id=match.pk)
    refused("match_over", actions.play_card, user=sleeper, match_id=match.pk, card="5D",
            seq=match.seq)
    assert clock.tick(now=timezone.now() + timedelta(days=1)) == 0


def test_three_timeouts_in_four_players_hand_the_seat_to_the_computer(users, known_decks):
    match = seated_match(users[:4], rules={"target": 11})
    by_seat = users_by_seat(match)
    seat = turn_of(match)
    partner = by_seat[(seat + 2) % 4]
    # The others play by hand; the sleeper's clock runs out three times in a row.
    for _ in range(3):
        while (turn := turn_of(match)) != seat:
            play_human(match, by_seat[turn])
        run_clock_to(match)
    kinds = event_kinds(match)
    assert kinds[-3:] == ["play", "absent", "bot_takeover"]
    takeover = last_event(match)
    assert takeover.seat == seat
    assert takeover.payload == {"bot": "greedy", "user": by_seat[seat].pk,
                                "username": by_seat[seat].username}
    row = Seat.objects.get(match=match, seat=seat)
    assert (row.user_id, row.bot, row.absent) == (by_seat[seat].pk, "greedy", True)
    # The partner is told: the state shows the seat played by the computer, still named.
    shown = reads.table_state(match_id=match.pk, user=partner)["seats"][seat]
    assert shown == {"seat": seat, "username": by_seat[seat].username, "closed": False,
                     "side": seat % 2, "bot": "greedy", "absent": True, "resign_offer": False,
                     "title": None}
    # From now on the computer plays the seat after its short delay, and the person cannot.
    while (turn := turn_of(match)) != seat:
        play_human(match, by_seat[turn])
    match.refresh_from_db()
    assert match.deadline <= timezone.now() + timedelta(seconds=1.5)
    refused("replaced_by_bot", actions.play_card, user=by_seat[seat], match_id=match.pk,
            card=hand_of(match, by_seat[seat])[0], seq=match.seq)
    assert actions.player_connected(match_id=match.pk, user=by_seat[seat]) is False
    run_clock_to(match)
    play = last_event(match)
    assert (play.kind, play.seat, play.payload.get("bot")) == ("play", seat, "greedy")
    refused("claim_not_allowed", actions.claim_win, user=by_seat[(seat + 1) % 4],
            match_id=match.pk)


# --- disconnection ----------------------------------------------------------------------------


def test_a_seat_silent_longer_than_the_grace_is_absent(users, known_decks, settings):
    settings.BASRA_ABSENT_GRACE_SECONDS = 60
    start = timezone.now()
    match = actions.create_table(user=users[0], players=2, rules={}, rated=False,
                                  move_seconds=None, now=start)
    actions.join_table(user=users[1], match_id=match.pk, now=start)
    match.refresh_from_db()
    # alice's socket keeps beating; bob's went quiet at the start.
    actions.player_seen(match_id=match.pk, user=users[0], now=start + timedelta(seconds=50))
    assert clock.tick(now=start + timedelta(seconds=60)) == 0
    assert clock.tick(now=start + timedelta(seconds=61)) == 1
    absent = last_event(match)
    assert (absent.kind, absent.seat, absent.payload) == ("absent", 1, {"reason": "disconnected"})
    assert Seat.objects.get(match=match, seat=1).absent is True
    assert clock.tick(now=start + timedelta(seconds=300)) == 1  # alice now silent too
    assert Seat.objects.get(match=match, seat=0).absent is True
    assert clock.tick(now=start + timedelta(seconds=900)) == 0  # never twice


def ended_abandoned(match: Match) -> bool:
    match.refresh_from_db()
    end = match.events.filter(kind="match_end").first()
    return (
        match.status == Match.Status.FINISHED and match.result == Match.Result.ABANDONED
        and match.winner_side is None and match.deadline is None and end is not None
        and end.payload == {"scores": match.scores, "winner": None, "reason": "abandoned"}
    )


def test_a_table_of_computers_whose_person_never_came_is_not_played_out(users, settings):
    settings.BASRA_ABSENT_GRACE_SECONDS = 60
    start = timezone.now()
    match = actions.create_table(
        user=users[0], players=4, rules={}, rated=False, move_seconds=10,
        bots={1: "greedy", 2: "greedy", 3: "greedy"}, now=start,
    )
    assert match.status == Match.Status.PLAYING
    from games.core.state import lobby

    assert [row["id"] for row in lobby.live_matches(None)] == [match.pk]
    assert clock.tick(now=start + timedelta(seconds=61)) >= 1
    # The table waits for its person, paused: nobody plays it, nobody takes the seat over
    # (tests/core/clock/test_computer_table_wait.py).
    assert event_kinds(match)[-1] == "absent"
    plays = match.events.filter(kind="play").count()
    assert clock.tick(now=start + timedelta(hours=1)) == 0
    assert match.events.filter(kind="play").count() == plays
    # Then, the wait over, it ends abandoned.
    wait = timedelta(seconds=settings.BASRA_COMPUTER_TABLE_WAIT_SECONDS)
    assert clock.tick(now=start + wait + timedelta(seconds=1), sweep=True) == 1
    assert ended_abandoned(match)
    assert event_kinds(match)[-2:] == ["absent", "match_end"]
    assert match.events.filter(kind="play").count() == plays
    # Nobody is left to watch it being played: it leaves the lobby's "Matches to watch".
    assert lobby.live_matches(None) == []
    assert reads.table_state(match_id=match.pk, user=None)["result"]["reason"] == "abandoned"


def test_a_person_who_times_out_against_the_computer_pauses_it(users, known_decks):
    match = actions.create_table(user=users[0], players=2, rules={}, rated=False,
                                  bots={1: "greedy"})
    time_out_three_times(match, 0, None)
    match.refresh_from_db()
    assert (match.status, match.deadline) == (Match.Status.PLAYING, None)
    assert event_kinds(match)[-2:] == ["play", "absent"]
    assert reads.table_state(match_id=match.pk, user=None)["paused"] == 0


def test_the_last_of_two_people_leaving_ends_a_rated_match_unrated(users, known_decks,
                                                                    settings):
    from games.ratings.models import RatedMatch, RatingChange

    settings.BASRA_ABSENT_GRACE_SECONDS = 30
    start = timezone.now()
    # A minute a play: both leave before the first deadline (a rated match whose person's
    # first card the clock would play is aborted then: tests/core/actions/test_early_abort.py).
    match = actions.create_table(user=users[0], players=2, rules={}, rated=True,
                                  move_seconds=60, now=start)
    actions.join_table(user=users[1], match_id=match.pk, now=start)
    actions.player_seen(match_id=match.pk, user=users[0], now=start + timedelta(seconds=25))
    clock.tick(now=start + timedelta(seconds=31))
    match.refresh_from_db()
    # One person left: the match goes on, the other may claim.
    assert match.status == Match.Status.PLAYING
    assert Seat.objects.get(match=match, seat=1).absent is True
    clock.tick(now=start + timedelta(seconds=59))
    assert ended_abandoned(match)
    assert not RatedMatch.objects.filter(match=match).exists()
    assert not RatingChange.objects.exists()


def test_the_grace_counts_from_the_start_not_from_joining(users, settings):
    settings.BASRA_ABSENT_GRACE_SECONDS = 60
    long_ago = timezone.now() - timedelta(hours=1)
    match = actions.create_table(user=users[0], players=2, rules={}, rated=False,
                                  move_seconds=None, now=long_ago)
    actions.join_table(user=users[1], match_id=match.pk)
    assert clock.tick(now=timezone.now() + timedelta(seconds=30)) == 0
    assert not Seat.objects.filter(match=match, absent=True).exists()


def test_a_returning_player_clears_the_absence_and_the_claim(users, known_decks, settings):
    settings.BASRA_ABSENT_GRACE_SECONDS = 60
    start = timezone.now()
    match = actions.create_table(user=users[0], players=2, rules={}, rated=False,
                                  move_seconds=None, now=start)
    actions.join_table(user=users[1], match_id=match.pk, now=start)
    actions.player_seen(match_id=match.pk, user=users[0], now=start + timedelta(seconds=100))
    clock.tick(now=start + timedelta(seconds=100))
    assert Seat.objects.get(match=match, seat=1).absent is True
    # Not yet back: a heartbeat of nobody changes nothing; bob's socket connects again.
    assert actions.player_connected(match_id=match.pk, user=users[2]) is False
    assert actions.player_connected(match_id=match.pk, user=users[1]) is True
    returned = last_event(match)
    assert (returned.kind, returned.seat) == ("returned", 1)
    assert Seat.objects.get(match=match, seat=1).absent is False
    before = snapshot(match)
    refused("opponent_returned", actions.claim_win, user=users[0], match_id=match.pk)
    assert snapshot(match) == before
    assert actions.player_connected(match_id=match.pk, user=users[1]) is False  # already back


def test_an_absent_player_who_plays_is_back(users, known_decks):
    match = seated_match(users[:2])
    by_seat = users_by_seat(match)
    seat = turn_of(match)
    time_out_three_times(match, seat, by_seat[1 - seat])
    while turn_of(match) != seat:
        play_human(match, by_seat[1 - seat])
    play_human(match, by_seat[seat])
    assert event_kinds(match)[-2:] == ["returned", "play"]
    row = Seat.objects.get(match=match, seat=seat)
    assert (row.absent, row.timeouts) == (False, 0)


def test_claim_refusals(users, known_decks):
    waiting = actions.create_table(user=users[0], players=2, rules={}, rated=False)
    refused("not_started", actions.claim_win, user=users[0], match_id=waiting.pk)
    vs_bot = actions.create_table(user=users[1], players=2, rules={}, rated=False,
                                   bots={1: "random"})
    refused("claim_not_allowed", actions.claim_win, user=users[1], match_id=vs_bot.pk)
    refused("not_seated", actions.claim_win, user=users[2], match_id=vs_bot.pk)
    refused("not_found", actions.claim_win, user=users[1], match_id=vs_bot.pk + 100)
    four = seated_match(users[:4])
    refused("claim_not_allowed", actions.claim_win, user=users[0], match_id=four.pk)


# --- resigning --------------------------------------------------------------------------------


def test_a_two_player_resignation_ends_the_match_at_once(users, known_decks):
    match = seated_match(users[:2])
    by_seat = users_by_seat(match)
    assert actions.resign(user=by_seat[1], match_id=match.pk) == "resigned"
    match.refresh_from_db()
    assert event_kinds(match)[-2:] == ["resign", "match_end"]
    resign = match.events.get(kind="resign")
    assert (resign.seat, resign.payload) == (1, {"side": 1, "seats": [1]})
    assert match.events.get(kind="match_end").payload == {
        "scores": [0, 0], "winner": 0, "reason": "resign"}
    assert (match.status, match.winner_side, match.result) == ("finished", 0, "resign")
    assert match.finished_at is not None and match.deadline is None
    assert reads.table_state(match_id=match.pk, user=None)["result"]["reason"] == "resign"
    refused("match_over", actions.resign, user=by_seat[0], match_id=match.pk)


def test_four_players_resign_when_both_partners_agree(users, known_decks):
    match = seated_match(users[:4])
    by_seat = users_by_seat(match)
    assert actions.resign(user=by_seat[1], match_id=match.pk) == "offered"
    offer = last_event(match)
    assert (offer.kind, offer.seat, offer.payload) == ("resign_offer", 1, {"side": 1})
    match.refresh_from_db()
    assert match.status == Match.Status.PLAYING
    shown = reads.table_state(match_id=match.pk, user=by_seat[3])["seats"][1]
    assert shown["resign_offer"] is True
    before = snapshot(match)
    refused("resign_offered", actions.resign, user=by_seat[1], match_id=match.pk)
    assert snapshot(match) == before
    # The other side's offer is theirs alone; the partner's agreement ends it.
    assert actions.resign(user=by_seat[0], match_id=match.pk) == "offered"
    assert actions.resign(user=by_seat[3], match_id=match.pk) == "resigned"
    match.refresh_from_db()
    resign = match.events.get(kind="resign")
    assert (resign.seat, resign.payload) == (3, {"side": 1, "seats": [3, 1]})
    assert (match.winner_side, match.result) == (0, "resign")


def test_a_partner_played_by_the_computer_does_not_hold_a_resignation(users, known_decks):
    match = actions.create_table(user=users[0], players=4, rules={}, rated=False,
                                  bots={1: "greedy", 2: "greedy", 3: "greedy"})
    assert actions.resign(user=users[0], match_id=match.pk) == "resigned"
    match.refresh_from_db()
    assert (match.winner_side, match.result) == (1, "resign")


def test_resign_refusals(users):
    waiting = actions.create_table(user=users[0], players=4, rules={}, rated=False)
    before = snapshot(waiting)
    refused("not_started", actions.resign, user=users[0], match_id=waiting.pk)
    refused("not_seated", actions.resign, user=users[1], match_id=waiting.pk)
    assert snapshot(waiting) == before


def test_a_player_back_by_a_play_is_seen_then(users, known_decks, settings):
    """An absent player who plays is back and seen at that moment, so the clock does not find
    the seat silent again at once (absent, returned, absent, … while they play)."""
    settings.BASRA_ABSENT_GRACE_SECONDS = 60
    match = seated_match(users[:2])
    later = timezone.now() + timedelta(minutes=10)
    mover = turn_of(match)
    other = users_by_seat(match)[1 - mover]
    actions.player_seen(match_id=match.pk, user=other, now=later)
    assert actions.mark_absent(match_id=match.pk, now=later) == 1
    person = users_by_seat(match)[mover]
    state = reads.table_state(match_id=match.pk, user=person)
    actions.play_card(
        user=person, match_id=match.pk, card=state["round"]["hand"][0], seq=state["seq"],
        now=later,
    )
    assert actions.mark_absent(match_id=match.pk, now=later + timedelta(seconds=1)) == 0
    assert event_kinds(match)[-2:] == ["returned", "play"]
