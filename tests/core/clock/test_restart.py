"""A restart of the server or the clock loses nothing (games/core/clock/clock.py, actions.resume_clock).

Time is injected: ``tick(now=...)`` and the services' ``now``. A clock that ran throughout ticks
at least every second here (:func:`run_clock`); a jump of ``now`` between two ticks longer than
``BASRA_CLOCK_OUTAGE_SECONDS`` is a clock that was not running.
"""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone

from games.core import actions
from games.core.clock import clock
from games.core.models import ClockTick, Event, Match, Seat
from games.core.state import liveness, reads, cache as table_cache
from tests.core.helpers import seated_match, turn_of, users_by_seat

pytestmark = pytest.mark.django_db

DOWN = timedelta(minutes=10)


@pytest.fixture
def users(make_player):
    return [make_player(name).user for name in ("alice", "bob", "carol", "dave")]


@pytest.fixture(autouse=True)
def _clock_settings(settings):
    settings.BASRA_ABSENT_GRACE_SECONDS = 60
    settings.BASRA_CLOCK_OUTAGE_SECONDS = 5
    # The exact time given back; the reconnect allowance has its own test.
    settings.BASRA_RECONNECT_SECONDS = 0


def run_clock(start: datetime, end: datetime, step: timedelta = timedelta(seconds=1)) -> int:
    """Tick every ``step`` from ``start`` to ``end`` included (a clock that keeps running)."""
    actions, now = 0, start
    while now <= end:
        actions += clock.tick(now=now)
        now += step
    return actions


def log_of(match: Match) -> list[tuple]:
    return list(Event.objects.filter(match=match).order_by("seq").values_list("seq", "kind", "seat"))


def last_tick() -> datetime:
    return ClockTick.objects.get(pk=ClockTick.ONE).last_tick


def test_a_restart_longer_than_the_grace_makes_nobody_absent_in_four_players(users, known_decks):
    match = seated_match(users)
    t = match.started_at
    deadline, events = match.deadline, log_of(match)
    assert clock.tick(now=t) == 0
    before = last_tick()
    # The server is down for ten minutes: no socket, no heartbeat, no tick.
    back = t + DOWN
    assert clock.tick(now=back) == 0
    assert log_of(match) == events  # no absence, no takeover, no timeout play
    match.refresh_from_db()
    assert match.deadline == deadline + (back - before)
    seats = Seat.objects.filter(match=match)
    assert [(s.absent, s.bot, s.timeouts) for s in seats] == [(False, "", 0)] * 4
    assert {s.last_seen for s in seats} == {back}  # the grace starts again at the return
    # Back to normal: the person to move has the time they had left, then times out.
    mover = turn_of(match)
    assert run_clock(back, match.deadline - timedelta(seconds=1)) == 0
    assert clock.tick(now=match.deadline) == 1
    play = Event.objects.filter(match=match).order_by("-seq").first()
    assert (play.kind, play.seat, play.payload["timeout"]) == ("play", mover, True)


def test_a_move_deadline_that_passed_while_down_is_not_a_timeout(users, known_decks):
    match = seated_match(users[:2])
    t = match.started_at
    seq, deadline = match.seq, match.deadline
    assert clock.tick(now=t + timedelta(seconds=10)) == 0  # 20 of the 30 seconds left
    before = last_tick()
    back = t + DOWN
    assert back > deadline + timedelta(minutes=9)
    assert clock.tick(now=back) == 0
    match.refresh_from_db()
    assert match.seq == seq
    assert match.deadline == deadline + (back - before)
    assert match.deadline - back < timedelta(seconds=20)
    assert match.deadline - back > timedelta(seconds=19)
    # A second tick at once is no outage: nothing moves twice.
    assert clock.tick(now=back) == 0
    match.refresh_from_db()
    assert match.deadline == deadline + (back - before)
    # The person plays in time after the restart: an ordinary play.
    mover = users_by_seat(match)[turn_of(match)]
    card = reads.table_state(match_id=match.pk, user=mover)["round"]["hand"][0]
    actions.play_card(user=mover, match_id=match.pk, card=card, seq=seq,
                       now=back + timedelta(seconds=5))
    assert Event.objects.filter(match=match, kind="play", payload__timeout=True).count() == 0


