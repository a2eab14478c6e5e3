"""Golden game records (tests/engine/data/): real matches whose scores were worked out by hand.

Each file holds ``comment`` (the hand working, play by play), ``expected`` (the final scores, the
winner, each round's points) and ``record`` (a ``basra-record/1`` game record).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from games.engine import Card, replay

DATA = Path(__file__).parent / "data"
GOLDEN = sorted(DATA.glob("golden_*.json"))


def load(path: Path) -> dict:
    return json.loads(path.read_text())


def test_there_are_golden_records_for_two_and_four_players():
    players = {load(p)["record"]["rules"]["players"] for p in GOLDEN}
    assert len(GOLDEN) >= 3 and players == {2, 4}


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_golden_record_replays_to_the_hand_worked_scores(path):
    data = load(path)
    result = replay(data["record"])
    expected = data["expected"]
    assert list(result.scores) == expected["scores"]
    assert result.winner == expected["winner"]
    assert [list(s) for s in result.match.round_scores] == expected["rounds"]
    assert result.match.over
    # The record the replayed match writes is the record read.
    assert result.match.to_record(list(result.seats)) == data["record"]


def test_the_komi_record_buries_the_seven_and_makes_a_jack_basra_and_a_seven_basra():
    result = replay(load(DATA / "golden_2p_komi_jack_basra_two_rounds.json")["record"])
    first = result.match.rounds[0]
    assert first.buried == (Card.from_code("7D"),)
    assert [c.code for c in first.initial_floor] == ["6H", "4S", "10C", "KC"]
    plays = {p.card.code: p for p in first.plays}
    assert plays["JC"].basra == "jack_basra" and plays["JC"].taken == {Card.from_code("JS")}
    assert plays["7D"].basra == "basra" and {c.code for c in plays["7D"].taken} == {"3H", "5S", "AC"}
    assert [c.code for c in first.leftover] == ["9D", "7H"] and first.last_capturer == 0
    assert first.score_breakdown().jack_basras == (20, 0)


def test_the_four_player_record_buries_a_jack_and_scores_card_points():
    result = replay(load(DATA / "golden_4p_classic_card_points.json")["record"])
    rnd = result.match.rounds[0]
    assert [c.code for c in rnd.initial_floor] == ["2H", "5C", "5D", "9S"]
    assert rnd.buried == (Card.from_code("JH"),)
    assert rnd.plays[-1].card.code == "JH" and rnd.plays[-1].seat == 3
    b = rnd.score_breakdown()
    assert (b.cards, b.majority, b.basras, b.card_points) == ((23, 29), (0, 30), (10, 0), (6, 7))
