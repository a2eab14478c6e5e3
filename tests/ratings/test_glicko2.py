"""Glicko-2 (games/ratings/glicko2.py): the paper's example, lichess's settings, the partnership rule.

No database. Expected values come from the paper (Glickman, "Example of the Glicko-2 system",
glicko.net/glicko/glicko2.pdf), from lichess's own calculator tests (scalachess
``test-kit/src/test/scala/rating/glicko/GlickoCalculatorTest.scala``), or are computed here from the
paper's formulas, written out again in this file rather than taken from the module.
"""

from __future__ import annotations

import dataclasses
import doctest
import math
import subprocess
import sys
from pathlib import Path

import pytest

from games.ratings import glicko2
from games.ratings.glicko2 import (
    MAX_DEVIATION,
    MAX_RATING_DELTA,
    MAX_VOLATILITY,
    MIN_DEVIATION,
    MIN_RATING,
    NEW_PLAYER,
    RATING_PERIODS_PER_DAY,
    TAU,
    Rating,
    cap,
    composite_opponent,
    expected_score,
    is_provisional,
    rate,
    rate_match,
    widen,
)

ROOT = Path(__file__).resolve().parents[2]
SCALE = 173.7178

# The paper's example: a 1500/200/0.06 player wins against 1400/30, loses against 1550/100 and
# 1700/300 in one rating period, tau = 0.5.
PLAYER = Rating(1500, 200, 0.06)
RESULTS = [
    (Rating(1400, 30, 0.06), 1),
    (Rating(1550, 100, 0.06), 0),
    (Rating(1700, 300, 0.06), 0),
]


def paper_steps_3_and_4(player, results):
    """v and sum g(phi_j)(s_j - E_j) of the paper's steps 3 and 4, written out independently."""
    mu = (player.rating - 1500) / SCALE
    phi = player.deviation / SCALE
    inv_v = 0.0
    outcome = 0.0
    for opponent, score in results:
        mu_j = (opponent.rating - 1500) / SCALE
        phi_j = opponent.deviation / SCALE
        g_j = 1 / math.sqrt(1 + 3 * phi_j**2 / math.pi**2)
        e_j = 1 / (1 + math.exp(-g_j * (mu - mu_j)))
        inv_v += g_j**2 * e_j * (1 - e_j)
        outcome += g_j * (score - e_j)
    return mu, phi, 1 / inv_v, outcome


# --- The paper ---------------------------------------------------------------------------------


def test_the_papers_worked_example_at_tau_0_5():
    after = rate(PLAYER, RESULTS, tau=0.5)
    # Step 7 as printed: mu' = -0.2069, phi' = 0.8722.
    assert round((after.rating - 1500) / SCALE, 4) == -0.2069
    assert round(after.deviation / SCALE, 4) == 0.8722
    # Step 8 as printed: r' = 1464.06, RD' = 151.52. The paper computes r' from mu' rounded to
    # four places (173.7178 * -0.2069 + 1500 = 1464.06); unrounded it is 1464.0507, so the
    # printed precision is +-0.01 here.
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert round(after.deviation, 2) == 151.52
    # Step 5 as printed: sigma' = 0.05999 (0.059996 cut to five places).
    assert 0.05999 <= after.volatility < 0.06
    assert after.volatility == pytest.approx(0.059996, abs=5e-7)


def test_the_papers_intermediate_values_hold_for_this_files_own_formulas():
    # The independent formulas used below reproduce the paper's steps 3 and 4 (v = 1.7785,
    # Delta = -0.4834), so they can stand as the reference for increase_deviation=False.
    # The paper works with g and E rounded to four places (g = 0.9955, 0.9531, 0.7242;
    # E = 0.639, 0.432, 0.303), which moves v in its fourth place: 1.77898 unrounded.
    _, _, v, outcome = paper_steps_3_and_4(PLAYER, RESULTS)
    assert v == pytest.approx(1.7785, abs=0.001)
    assert v * outcome == pytest.approx(-0.4834, abs=0.001)


