"""Whole events of each format played through the services and the core's actions (issue 13):
tables for two and for four, byes, withdrawals, late entries, aborted matches, the arena's end."""

from __future__ import annotations

from collections import Counter
from datetime import timedelta

import pytest
from django.db.models import Q
from django.utils import timezone

from games.core import actions
from games.core.models import Match
from games.tournaments import services
from games.tournaments.models import Entrant, Game, Pairing, Tournament
from tests.tournaments.helpers import (
    started_arena,
    enter,
    event,
    live_games,
    pairings,
    play_out,
    play_round,
    refresh,
    users,
)

pytestmark = pytest.mark.django_db


def names(lines) -> list[str]:
    return [line.entrant.user.username for line in lines]


def test_round_robin_of_four_plays_every_berger_round_and_ranks_by_score():
    org, *ps = users("org", "p1", "p2", "p3", "p4")
    t = event(org, "round_robin")
    enter(t, ps)
    services.start(user=org, tournament_id=t.pk)
    assert len(live_games(t)) == 2  # round 1 tables are open at once
    played = play_out(t)
    t = refresh(t)
    assert played == 6 and t.status == Tournament.Status.FINISHED and t.current_round == 3
    met = Counter(frozenset((p.a_id, p.b_id)) for p in Pairing.objects.filter(tournament=t))
    assert len(met) == 6 and set(met.values()) == {1}  # everyone met everyone once
    lines = services.standings(t)
    assert names(lines) == ["p1", "p2", "p3", "p4"]
    assert [line.score for line in lines] == [3, 2, 1, 0]
    # Every match of the event went through the core and ended by resignation.
    assert set(Match.objects.filter(tournament_game__pairing__tournament=t).values_list("result", flat=True)) == {"resign"}


def test_double_round_robin_of_three_gives_byes_as_wins_and_reverses_seats():
    org, *ps = users("org", "p1", "p2", "p3")
    t = event(org, "round_robin", double_round_robin=True)
    enter(t, ps)
    services.start(user=org, tournament_id=t.pk)
    play_out(t)
    t = refresh(t)
    assert t.status == Tournament.Status.FINISHED and t.current_round == 6
    byes = Counter(p.a.user.username for p in Pairing.objects.filter(tournament=t, b__isnull=True))
    assert byes == {"p1": 2, "p2": 2, "p3": 2}
    firsts = Counter(
        (p.a_id, p.b_id) for p in Pairing.objects.filter(tournament=t, b__isnull=False)
    )
    # Each pair met twice, once each way round.
    assert all(firsts[(b, a)] == 1 for (a, b) in firsts)
    lines = services.standings(t)
    assert names(lines) == ["p1", "p2", "p3"]
    assert [line.score for line in lines] == [6, 4, 2]  # 2 byes each (a win) + 4, 2, 0


def test_knockout_of_six_with_byes_third_place_and_best_of_three():
    org, *ps = users("org", "p1", "p2", "p3", "p4", "p5", "p6")
    t = event(org, "knockout", third_place=True, best_of=3)
    enter(t, ps)
    services.start(user=org, tournament_id=t.pk)
    first = pairings(t, 1)
    assert [(p.a.seed, p.b.seed if p.b else None) for p in first] == [(1, None), (4, 5), (2, None), (3, 6)]
    assert all(p.winner_id == p.a_id for p in first if p.b_id is None)  # byes are wins
    sides = []
    played = play_out(t, on_game=lambda g: sides.append((g.pairing_id, g.a_side)))
    t = refresh(t)
    assert t.status == Tournament.Status.FINISHED and t.current_round == 3
    # Best of 3 with the better player winning: 2 matches a pairing, sides swapped in the second.
    per_pairing = Counter(pid for pid, _ in sides)
    assert set(per_pairing.values()) == {2}
    assert played == 2 * (2 + 2 + 1 + 1)  # round 1: 2 real pairings; semis 2; final; third place
    assert {s for _, s in sides} == {0, 1}
    final = pairings(t, 3)
    assert [({p.a.user.username, p.b.user.username}, p.third_place) for p in final] == [
        ({"p1", "p2"}, False), ({"p3", "p4"}, True)
    ]
    lines = services.standings(t)
    assert names(lines)[:4] == ["p1", "p2", "p3", "p4"]
    assert [line.rank for line in lines] == [1, 2, 3, 4, 5, 5]
    # The champion is named as such; the final's loser reached the final.
    assert [line.reached for line in lines[:2]] == ["Winner", "Final"]


