"""The analysis: the expert's choice from the seat's own view, points and chance lost, grades,
accuracy, luck, the job."""

from __future__ import annotations

import dataclasses
import functools
import math
import random

import pytest
from django.test import Client
from django.urls import reverse

from games import engine
from games.engine.bots import ExpertBot
from games.replays import analysis, jobs
from games.replays.models import Analysis


def deck_with(top: str) -> list[str]:
    """A deck whose first cards are ``top`` (codes), the rest in the canonical order."""
    first = top.split()
    return first + [c.code for c in engine.full_deck() if c.code not in first]


def constructed_view() -> engine.SeatView:
    """Seat 1 to play first, holding 10H KS 6C QD, the floor 2C 3D AH 4S (RULES.md, "Dealing":
    dealer 0 deals deck[0:4] to seat 1, deck[4:8] to seat 0, then the floor)."""
    match = engine.Match(engine.Rules(), dealer=0)
    match.start_round(deck_with("10H KS 6C QD 5C 8D 9S 7H 2C 3D AH 4S"))
    assert [c.code for c in match.round.floor] == ["2C", "3D", "AH", "4S"]
    return match.view(1)


def test_the_known_best_play_is_found():
    view = constructed_view()
    # 10H takes the whole floor (2 + 3 + 1 + 4): a basra, 10 points and five cards.
    best = analysis.analyse_view(view, "10H")
    assert best["best"] == "10H" and best["loss"] == 0 and not best["forced"]
    worse = analysis.analyse_view(view, "KS")
    assert worse["best"] == "10H"
    assert worse["loss"] > 8  # the basra's 10 points, give or take the rest of the deal
    assert set(worse["values"]) == {"10H", "KS", "6C", "QD"}


def test_a_forced_play_loses_nothing():
    match = engine.Match(engine.Rules(), dealer=0)
    match.start_round(deck_with("10H KS 6C QD 5C 8D 9S 7H 2C 3D AH 4S"))
    for _ in range(7):
        match.play(match.round.legal_plays()[0])
    view = match.view(match.round.turn)
    assert len(view.hand) == 1
    found = analysis.analyse_view(view, view.hand[0].code)
    assert found == {"best": view.hand[0].code, "loss": 0.0, "values": {}, "forced": True,
                     "samples": 0, "chance": None, "chance_loss": 0.0, "grade": None}


def test_the_view_is_all_it_reads():
    """The analysis of a play depends only on the seat's view: two deals that differ only in
    cards the seat cannot see give the same answer."""
    a = engine.Match(engine.Rules(), dealer=0)
    a.start_round(deck_with("10H KS 6C QD 5C 8D 9S 7H 2C 3D AH 4S"))
    b = engine.Match(engine.Rules(), dealer=0)
    b.start_round(deck_with("10H KS 6C QD 5D 8H 9C 7S 2C 3D AH 4S"))
    # A clock that stands still: the sampled deals alone decide, not how many a loaded machine
    # got through within the time limit (then the values differ in a decimal).
    same = {"clock": lambda: 0.0}
    assert analysis.analyse_view(a.view(1), "6C", **same) == analysis.analyse_view(
        b.view(1), "6C", **same
    )


def test_summary_counts_grades_and_accuracy_per_seat():
    plays = [
        {"seat": 0, "loss": 0.0, "chance_loss": 0.0, "grade": None},
        {"seat": 1, "loss": 5.0, "chance_loss": 6.0, "grade": "inaccuracy"},
        {"seat": 0, "loss": 2.0, "chance_loss": 1.0, "grade": None},
        {"seat": 1, "loss": 0.5, "chance_loss": 0.2, "grade": None},
        {"seat": 1, "loss": 9.0, "chance_loss": 25.0, "grade": "blunder"},
        {"seat": 0, "loss": 0.0, "forced": True, "chance_loss": 0.0, "grade": None},
    ]
    got = analysis.summary(plays, 2)
    assert got[0] == {"seat": 0, "plays": 3, "mean_loss": 0.67, "total_loss": 2.0,
                      "accuracy": round((100.0 + analysis.accuracy(1.0)) / 2, 1),
                      "inaccuracies": 0, "mistakes": 0, "blunders": 0, "worst": [2]}
    assert got[1]["worst"] == [4, 1] and got[1]["mean_loss"] == 4.83
    assert (got[1]["inaccuracies"], got[1]["mistakes"], got[1]["blunders"]) == (1, 0, 1)
    assert got[1]["accuracy"] < got[0]["accuracy"]


def test_accuracy_follows_lichess():
    assert analysis.accuracy(0.0) == pytest.approx(100.0, abs=1e-3)
    assert analysis.accuracy(10.0) == pytest.approx(103.1668 * math.exp(-0.4354) - 3.1669)
    assert analysis.accuracy(100.0) == 0.0