def test_a_player_who_does_not_compete_only_widens():
    after = rate(PLAYER, [], tau=0.5)
    phi = 200 / SCALE
    assert after.rating == 1500
    assert after.volatility == 0.06
    assert after.deviation == pytest.approx(SCALE * math.sqrt(phi**2 + 0.06**2), rel=1e-12)
    assert after.deviation > 200


def test_a_player_who_does_not_compete_stays_put_without_the_increase():
    assert rate(PLAYER, [], tau=0.5, increase_deviation=False) == PLAYER


def test_without_the_increase_step_6_keeps_phi_and_step_7_narrows_from_it():
    widened = rate(PLAYER, RESULTS, tau=0.5)
    instant = rate(PLAYER, RESULTS, tau=0.5, increase_deviation=False)
    mu, phi, v, outcome = paper_steps_3_and_4(PLAYER, RESULTS)

    # Step 5 does not depend on step 6: the same new volatility either way.
    assert instant.volatility == widened.volatility
    # Step 6 with 0 periods: phi* = phi; step 7: phi' = 1/sqrt(1/phi^2 + 1/v),
    # mu' = mu + phi'^2 * sum g (s - E).
    phi_new = 1 / math.sqrt(1 / phi**2 + 1 / v)
    assert instant.deviation == pytest.approx(SCALE * phi_new, rel=1e-12)
    assert instant.rating == pytest.approx(1500 + SCALE * (mu + phi_new**2 * outcome), rel=1e-12)
    # With the increase: phi* = sqrt(phi^2 + sigma'^2) before step 7.
    phi_star = math.sqrt(phi**2 + widened.volatility**2)
    phi_widened = 1 / math.sqrt(1 / phi_star**2 + 1 / v)
    assert widened.deviation == pytest.approx(SCALE * phi_widened, rel=1e-12)
    assert instant.deviation < widened.deviation
    assert round(instant.deviation, 2) == 151.40


@pytest.mark.parametrize(
    ("start", "rating", "deviation", "volatility", "tolerance"),
    [
        # scalachess GlickoCalculatorTest, "default deviation: white wins" (tau 0.75, one game
        # as its own period).
        (Rating(1500, 350, 0.06), 1662.21, 290.23, 0.0599993, 0.005),
        # scalachess GlickoCalculatorTest with lichess's new player (1741 / 396 within 1 there).
        (NEW_PLAYER, 1741.48, 396.69, 0.0899983, 0.005),
    ],
)
def test_one_game_as_lichess_rates_it(start, rating, deviation, volatility, tolerance):
    winner = rate(start, [(start, 1)], tau=0.75, increase_deviation=False)
    loser = rate(start, [(start, 0)], tau=0.75, increase_deviation=False)
    assert winner.rating == pytest.approx(rating, abs=tolerance)
    assert loser.rating == pytest.approx(3000 - rating, abs=tolerance)
    assert winner.deviation == pytest.approx(deviation, abs=tolerance)
    assert loser.deviation == pytest.approx(deviation, abs=tolerance)
    assert winner.volatility == pytest.approx(volatility, abs=1e-7)


def test_a_draw_between_equals_moves_no_rating():
    after = rate(Rating(1500, 350, 0.06), [(Rating(1500, 350, 0.06), 0.5)], tau=0.75)
    assert after.rating == pytest.approx(1500, abs=1e-9)
    assert after.deviation < 350


def test_rating_is_a_frozen_value_with_the_three_fields():
    assert [f.name for f in dataclasses.fields(Rating)] == ["rating", "deviation", "volatility"]
    with pytest.raises(dataclasses.FrozenInstanceError):
        PLAYER.rating = 1600  # type: ignore[misc]
    assert Rating(1500, 200, 0.06) == PLAYER


# --- lichess's settings and clamps -------------------------------------------------------------


def test_lichess_settings():
    assert NEW_PLAYER == Rating(1500, 500, 0.09)
    assert TAU == 0.75
    assert RATING_PERIODS_PER_DAY == 0.21436
    assert (MIN_DEVIATION, MAX_DEVIATION, MAX_VOLATILITY) == (45, 500, 0.1)
    assert (MIN_RATING, MAX_RATING_DELTA) == (400, 700)