def test_knockout_of_partnerships_at_tables_for_four():
    org, *ps = users("org", *[f"p{i}" for i in range(1, 9)])
    t = event(org, "knockout", players=4)
    entrants = enter(t, ps)
    assert all(e.status == Entrant.Status.ACTIVE for e in entrants)
    services.start(user=org, tournament_id=t.pk)
    assert {g.match.players for g in live_games(t)} == {4}
    play_out(t)
    t = refresh(t)
    assert t.status == Tournament.Status.FINISHED
    lines = services.standings(t)
    assert lines[0].entrant.user.username == "p1" and lines[0].entrant.partner.username == "p2"


def test_swiss_with_a_bye_a_late_entry_and_a_withdrawal():
    org, *ps = users("org", "p1", "p2", "p3", "p4", "p5", "p6", "p7")
    t = event(org, "swiss", swiss_rounds=5)
    enter(t, ps[:5])
    services.start(user=org, tournament_id=t.pk)
    r1 = pairings(t, 1)
    bye = [p for p in r1 if p.b_id is None]
    assert len(bye) == 1 and bye[0].score_a == 1.0  # odd count: a bye, scored as a win
    # Late entry is open while fewer than half the rounds (2.5 of 5) have started.
    late = services.register(user=ps[5], tournament_id=t.pk)
    assert late.first_round == 2
    assert play_round(t) == 2  # round 1's two matches
    assert refresh(t).current_round == 2
    later = services.register(user=ps[6], tournament_id=t.pk)
    assert later.first_round == 3
    # p5 withdraws in round 2: its pairing is forfeited, it is never paired again.
    p5 = Entrant.objects.get(tournament=t, user=ps[4])
    open_p5 = (
        Pairing.objects.filter(tournament=t, round__number=2, finished_at__isnull=True)
        .filter(Q(a=p5) | Q(b=p5)).first()
    )
    services.withdraw(user=ps[4], tournament_id=t.pk)
    if open_p5 is not None and open_p5.b_id is not None:
        open_p5.refresh_from_db()
        assert open_p5.forfeit and open_p5.winner_id != p5.pk
        match = open_p5.games.get().match
        assert match.status == Match.Status.FINISHED and match.result == "decided"
    play_round(t)
    assert refresh(t).current_round == 3  # three of five rounds started: late entry is over
    with pytest.raises(services.TournamentError) as no_more:
        services.register(user=users("p8")[0], tournament_id=t.pk)
    play_out(t)
    t = refresh(t)
    assert t.status == Tournament.Status.FINISHED and t.current_round == 5
    assert not Pairing.objects.filter(tournament=t, round__number__gt=2).filter(a=p5).exists()
    assert not Pairing.objects.filter(tournament=t, round__number__gt=2).filter(b=p5).exists()
    assert not Pairing.objects.filter(tournament=t, round__number__lt=3, a__user=ps[6]).exists()
    # Nobody had two byes while another entrant had none to give.
    byes = Counter(p.a_id for p in Pairing.objects.filter(tournament=t, b__isnull=True))
    assert max(byes.values()) == 1
    lines = {line.entrant.user.username: line for line in services.standings(t)}
    assert lines["p1"].score == 5
    assert lines["p7"].score <= 3  # zero for the two rounds it missed
    assert no_more.value.code == "registration_closed"


def test_swiss_of_partnerships():
    org, *ps = users("org", *[f"p{i}" for i in range(1, 9)])
    t = event(org, "swiss", players=4, swiss_rounds=2)
    enter(t, ps)
    services.start(user=org, tournament_id=t.pk)
    assert play_out(t) == 4
    t = refresh(t)
    assert t.status == Tournament.Status.FINISHED
    assert names(services.standings(t))[0] == "p1"


def test_arena_pairs_again_scores_streaks_and_ends_at_its_time():
    org, *ps = users("org", "p1", "p2", "p3", "p4")
    t, start = started_arena(org, ps, 30)
    assert t.ends_at == start + timedelta(minutes=30)
    assert len(live_games(t)) == 2
    lasts: dict[int, int] = {}
    for _ in range(6):  # six waves: every finished pair is paired again, never as a rematch
        for game in live_games(t):
            p = game.pairing
            assert lasts.get(p.a_id) != p.b_id
            lasts[p.a_id], lasts[p.b_id] = p.b_id, p.a_id
            play_out_one(game)
    board = services.standings(t)
    top = board[0]
    assert top.entrant.user.username == "p1" and top.points[:3] == (2, 2, 4) and top.on_fire
    assert top.score == sum(top.points)
    # Time is up: running matches finish and count; nothing new is paired; the event ends.
    running = live_games(t)
    assert running
    after = t.ends_at + timedelta(seconds=1)
    assert services.tick(now=after)["finished"] == 0  # matches still running
    before = Pairing.objects.filter(tournament=t).count()
    for game in running:
        loser = max((game.pairing.a, game.pairing.b), key=lambda e: e.user.username)
        for member in loser.members():
            actions.resign(user=member, match_id=game.match_id, now=after)
    services.catch_up(now=after)  # what follows the last result, after its commit
    assert Pairing.objects.filter(tournament=t).count() == before
    t = refresh(t)
    assert t.status == Tournament.Status.FINISHED
    assert sum(line.score for line in services.standings(t)) > sum(line.score for line in board)


