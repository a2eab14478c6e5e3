"""The pure tournament functions (games/tournaments/pairing/): no database, no settings."""

from __future__ import annotations

import doctest
import itertools
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.tournaments import pairing
from games.tournaments.pairing import (
    ArenaPlayer,
    MatchResult,
    PairingError,
    SwissEntrant,
    TieBreak,
    arena_pairs,
    arena_points,
    knockout_bracket,
    round_robin,
    standings,
    swiss_round,
)

FEW = settings(max_examples=80, deadline=None)


def test_doctests():
    assert doctest.testmod(pairing).failed == 0


# --- round robin: FIDE Handbook C.05, Annex 1 (Berger tables) --------------------------------
# Typed by hand from the published tables ("3 or 4 players", "5 or 6", "7 or 8"; the first
# named has white), as reproduced at http://c.w.fox.tripod.com/chess/berger.html and
# https://www.devenezia.com/round-robin/forum/index.php?topic=549.0 (the same rounds).

BERGER_4 = """
1-4 2-3
4-3 1-2
2-4 3-1
"""
BERGER_6 = """
1-6 2-5 3-4
6-4 5-3 1-2
2-6 3-1 4-5
6-5 1-4 2-3
3-6 4-2 5-1
"""
BERGER_8 = """
1-8 2-7 3-6 4-5
8-5 6-4 7-3 1-2
2-8 3-1 4-7 5-6
8-6 7-5 1-4 2-3
3-8 4-2 5-1 6-7
8-7 1-6 2-5 3-4
4-8 5-3 6-2 7-1
"""


def published(table: str) -> list[list[tuple[int, int]]]:
    return [
        [tuple(int(x) for x in board.split("-")) for board in line.split()]
        for line in table.strip().splitlines()
    ]


@pytest.mark.parametrize("n,table", [(4, BERGER_4), (6, BERGER_6), (8, BERGER_8)])
def test_round_robin_is_the_published_berger_table(n, table):
    assert round_robin(n) == published(table)


def test_round_robin_odd_gives_the_bye_to_who_would_meet_the_top_number():
    # 5 entrants use the table of 6: whoever meets 6 rests.
    expected = [
        [(b if a == 6 else a, None) if 6 in (a, b) else (a, b) for a, b in rnd]
        for rnd in published(BERGER_6)
    ]
    assert round_robin(5) == expected
    assert [rnd[0] for rnd in round_robin(5)] == [(1, None), (4, None), (2, None), (5, None), (3, None)]


@pytest.mark.parametrize("n", range(2, 21))
def test_round_robin_everyone_meets_everyone_once_and_plays_once_a_round(n):
    rounds = round_robin(n)
    assert len(rounds) == (n - 1 if n % 2 == 0 else n)
    met = Counter()
    for rnd in rounds:
        seen = [x for pair in rnd for x in pair if x is not None]
        assert sorted(seen) == list(range(1, n + 1))
        assert sum(1 for a, b in rnd if b is None) == n % 2
        for a, b in rnd:
            if b is not None:
                met[frozenset((a, b))] += 1
    assert set(met) == {frozenset(p) for p in itertools.combinations(range(1, n + 1), 2)}
    assert set(met.values()) == {1}


def test_round_robin_bad_input():
    for bad in (0, 1, -3):
        with pytest.raises(PairingError):
            round_robin(bad)
    with pytest.raises(ValueError):
        round_robin(4.0)  # type: ignore[arg-type]


# --- knockout --------------------------------------------------------------------------------


def test_knockout_of_eight_is_the_standard_order():
    assert knockout_bracket(8) == [(1, 8), (4, 5), (2, 7), (3, 6)]
    assert knockout_bracket(2) == [(1, 2)]
    assert knockout_bracket(4) == [(1, 4), (2, 3)]


def test_knockout_byes_go_to_the_top_seeds():
    assert knockout_bracket(5) == [(1, None), (4, 5), (2, None), (3, None)]
    assert knockout_bracket(6) == [(1, None), (4, 5), (2, None), (3, 6)]
    assert knockout_bracket(12) == [
        (1, None), (8, 9), (4, None), (5, 12), (2, None), (7, 10), (3, None), (6, 11),
    ]


