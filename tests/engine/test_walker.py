"""The one walker of a game record (``games.engine.steps``, ``Walk``) and the one writer
(``write_record``)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from games.engine import (
    Card,
    Match,
    RecordError,
    Rules,
    SeatError,
    Walk,
    replay,
    steps,
    write_record,
)
from games.engine import record as record_module
from tests.engine.helpers import cards, random_deck

DATA = Path(__file__).parent / "data"


def golden(name: str) -> dict:
    return json.loads((DATA / name).read_text())["record"]


def played_match(players: int, seed: int) -> Match:
    rng = random.Random(seed)
    m = Match(Rules(players=players), dealer=rng.randrange(players))
    while not m.over:
        m.start_round(random_deck(rng))
        while not m.round.over:
            m.play(rng.choice(m.round.legal_plays()))
    return m


def eager_views(record: dict) -> list:
    """``(round, play, seat, card, view before)`` of every play, walked by hand."""
    rules = Rules.from_dict(record["rules"])
    m = Match(rules, record["rounds"][0]["dealer"])
    out = []
    for index, data in enumerate(record["rounds"]):
        m.start_round(data["deck"])
        for number, code in enumerate(data["plays"]):
            seat = m.round.turn
            out.append((index, number, seat, Card.from_code(code), m.view(seat)))
            m.play(code)
    return out


def test_the_steps_of_a_known_record():
    # tests/engine/data/golden_2p_komi_jack_basra_two_rounds.json, worked out by hand there.
    walked = list(steps(golden("golden_2p_komi_jack_basra_two_rounds.json")))
    assert len(walked) == 96
    assert [(s.round, s.play) for s in walked[:2]] == [(0, 0), (0, 1)]
    assert [(s.round, s.play) for s in walked[47:49]] == [(0, 47), (1, 0)]
    first, second = walked[0], walked[1]
    # Dealer seat 0: seat 1 plays first, 2H stays on 6H 4S 10C KC (the 7D buried).
    assert (first.seat, first.card.code, first.capture.taken, first.capture.basra) == (
        1, "2H", frozenset(), None)
    view = first.view()
    assert view.seat == 1 and view.turn == 1 and view.hand == cards("2H QH 9S JD")
    assert view.floor == cards("6H 4S 10C KC") and view.scores == (0, 0)
    assert view.round_number == 1 and view.played == ()
    # 6D takes 6H and 4S+2H.
    assert (second.seat, second.card.code) == (0, "6D")
    assert second.capture.taken == frozenset(cards("6H 4S 2H")) and second.capture.basra is None
    assert second.view().floor == cards("6H 4S 10C KC 2H")
    # Deal 2's first play: 8C on the lone 8S, a basra for seat 1.
    basra = walked[8]
    assert (basra.seat, basra.card.code, basra.capture.taken) == (1, "8C", frozenset(cards("8S")))
    assert basra.capture.basra == "basra"
    # Round 2: dealer seat 1, the first round's 60-10 in the totals before it.
    opening = walked[48]
    assert opening.seat == 0 and opening.view().scores == (60, 10)
    assert opening.view().round_number == 2 and opening.view().dealer == 1


@pytest.mark.parametrize("players,seed", [(2, 3), (4, 5)])
def test_every_steps_view_is_the_seats_view_before_the_play(players, seed):
    record = played_match(players, seed).to_record(["a", "b", "c", "d"][:players])
    expected = eager_views(record)
    walked = list(steps(record))  # every view asked after the walk, last first
    assert [(s.round, s.play, s.seat, s.card) for s in walked] == [e[:4] for e in expected]
    for step, (*_, view) in zip(reversed(walked), reversed(expected)):
        assert step.view() == view
    # Asked as the walk goes, in order.
    assert [s.view() for s in steps(record)] == [e[4] for e in expected]


def test_a_view_is_computed_only_when_asked(monkeypatch):
    record = played_match(2, 8).to_record(["a", "b"])
    asked = []

    def refuse(*args, **kwargs):
        asked.append(args)
        raise AssertionError("a view was computed")

    monkeypatch.setattr(record_module, "round_view", refuse)
    made = []
    real_round = record_module.Round

    class CountedRound(real_round):
        __slots__ = ()

        def __init__(self, *args, **kwargs):
            made.append(args)
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(record_module, "Round", CountedRound)
    walked = list(steps(record))
    result = replay(record)
    assert walked and asked == [] and made == []
    assert result.scores == walked[-1].walk.match.scores
    with pytest.raises(AssertionError, match="a view was computed"):
        walked[10].view()
    assert len(asked) == 1 and len(made) == 1  # the round copied to play 10, once asked


def test_a_walk_goes_on_from_a_match_under_way():
    record = played_match(2, 11).to_record(["a", "b"])
    expected = eager_views(record)
    first = record["rounds"][0]
    rest = dict(record, rounds=[dict(first, plays=first["plays"][:30])])
    live = replay(rest).match  # 30 plays into the first round, as a table's process keeps it
    walk = Walk(live)
    made = [walk.play(code) for code in first["plays"][30:]]
    walk.deal(record["rounds"][1]["deck"])
    made += [walk.play(code) for code in record["rounds"][1]["plays"][:5]]
    assert walk.match is live
    assert [(s.round, s.play, s.seat, s.card) for s in made] == [
        e[:4] for e in expected[30:53]]
    assert [s.view() for s in made] == [e[4] for e in expected[30:53]]


def test_the_walk_checks_the_record_as_replay_does():
    record = played_match(2, 4).to_record(["a", "b"])
    record["rounds"][1]["plays"][17] = record["rounds"][1]["plays"][16]
    walked = steps(record)
    assert len([next(walked) for _ in range(48 + 17)]) == 65  # the plays before the bad one
    with pytest.raises(RecordError, match=r"^round 2, play 18: "):
        next(walked)
    with pytest.raises(RecordError, match="format"):
        steps({"format": "basra-record/0"})


def test_the_one_writer_writes_what_the_match_writes():
    m = played_match(4, 2)
    record = m.to_record(["a", "b", "c", "d"])
    rounds = [{"dealer": r.dealer, "deck": r.deck, "plays": [p.card for p in r.plays]}
              for r in m.rounds]
    assert write_record(m.rules, ["a", "b", "c", "d"], rounds) == record
    assert write_record(m.rules.to_dict(), ["a", "b", "c", "d"], rounds) == record
    assert replay(record).scores == m.scores
    # Optional keys: a round's timeouts only when it names a play, headers and shuffle as given.
    rounds[0]["timeouts"], rounds[1]["timeouts"] = [3, 7], []
    written = write_record(m.rules, ["a", "b", "c", "d"], rounds,
                           headers={"site": "x"}, shuffle={"s": 1})
    assert written["rounds"][0]["timeouts"] == [3, 7] and "timeouts" not in written["rounds"][1]
    assert list(written) == ["format", "rules", "seats", "rounds", "headers", "shuffle"]
    assert written["headers"] == {"site": "x"} and written["shuffle"] == {"s": 1}
    with pytest.raises(SeatError):
        write_record(m.rules, ["a", "b"], rounds)