def test_an_arena_of_two_pairs_them_again_after_each_match():
    """A two-player arena pairs them again after each match: with nobody else to meet, "not
    the last opponent" would keep both waiting to the end."""
    org, *ps = users("org", "p1", "p2")
    t = event(org, "arena", arena_minutes=30)
    enter(t, ps)
    services.start(user=org, tournament_id=t.pk)
    for played in range(3):
        (game,) = live_games(t)
        play_out_one(game)
    assert Pairing.objects.filter(tournament=t).count() == 4  # three played, the fourth live
    assert len(live_games(t)) == 1


def play_out_one(game: Game) -> None:
    loser = max((game.pairing.a, game.pairing.b), key=lambda e: e.user.username)
    for member in loser.members():
        if actions.resign(user=member, match_id=game.match_id) == "resigned":
            # The next wave, as the server runs it after the commit.
            services.catch_up(game.pairing.tournament_id)
            return


def test_arena_of_partnerships_ends_by_the_scheduler_when_nothing_runs():
    org, *ps = users("org", *[f"p{i}" for i in range(1, 9)])
    t = event(org, "arena", players=4, arena_minutes=5)
    enter(t, ps)
    services.start(user=org, tournament_id=t.pk)
    assert {g.match.players for g in live_games(t)} == {4}
    for game in live_games(t):
        play_out_one(game)
    t = refresh(t)
    services.pause(user=org, tournament_id=t.pk)  # no new wave while paused
    for game in live_games(t):
        play_out_one(game)
    assert not live_games(t)
    # A paused arena does not end (its end moves on by the pause): resumed, it ends at its end.
    assert services.tick(now=refresh(t).ends_at + timedelta(seconds=1))["finished"] == 0
    services.resume(user=org, tournament_id=t.pk)
    counts = services.tick(now=refresh(t).ends_at + timedelta(seconds=1))
    assert counts["finished"] == 1 and refresh(t).status == Tournament.Status.FINISHED


def test_withdrawal_before_the_start_is_free_and_during_a_round_robin_forfeits_the_rest():
    org, *ps = users("org", "p1", "p2", "p3", "p4", "p5")
    t = event(org, "round_robin")
    enter(t, ps)
    services.withdraw(user=ps[4], tournament_id=t.pk)
    assert not Entrant.objects.filter(tournament=t, user=ps[4]).exists()
    services.start(user=org, tournament_id=t.pk)
    p4 = Entrant.objects.get(tournament=t, user=ps[3])
    game = next(g for g in live_games(t) if p4.pk in (g.pairing.a_id, g.pairing.b_id))
    services.withdraw(user=ps[3], tournament_id=t.pk)
    game.refresh_from_db()
    game.match.refresh_from_db()
    assert game.match.status == Match.Status.FINISHED  # the live table was decided
    assert game.match.result == "decided" and game.winner_id not in (None, p4.pk)
    play_out(t)
    rest = Pairing.objects.filter(tournament=t).filter(a=p4) | Pairing.objects.filter(tournament=t, b=p4)
    assert rest.count() == 3 and all(p.forfeit and p.winner_id != p4.pk for p in rest)
    assert not Game.objects.filter(pairing__in=rest, pairing__round__number__gt=1).exists()
    assert refresh(t).status == Tournament.Status.FINISHED


def test_an_aborted_match_is_set_up_again():
    org, *ps = users("org", "p1", "p2")
    t = event(org, "round_robin")
    enter(t, ps)
    services.start(user=org, tournament_id=t.pk)
    (game,) = live_games(t)
    actions.abort_match(user=ps[0], match_id=game.match_id)
    assert not live_games(t)  # the ending opened no table
    services.catch_up()
    services.catch_up()  # idempotent: one match set up again, not two
    (again,) = live_games(t)
    assert Game.objects.filter(pairing=game.pairing).count() == 2
    assert again.pairing_id == game.pairing_id and again.number == 2 and again.a_side == 1
    play_out(t)
    assert refresh(t).status == Tournament.Status.FINISHED