def winners_meet(bracket, a, b):
    """The round (1 = first) in which seeds a and b can first meet, if both keep winning."""
    slots = [x for pair in bracket for x in pair]
    i, j = slots.index(a), slots.index(b)
    rnd = 1
    while i // 2 != j // 2:
        i, j, rnd = i // 2, j // 2, rnd + 1
    return rnd


@pytest.mark.parametrize("n", range(2, 65))
def test_knockout_structure(n):
    bracket = knockout_bracket(n)
    size = 1 << (n - 1).bit_length()
    assert len(bracket) == size // 2
    seeds = [x for pair in bracket for x in pair if x is not None]
    assert sorted(seeds) == list(range(1, n + 1))
    byes = sorted(a if b is None else b for a, b in bracket if None in (a, b))
    assert byes == list(range(1, size - n + 1))  # the top seeds, one bye each
    assert all(pair != (None, None) for pair in bracket)
    rounds = size.bit_length() - 1
    # 1 and 2 in opposite halves: they can meet only in the final.
    assert winners_meet(bracket, 1, 2) == rounds
    # The top four only from the semi-finals.
    for a, b in itertools.combinations(range(1, min(n, 4) + 1), 2):
        assert winners_meet(bracket, a, b) >= rounds - 1


def test_knockout_bad_input():
    for bad in (0, 1):
        with pytest.raises(PairingError):
            knockout_bracket(bad)


# --- Swiss -----------------------------------------------------------------------------------


def E(i, score, rating, opponents=(), had_bye=False):  # noqa: N802 - short for the tables
    return SwissEntrant(i, score, rating, frozenset(opponents), had_bye)


def check_partition(entrants, pairs, bye):
    ids = [x for p in pairs for x in p] + ([bye] if bye is not None else [])
    assert sorted(ids) == sorted(e.id for e in entrants)
    assert (bye is None) == (len(entrants) % 2 == 0)


def rematches(entrants, pairs):
    by = {e.id: e for e in entrants}
    return sum(1 for a, b in pairs if b in by[a].opponents or a in by[b].opponents)


def score_diff(entrants, pairs):
    by = {e.id: e for e in entrants}
    return sum(abs(by[a].score - by[b].score) for a, b in pairs)


def test_swiss_top_half_against_bottom_half_in_a_score_group():
    # Eight on the same score, no history: by rating 1..8, pair 1-5, 2-6, 3-7, 4-8 (C.04.3's
    # S1 against S2).
    entrants = [E(i, 2.0, 2000 - 10 * i) for i in range(1, 9)]
    random.Random(3).shuffle(entrants)
    pairs, bye = swiss_round(entrants)
    assert bye is None
    assert pairs == [(1, 5), (2, 6), (3, 7), (4, 8)]


def test_swiss_score_groups_float_lowest_down_to_highest():
    # 2 points: 1..5 (by rating); 1 point: 6..9; 0 points: 10. The odd top group floats its
    # lowest (5) down to the highest of the next (6), which floats its lowest (9) to 10; the
    # rest split in halves: 1-3, 2-4 and 7-8.
    entrants = [E(i, 2.0, 2000 - 10 * i) for i in range(1, 6)]
    entrants += [E(i, 1.0, 2000 - 10 * i) for i in range(6, 10)]
    entrants += [E(10, 0.0, 1000)]
    pairs, bye = swiss_round(entrants)
    check_partition(entrants, pairs, bye)
    assert pairs == [(1, 3), (2, 4), (5, 6), (7, 8), (9, 10)]
    assert score_diff(entrants, pairs) == 2.0


def test_swiss_no_rematch_when_one_is_avoidable():
    # The ideal split 1-3, 2-4 is a rematch for 1 and 3.
    entrants = [E(1, 1, 2000, {3}), E(2, 1, 1900), E(3, 1, 1800, {1}), E(4, 1, 1700)]
    pairs, bye = swiss_round(entrants)
    check_partition(entrants, pairs, bye)
    assert rematches(entrants, pairs) == 0
    assert score_diff(entrants, pairs) == 0