def test_grades_by_chance_and_by_points_when_the_match_is_decided():
    assert analysis.grade(60.0, 56.0, 3.0) is None
    assert analysis.grade(60.0, 55.0, 3.0) == "inaccuracy"
    assert analysis.grade(60.0, 50.0, 3.0) == "mistake"
    assert analysis.grade(60.0, 40.0, 3.0) == "blunder"
    # Decided: the chances say nothing, the points do.
    assert analysis.grade(99.9, 99.5, 16.0) == "blunder"
    assert analysis.grade(0.3, 0.1, 3.0) is None


def test_the_winning_chance_grows_with_the_value_and_the_lead():
    view = constructed_view()
    assert analysis.win_chance(view, 0.0) == pytest.approx(50.0)
    assert analysis.win_chance(view, 10.0) > 50.0 > analysis.win_chance(view, -10.0)
    ahead = dataclasses.replace(view, scores=(0, 90))  # seat 1's side leads by 90
    assert analysis.win_chance(ahead, 0.0) > 95.0


def test_luck_is_what_the_plays_do_not_explain():
    plays = [{"round": 0, "seat": s % 2, "loss": 0.0} for s in range(46)]
    plays += [{"round": 0, "seat": 0, "loss": 4.0}, {"round": 0, "seat": 1, "loss": 10.0}]
    # Side 0 won by 20 but side 1 gave 6 more points away: the cards gave side 0 14.
    assert analysis.luck(plays, (100, 80)) == [14.0, -14.0]
    # A round left unfinished (no score for it) counts no losses.
    unfinished = plays + [{"round": 1, "seat": 1, "loss": 30.0}]
    assert analysis.luck(unfinished, (100, 80)) == [14.0, -14.0]


def expert_self_play(seed: int, iterations: int) -> dict:
    """A short two-player match the expert plays against itself, as a record."""
    rng = random.Random(seed)
    bots = [ExpertBot(seed=seed, iterations=iterations, clock=lambda: 0.0) for _ in range(2)]
    m = engine.Match(engine.Rules(target=20), dealer=0)
    while not m.over:
        deck = engine.full_deck()
        rng.shuffle(deck)
        m.start_round(deck)
        while not m.round.over:
            seat = m.round.turn
            m.play(bots[seat].choose(m.view(seat)), seat=seat)
    return m.to_record(["a", "b"])


def test_the_experts_own_plays_score_100():
    record = expert_self_play(5, 60)
    found = analysis.analyse_record(record, seed=5, iterations=60, clock=lambda: 0.0)
    assert all(p["loss"] == 0 for p in found["plays"])
    assert [p["accuracy"] for p in found["players"]] == [100.0, 100.0]
    assert len(found["curve"]) == len(found["plays"]) + 1
    # Another seed judges with other deals: some plays lose, accuracy falls below 100.
    other = analysis.analyse_record(record, seed=6, iterations=60, clock=lambda: 0.0)
    assert min(p["accuracy"] for p in other["players"]) < 100.0


@pytest.mark.django_db
def test_an_analysis_runs_in_the_background_and_is_stored(played, users, settings, monkeypatch,
                                                          django_capture_on_commit_callbacks):
    settings.BASRA_ANALYSIS_IN_SERVER = False  # the test runs the worker's step itself
    # The job is what is tested, not the judge's strength: 100 iterations a play instead of the
    # site's 4,000 (a quarter of a second a play, tens of seconds for this match).
    monkeypatch.setattr(jobs.analysis, "analyse_record",
                        functools.partial(analysis.analyse_record, iterations=100))
    match = played[1]  # four players to 31
    client = Client()
    client.force_login(users[0])
    url = reverse("replays:match_analysis", kwargs={"match_id": match.pk})
    assert client.get(url).status_code == 404
    response = client.post(url)
    assert response.status_code == 202 and response.json()["status"] == "pending"
    row = Analysis.objects.get(match=match)
    assert jobs.run_pending() == 1
    row.refresh_from_db()
    assert row.status == Analysis.Status.DONE
    plays = sum(1 for _ in analysis.tasks(jobs.record_of(row)))
    assert row.done == row.total == plays == len(row.result["plays"])
    body = client.get(url).json()
    assert body["status"] == "done" and len(body["result"]["players"]) == 4
    assert all(p["loss"] >= 0 for p in body["result"]["plays"])
    # Every play that lost more than the noise says what it gave up, in words.
    for p in body["result"]["plays"]:
        assert ("labels" in p) == (p["loss"] > analysis.NOISE and p["best"] != p["card"])
    # Asked again: the stored one, not a second run.
    assert client.post(url).json()["status"] == "done"
    assert jobs.run_pending() == 0


@pytest.mark.django_db
def test_no_analysis_of_a_match_being_played(played, users):
    playing = played[-1]
    client = Client()
    client.force_login(users[0])
    response = client.post(reverse("replays:match_analysis", kwargs={"match_id": playing.pk}))
    assert response.status_code == 404
    assert not Analysis.objects.exists()