def test_deviation_floor_45():
    player = opponent = Rating(1500, 45, 0.06)
    assert rate(player, [(opponent, 0.5)], tau=TAU, increase_deviation=False).deviation < 45
    assert rate_match(player, opponent, 0.5, days_since_last=0).deviation == 45


def test_deviation_ceiling_500():
    assert cap(Rating(1500, 800, 0.06)).deviation == 500
    opponent = Rating(1600, 80, 0.06)
    # A deviation above 500 is brought to 500 before the match is rated.
    assert rate_match(Rating(1500, 800, 0.09), opponent, 1, days_since_last=0) == rate_match(
        Rating(1500, 500, 0.09), opponent, 1, days_since_last=0
    )
    assert rate_match(Rating(1500, 800, 0.09), opponent, 1, days_since_last=0) != rate(
        Rating(1500, 800, 0.09), [(opponent, 1)], tau=TAU, increase_deviation=False
    )


def test_volatility_ceiling_0_1():
    player, opponent = Rating(1500, 300, 0.0999), Rating(900, 45, 0.06)
    assert rate(player, [(opponent, 0)], tau=TAU, increase_deviation=False).volatility > 0.1
    assert rate_match(player, opponent, 0, days_since_last=0).volatility == 0.1
    assert cap(Rating(1500, 100, 0.3)).volatility == 0.1


def test_rating_floor_400():
    player, opponent = Rating(450, 300, 0.06), Rating(450, 45, 0.06)
    assert rate(player, [(opponent, 0)], tau=TAU, increase_deviation=False).rating < 400
    assert rate_match(player, opponent, 0, days_since_last=0).rating == 400
    # A rating below the floor is raised to it before the match.
    assert rate_match(Rating(300, 300, 0.06), opponent, 0, days_since_last=0).rating == 400


@pytest.mark.parametrize(
    ("player", "opponent", "score", "limit"),
    [
        (NEW_PLAYER, Rating(3500, 45, 0.06), 1, 1500 + 700),
        (Rating(3500, 500, 0.09), Rating(1500, 45, 0.06), 0, 3500 - 700),
    ],
)
def test_no_match_moves_a_rating_more_than_700(player, opponent, score, limit):
    unbounded = rate(player, [(opponent, score)], tau=TAU, increase_deviation=False)
    assert abs(unbounded.rating - player.rating) > 700
    assert rate_match(player, opponent, score, days_since_last=0).rating == limit


def test_rate_match_is_rate_with_lichess_settings_inside_the_bounds():
    player, opponent = Rating(1620, 90, 0.06), Rating(1580, 70, 0.06)
    assert rate_match(player, opponent, 0.5, days_since_last=0) == rate(
        player, [(opponent, 0.5)], tau=0.75, increase_deviation=False
    )


def test_rate_match_widens_for_the_idle_time_first():
    player, opponent = Rating(1620, 60, 0.06), Rating(1580, 70, 0.06)
    idle = rate_match(player, opponent, 1, days_since_last=200)
    expected = rate(widen(player, 200), [(opponent, 1)], tau=0.75, increase_deviation=False)
    assert idle == expected
    # A wider deviation before the match: the win counts for more.
    assert idle.rating > rate_match(player, opponent, 1, days_since_last=0).rating


@pytest.mark.parametrize("days", [0, 1, 30])
def test_widen_over_days(days):
    player = Rating(1700, 80, 0.06)
    periods = days * 0.21436
    expected = SCALE * math.sqrt((80 / SCALE) ** 2 + periods * 0.06**2)
    after = widen(player, days)
    assert after.deviation == pytest.approx(expected, rel=1e-12)
    assert (after.rating, after.volatility) == (1700, 0.06)
    assert (after.deviation > 80) == (days > 0)


def test_widen_over_no_time_changes_nothing():
    assert widen(Rating(1700, 80, 0.06), 0) == Rating(1700, 80, 0.06)