def test_swiss_prefers_a_score_difference_over_a_rematch():
    # 1 and 2 lead and have met; they must each meet someone from the group below.
    entrants = [
        E(1, 2, 2000, {2}), E(2, 2, 1900, {1}), E(3, 1, 1800), E(4, 1, 1700),
    ]
    pairs, _ = swiss_round(entrants)
    assert rematches(entrants, pairs) == 0
    assert score_diff(entrants, pairs) == 2


def test_swiss_minimal_score_difference_constructed():
    # Scores 3, 2, 2, 1, 1, 0. Pairing down the ranking (3-2, 2-1, 1-0) costs 3; 1 has met 2
    # and 3, so 1 must meet a 1-pointer (4 or 5): 1-4 (2), then 2-3 (0) and 5-6 (1) cost 3
    # in all, the least possible without a rematch (1-6 would cost 3 alone).
    entrants = [
        E(1, 3, 2000, {2, 3}), E(2, 2, 1900, {1}), E(3, 2, 1800, {1}),
        E(4, 1, 1700), E(5, 1, 1600), E(6, 0, 1500),
    ]
    pairs, _ = swiss_round(entrants)
    assert rematches(entrants, pairs) == 0
    assert score_diff(entrants, pairs) == 3
    assert (2, 3) in pairs


def test_swiss_bye_to_the_lowest_score_without_one_ties_lowest_rating():
    entrants = [
        E(1, 2, 2000), E(2, 1, 1900), E(3, 0, 1500, had_bye=True), E(4, 0, 1800), E(5, 0, 1700),
    ]
    pairs, bye = swiss_round(entrants)
    check_partition(entrants, pairs, bye)
    assert bye == 5  # 3 is lower rated but had the bye; 5 is below 4
    # Everyone has had one: the lowest of all.
    again = [E(e.id, e.score, e.rating, had_bye=True) for e in entrants]
    assert swiss_round(again)[1] == 3


def test_swiss_bye_comes_first_even_when_it_forces_a_rematch():
    # Documented: the bye rule is applied first. 3 is the only one without a bye, so 3 rests
    # and 1-2 meet again, although giving the bye to 1 would have avoided any rematch.
    entrants = [E(1, 1, 2000, {2}, True), E(2, 1, 1900, {1}, True), E(3, 0, 1500, {4})]
    pairs, bye = swiss_round(entrants)
    assert bye == 3
    assert pairs == [(1, 2)]


def test_swiss_unavoidable_rematches_are_as_few_as_possible():
    # Four who all met (a finished round robin): every pairing has two rematches.
    everyone = {1, 2, 3, 4}
    entrants = [E(i, 1.5, 2000 - i, everyone - {i}) for i in everyone]
    pairs, _ = swiss_round(entrants)
    check_partition(entrants, pairs, None)
    assert rematches(entrants, pairs) == 2
    # Six, where 1 has met everyone: one rematch only.
    entrants = [E(1, 3, 2000, {2, 3, 4, 5, 6})] + [E(i, 2, 2000 - i, {1}) for i in range(2, 7)]
    pairs, _ = swiss_round(entrants)
    assert rematches(entrants, pairs) == 1


def brute_force(entrants):
    """The least (rematches, score difference) over every perfect pairing."""
    ids = [e.id for e in entrants]
    by = {e.id: e for e in entrants}

    def pairings(rest):
        if not rest:
            yield []
            return
        a = rest[0]
        for k in range(1, len(rest)):
            for more in pairings(rest[1:k] + rest[k + 1 :]):
                yield [(a, rest[k])] + more

    best = None
    for p in pairings(ids):
        key = (
            sum(1 for a, b in p if b in by[a].opponents),
            sum(abs(by[a].score - by[b].score) for a, b in p),
        )
        best = key if best is None or key < best else best
    return best