def test_a_deadline_set_while_only_the_clock_was_down_gets_no_extra_time(users, known_decks):
    match = seated_match(users[:2])
    t = match.started_at
    assert clock.tick(now=t) == 0
    # The clock process is stopped; the site runs on and the person to move plays at t + 5 min.
    mover = users_by_seat(match)[turn_of(match)]
    card = reads.table_state(match_id=match.pk, user=mover)["round"]["hand"][0]
    played_at = t + timedelta(minutes=5)
    actions.play_card(user=mover, match_id=match.pk, card=card, seq=match.seq, now=played_at)
    match.refresh_from_db()
    assert match.deadline == played_at + timedelta(seconds=30)
    back = t + DOWN
    assert clock.tick(now=back) == 0
    match.refresh_from_db()
    # Moved on, but never past one whole time per play from the clock's return.
    assert match.deadline == back + timedelta(seconds=30)


def test_a_computer_to_move_plays_soon_after_a_restart(users, known_decks):
    match = actions.create_table(user=users[0], players=2, rules={}, rated=False,
                                  bots={1: "greedy"})
    match.refresh_from_db()
    t = match.started_at
    assert clock.tick(now=t) == 0
    back = t + DOWN
    assert clock.tick(now=back) == 0  # its delay is given back, not played out at once
    match.refresh_from_db()
    assert back < match.deadline <= back + timedelta(seconds=1.5)
    assert clock.tick(now=match.deadline) == 1
    play = Event.objects.filter(match=match).order_by("-seq").first()
    assert (play.kind, play.seat, play.payload["bot"]) == ("play", 1, "greedy")


def test_a_player_who_left_while_the_clock_ran_is_still_absent(users, known_decks):
    match = seated_match(users)
    t = match.started_at
    # Everybody's socket keeps beating but bob's (seat 2, alice's partner).
    bob = users_by_seat(match)[2]
    for user in users_by_seat(match).values():
        if user != bob:
            actions.player_seen(match_id=match.pk, user=user, now=t + timedelta(seconds=55))
    with pytest.MonkeyPatch.context() as patch:
        # Nobody times out meanwhile: only the absence is watched.
        patch.setattr(actions, "act_on_deadline", lambda **kwargs: False)
        assert run_clock(t, t + timedelta(seconds=60)) == 0
        assert run_clock(t + timedelta(seconds=61), t + timedelta(seconds=61)) == 1
    kinds = [(e.kind, e.seat) for e in Event.objects.filter(match=match, seq__gt=match.seq)]
    assert kinds == [("absent", 2), ("bot_takeover", 2)]
    bob_seat = Seat.objects.get(match=match, seat=2)
    assert (bob_seat.absent, bob_seat.bot) == (True, "greedy")


def test_an_absent_player_stays_absent_across_a_restart(users, known_decks):
    match = seated_match(users[:2])
    Match.objects.filter(pk=match.pk).update(move_seconds=None, deadline=None)
    t = match.started_at
    actions.player_seen(match_id=match.pk, user=users[0], now=t + timedelta(seconds=50))
    assert run_clock(t, t + timedelta(seconds=61)) == 1  # bob is absent
    events = log_of(match)
    assert clock.tick(now=t + DOWN) == 0
    assert log_of(match) == events  # no "returned" that did not happen
    assert Seat.objects.get(match=match, seat=1).absent is True
    assert Seat.objects.get(match=match, seat=0).last_seen == t + DOWN


