"""What an arbiter publishes (issue 24): the TRF16 file against a golden file written from the
specification's column table, the CSV files, the JSON read, the crosstable and entrant pages,
and the performance rating."""

from __future__ import annotations

import csv
import io
import json
from datetime import datetime, timedelta, timezone as tz
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse

from games.tournaments import crosstable, exports
from games.tournaments.models import Entrant, Pairing, Round, Tournament
from tests.tournaments.helpers import users

GOLDEN = Path(__file__).parent / "data" / "golden_swiss.trf"
NOON = datetime(2026, 11, 20, 12, 0, tzinfo=tz.utc)


def swiss(organiser, entrants, *, name="Golden Swiss", fmt="swiss", rounds=3, status="finished"):
    """An event written row by row (no table played: only results matter here)."""
    t = Tournament.objects.create(
        organiser=organiser, name=name, format=fmt, swiss_rounds=rounds if fmt == "swiss" else None,
        starts_at=NOON, started_at=NOON, status=status, move_seconds=20, tiebreaks=[],
        finished_at=NOON + timedelta(hours=1) if status == "finished" else None,
        current_round=rounds, rules={"target": 11},
    )
    out = []
    for seed, (person, rating) in enumerate(entrants, start=1):
        out.append(Entrant.objects.create(tournament=t, user=person, rating=rating, seed=seed))
    return t, out


def result(t, number, board, a, b, winner=None, *, forfeit=False, finished=True):
    rnd, _ = Round.objects.get_or_create(
        tournament=t, number=number,
        defaults={"started_at": NOON + timedelta(minutes=30 * (number - 1))},
    )
    done = NOON + timedelta(minutes=30 * number) if finished else None
    if b is None:
        return Pairing.objects.create(tournament=t, round=rnd, board=board, a=a, score_a=1.0 if finished else None,
                                      created_at=rnd.started_at, finished_at=done)
    return Pairing.objects.create(
        tournament=t, round=rnd, board=board, a=a, b=b, winner=winner if finished else None,
        score_a=(1.0 if winner == a else 0.0) if finished else None,
        score_b=(1.0 if winner == b else 0.0) if finished else None,
        forfeit=forfeit, created_at=rnd.started_at, finished_at=done,
    )


@pytest.fixture
def golden(db):
    """Five entrants, three rounds: two byes, an upset, a forfeit, a withdrawal before round 3."""
    orga, *people = users("orga", "alice", "bob", "carol", "dave", "erin")
    t, (a, b, c, d, e) = swiss(orga, list(zip(people, [1800, 1700, 1600, 1500, 1400])))
    result(t, 1, 1, a, c, a)
    result(t, 1, 2, b, d, d)
    result(t, 1, 3, e, None)
    result(t, 2, 1, a, d, a)
    result(t, 2, 2, e, b, b)
    result(t, 2, 3, c, None)
    Entrant.objects.filter(pk=d.pk).update(status=Entrant.Status.WITHDRAWN, withdrawn_round=3)
    result(t, 3, 1, a, b, a, forfeit=True)
    result(t, 3, 2, c, e, e)
    Round.objects.filter(tournament=t).update(finished_at=NOON + timedelta(hours=1))
    return Tournament.objects.get(pk=t.pk)


def test_the_trf16_file_is_the_golden_file(golden):
    got = exports.trf16(crosstable.build(golden))
    assert got == GOLDEN.read_bytes().decode()


def test_the_trf16_file_is_served_for_swiss_and_refused_for_a_knockout(golden):
    response = Client().get(reverse("tournament_trf", args=[golden.pk]))
    assert response.status_code == 200
    assert response["Content-Disposition"].endswith('-trf16.txt"')
    assert response.content.decode().startswith("012 Golden Swiss\r\n")
    Tournament.objects.filter(pk=golden.pk).update(format="knockout")
    assert Client().get(reverse("tournament_trf", args=[golden.pk])).status_code == 404


def test_mid_round_the_file_stops_at_the_last_finished_round(golden):
    Round.objects.filter(tournament=golden, number=3).update(finished_at=None)
    Tournament.objects.filter(pk=golden.pk).update(status="running", finished_at=None)
    Pairing.objects.filter(tournament=golden, round__number=3, board=2).update(
        finished_at=None, winner=None, score_a=None, score_b=None)
    lines = exports.trf16(crosstable.build(Tournament.objects.get(pk=golden.pk))).split("\r\n")
    alice = next(x for x in lines if x.startswith("001    1"))
    assert alice[80:84] == " 2.0" and len(alice) == 109  # two rounds: the second result at column 109
    assert not any(x.startswith("052") for x in lines)