@st.composite
def swiss_fields(draw):
    n = draw(st.sampled_from([2, 4, 6, 8, 10]))
    scores = draw(st.lists(st.integers(0, 8), min_size=n, max_size=n))
    ratings = draw(st.lists(st.integers(1000, 2400), min_size=n, max_size=n, unique=True))
    met = draw(st.sets(st.tuples(st.integers(1, n), st.integers(1, n)).filter(lambda t: t[0] != t[1])))
    opponents = {i: set() for i in range(1, n + 1)}
    for a, b in met:
        opponents[a].add(b)
        opponents[b].add(a)
    return [E(i, scores[i - 1] / 2, ratings[i - 1], opponents[i]) for i in range(1, n + 1)]


@FEW
@given(entrants=swiss_fields())
def test_swiss_matches_brute_force_on_rematches_then_score_difference(entrants):
    pairs, bye = swiss_round(entrants)
    check_partition(entrants, pairs, bye)
    assert (rematches(entrants, pairs), score_diff(entrants, pairs)) == brute_force(entrants)


@FEW
@given(entrants=swiss_fields(), extra=st.integers(0, 8))
def test_swiss_odd_fields_have_the_right_bye(entrants, extra):
    entrants = entrants + [E(99, extra / 2, 1200)]
    pairs, bye = swiss_round(entrants)
    check_partition(entrants, pairs, bye)
    lowest = min(entrants, key=lambda e: (e.score, e.rating, -e.id))
    assert bye == lowest.id
    rest = [e for e in entrants if e.id != bye]
    assert (rematches(rest, pairs), score_diff(rest, pairs)) == brute_force(rest)


def test_swiss_bad_input():
    with pytest.raises(PairingError):
        swiss_round([E(1, 0, 1500)])
    with pytest.raises(PairingError):
        swiss_round([])
    with pytest.raises(PairingError):
        swiss_round([E(1, 0, 1500), E(1, 1, 1400)])
    with pytest.raises(PairingError):
        swiss_round([E(1, 0.3, 1500), E(2, 0, 1400)])
    with pytest.raises(PairingError):
        swiss_round([E(1, 0, 1500, {1}), E(2, 0, 1400)])
    with pytest.raises(PairingError):
        swiss_round([E(1, 0, float("nan")), E(2, 0, 1400)])


# --- arena -----------------------------------------------------------------------------------


def test_arena_never_pairs_the_last_opponent_again():
    waiting = [ArenaPlayer(1, 10, 1500, 2), ArenaPlayer(2, 10, 1500, 1),
               ArenaPlayer(3, 9, 1500, None), ArenaPlayer(4, 9, 1500, None)]
    pairs = {frozenset(p) for p in arena_pairs(waiting)}
    assert pairs in ({frozenset((1, 3)), frozenset((2, 4))}, {frozenset((1, 4)), frozenset((2, 3))})
    # Two waiting who just met: nobody is paired, both wait.
    assert arena_pairs(waiting[:2]) == []
    # One-sided knowledge is enough (the other's last match was with someone else since).
    assert arena_pairs([ArenaPlayer(1, 0, 1500, 2), ArenaPlayer(2, 0, 1500, 7)]) == []


def test_arena_pairs_close_in_standing():
    waiting = [ArenaPlayer(i, s, 1500 + i, None) for i, s in [(1, 30), (2, 2), (3, 28), (4, 0)]]
    assert arena_pairs(waiting) == [(1, 3), (2, 4)]


def test_arena_big_wave_pairs_neighbours_and_leaves_one_when_odd():
    rng = random.Random(7)
    waiting = [ArenaPlayer(i, rng.randint(0, 60), rng.gauss(1500, 200), None) for i in range(251)]
    pairs = arena_pairs(waiting)
    assert len(pairs) == 125
    flat = [x for p in pairs for x in p]
    assert len(set(flat)) == 250
    rank = {p.id: k for k, p in enumerate(sorted(waiting, key=lambda p: (-p.score, -p.rating, p.id)))}
    assert all(rank[a] < rank[b] <= rank[a] + pairing.ARENA_WINDOW for a, b in pairs)
    # Most pairs are neighbours in the ranking.
    assert sum(1 for a, b in pairs if rank[b] - rank[a] == 1) >= 100


