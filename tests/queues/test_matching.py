"""The queues' matching (games/queues/matching.py): pure, no database. A narrow rating gap
first, widening with the wait; no immediate rematch unless nobody else waits; never a blocked
pair; big waves in rating-sorted groups; tables of four with balanced sides."""

from __future__ import annotations

import random

import pytest

from games.queues import matching
from games.queues.matching import MatchingError, Waiter, allowed_gap, balanced_sides, pair_wave, table_wave


def w(i: int, rating: float, waited: float = 0.0, **kw) -> Waiter:
    return Waiter(id=i, rating=rating, waited=waited, members=kw.pop("members", (100 + i,)), **kw)


def test_the_gap_starts_narrow_and_widens_with_the_wait_up_to_its_cap():
    assert allowed_gap(0) == matching.BASE_GAP
    assert allowed_gap(10) == matching.BASE_GAP + 10 * matching.GAP_PER_SECOND
    assert allowed_gap(10_000) == matching.MAX_GAP
    assert allowed_gap(-5) == matching.BASE_GAP


def test_two_newcomers_far_apart_wait_until_one_has_waited_long_enough():
    a, b = w(1, 1500), w(2, 1750)
    assert pair_wave([a, b]) == []
    # 250 points apart: accepted once the longer waiter's gap reaches 250 (15 s).
    assert pair_wave([w(1, 1500, waited=14), b]) == []
    assert pair_wave([w(1, 1500, waited=15), b]) == [(1, 2)]


def test_the_closest_ratings_meet_first():
    pairs = pair_wave([w(1, 1500), w(2, 1900), w(3, 1540), w(4, 1880)])
    assert pairs == [(1, 3), (2, 4)]


def test_a_long_waiter_is_preferred_to_a_newcomer_of_the_same_gap():
    # 1 can meet 2 or 3 (both 50 away); 3 waited longer, and 1-3 wins.
    pairs = pair_wave([w(1, 1500), w(2, 1550), w(3, 1450, waited=20)])
    assert pairs == [(1, 3)]


def test_a_player_put_back_at_the_front_is_seated_before_one_who_just_came():
    pairs = pair_wave([w(1, 1500), w(2, 1520), w(3, 1480, front=True)])
    assert pairs == [(1, 3)]


def test_last_opponents_do_not_meet_again_while_someone_else_waits():
    a = w(1, 1500, recent=frozenset({102}))
    b = w(2, 1500, recent=frozenset({101}))
    c = w(3, 1560)
    assert pair_wave([a, b, c]) in ([(1, 3)], [(2, 3)])
    # Nobody else waits: they meet again.
    assert pair_wave([a, b]) == [(1, 2)]


def test_a_blocked_pair_never_meets_even_alone():
    a = w(1, 1500, waited=600, blocked=frozenset({102}))
    b = w(2, 1500, waited=600)
    assert pair_wave([a, b]) == []
    assert pair_wave([b, w(1, 1500, waited=600)]) == [(1, 2)]


def test_a_big_wave_is_matched_in_rating_groups_everyone_close_and_seated_once():
    rng = random.Random(7)
    units = [w(i, rng.gauss(1500, 200)) for i in range(1, 1001)]
    pairs = pair_wave(units)
    seated = [i for pair in pairs for i in pair]
    assert len(seated) == len(set(seated))
    assert len(pairs) >= 480  # nearly everyone: a dense queue
    by_id = {u.id: u for u in units}
    assert all(abs(by_id[a].rating - by_id[b].rating) <= matching.BASE_GAP for a, b in pairs)


def test_a_big_wave_pairs_only_within_a_group():
    # Groups of GROUP_SIZE in rating order: the two lowest groups' extremes never meet.
    units = [w(i, 1000 + i) for i in range(1, 101)]
    pairs = pair_wave(units)
    assert all(abs(a - b) < matching.GROUP_SIZE for a, b in pairs)