def test_widen_takes_a_typical_rd_from_60_to_110_in_a_year():
    # lila Glicko.scala: ratingPeriodsPerDay "chosen so a typical player's RD goes from 60 -> 110
    # in 1 year".
    assert widen(Rating(1500, 60, 0.06), 365).deviation == pytest.approx(110, abs=0.5)


def test_widen_stops_at_the_maximum_deviation():
    assert widen(Rating(1500, 450, 0.09), 10_000).deviation == 500
    assert widen(Rating(1500, 450, 0.09), 10_000, max_deviation=350).deviation == 350
    assert widen(Rating(1500, 80, 0.06), 30, periods_per_day=1).deviation == pytest.approx(
        SCALE * math.sqrt((80 / SCALE) ** 2 + 30 * 0.06**2), rel=1e-12
    )


def test_provisional_while_the_deviation_is_110_or_more():
    assert is_provisional(Rating(1500, 110, 0.06))
    assert not is_provisional(Rating(1500, 109.99, 0.06))
    assert is_provisional(NEW_PLAYER)


# --- Partnership -------------------------------------------------------------------------------


def test_composite_opponent_worked_example():
    own, partner = Rating(1600, 80, 0.06), Rating(1400, 120, 0.05)
    opponents = [Rating(1550, 30, 0.06), Rating(1650, 40, 0.08)]
    # By hand: own side's mean (1600 + 1400) / 2 = 1500, opponents' mean (1550 + 1650) / 2 = 1600,
    # so the rating is 1600 + (1600 - 1500) = 1700 for the player and 1400 + 100 = 1500 for the
    # partner; the deviation sqrt((30^2 + 40^2) / 2) = sqrt(1250) = 35.3553...; the volatility the
    # mean, 0.07.
    composite = composite_opponent(own, partner, opponents)
    assert composite.rating == 1700
    assert composite.deviation == pytest.approx(35.35533906, abs=1e-8)
    assert composite.volatility == pytest.approx(0.07)
    assert composite_opponent(partner, own, opponents).rating == 1500
    # The opponents' order does not matter.
    assert composite_opponent(own, partner, opponents[::-1]) == composite


def test_a_stronger_partner_makes_a_win_worth_less():
    me = Rating(1500, 100, 0.06)
    opponents = [Rating(1500, 60, 0.06), Rating(1500, 60, 0.06)]
    with_strong = rate_match(
        me, composite_opponent(me, Rating(1900, 60, 0.06), opponents), 1, days_since_last=0
    )
    with_equal = rate_match(
        me, composite_opponent(me, Rating(1500, 60, 0.06), opponents), 1, days_since_last=0
    )
    assert 1500 < with_strong.rating < with_equal.rating


# --- Expected score ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("a", "b"),
    [
        (Rating(1500, 350, 0.06), Rating(1500, 50, 0.06)),
        (Rating(1800, 60, 0.06), Rating(1450, 200, 0.09)),
        (Rating(400, 500, 0.09), Rating(2900, 45, 0.05)),
    ],
)
def test_expected_scores_add_up_to_one(a, b):
    assert expected_score(a, b) + expected_score(b, a) == pytest.approx(1, abs=1e-12)


def test_equal_ratings_expect_half():
    assert expected_score(Rating(1500, 350, 0.06), Rating(1500, 50, 0.06)) == 0.5
    assert expected_score(Rating(2100, 45, 0.06), Rating(2100, 45, 0.06)) == 0.5


def test_expected_score_is_glickos_prediction_with_both_deviations():
    # Glickman, "The Glicko system": E = 1 / (1 + 10^(-g(sqrt(RD1^2 + RD2^2)) (r1 - r2) / 400)),
    # g(RD) = 1 / sqrt(1 + 3 q^2 RD^2 / pi^2), q = ln 10 / 400.
    q = math.log(10) / 400
    rd = math.sqrt(60**2 + 200**2)
    g = 1 / math.sqrt(1 + 3 * q**2 * rd**2 / math.pi**2)
    expected = 1 / (1 + 10 ** (-g * (1800 - 1450) / 400))
    value = expected_score(Rating(1800, 60, 0.06), Rating(1450, 200, 0.09))
    assert value == pytest.approx(expected, abs=1e-6)
    assert value > 0.5


