"""A withdrawal during the event (games/tournaments/registration.py, ``withdraw``; standings.py,
``withdrawn_last``): a fresh organiser saw a player who withdrew after being given a bye keep
its point and rank above players who played on. The entrant keeps the points of its matches
already decided, loses a bye of the round still being played, and is listed after every entrant
still in the event, marked withdrawn (FIDE C.07 16.1.1: every round after a withdrawal is a
zero-point bye)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from games.tournaments import services
from games.tournaments.models import Entrant, Pairing, Tournament
from tests.tournaments.helpers import enter, event, pairings, play_out, play_round, refresh, users

pytestmark = pytest.mark.django_db


def test_a_bye_of_the_round_still_being_played_is_lost_and_the_entrant_is_listed_last():
    org, *ps = users("org", "p1", "p2", "p3", "p4", "p5")
    t = event(org, "swiss", swiss_rounds=3)
    enter(t, ps)
    services.start(user=org, tournament_id=t.pk)
    (bye,) = [p for p in pairings(t, 1) if p.b_id is None]
    assert bye.score_a == 1.0  # a bye is a win at once, while round 1 is being played
    quitter = bye.a
    services.withdraw(user=quitter.user, tournament_id=t.pk)
    bye.refresh_from_db()
    assert bye.finished and bye.winner_id is None and bye.score_a == 0.0  # a zero-point bye
    play_out(t)
    assert refresh(t).status == Tournament.Status.FINISHED
    lines = services.standings(t)
    assert lines[-1].entrant.pk == quitter.pk and lines[-1].score == 0
    assert lines[-1].rank == len(lines) and lines[-1].entrant.status == Entrant.Status.WITHDRAWN


def test_a_bye_of_a_round_already_over_is_kept():
    org, *ps = users("org", "p1", "p2", "p3", "p4", "p5")
    t = event(org, "swiss", swiss_rounds=3)
    enter(t, ps)
    services.start(user=org, tournament_id=t.pk)
    (bye,) = [p for p in pairings(t, 1) if p.b_id is None]
    assert play_round(t) == 2
    assert refresh(t).current_round == 2  # round 1 is over, round 2 is being played
    services.withdraw(user=bye.a.user, tournament_id=t.pk)
    bye.refresh_from_db()
    assert bye.winner_id == bye.a_id and bye.score_a == 1.0
    play_out(t)
    lines = {line.entrant.pk: line for line in services.standings(t)}
    assert lines[bye.a_id].score == 1.0  # the point it earned stays: it counts for its opponents


def test_a_withdrawn_entrant_with_points_is_listed_after_every_entrant_still_in_the_event():
    """p1 wins round 1 of a round robin of four and withdraws: it keeps that point (p4, who
    plays on, ends with fewer by the board but not by forfeits), yet it is listed last and is
    never the winner; the page says why."""
    org, *ps = users("org", "p1", "p2", "p3", "p4")
    t = event(org, "round_robin")
    p1, *_ = enter(t, ps)
    services.start(user=org, tournament_id=t.pk)
    play_round(t)  # p1 beats its round-1 opponent (the name that sorts last loses)
    assert refresh(t).current_round == 2
    services.withdraw(user=ps[0], tournament_id=t.pk)
    # The others lose to the name that sorts first; p1's pairings are forfeits.
    play_out(t)
    assert refresh(t).status == Tournament.Status.FINISHED
    lines = services.standings(t)
    assert [line.entrant.user.username for line in lines][-1] == "p1"
    last = lines[-1]
    assert last.score == 1.0 and last.rank == 4
    assert min(line.score for line in lines[:-1]) <= last.score  # it would have ranked higher
    assert all(line.entrant.status == Entrant.Status.ACTIVE for line in lines[:-1])
    page = Client().get(reverse("tournament", args=[t.pk])).content.decode()
    # The event is over: the rule for withdrawing is not shown, only why p1 is last (issue 24).
    assert 'id="withdrawal-rule"' not in page and "cannot win it" not in page
    assert "Withdrawn entrants are listed after every entrant who played to the end." in page
    assert page.index("p4") < page.index('<span class="tag">withdrawn</span>')


def test_ranks_shared_by_entrants_still_in_stay_shared_and_withdrawn_ones_come_after():
    from games.tournaments.standings import Line, withdrawn_last

    def entrant(pk, status):
        return Entrant(pk=pk, status=status)

    lines = [
        Line(rank=1, entrant=entrant(1, Entrant.Status.WITHDRAWN), score=3, tiebreaks=[]),
        Line(rank=2, entrant=entrant(2, Entrant.Status.ACTIVE), score=2, tiebreaks=[]),
        Line(rank=2, entrant=entrant(3, Entrant.Status.ACTIVE), score=2, tiebreaks=[]),
        Line(rank=4, entrant=entrant(4, Entrant.Status.WITHDRAWN), score=1, tiebreaks=[]),
        Line(rank=4, entrant=entrant(5, Entrant.Status.WITHDRAWN), score=1, tiebreaks=[]),
        Line(rank=6, entrant=entrant(6, Entrant.Status.ACTIVE), score=0, tiebreaks=[]),
    ]
    assert [(line.rank, line.entrant.pk) for line in withdrawn_last(lines)] == [
        (1, 2), (1, 3), (3, 6), (4, 1), (5, 4), (5, 5),
    ]


def test_an_arena_lists_a_withdrawn_leader_last():
    org, *ps = users("org", "p1", "p2", "p3", "p4")
    t = event(org, "arena", arena_minutes=60)
    enter(t, ps)
    services.start(user=org, tournament_id=t.pk)
    play_round(t)  # p1 and p2 or p3 win: 2 points each
    leader = services.standings(t)[0].entrant
    assert services.standings(t)[0].score == 2
    services.withdraw(user=leader.user, tournament_id=t.pk)
    lines = services.standings(t)
    assert lines[-1].entrant.pk == leader.pk and lines[-1].score == 2
    assert lines[0].entrant.pk != leader.pk


def test_a_knockout_seed_with_a_bye_who_withdraws_loses_the_next_round_by_forfeit():
    """A knockout's bye carries no points: it stays, and the next round is a forfeit."""
    org, *ps = users("org", "p1", "p2", "p3")
    t = event(org, "knockout")
    seed1, *_ = enter(t, ps)
    services.start(user=org, tournament_id=t.pk)
    (bye,) = [p for p in pairings(t, 1) if p.b_id is None]
    assert bye.a.user == ps[0]
    services.withdraw(user=ps[0], tournament_id=t.pk)
    play_out(t)
    t = refresh(t)
    assert t.status == Tournament.Status.FINISHED
    final = Pairing.objects.get(tournament=t, round__number=2)
    assert final.forfeit and final.winner_id != seed1.pk
    lines = services.standings(t)
    assert lines[0].entrant.pk == final.winner_id and lines[-1].entrant.pk == seed1.pk
