"""The game record ``basra-record/1``: written from a match, replayed, and refused when it breaks the rules."""

from __future__ import annotations

import copy
import json
import random

import pytest

from games.engine import (
    RECORD_FORMAT,
    Match,
    RecordError,
    ReplayResult,
    Rules,
    SeatError,
    full_deck,
    replay,
)
from tests.engine.helpers import random_deck


def played_match(players: int = 2, seed: int = 1, target: int = 101, **options) -> Match:
    rng = random.Random(seed)
    m = Match(Rules(players=players, target=target, **options), dealer=rng.randrange(players))
    while not m.over:
        m.start_round(random_deck(rng))
        while not m.round.over:
            m.play(rng.choice(m.round.legal_plays()))
    return m


def names(players: int) -> list[str]:
    return ["alice", "bob", "carol", "dave"][:players]


@pytest.mark.parametrize("players", [2, 4])
def test_a_record_holds_every_deck_and_play(players):
    m = played_match(players, seed=players)
    rec = m.to_record(names(players))
    assert rec["format"] == RECORD_FORMAT == "basra-record/1"
    assert rec["rules"] == m.rules.to_dict()
    assert rec["seats"] == names(players)
    assert len(rec["rounds"]) == m.round_number
    for data, rnd in zip(rec["rounds"], m.rounds):
        assert data["dealer"] == rnd.dealer
        assert data["deck"] == [c.code for c in rnd.deck]
        assert data["plays"] == [p.card.code for p in rnd.plays] and len(data["plays"]) == 48


@pytest.mark.parametrize("players", [2, 4])
def test_replay_gives_the_live_scores_and_winner(players):
    m = played_match(players, seed=10 + players, card_points=True, seven_diamonds="classic")
    result = replay(json.loads(json.dumps(m.to_record(names(players)))))
    assert isinstance(result, ReplayResult)
    assert (result.scores, result.winner) == (m.scores, m.winner)
    assert result.seats == tuple(names(players))
    assert result.match.round_scores == m.round_scores
    assert [r.piles for r in result.match.rounds] == [r.piles for r in m.rounds]


def test_a_match_in_progress_replays_to_the_same_position():
    rng = random.Random(7)
    m = Match(Rules(players=4), dealer=2)
    m.start_round(random_deck(rng))
    while not m.round.over:
        m.play(rng.choice(m.round.legal_plays()))
    m.start_round(random_deck(rng))
    for _ in range(19):
        m.play(rng.choice(m.round.legal_plays()))
    again = replay(m.to_record(names(4))).match
    assert again.round_number == 2 and again.winner is None
    for seat in range(4):
        assert again.view(seat) == m.view(seat)
    # ...and it goes on from there like the original.
    card = m.round.legal_plays()[0]
    assert again.play(card) == m.play(card)


def test_a_dealt_round_without_plays_and_a_record_without_rounds_replay():
    m = Match(Rules())
    m.start_round(full_deck())
    assert replay(m.to_record(["a", "b"])).match.view(0) == m.view(0)
    empty = replay({"format": RECORD_FORMAT, "rules": {}, "seats": ["a", "b"], "rounds": []})
    assert (empty.scores, empty.winner, empty.match.round_number) == ((0, 0), None, 0)


@pytest.mark.parametrize("seats", [["a"], ["a", "b", "c"], "ab", ["a", 2]])
def test_to_record_wants_one_name_per_seat(seats):
    with pytest.raises(SeatError):
        Match(Rules()).to_record(seats)


# --- records that break the rules ------------------------------------------------------------


@pytest.fixture(scope="module")
def good_record() -> dict:
    return played_match(2, seed=30).to_record(["a", "b"])


def broken(record: dict, change) -> dict:
    record = copy.deepcopy(record)
    change(record)
    return record


def refused(record, match: str) -> RecordError:
    with pytest.raises(RecordError, match=match) as info:
        replay(record)
    assert isinstance(info.value, ValueError)
    return info.value


def test_a_card_not_in_hand_names_the_round_and_play(good_record):
    def swap(rec):
        plays = rec["rounds"][1]["plays"]
        plays[16], plays[17] = plays[17], plays[16]

    error = refused(broken(good_record, swap), r"^round 2, play 17: .* is not in the hand of seat")
    assert (error.round, error.play) == (2, 17)


def test_a_bad_card_code_names_the_round_and_play(good_record):
    def garble(rec):
        rec["rounds"][0]["plays"][4] = "1H"

    error = refused(broken(good_record, garble), r"^round 1, play 5: unknown card code '1H'")
    assert (error.round, error.play) == (1, 5)


def test_a_play_after_the_round_is_over(good_record):
    def extra(rec):
        rec["rounds"][0]["plays"].append("5H")

    refused(broken(good_record, extra), r"^round 1, play 49: the round is over")


def test_a_short_round_followed_by_another(good_record):
    def cut(rec):
        del rec["rounds"][0]["plays"][-1]

    refused(broken(good_record, cut), r"^round 1: the round ends after 47 plays")


def test_a_round_dealt_by_the_wrong_seat(good_record):
    def wrong(rec):
        rec["rounds"][1]["dealer"] = rec["rounds"][0]["dealer"]

    refused(broken(good_record, wrong), r"^round 2: the dealer is seat")


def test_a_round_after_the_match_was_won(good_record):
    def more(rec):
        last = rec["rounds"][-1]
        n = len(rec["rounds"])
        rec["rounds"].append(dict(last, dealer=(rec["rounds"][0]["dealer"] + n) % 2))

    refused(broken(good_record, more), rf"^round {len(good_record['rounds']) + 1}: the match was won")


@pytest.mark.parametrize(
    ("change", "match"),
    [
        (lambda r: r["rounds"][0]["deck"].pop(), r"^round 1: deck: a deck has 52 cards"),
        (lambda r: r["rounds"][0]["deck"].__setitem__(0, r["rounds"][0]["deck"][1]), r"^round 1: deck: .*twice"),
        (lambda r: r["rounds"][0]["deck"].__setitem__(0, "XX"), r"^round 1: deck: unknown card code"),
        (lambda r: r["rounds"][0].__setitem__("dealer", 2), r"^round 1: dealer must be a seat"),
        (lambda r: r["rounds"][0].__setitem__("dealer", True), r"^round 1: 'dealer' must be an integer"),
        (lambda r: r["rounds"][0].pop("plays"), r"^round 1: no 'plays' given"),
        (lambda r: r["rounds"].__setitem__(0, "deal"), r"^round 1: a round is a mapping"),
        (lambda r: r.__setitem__("format", "basra-record/2"), r"format is 'basra-record/2'"),
        (lambda r: r.pop("format"), r"format is None"),
        (lambda r: r["rules"].__setitem__("komi", True), r"^rules: unknown rules option\(s\): komi"),
        (lambda r: r["rules"].__setitem__("players", 3), r"^rules: players must be 2 or 4"),
        (lambda r: r.__setitem__("seats", ["a"]), r"'seats' must be 2 names"),
        (lambda r: r.pop("rounds"), r"no 'rounds' given"),
        (lambda r: r.__setitem__("rounds", {}), r"'rounds' must be a list"),
    ],
)
def test_malformed_records_are_refused_clearly(good_record, change, match):
    refused(broken(good_record, change), match)


def test_a_record_that_is_not_a_mapping():
    with pytest.raises(RecordError):
        replay(["basra-record/1"])
