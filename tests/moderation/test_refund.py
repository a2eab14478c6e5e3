"""The rating refund's formula (lila ``RatingRefund.pointsToRefund``), with worked numbers, and
its victims (``games.moderation.refund.victims_of``)."""

from __future__ import annotations

from games.moderation.refund import MOST, NO_HIGHEST_CAP, points_to_refund


def test_the_whole_loss_when_the_victim_has_not_recovered():
    # Lost 10, 12 and 8 (30) from 1600, 1590 and 1578; now 1570, best ever 1650:
    # 30 − max(0, 30 + 1570 − 1600) / 2 = 30; the cap 1650 − 1570 + 20 = 100 does not bite.
    assert points_to_refund(30, 1570, 1600, 1650) == 30


def test_half_of_what_was_regained_is_kept_back():
    # Back up to 1620 since: 30 + 1620 − 1600 = 50 regained over the loss, half kept: 30 − 25.
    assert points_to_refund(30, 1620, 1600, 1650) == 5


def test_the_division_is_lila_s_integer_division():
    # 30 + 1601 − 1600 = 31, 31 / 2 = 15 in integers: 30 − 15.
    assert points_to_refund(30, 1601, 1600, 1650) == 15


def test_nobody_is_lifted_more_than_20_points_over_their_best():
    # Best ever 1575, now 1570: at most 1575 − 1570 + 20 = 25 of the 30.
    assert points_to_refund(30, 1570, 1600, 1575) == 25


def test_without_a_recorded_best_the_cap_is_100():
    assert NO_HIGHEST_CAP == 100
    assert points_to_refund(200, 1300, 1500, None) == 100
    assert points_to_refund(40, 1460, 1500, None) == 40


def test_a_refund_is_at_most_150():
    # 300 lost from 1800, now 1500, best 2000: 300, under the cap of 520, clamped to 150.
    assert MOST == 150
    assert points_to_refund(300, 1500, 1800, 2000) == 150


def test_a_refund_is_never_negative():
    # Regained far more than lost: 10 − (10 + 1700 − 1600) / 2 = −45, clamped to 0.
    assert points_to_refund(10, 1700, 1600, 1720) == 0
    # A best below the current rating less 20 makes the cap negative: 0 too.
    assert points_to_refund(30, 1570, 1600, 1540) == 0