# --- Bad input ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("values", "message"),
    [
        ((1500, -1, 0.06), "deviation must be greater than 0"),
        ((1500, 0, 0.06), "deviation must be greater than 0"),
        ((1500, 200, 0), "volatility must be greater than 0"),
        ((1500, 200, -0.06), "volatility must be greater than 0"),
        ((math.nan, 200, 0.06), "rating must be finite"),
        ((1500, math.inf, 0.06), "deviation must be finite"),
        (("1500", 200, 0.06), "rating must be a number"),
    ],
)
def test_a_bad_rating_raises(values, message):
    with pytest.raises(ValueError, match=message):
        Rating(*values)


@pytest.mark.parametrize("score", [2, -1, 0.25, math.nan, "1", None, True])
def test_a_bad_score_raises(score):
    with pytest.raises(ValueError, match="score of result 0 must be 1 \\(win\\), 0.5"):
        rate(PLAYER, [(Rating(1500, 100, 0.06), score)], tau=0.5)
    with pytest.raises(ValueError, match="score must be 1 \\(win\\), 0.5"):
        rate_match(PLAYER, Rating(1500, 100, 0.06), score, days_since_last=0)


@pytest.mark.parametrize("tau", [0, -0.5, math.nan, math.inf])
def test_a_bad_tau_raises(tau):
    with pytest.raises(ValueError, match="tau must be"):
        rate(PLAYER, RESULTS, tau=tau)


@pytest.mark.parametrize(
    ("results", "message"),
    [
        ([(1500, 1)], "opponent of result 0 must be a Rating"),
        ([(Rating(1500, 100, 0.06),)], "result 0 must be an \\(opponent, score\\) pair"),
        ([(Rating(200_000, 50, 0.06), 0)], "too far apart to rate"),
    ],
)
def test_bad_results_raise(results, message):
    with pytest.raises(ValueError, match=message):
        rate(PLAYER, results, tau=0.5)


@pytest.mark.parametrize("days", [-1, math.nan, math.inf])
def test_bad_idle_time_raises(days):
    with pytest.raises(ValueError, match="days must be a finite number, 0 or more"):
        widen(PLAYER, days)
    with pytest.raises(ValueError, match="days must be a finite number, 0 or more"):
        rate_match(PLAYER, PLAYER, 1, days_since_last=days)


def test_a_partnership_needs_two_opponents():
    with pytest.raises(ValueError, match="two opponents, got 3"):
        composite_opponent(PLAYER, PLAYER, [PLAYER, PLAYER, PLAYER])
    with pytest.raises(ValueError, match="opponent 1 must be a Rating"):
        composite_opponent(PLAYER, PLAYER, [PLAYER, 1500])


def test_not_a_rating_raises():
    with pytest.raises(ValueError, match="player must be a Rating"):
        rate((1500, 200, 0.06), RESULTS, tau=0.5)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="opponent must be a Rating"):
        expected_score(PLAYER, 1500)  # type: ignore[arg-type]


# --- A pure module -----------------------------------------------------------------------------

SCRIPT = """
import sys
for name in ("django", "channels", "daphne"):
    sys.modules[name] = None  # any import of them now raises ImportError
from games.ratings import glicko2
after = glicko2.rate_match(glicko2.NEW_PLAYER, glicko2.NEW_PLAYER, 1, days_since_last=3)
loaded = sorted(n for n in sys.modules if n.split(".")[0] in ("django", "channels", "daphne")
                and sys.modules[n] is not None)
print("ok", loaded, after.rating > 1500)
"""


def test_the_module_imports_and_runs_with_django_absent():
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok [] True"


def test_doctests():
    failed, attempted = doctest.testmod(glicko2, optionflags=doctest.ELLIPSIS)
    assert failed == 0
    assert attempted > 10