def test_the_run_clock_command_gives_the_time_back_after_a_stop(users, known_decks):
    match = seated_match(users[:2])
    now = timezone.now()
    # The clock last ticked ten minutes ago; the person's time ran out meanwhile.
    ClockTick.objects.create(pk=ClockTick.ONE, last_tick=now - DOWN)
    Match.objects.filter(pk=match.pk).update(deadline=now - DOWN + timedelta(seconds=10))
    Seat.objects.filter(match=match).update(last_seen=now - DOWN)
    table_cache.clear_caches()
    events = log_of(match)
    call_command("run_clock", "--once")
    match.refresh_from_db()
    assert log_of(match) == events  # no timeout play, no absence
    assert match.deadline > now
    assert not Seat.objects.filter(match=match, absent=True).exists()
    assert last_tick() > now


def test_the_clock_stands_still_while_the_web_servers_are_down(users, known_decks):
    # The helper's report: daphne stopped, run_clock kept running; it played timeouts and
    # marked everybody absent. The servers' beat (WebTick) stops with them.
    match = seated_match(users[:2])
    t = match.started_at
    liveness.web_seen(now=t)
    assert clock.tick(now=t) == 0
    seq, deadline, events = match.seq, match.deadline, log_of(match)
    before = last_tick()
    # The web servers are gone; the clock goes on ticking every second for ten minutes.
    assert run_clock(t + timedelta(seconds=6), t + DOWN) == 0
    assert log_of(match) == events  # no timeout, no absence
    assert last_tick() == t <= before  # the clock counts as stopped since the last beat
    # A server is back (its sockets beat): the tables get the time back, as after a restart,
    # all of it since the servers went silent.
    back = t + DOWN + timedelta(seconds=1)
    liveness.web_seen(now=back)
    assert clock.tick(now=back) == 0
    match.refresh_from_db()
    assert match.seq == seq
    assert match.deadline == deadline + (back - t)
    seats = Seat.objects.filter(match=match)
    assert [(s.absent, s.timeouts) for s in seats] == [(False, 0)] * 2
    # And the clock runs again: the person to move times out when their time is over.
    mover = turn_of(match)
    for second in range(0, 31):
        liveness.web_seen(now=back + timedelta(seconds=second))
        clock.tick(now=back + timedelta(seconds=second))
    play = Event.objects.filter(match=match).order_by("-seq").first()
    assert (play.kind, play.seat, play.payload["timeout"]) == ("play", mover, True)


def test_without_any_web_beat_yet_the_clock_runs_on_its_own_time(users, known_decks):
    match = seated_match(users[:2])
    assert liveness.web_last_seen() is None
    mover = turn_of(match)
    assert run_clock(match.started_at, match.deadline) == 1  # the timeout, no server needed
    play = Event.objects.filter(match=match).order_by("-seq").first()
    assert (play.kind, play.seat, play.payload["timeout"]) == ("play", mover, True)


def test_a_deadline_just_after_the_servers_went_silent_waits_for_them(users, known_decks):
    # Servers killed 3 s before a deadline: the time they were down is given back before the
    # clock may time the player out.
    match = seated_match(users[:2])
    deadline = match.deadline
    liveness.web_seen(now=deadline - timedelta(seconds=3))  # their last beat
    assert run_clock(deadline - timedelta(seconds=3), deadline + timedelta(seconds=4)) == 0
    assert not Event.objects.filter(match=match, kind="play").exists()
    back = deadline + timedelta(minutes=2)
    liveness.web_seen(now=back)
    assert clock.tick(now=back) == 0
    match.refresh_from_db()
    assert match.deadline == back + timedelta(seconds=3)  # the 3 s they had left


def test_an_open_socket_brings_an_absent_player_back(users, known_decks):
    # A server stalled past the grace: its player, their socket open again, is not left absent
    # (absent and not to move, they could only watch the opponent claim).
    match = seated_match(users[:2])
    later = match.started_at + timedelta(minutes=5)
    away = users_by_seat(match)[0]
    actions.player_seen(match_id=match.pk, user=users_by_seat(match)[1], now=later)
    assert actions.mark_absent(match_id=match.pk, now=later) == 1
    assert Seat.objects.get(match=match, seat=0).absent
    seqs = actions.heartbeats(seated=[(match.pk, away.pk)], tables=[match.pk], now=later)
    assert not Seat.objects.get(match=match, seat=0).absent
    assert seqs == {match.pk: Match.objects.get(pk=match.pk).seq}
    assert Event.objects.filter(match=match).order_by("-seq").first().kind == "returned"