def test_arena_bad_input():
    with pytest.raises(PairingError):
        arena_pairs([ArenaPlayer(1, 0, 1500), ArenaPlayer(1, 2, 1500)])
    with pytest.raises(PairingError):
        arena_pairs([ArenaPlayer(1, 0, 1500, 1), ArenaPlayer(2, 2, 1500)])
    assert arena_pairs([ArenaPlayer(1, 0, 1500)]) == []


@pytest.mark.parametrize(
    "results,points,on_fire",
    [
        ([], (), False),
        (["win"], (2,), False),
        (["win", "win"], (2, 2), True),
        (["win", "win", "win", "win"], (2, 2, 4, 4), True),
        (["win", "win", "loss", "win", "win", "win"], (2, 2, 0, 2, 2, 4), True),
        (["win", "win", "draw", "win"], (2, 2, 2, 2), False),  # a draw on fire: 2, streak over
        (["draw", "draw", "win", "loss"], (1, 1, 2, 0), False),
        (["loss", "win", "win", "win", "loss", "win"], (0, 2, 2, 4, 0, 2), False),
    ],
)
def test_arena_points(results, points, on_fire):
    sheet = arena_points(results)
    assert sheet.points == points
    assert sheet.total == sum(points)
    assert sheet.on_fire is on_fire


def test_arena_points_bad_input():
    with pytest.raises(PairingError):
        arena_points(["win", "tie"])


# --- standings and FIDE C.07 tie-breaks ------------------------------------------------------
#
# A worked example, computed by hand. Six entrants, three Swiss rounds, 1 point a win:
#   R1: 1-4 1-0; 2-5 ½-½; 3-6 1-0
#   R2: 1-3 ½-½; 2-6 1-0; 4-5 won by 4 by forfeit (5 did not come)
#   R3: 1-2 0-1; 3-4 1-0; 6 has the pairing bye (1 point); 5 withdrew (no result)
# Scores: 1: 1.5, 2: 2.5, 3: 2.5, 4: 1, 5: 0.5, 6: 1.
# Opponents' view (C.07 16.3): 5's missing last round is a requested zero-point bye followed
# by nothing (16.2.5), so it counts as a draw: 5 counts as ½ + 0 + ½ = 1. 4's forfeit win
# (16.2.2) and 6's pairing bye (16.2.1) count as given: 4 and 6 count as 1. Others as scored.
# Own unplayed rounds (16.4): a dummy with the entrant's own score, a bye or a forfeit alike:
#   4's R2 dummy: 1; 5's R2 and R3 dummies: 0.5 each; 6's R3 dummy: 1.
# Buchholz: 1: 1+2.5+2.5 = 6; 2: 1+1+1.5 = 3.5; 3: 1+1.5+1 = 3.5; 4: 1.5+1+2.5 = 5;
#   5: 2.5+0.5+0.5 = 3.5; 6: 2.5+2.5+1 = 6.
# Buchholz cut-1 (14.1, 16.5): 1: 6-1 = 5; 2: 3.5-1 = 2.5; 3: 3.5-1 = 2.5; 4 (its forfeit is
#   a win, not voluntary): 5-1 = 4; 5 (voluntary rounds R2, R3): cut 0.5 → 3; 6: 6-1 = 5.
# Sonneborn-Berger: 1: 1x1 + ½x2.5 + 0 = 2.25; 2: ½x1 + 1x1 + 1x1.5 = 3; 3: 1x1 + ½x1.5 + 1x1
#   = 2.75; 4: 0 + 1x1 + 0 = 1; 5: ½x2.5 = 1.25; 6: 0 + 0 + 1x1 = 1.
# Wins (7.1, played or not): 1: 1, 2: 2, 3: 2, 4: 1, 5: 0, 6: 1.
# Direct encounter: neither 2-3 nor 4-6 met: it breaks nothing.
# Order [DE, BH-C1, SB, WIN]: 2 (SB 3) before 3 (SB 2.75); 1; 6 (BH-C1 5) before 4 (4); 5.