def test_standings_and_pairings_csv(golden):
    client = Client()
    body = client.get(reverse("tournament_standings_csv", args=[golden.pk])).content.decode()
    rows = list(csv.DictReader(io.StringIO(body)))
    assert [(r["rank"], r["name"], r["points"]) for r in rows] == [
        ("1", "alice", "3.0"), ("2", "erin", "2.0"), ("3", "bob", "1.0"), ("3", "carol", "1.0"),
        ("5", "dave", "1.0"),
    ]
    assert rows[-1]["status"] == "withdrawn"
    body = client.get(reverse("tournament_pairings_csv", args=[golden.pk])).content.decode()
    pairs = list(csv.DictReader(io.StringIO(body)))
    assert len(pairs) == 8  # 3 + 3 + 2 boards, byes included
    forfeit = next(p for p in pairs if p["round"] == "3" and p["name_1"] == "alice")
    assert (forfeit["name_2"], forfeit["result_1"], forfeit["points_2"]) == ("bob", "forfeit_win", "0.0")
    bye = next(p for p in pairs if p["round"] == "2" and p["name_1"] == "carol")
    assert bye["name_2"] == "" and bye["result_1"] == "bye"


def test_the_json_read(golden):
    body = json.loads(Client().get(reverse("tournament_json", args=[golden.pk])).content)
    assert body["format"] == "basra-tournament/1" and body["status"] == "finished"
    assert [e["name"] for e in body["entrants"]] == ["alice", "bob", "carol", "dave", "erin"]
    assert [len(r["pairings"]) for r in body["rounds"]] == [3, 3, 2]
    assert body["standings"]["provisional"] is False
    ranks = {line["entrant"]: line["rank"] for line in body["standings"]["lines"]}
    names = {e["id"]: e["name"] for e in body["entrants"]}
    assert {names[k]: v for k, v in ranks.items()} == {"alice": 1, "erin": 2, "bob": 3, "carol": 3, "dave": 5}


def test_the_crosstable_page_lists_each_round_and_the_card_each_entrant(golden):
    client = Client()
    page = client.get(reverse("tournament_crosstable", args=[golden.pk])).content.decode()
    event = client.get(reverse("tournament", args=[golden.pk])).content.decode()
    assert reverse("tournament_crosstable", args=[golden.pk]) in event
    assert 'id="start-list"' in page and 'id="crosstable"' in page and "trf16.txt" in page
    erin = Entrant.objects.get(tournament=golden, user__username="erin")
    card = client.get(reverse("tournament_entrant", args=[golden.pk, erin.pk])).content.decode()
    assert card.count("<tr>") == 4  # the header and three rounds
    other, _ = swiss(users("x")[0], [], name="Other")
    assert client.get(reverse("tournament_entrant", args=[other.pk, erin.pk])).status_code == 404


@pytest.mark.django_db
def test_a_round_robin_crosstable_is_a_grid():
    orga, *people = users("orga", "p1", "p2", "p3")
    t, (a, b, c) = swiss(orga, list(zip(people, [1600, 1500, 1400])), fmt="round_robin")
    result(t, 1, 1, a, b, b)
    result(t, 2, 1, c, a, a)
    result(t, 3, 1, b, c, b)
    page = Client().get(reverse("tournament_crosstable", args=[t.pk])).content.decode()
    assert page.count("×") == 3  # the diagonal
    assert 'class="crosstable grid"' in page


def test_performance_is_the_rating_that_expects_the_score():
    def row(*games):
        opponents = [Entrant(pk=k + 10, rating=r) for k, (r, _) in enumerate(games)]
        cells = {k: crosstable.Cell(round=k, result=res, opponent=o)
                 for k, ((_, res), o) in enumerate(zip(games, opponents))}
        return crosstable.Row(start_rank=1, entrant=Entrant(pk=1), cells=cells), {o.pk: o.rating for o in opponents}

    win, loss = crosstable.Result.WIN, crosstable.Result.LOSS
    assert crosstable.performance(*row((1400, win), (1600, loss))) == 1500
    assert crosstable.performance(*row((1500, win))) == 2300  # 100 %: capped at +800
    assert crosstable.performance(*row((1500, loss))) == 700
    # 3 of 4 against 1500: where the logistic expects 0.75 a match, 1500 + 400·log10(3).
    assert crosstable.performance(*row((1500, win), (1500, win), (1500, win), (1500, loss))) == 1691
    forfeit = row((1500, crosstable.Result.FORFEIT_WIN))
    assert crosstable.performance(*forfeit) is None