def test_bad_waves_are_refused():
    with pytest.raises(MatchingError):
        pair_wave([w(1, 1500), w(1, 1600)])
    with pytest.raises(MatchingError):
        pair_wave([w(1, float("nan")), w(2, 1500)])
    with pytest.raises(MatchingError):
        pair_wave([w(1, 1500, members=(1, 2)), w(2, 1500)], size=1)


def test_balanced_sides_put_the_best_with_the_worst():
    side0, side1 = balanced_sides({1: 1900, 2: 1500, 3: 1700, 4: 1300})
    assert side0 == (1, 4) and side1 == (3, 2)
    with pytest.raises(MatchingError):
        balanced_sides({1: 1500})


def test_four_singles_make_one_table_of_balanced_sides():
    units = [w(1, 1900, waited=40), w(2, 1500, waited=40), w(3, 1700, waited=40), w(4, 1300, waited=40)]
    (table,) = table_wave(units)
    assert table.units == (1, 2, 3, 4)
    assert set(table.side0) == {101, 104} and set(table.side1) == {102, 103}


def test_a_pair_who_came_together_keeps_its_partner_against_two_singles():
    pair = w(1, 1500, members=(11, 12))
    (table,) = table_wave([pair, w(2, 1480), w(3, 1520)])
    assert table.side0 == (11, 12) or table.side1 == (11, 12)
    assert {101 + 1, 101 + 2} == set(table.side0 + table.side1) - {11, 12}
    assert table.units == (1, 2, 3)


def test_two_pairs_meet_and_singles_out_of_their_gap_wait():
    tables = table_wave([w(1, 1500, members=(11, 12)), w(2, 1510, members=(21, 22)), w(3, 2100), w(4, 2100), w(5, 2100)])
    assert [(t.units, {t.side0, t.side1}) for t in tables] == [((1, 2), {(11, 12), (21, 22)})]


def test_one_table_of_five_waiting_units_the_closest_ratings_first():
    # The pair (1500) meets the two singles of 1500 rather than the pair of 1510.
    tables = table_wave([w(1, 1500, members=(11, 12)), w(2, 1510, members=(21, 22)), w(3, 1500), w(4, 1700), w(5, 1500)])
    assert [t.units for t in tables] == [(1, 3, 5)]


def test_a_big_partnership_wave_seats_each_player_once():
    rng = random.Random(3)
    units = [w(i, rng.gauss(1500, 150)) for i in range(1, 201)]
    units += [w(i, rng.gauss(1500, 150), members=(1000 + 2 * i, 1001 + 2 * i)) for i in range(201, 221)]
    tables = table_wave(units)
    seated = [m for t in tables for m in t.side0 + t.side1]
    assert len(seated) == len(set(seated))
    assert len(tables) >= 40
    assert all(len(t.side0) == len(t.side1) == 2 for t in tables)


def _best_weight(units: list[Waiter]) -> int:
    """The weight of a maximum-weight matching of ``units``, every pair that may meet a
    candidate, computed here from the weights ``pair_wave`` documents."""
    import networkx as nx

    graph = nx.Graph()
    for x, a in enumerate(units):
        for b in units[x + 1:]:
            if matching._meets(a, b, len(units) == 2):
                graph.add_edge(a.id, b.id, weight=_weight(a, b))
    by_id = {u.id: u for u in units}
    return sum(_weight(by_id[i], by_id[j]) for i, j in nx.max_weight_matching(graph))


def _weight(a: Waiter, b: Waiter) -> int:
    return matching.PAIR_WEIGHT - abs(round(a.rating) - round(b.rating)) + matching._bonus(a) + matching._bonus(b)


