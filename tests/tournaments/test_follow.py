"""Endings do only the ending's work (issue 20): a match's ending records the tournament's
result rows; the tables that follow (the next round, the next match of a best of three, an
aborted match set up again, an arena wave) are opened after its commit, by
``scheduler.catch_up``, woken on the commit (``follow.wake``) and run by every tick."""

from __future__ import annotations

import asyncio
import threading

import pytest
from django.db import connection
from channels.db import database_sync_to_async
from django.db import transaction

from games.core import actions
from games.core.models import Match
from games.tournaments import follow, scheduler, services
from games.tournaments.models import Game, Pairing, Round, Tournament
from tests.core.helpers import eventually
from tests.tournaments.helpers import by_name, enter, event, live_games, refresh, users


def swiss_with_one_table_left(size: int = 6):
    """A Swiss event of ``size`` players whose first round has one table still being played
    (every other table lost by the player whose name sorts last); returns ``(event, game)``."""
    org, *ps = users("org", *[f"p{i}" for i in range(1, size + 1)])
    t = event(org, "swiss", swiss_rounds=3)
    enter(t, ps)
    services.start(user=org, tournament_id=t.pk)
    *others, last = live_games(t)
    for game in others:
        actions.resign(user=by_name(game).user, match_id=game.match_id)
    services.catch_up(t.pk)
    assert refresh(t).current_round == 1
    return t, last


@pytest.mark.django_db
def test_the_last_ending_of_a_round_writes_its_result_and_opens_nothing(
    django_capture_on_commit_callbacks,
):
    t, last = swiss_with_one_table_left()
    matches, rounds = Match.objects.count(), Round.objects.count()
    woken = []
    previous = follow.install(woken.append)
    try:
        with django_capture_on_commit_callbacks() as callbacks:
            with transaction.atomic():
                actions.resign(user=by_name(last).user, match_id=last.match_id)
                # Inside the ending's transaction: the result rows, and no table, no round.
                assert Pairing.objects.get(pk=last.pairing_id).finished
                assert (Match.objects.count(), Round.objects.count()) == (matches, rounds)
        assert woken == []  # nothing before the commit
        for callback in callbacks:
            callback()
    finally:
        follow.install(previous)
    assert woken == [t.pk]  # the commit wakes the step, for this event
    assert refresh(t).current_round == 1 and Match.objects.count() == matches
    services.catch_up(t.pk)
    assert refresh(t).current_round == 2 and len(live_games(t)) == 3


@pytest.mark.django_db
def test_a_rolled_back_ending_wakes_nothing():
    t, last = swiss_with_one_table_left()
    woken = []
    previous = follow.install(woken.append)
    try:
        with pytest.raises(RuntimeError), transaction.atomic():
            actions.resign(user=by_name(last).user, match_id=last.match_id)
            raise RuntimeError("rolled back")
    finally:
        follow.install(previous)
    assert woken == []
    assert not Pairing.objects.get(pk=last.pairing_id).finished
    services.catch_up(t.pk)
    assert refresh(t).current_round == 1  # the round goes on: its table is still played


@pytest.mark.django_db
def test_the_step_twice_opens_one_round():
    t, last = swiss_with_one_table_left()
    actions.resign(user=by_name(last).user, match_id=last.match_id)
    services.catch_up(t.pk)
    matches = Match.objects.count()
    assert services.catch_up(t.pk) == {"finished": 0, "tables": 0}
    services.catch_up()
    assert Round.objects.filter(tournament=t).count() == 2 and Match.objects.count() == matches


@pytest.mark.django_db
def test_a_tick_finishes_what_a_crash_after_the_commit_left():
    # The ending committed (here: no waker, as in a process that stopped before the step).
    t, last = swiss_with_one_table_left()
    actions.resign(user=by_name(last).user, match_id=last.match_id)
    assert refresh(t).current_round == 1
    services.tick()
    assert refresh(t).current_round == 2 and len(live_games(t)) == 3
    first = Round.objects.get(tournament=t, number=1)
    last_result = max(Pairing.objects.filter(round=first).values_list("finished_at", flat=True))
    assert first.finished_at == last_result  # the round ended at its last result


@pytest.mark.django_db
def test_the_next_match_of_a_best_of_three_comes_after_the_commit():
    org, p1, p2 = users("org", "p1", "p2")
    t = event(org, "knockout", best_of=3)
    enter(t, [p1, p2])
    services.start(user=org, tournament_id=t.pk)
    (game,) = live_games(t)
    actions.resign(user=by_name(game).user, match_id=game.match_id)
    assert live_games(t) == [] and Game.objects.filter(pairing=game.pairing).count() == 1
    services.tick()
    services.catch_up(t.pk)
    (second,) = live_games(t)
    assert second.pairing_id == game.pairing_id and second.number == 2
    assert second.a_side == 1 - game.a_side  # sides swapped
    assert Game.objects.filter(pairing=game.pairing).count() == 2


@pytest.mark.django_db
def test_an_organisers_forfeit_that_ends_a_round_pairs_the_next_after_the_commit():
    org, *ps = users("org", "a", "b", "c", "d")
    t = event(org, "round_robin")
    enter(t, ps)
    services.start(user=org, tournament_id=t.pk)
    first, second = live_games(t)
    actions.resign(user=by_name(first).user, match_id=first.match_id)
    services.catch_up(t.pk)
    services.record_forfeit(user=org, pairing_id=second.pairing_id, winner_id=second.pairing.a_id)
    assert refresh(t).current_round == 1
    services.catch_up(t.pk)
    assert refresh(t).current_round == 2 and len(live_games(t)) == 2


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_the_servers_scheduler_is_woken_by_the_commit_and_pairs_on_its_own_thread(monkeypatch):
    t, last = await database_sync_to_async(swiss_with_one_table_left)()
    threads = []
    catch_up = scheduler.catch_up

    def recorded(*args, **kwargs):
        threads.append(threading.current_thread().name)
        return catch_up(*args, **kwargs)

    monkeypatch.setattr(scheduler, "catch_up", recorded)
    # No tick at all (with Redis, run_tournaments ticks): only the wake can pair the round.
    stop = scheduler.start_in_server(None, in_process=False)
    try:
        await database_sync_to_async(actions.resign)(user=by_name(last).user, match_id=last.match_id)

        def paired() -> bool:
            return Tournament.objects.get(pk=t.pk).current_round == 2

        await eventually(lambda: threads)  # woken at once: no tick, no sleep
        for _ in range(3000):  # a bound on a hang only (30 s), nothing asserted on time
            if await database_sync_to_async(paired)():
                break
            await asyncio.sleep(0.01)
        else:
            raise AssertionError("the round was not paired")
    finally:
        await stop()
    if connection.vendor != "sqlite":  # SQLite: the one writer, the sockets' database thread
        assert threads[0].startswith("basra-tournaments")  # not a socket's database thread
    assert follow.install(None) is None  # stopping uninstalled the waker