WORKED = [
    MatchResult(1, 1, 4, 1), MatchResult(1, 2, 5, 0.5), MatchResult(1, 3, 6, 1),
    MatchResult(2, 1, 3, 0.5), MatchResult(2, 2, 6, 1), MatchResult(2, 4, 5, 1, forfeit=True),
    MatchResult(3, 1, 2, 0), MatchResult(3, 3, 4, 1), MatchResult(3, 6, None, 1),
]
ORDER = [TieBreak.DIRECT_ENCOUNTER, TieBreak.BUCHHOLZ_CUT1, TieBreak.SONNEBORN_BERGER, TieBreak.WINS]


def test_standings_worked_example():
    table = standings(WORKED, [*ORDER, TieBreak.BUCHHOLZ])
    assert [(s.rank, s.id, s.score) for s in table] == [
        (1, 2, 2.5), (2, 3, 2.5), (3, 1, 1.5), (4, 6, 1.0), (5, 4, 1.0), (6, 5, 0.5),
    ]
    tb = {s.id: s.tiebreaks for s in table}
    assert {i: tb[i]["buchholz"] for i in tb} == {1: 6, 2: 3.5, 3: 3.5, 4: 5, 5: 3.5, 6: 6}
    assert {i: tb[i]["buchholz_cut1"] for i in tb} == {1: 5, 2: 2.5, 3: 2.5, 4: 4, 5: 3, 6: 5}
    assert {i: tb[i]["sonneborn_berger"] for i in tb} == {1: 2.25, 2: 3, 3: 2.75, 4: 1, 5: 1.25, 6: 1}
    assert {i: tb[i]["wins"] for i in tb} == {1: 1, 2: 2, 3: 2, 4: 1, 5: 0, 6: 1}
    assert tb[2]["direct_encounter"] is None and tb[4]["direct_encounter"] is None


def test_standings_the_organisers_order_matters():
    # By wins first, 2 and 3 stay tied (2 each), then Buchholz (3.5 each), then nothing: shared.
    table = standings(WORKED, [TieBreak.WINS, TieBreak.BUCHHOLZ])
    assert [(s.rank, s.id) for s in table][:2] == [(1, 2), (1, 3)]
    # No tie-breaks at all: ties share a rank, listed by id.
    assert [(s.rank, s.id) for s in standings(WORKED)] == [(1, 2), (1, 3), (3, 1), (4, 4), (4, 6), (6, 5)]


def test_standings_direct_encounter_in_a_round_robin():
    # Four entrants, round_robin(4): 1 beats 4 and 2; 2 beats 3 and 4; 4 beats 3; 3 beats 1.
    # 1 and 2 have 2 points; 1 beat 2, so 1 is first by direct encounter. 3 and 4 have 1; 4
    # beat 3. A three-way cycle breaks nothing.
    results = [
        MatchResult(1, 1, 4, 1), MatchResult(1, 2, 3, 1),
        MatchResult(2, 4, 3, 1), MatchResult(2, 1, 2, 1),
        MatchResult(3, 2, 4, 1), MatchResult(3, 3, 1, 1),
    ]
    table = standings(results, [TieBreak.DIRECT_ENCOUNTER], predetermined=True)
    assert [(s.rank, s.id) for s in table] == [(1, 1), (2, 2), (3, 4), (4, 3)]
    assert table[0].tiebreaks["direct_encounter"] == 1
    cycle = [MatchResult(1, 1, 2, 1), MatchResult(2, 2, 3, 1), MatchResult(3, 3, 1, 1)]
    table = standings(cycle, [TieBreak.DIRECT_ENCOUNTER, TieBreak.SONNEBORN_BERGER], predetermined=True)
    assert {s.rank for s in table} == {1}
    assert {s.tiebreaks["direct_encounter"] for s in table} == {1}


def test_standings_late_entrant_and_unplayed_rounds():
    # 3 joins in round 2 (round 1 missing: a requested zero-point bye followed by a played
    # round, 16.2.3, counted as given: 0). 4 is registered but has no result yet.
    results = [MatchResult(1, 1, 2, 1), MatchResult(2, 1, 3, 0), MatchResult(2, 2, None, 1)]
    table = standings(results, [TieBreak.BUCHHOLZ], entrants=[4])
    by = {s.id: s for s in table}
    assert by[4].score == 0 and by[3].score == 1
    # 1's opponents: 2 (counts 1: the bye is a pairing bye) and 3 (counts 0 + 1 = 1).
    assert by[1].tiebreaks["buchholz"] == 2
    # 3: a dummy for round 1 (min(own 1, ½ x 2)) = 1, plus 1 (opponent 1's score): 2.
    assert by[3].tiebreaks["buchholz"] == 2