def test_a_group_paired_in_rating_order_without_a_matching_weighs_as_much_as_the_best():
    rng = random.Random(11)
    taken = 0
    for _ in range(400):
        n = rng.choice((2, 4, 6, 8))
        spread = rng.choice((30, 200, matching.PAIR_WEIGHT))
        units = sorted(
            (w(i, 1500 + rng.uniform(0, spread), waited=rng.choice((0, 5, 20, 60)), front=rng.random() < .2)
             for i in range(1, n + 1)),
            key=lambda u: (u.rating, u.id),
        )
        points = [round(u.rating) for u in units]
        adjacent = all(matching._meets(units[i], units[i + 1], n == 2) for i in range(0, n, 2))
        if not (adjacent and matching._adjacent_is_best(points)):
            continue
        taken += 1
        pairs = pair_wave(units)
        assert pairs == sorted(tuple(sorted((units[i].id, units[i + 1].id))) for i in range(0, n, 2))
        by_id = {u.id: u for u in units}
        assert sum(_weight(by_id[a], by_id[b]) for a, b in pairs) == _best_weight(units)
    assert taken > 100


def test_a_wide_group_is_matched_not_paired_in_rating_order():
    # In rating order: 1-2 and 3-4, 400 points apart each. The close pair between them weighs
    # more than both: the span is over PAIR_WEIGHT, so the order proves nothing.
    units = [w(1, 1000, waited=40), w(2, 1400, waited=40), w(3, 1400, waited=40), w(4, 1800, waited=40)]
    assert not matching._adjacent_is_best([1000, 1400, 1400, 1800])
    assert pair_wave(units) == [(2, 3)]


def test_an_odd_group_is_matched():
    assert not matching._adjacent_is_best([1500, 1510, 1520])


def test_a_big_close_wave_is_paired_in_rating_order_without_running_a_matching(monkeypatch):
    import networkx as nx

    calls = []
    monkeypatch.setattr(nx, "max_weight_matching", lambda *a, **k: calls.append(1) or set())
    rng = random.Random(5)
    units = [w(i, rng.gauss(1500, 200), waited=rng.uniform(0, 30)) for i in range(1, 1001)]
    pairs = pair_wave(units)
    order = [u.id for u in sorted(units, key=lambda u: (u.rating, u.id))]
    assert calls == []
    assert pairs == sorted(tuple(sorted(order[i:i + 2])) for i in range(0, 1000, 2))


# A full house: the waiting units fill whole tables and nobody else waits (issue 35).
# After a first rated partnership match the winners are near 1741, the losers near 1259
# (Glicko-2 from 1500, deviation 500): the sides the gap made (winners together) are 482 apart.
WON, LOST = 1741, 1259


def test_four_singles_apart_after_a_first_match_are_seated_at_once_winner_with_loser():
    units = [w(1, WON, waited=3), w(2, WON, waited=2), w(3, LOST, waited=1), w(4, LOST)]
    (table,) = table_wave(units)
    assert table.units == (1, 2, 3, 4)
    assert {frozenset(table.side0), frozenset(table.side1)} == {frozenset({101, 103}), frozenset({102, 104})}
    assert table.side0[0] == 101  # side 0 holds the best player, listed first


def test_a_pair_and_two_singles_alone_are_seated_at_once_whatever_their_gap():
    pair = w(1, WON, members=(11, 12))
    (table,) = table_wave([pair, w(2, LOST), w(3, LOST)])
    assert (table.side0, set(table.side1), table.units) == ((11, 12), {102, 103}, (1, 2, 3))


def test_two_pairs_alone_are_seated_at_once():
    (table,) = table_wave([w(1, 1300, members=(11, 12)), w(2, 1900, members=(21, 22))])
    assert (table.side0, table.side1) == ((21, 22), (11, 12))


def test_a_crowded_queue_still_waits_for_the_gap():
    # A fifth player could take any seat: not a full house, the gap decides (it waits).
    units = [w(1, WON), w(2, WON), w(3, LOST), w(4, LOST), w(5, 1500)]
    assert table_wave(units) == []
    assert matching.full_house(units) == []
    # Once the gap has widened far enough, the table is made the usual way.
    assert len(table_wave([w(u.id, u.rating, waited=40) for u in units])) == 1