# --- what the clock logs ----------------------------------------------------------------------

def gap_logs(caplog) -> list[tuple[str, str]]:
    return [
        (r.levelname, r.getMessage()) for r in caplog.records
        if r.name == "games.core.clock.clock" and "got that time back" in r.getMessage()
    ]


def test_a_clock_starting_after_a_stop_does_not_log_an_outage(users, known_decks, caplog):
    """The clock stopped last night (``make run`` ended) and starts now: the tables get the
    time back, and that is INFO, not the "no tick" warning of an outage."""
    seated_match(users[:2])
    t0 = timezone.now()
    run_clock(t0, t0 + timedelta(seconds=2))
    caplog.clear()
    caplog.set_level("INFO", logger="games.core.clock.clock")
    restart = t0 + timedelta(hours=9)
    clock.tick(now=restart, since=restart)
    assert gap_logs(caplog) == [
        ("INFO", "clock: started after 8:59:58 stopped; the tables got that time back")
    ]


def test_an_outage_while_the_clock_runs_is_a_warning(users, known_decks, caplog):
    seated_match(users[:2])
    t0 = timezone.now()
    caplog.set_level("INFO", logger="games.core.clock.clock")
    clock.tick(now=t0, since=t0)
    clock.tick(now=t0 + timedelta(seconds=1), since=t0)
    assert gap_logs(caplog) == []  # ticking at its pace: nothing to log
    clock.tick(now=t0 + timedelta(seconds=61), since=t0)  # the database was down for a minute
    assert gap_logs(caplog) == [("WARNING", "clock: no tick for 0:01:00; the tables got that time back")]


def test_run_clock_once_from_cron_logs_no_outage(users, known_decks, caplog):
    seated_match(users[:2])
    clock.tick(now=timezone.now() - timedelta(minutes=1))
    caplog.set_level("INFO", logger="games.core.clock.clock")
    call_command("run_clock", "--once")
    assert [level for level, _message in gap_logs(caplog)] == ["INFO"]


def test_a_person_to_move_gets_time_to_reconnect_after_a_restart(users, known_decks, settings):
    # At a 10 s table the page takes 6-8 s to find a restarted server: the clock must not run
    # meanwhile, or the computer plays the turn as a timeout.
    settings.BASRA_RECONNECT_SECONDS = 5
    match = seated_match(users[:2])
    t = match.started_at
    deadline = match.deadline
    assert clock.tick(now=t + timedelta(seconds=10)) == 0  # 20 of the 30 seconds left
    before = last_tick()
    back = t + DOWN
    assert clock.tick(now=back) == 0
    match.refresh_from_db()
    assert match.deadline == deadline + (back - before) + timedelta(seconds=5)
    # The page is back 6 s later: the person still has their 20 seconds (and a little more).
    assert run_clock(back + timedelta(seconds=1), back + timedelta(seconds=24)) == 0
    assert not Event.objects.filter(match=match, kind="play").exists()


def test_a_computer_to_move_gets_no_reconnect_time(users, known_decks, settings):
    settings.BASRA_RECONNECT_SECONDS = 5
    match = seated_match(users[:2])
    Seat.objects.filter(match=match, seat=turn_of(match)).update(bot="greedy")
    table_cache.clear_caches()
    t = match.started_at
    assert clock.tick(now=t) == 0
    back = t + DOWN
    assert clock.tick(now=back) == 0
    match.refresh_from_db()
    assert match.deadline <= back + timedelta(seconds=max(settings.BASRA_BOT_DELAY_SECONDS))