def test_standings_bad_input():
    with pytest.raises(PairingError):
        standings(WORKED, ["median"])
    with pytest.raises(PairingError):
        standings([MatchResult(1, 1, 2, 1), MatchResult(1, 1, 3, 1)])
    with pytest.raises(PairingError):
        standings([MatchResult(1, 1, 1, 1)])
    with pytest.raises(PairingError):
        standings([MatchResult(0, 1, 2, 1)])
    with pytest.raises(PairingError):
        standings(WORKED, win=0)


# --- a published worked example --------------------------------------------------------------

#: Who won each game of the published example below, by cycle: {(x, y): winner} with
#: A=1, B=2, C=3, D=4 (the 1st and 2nd "round" columns of the source's crosstable).
PUBLISHED_CYCLES = [
    {(1, 2): 1, (1, 3): 1, (1, 4): 1, (2, 3): 2, (2, 4): 2, (3, 4): 3},
    {(1, 2): 2, (1, 3): 1, (1, 4): 4, (2, 3): 3, (2, 4): 2, (3, 4): 3},
]


def published_results(cycles) -> list[MatchResult]:
    """The games of a double round robin of four played on FIDE's Berger tables
    (``round_robin(4)``, rounds 1-3 the first cycle, 4-6 the second), 1 point a win."""
    out = []
    for cycle, winners in enumerate(cycles):
        for number, games in enumerate(round_robin(4), start=1 + 3 * cycle):
            for x, y in games:
                winner = winners[(min(x, y), max(x, y))]
                out.append(MatchResult(number, x, y, 1.0 if winner == x else 0.0))
    return out


def test_sonneborn_berger_of_a_published_double_round_robin():
    """Sensei's Library, "Sonneborn-Berger" (senseis.xmp.net, page copy of 2003-08-25 and
    2005-09-14; the same table as fiveinline.com/sbps.html, "Example 1"): four players, each
    meeting each other twice, 1 a win, no draws. Scores A 4, B 4, C 3, D 1; Sonneborn-Berger
    (each beaten opponent's final score, summed) A 4+3+3+1 = 11, B 4+3+1+1 = 9, C 4+1+1 = 6,
    D 4 = 4; A is first on Sonneborn-Berger. FIDE C.07 9.1 (points scored times the opponent's
    score) gives the same sums without draws."""
    table = standings(published_results(PUBLISHED_CYCLES), [TieBreak.SONNEBORN_BERGER],
                      predetermined=True)
    assert [(s.rank, s.id, s.score) for s in table] == [(1, 1, 4), (2, 2, 4), (3, 3, 3), (4, 4, 1)]
    assert {s.id: s.tiebreaks["sonneborn_berger"] for s in table} == {1: 11, 2: 9, 3: 6, 4: 4}


def test_sonneborn_berger_published_three_way_tie():
    """fiveinline.com/sbps.html, "Example 2" (a double round robin of four, 1 a win): A beats B
    and C twice, B beats C and D twice, D beats A and C twice; A, B and D have 4 points and 8
    Sonneborn-Berger points each (4+4+0+0), C has 0: the three stay tied ("all of them can be
    declared as winners")."""
    winners = {(1, 2): 1, (1, 3): 1, (1, 4): 4, (2, 3): 2, (2, 4): 2, (3, 4): 4}
    table = standings(published_results([winners, winners]), [TieBreak.SONNEBORN_BERGER],
                      predetermined=True)
    assert [(s.rank, s.id, s.score) for s in table] == [(1, 1, 4), (1, 2, 4), (1, 4, 4), (4, 3, 0)]
    assert {s.id: s.tiebreaks["sonneborn_berger"] for s in table} == {1: 8, 2: 8, 3: 0, 4: 8}