def test_too_many_aborts_cost_the_pairing_to_the_one_who_aborted():
    """One player's repeated aborts cost the pairing to that player: the other wins it by
    forfeit (both losing it would punish the one who did nothing)."""
    from games.tournaments.checks import MAX_ABORTS

    org, *ps = users("org", "p1", "p2")
    t = event(org, "round_robin")
    enter(t, ps)
    services.start(user=org, tournament_id=t.pk)
    for _ in range(MAX_ABORTS + 1):
        (game,) = live_games(t)
        actions.abort_match(user=ps[0], match_id=game.match_id)
        services.catch_up()
    pairing = Pairing.objects.get(tournament=t)
    assert pairing.forfeit and pairing.winner is not None
    assert pairing.winner.user == ps[1]


def test_matches_played_to_the_target_pair_the_next_round_from_the_finishing_play():
    """Results by play (the compare-and-set way, the table kept in this process): the last play
    of a round's last match ends it and records its result; the next round's tables are opened
    by the step after the commit (``services.catch_up``), not inside the ending."""
    from games.core.actions import funnel
    from tests.core.helpers import play_out as play_match

    org, *ps = users("org", "p1", "p2", "p3", "p4")
    t = event(org, "knockout")
    enter(t, ps)
    services.start(user=org, tournament_id=t.pk)
    before = funnel.paths["compare_and_set"]
    for game in live_games(t):
        assert play_match(game.match) > 0
        game.refresh_from_db()
        game.match.refresh_from_db()
        assert game.match.result == "target"
        winner = game.pairing.a if game.match.winner_side == game.a_side else game.pairing.b
        assert game.winner_id == winner.pk
    assert funnel.paths["compare_and_set"] > before
    assert not live_games(t) and refresh(t).current_round == 1  # nothing paired in the ending
    assert Pairing.objects.filter(tournament=t, round__number=1, finished_at__isnull=True).count() == 0
    services.catch_up()
    (final,) = live_games(t)
    assert final.pairing.round.number == 2
    assert {final.pairing.a_id, final.pairing.b_id} == set(
        Pairing.objects.filter(tournament=t, round__number=1).values_list("winner_id", flat=True)
    )
    play_match(final.match)
    assert refresh(t).status == Tournament.Status.RUNNING
    services.catch_up()
    assert refresh(t).status == Tournament.Status.FINISHED


def test_a_partnership_withdrawing_from_a_knockout_ends_its_table_and_is_out():
    org, *ps = users("org", *[f"p{i}" for i in range(1, 9)])
    t = event(org, "knockout", players=4)
    enter(t, ps)
    services.start(user=org, tournament_id=t.pk)
    quitter = Entrant.objects.get(tournament=t, user=ps[6])  # p7 & p8
    game = next(g for g in live_games(t) if quitter.pk in (g.pairing.a_id, g.pairing.b_id))
    services.withdraw(user=ps[7], tournament_id=t.pk)  # the partner may withdraw the pair
    game.match.refresh_from_db()
    assert game.match.status == Match.Status.FINISHED and game.match.result == "decided"
    pairing = Pairing.objects.get(pk=game.pairing_id)
    assert pairing.forfeit and pairing.winner_id != quitter.pk
    quitter_side = game.a_side if pairing.a_id == quitter.pk else 1 - game.a_side
    assert game.match.winner_side == 1 - quitter_side
    play_out(t)
    assert refresh(t).status == Tournament.Status.FINISHED
    assert not Pairing.objects.filter(tournament=t, round__number=2).filter(Q(a=quitter) | Q(b=quitter)).exists()


def test_the_scheduler_command_starts_an_event(capsys):
    from django.core.management import call_command

    org, a, b = users("org", "a", "b")
    t = event(org, "swiss", swiss_rounds=1, starts_in=1)
    enter(t, [a, b])
    Tournament.objects.filter(pk=t.pk).update(starts_at=timezone.now() - timedelta(seconds=1))
    call_command("run_tournaments", "--once")
    assert "started=1" in capsys.readouterr().out
    assert refresh(t).status == Tournament.Status.RUNNING and len(live_games(t)) == 1


def test_round_robin_of_three_partnerships_with_byes():
    org, *ps = users("org", *[f"p{i}" for i in range(1, 7)])
    t = event(org, "round_robin", players=4)
    enter(t, ps)
    services.start(user=org, tournament_id=t.pk)
    assert {g.match.players for g in live_games(t)} == {4}
    assert play_out(t) == 3
    t = refresh(t)
    assert t.status == Tournament.Status.FINISHED and t.current_round == 3
    assert Pairing.objects.filter(tournament=t, b__isnull=True).count() == 3
    lines = services.standings(t)
    assert [line.entrant.name for line in lines] == ["p1 & p2", "p3 & p4", "p5 & p6"]
    assert [line.score for line in lines] == [3, 2, 1]