def test_the_units_the_gap_leaves_are_seated_when_they_fill_a_table():
    close = [w(i, 1500 + i) for i in range(1, 5)]
    apart = [w(5, WON), w(6, WON), w(7, LOST), w(8, LOST)]
    tables = table_wave(close + apart)
    assert [t.units for t in tables] == [(1, 2, 3, 4), (5, 6, 7, 8)]
    assert {frozenset(tables[1].side0), frozenset(tables[1].side1)} == {frozenset({105, 107}), frozenset({106, 108})}


def test_a_full_house_of_two_tables_is_as_even_as_possible():
    units = [w(1, 2000), w(2, 1900), w(3, 1300), w(4, 1200), w(5, 1700), w(6, 1600), w(7, 1500), w(8, 1400)]
    tables = matching.full_house(units)
    assert len(tables) == 2
    mean = {u.members[0]: u.rating for u in units}
    for t in tables:
        assert sum(mean[m] for m in t.side0) == sum(mean[m] for m in t.side1)


def test_a_full_house_never_seats_a_blocked_pair_together():
    a = w(1, 1500, blocked=frozenset({102}))
    four = [a, w(2, 1500), w(3, 1500), w(4, 1500)]
    assert table_wave(four) == []
    assert table_wave([w(u.id, u.rating, waited=600, blocked=u.blocked) for u in four]) == []
    # Eight: the two sit at different tables.
    eight = four + [w(i, 1500 + 300 * (i % 2)) for i in range(5, 9)]
    tables = matching.full_house(eight)
    assert len(tables) == 2
    assert not any({101, 102} <= set(t.side0 + t.side1) for t in tables)


def test_one_nobody_can_sit_with_does_not_keep_the_others_waiting():
    # 5 blocked every other: no table could hold them, so the other four are a full house.
    loner = w(5, 1500, blocked=frozenset({101, 102, 103, 104}))
    (table,) = table_wave([w(1, WON), w(2, WON), w(3, LOST), w(4, LOST), loner])
    assert table.units == (1, 2, 3, 4)


def test_last_opponents_are_partners_not_opponents_in_a_full_house_of_two_tables():
    # 1 and 2 faced each other last time; so did 3 and 4 (their rating neighbours).
    units = [w(1, 1800, recent=frozenset({102})), w(2, 1800, recent=frozenset({101})),
             w(3, 1200, recent=frozenset({104})), w(4, 1200, recent=frozenset({103})),
             w(5, 1800), w(6, 1800), w(7, 1200), w(8, 1200)]
    tables = matching.full_house(units, alone=False)
    assert len(tables) == 2
    for t in tables:
        for x, y in ((101, 102), (103, 104)):
            assert not (x in t.side0 and y in t.side1 or x in t.side1 and y in t.side0)


def test_the_same_four_alone_may_meet_again():
    units = [w(i, 1500, recent=frozenset({100 + j for j in range(1, 5)} - {100 + i})) for i in range(1, 5)]
    assert len(table_wave(units)) == 1
    assert matching.full_house(units, alone=False) == []


def test_two_alone_in_1v1_meet_at_the_latest_once_the_gap_is_at_its_widest():
    # 400 apart: after 30 s, as before. 600 apart (more than the widest gap): after 40 s, not never.
    assert pair_wave([w(1, 1500, waited=29), w(2, 1900)]) == []
    assert pair_wave([w(1, 1500, waited=30), w(2, 1900)]) == [(1, 2)]
    assert pair_wave([w(1, 1500, waited=39), w(2, 2100)]) == []
    assert pair_wave([w(1, 1500, waited=matching.WIDEST_AFTER), w(2, 2100)]) == [(1, 2)]
    # Not while a third waits: then the gap decides, as always.
    assert pair_wave([w(1, 1500, waited=600), w(2, 2100), w(3, 2700)]) == []
