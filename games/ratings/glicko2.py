"""Glicko-2 ratings as lichess runs them: pure maths, standard-library Python, no Django.

Sources:

- The formula: Mark E. Glickman, "Example of the Glicko-2 system", Boston University, 30 November
  2013, revised 22 March 2022, http://www.glicko.net/glicko/glicko2.pdf ("the paper" below).
  :func:`rate` follows its steps 1-8 and names each step in the code.
- How lichess runs it: scalachess ``rating/src/main/scala/glicko/impl/RatingCalculator.scala`` (the
  calculator lila uses, with the same step comments as lila's older
  ``modules/rating/src/main/glicko2/RatingCalculator.scala``); lila
  ``modules/rating/src/main/Glicko.scala`` (the site's settings, copied below as constants);
  lila ``modules/round/src/main/PerfsUpdater.scala`` (every game is rated alone with
  ``skipDeviationIncrease = true``); lila ``modules/rating/src/main/Perf.scala``
  (``addOrReset``: the 700-point limit, then the clamps; ``liveDeviation``: the deviation widened
  for the time since the player's last game).

Shapes and units: a :class:`Rating` is on the Glicko scale (rating 1500, deviation RD 350, the
volatility sigma 0.06 for the paper's unrated player). The paper's Glicko-2 scale (mu, phi) is used
only inside this module: mu = (rating - 1500) / 173.7178 and phi = RD / 173.7178.

The site's whole policy for one match is :func:`rate_match`; a partnership match rates each
player against :func:`composite_opponent`; the win chances shown before a match are
:func:`expected_score`.

>>> after = rate_match(NEW_PLAYER, NEW_PLAYER, 1, days_since_last=0)
>>> round(after.rating), round(after.deviation), is_provisional(after)
(1741, 397, True)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = [
    "CONVERGENCE_TOLERANCE",
    "GLICKO2_SCALE",
    "MAX_DEVIATION",
    "MAX_RATING_DELTA",
    "MAX_VOLATILITY",
    "MIN_DEVIATION",
    "MIN_RATING",
    "NEW_PLAYER",
    "PROVISIONAL_DEVIATION",
    "RATING_PERIODS_PER_DAY",
    "SCORES",
    "TAU",
    "Rating",
    "cap",
    "composite_opponent",
    "expected_score",
    "is_provisional",
    "rate",
    "rate_match",
    "widen",
]

# --- The paper's constants -------------------------------------------------------------------

#: Glicko scale to Glicko-2 scale: mu = (r - 1500) / 173.7178, phi = RD / 173.7178 (paper, step 2).
GLICKO2_SCALE = 173.7178
#: The rating at mu = 0 (paper, step 2).
_CENTRE = 1500.0
#: Step 5's convergence tolerance epsilon (paper, step 5: "epsilon = 0.000001").
CONVERGENCE_TOLERANCE = 0.000001
#: A guard only: the Illinois algorithm of step 5 needs a few dozen iterations at most (lichess
#: gives up after 1000 as well).
_MAX_ITERATIONS = 1000
#: The scores a result may carry: win, draw, loss (paper, step 1: "s_j").
SCORES = (1.0, 0.5, 0.0)

# --- lichess's site settings (lila modules/rating/src/main/Glicko.scala) ---------------------

#: System constant tau (lila ``Glicko.tau = 0.75``; the paper's example uses 0.5).
TAU = 0.75
#: Minimum deviation (lila ``Glicko.minDeviation = 45``).
MIN_DEVIATION = 45.0
#: Maximum deviation, and a new player's (lila ``Glicko.maxDeviation = 500``).
MAX_DEVIATION = 500.0
#: Maximum volatility: "past this, it might not stabilize ever again" (lila
#: ``Glicko.maxVolatility = 0.1``).
MAX_VOLATILITY = 0.1
#: Rating floor (lila ``Glicko.minRating = 400``).
MIN_RATING = 400.0
#: The most one match may move a rating, up or down (lila ``Glicko.maxRatingDelta = 700``).
MAX_RATING_DELTA = 700.0
#: A rating is provisional (shown with "?") while its deviation is at least this (lila
#: ``provisionalDeviation = 110``).
PROVISIONAL_DEVIATION = 110.0
#: Rating periods per day of idle time, "chosen so a typical player's RD goes from 60 -> 110 in
#: 1 year" (lila ``Glicko.ratingPeriodsPerDay = 0.21436``).
RATING_PERIODS_PER_DAY = 0.21436


@dataclass(frozen=True, slots=True)
class Rating:
    """A player's Glicko-2 rating on the Glicko scale.

    :param rating: r, e.g. 1500 (any finite number).
    :param deviation: the rating deviation RD, e.g. 350; greater than 0.
    :param volatility: sigma, e.g. 0.06; greater than 0.
    :raises ValueError: a value that is not a finite number, or a deviation or volatility that is
        not greater than 0 (the paper divides by phi squared and takes ln(sigma squared)).

    >>> Rating(1500, 350, 0.06)
    Rating(rating=1500, deviation=350, volatility=0.06)
    >>> Rating(1500, -1, 0.06)
    Traceback (most recent call last):
    ...
    ValueError: deviation must be greater than 0, got -1
    """

    rating: float
    deviation: float
    volatility: float

    def __post_init__(self) -> None:
        for name in ("rating", "deviation", "volatility"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise ValueError(f"{name} must be a number, got {value!r}")
            if not math.isfinite(value):
                raise ValueError(f"{name} must be finite, got {value!r}")
        if self.deviation <= 0:
            raise ValueError(f"deviation must be greater than 0, got {self.deviation!r}")
        if self.volatility <= 0:
            raise ValueError(f"volatility must be greater than 0, got {self.volatility!r}")


#: A new player's rating in either pool (lila ``Glicko.default``: 1500 / maxDeviation / 0.09).
NEW_PLAYER = Rating(1500.0, MAX_DEVIATION, 0.09)


# --- The paper's functions on the Glicko-2 scale ---------------------------------------------


def _mu(rating: Rating) -> float:
    return (rating.rating - _CENTRE) / GLICKO2_SCALE


def _phi(rating: Rating) -> float:
    return rating.deviation / GLICKO2_SCALE


def _g(phi: float) -> float:
    """g(phi) of step 3."""
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _logistic(z: float) -> float:
    """1 / (1 + exp(-z)), without overflow for large |z|."""
    if z >= 0:
        return 1.0 / (1.0 + math.exp(-z))
    ez = math.exp(z)
    return ez / (1.0 + ez)


def _e(mu: float, mu_j: float, phi_j: float) -> float:
    """E(mu, mu_j, phi_j) of step 3: the expected score against opponent j."""
    return _logistic(_g(phi_j) * (mu - mu_j))


def _check_tau(tau: float) -> None:
    if isinstance(tau, bool) or not isinstance(tau, (int, float)) or not math.isfinite(tau):
        raise ValueError(f"tau must be a finite number, got {tau!r}")
    if tau <= 0:
        raise ValueError(f"tau must be greater than 0, got {tau!r}")


def _check_rating(value: object, what: str) -> None:
    if not isinstance(value, Rating):
        raise ValueError(f"{what} must be a Rating, got {value!r}")


def _check_score(score: object, what: str) -> None:
    if isinstance(score, bool) or not isinstance(score, (int, float)) or score not in SCORES:
        raise ValueError(f"{what} must be 1 (win), 0.5 (draw) or 0 (loss), got {score!r}")


def _volatility(delta: float, phi: float, v: float, sigma: float, tau: float) -> float:
    """Step 5: the new volatility sigma', by the Illinois algorithm (paper, step 5.1-5.5)."""
    # Step 5.1: a = ln(sigma^2) and f(x).
    a = math.log(sigma * sigma)
    delta2, phi2 = delta * delta, phi * phi

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta2 - phi2 - v - ex) / (2.0 * (phi2 + v + ex) ** 2) - (x - a) / (tau * tau)

    # Step 5.2: the initial bracket [A, B] around the root of f.
    big_a = a
    if delta2 > phi2 + v:
        big_b = math.log(delta2 - phi2 - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    # Step 5.3.
    f_a, f_b = f(big_a), f(big_b)
    # Step 5.4: narrow the bracket until |B - A| <= epsilon. Like lichess, take the A <- B branch
    # also when f_C * f_B is exactly 0 (C is then the root itself).
    for _ in range(_MAX_ITERATIONS):
        if abs(big_b - big_a) <= CONVERGENCE_TOLERANCE:
            break
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a = f_a / 2.0
        big_b, f_b = big_c, f_c
    else:  # pragma: no cover - the Illinois algorithm converges long before this
        raise ArithmeticError(f"Glicko-2 step 5 did not converge in {_MAX_ITERATIONS} iterations")
    # Step 5.5: sigma' = e^(A/2).
    return math.exp(big_a / 2.0)


def rate(
    player: Rating,
    results: Sequence[tuple[Rating, float]],
    *,
    tau: float,
    increase_deviation: bool = True,
) -> Rating:
    """The player's rating after one rating period: the paper's steps 1-8.

    All results of a period count as played at once against the opponents' ratings at the start
    of the period (paper, "The formulas").

    With ``increase_deviation=False`` (lichess's instant rating: every game is its own rating
    period, ``skipDeviationIncrease = true`` in lila's ``PerfsUpdater``), step 6 counts 0 elapsed
    rating periods instead of 1: phi* = phi instead of sqrt(phi^2 + sigma'^2), so step 7 gives
    phi' = 1 / sqrt(1 / phi^2 + 1 / v) and mu' = mu + phi'^2 * sum g(phi_j) (s_j - E). The new
    volatility sigma' of step 5 is still computed and returned, but it does not enter this
    update; it widens the deviation only for idle time (:func:`widen`).

    An empty ``results`` is the paper's "player does not compete during the rating period" rule:
    rating and volatility stay, the deviation becomes sqrt(phi^2 + sigma^2) (step 6 alone); with
    ``increase_deviation=False`` nothing changes.

    :param player: the rating at the start of the period.
    :param results: (opponent's rating at the start of the period, score 1 / 0.5 / 0) pairs.
    :param tau: the system constant tau, greater than 0 (the paper's example: 0.5; lichess 0.75).
    :param increase_deviation: whether step 6 widens the deviation by the new volatility.
    :returns: the rating at the end of the period.
    :raises ValueError: a player or opponent that is not a :class:`Rating`, a score not in
        {1, 0.5, 0}, a ``tau`` that is not a finite number greater than 0, or a player and
        opponents so far apart (tens of thousands of points) that the step 3 variance is not
        a finite number.

    The paper's example (tau = 0.5):

    >>> after = rate(Rating(1500, 200, 0.06), [(Rating(1400, 30, 0.06), 1),
    ...     (Rating(1550, 100, 0.06), 0), (Rating(1700, 300, 0.06), 0)], tau=0.5)
    >>> round(after.rating, 2), round(after.deviation, 2), round(after.volatility, 6)
    (1464.05, 151.52, 0.059996)

    The paper prints 1464.06: it rounds mu' to -0.2069 before step 8.
    """
    # Step 1: the player's rating, RD and volatility at the onset of the period, and tau.
    _check_rating(player, "player")
    _check_tau(tau)
    results = list(results)
    for i, result in enumerate(results):
        if not isinstance(result, tuple) or len(result) != 2:
            raise ValueError(f"result {i} must be an (opponent, score) pair, got {result!r}")
        _check_rating(result[0], f"opponent of result {i}")
        _check_score(result[1], f"score of result {i}")

    # Step 2: onto the Glicko-2 scale.
    mu, phi, sigma = _mu(player), _phi(player), player.volatility
    if not results:
        # The paper: a player who does not compete keeps mu and sigma; only step 6 applies.
        if not increase_deviation:
            return player
        return _to_glicko(mu, math.sqrt(phi * phi + sigma * sigma), sigma)

    opponents = [(_mu(opponent), _phi(opponent), float(score)) for opponent, score in results]

    # Step 3: v, the estimated variance of the rating from the game outcomes alone.
    information = 0.0
    for mu_j, phi_j, _ in opponents:
        e = _e(mu, mu_j, phi_j)
        information += _g(phi_j) ** 2 * e * (1.0 - e)
    v = 1.0 / information if information > 0 else math.inf

    # Step 4: Delta, the estimated improvement from the outcomes alone.
    outcome_sum = sum(_g(phi_j) * (s_j - _e(mu, mu_j, phi_j)) for mu_j, phi_j, s_j in opponents)
    delta = v * outcome_sum
    if not (math.isfinite(v) and math.isfinite(delta * delta)):
        raise ValueError(
            f"the player ({player.rating}) and the opponents are too far apart to rate: "
            "every result was certain to double precision"
        )

    # Step 5: the new volatility sigma'.
    new_sigma = _volatility(delta, phi, v, sigma, tau)

    # Step 6: the pre-rating-period value phi*, over one elapsed period, or none (see above).
    periods = 1.0 if increase_deviation else 0.0
    phi_star = math.sqrt(phi * phi + periods * new_sigma * new_sigma)

    # Step 7: the new phi' and mu'.
    new_phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    new_mu = mu + new_phi * new_phi * outcome_sum

    # Step 8: back onto the Glicko scale.
    return _to_glicko(new_mu, new_phi, new_sigma)


def _to_glicko(mu: float, phi: float, sigma: float) -> Rating:
    """Step 8: r' = 173.7178 mu' + 1500, RD' = 173.7178 phi'."""
    return Rating(GLICKO2_SCALE * mu + _CENTRE, GLICKO2_SCALE * phi, sigma)


def expected_score(player: Rating, opponent: Rating) -> float:
    """The player's expected score against the opponent (a win counts 1, a draw 0.5), 0 to 1.

    The paper's step 3 E(mu, mu_j, phi_j) uses only the opponent's deviation, so the two players'
    figures need not add up to 1. For a prediction shown to both players, Glickman's Glicko system
    uses both deviations: E = 1 / (1 + 10^(-g(sqrt(RD^2 + RD_j^2)) (r - r_j) / 400)) (Mark E.
    Glickman, "The Glicko system", http://www.glicko.net/glicko/glicko.pdf, the expected outcome
    of a game). This is that formula on the Glicko-2 scale, where it reads
    E = 1 / (1 + exp(-g(sqrt(phi^2 + phi_j^2)) (mu - mu_j))), the paper's step 3 E with
    phi_j replaced by the combined sqrt(phi^2 + phi_j^2). So
    ``expected_score(a, b) + expected_score(b, a) == 1``.

    :raises ValueError: an argument that is not a :class:`Rating`.

    >>> expected_score(Rating(1500, 350, 0.06), Rating(1500, 50, 0.06))
    0.5
    >>> round(expected_score(Rating(1700, 50, 0.06), Rating(1500, 50, 0.06)), 3)
    0.755
    """
    _check_rating(player, "player")
    _check_rating(opponent, "opponent")
    phi, phi_j = _phi(player), _phi(opponent)
    return _e(_mu(player), _mu(opponent), math.sqrt(phi * phi + phi_j * phi_j))


def is_provisional(rating: Rating) -> bool:
    """Whether the rating is provisional (shown with "?"): deviation >= 110.

    Source: lila ``Glicko.provisional`` (``deviation >= provisionalDeviation``, 110).

    :raises ValueError: an argument that is not a :class:`Rating`.

    >>> is_provisional(NEW_PLAYER), is_provisional(Rating(1500, 109.9, 0.06))
    (True, False)
    """
    _check_rating(rating, "rating")
    return rating.deviation >= PROVISIONAL_DEVIATION


def widen(
    rating: Rating,
    days: float,
    *,
    periods_per_day: float = RATING_PERIODS_PER_DAY,
    max_deviation: float = MAX_DEVIATION,
) -> Rating:
    """The rating after ``days`` without a rated match: the deviation widens, nothing else moves.

    The paper's step 6 over t = days * periods_per_day elapsed rating periods:
    phi* = sqrt(phi^2 + t sigma^2), then at most ``max_deviation`` (lila ``Glicko.liveDeviation``:
    scalachess ``previewDeviation`` over the time since the player's last game, capped at
    ``Glicko.maxDeviation``). With lichess's 0.21436 periods a day an RD of 60 with sigma 0.06
    reaches about 110 in a year.

    :param days: idle time in days, 0 or more (fractions allowed).
    :param periods_per_day: rating periods per day, 0 or more.
    :param max_deviation: the cap on the widened deviation, greater than 0.
    :raises ValueError: a rating that is not a :class:`Rating`, or a negative or non-finite
        ``days``, ``periods_per_day`` or ``max_deviation`` (0 for the latter).

    >>> widen(Rating(1500, 60, 0.06), 0)
    Rating(rating=1500, deviation=60.0, volatility=0.06)
    >>> round(widen(Rating(1500, 60, 0.06), 365).deviation, 1)
    110.0
    """
    _check_rating(rating, "rating")
    for name, value in (("days", days), ("periods_per_day", periods_per_day)):
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ValueError(f"{name} must be a number, got {value!r}")
        if not math.isfinite(value) or value < 0:
            raise ValueError(f"{name} must be a finite number, 0 or more, got {value!r}")
    if (
        isinstance(max_deviation, bool)
        or not isinstance(max_deviation, (int, float))
        or not math.isfinite(max_deviation)
        or max_deviation <= 0
    ):
        raise ValueError(f"max_deviation must be a finite number above 0, got {max_deviation!r}")
    periods = days * periods_per_day
    # phi* = sqrt(phi^2 + t sigma^2) times 173.7178 on both sides: the same formula on the Glicko
    # scale, which leaves the deviation exactly as it was after 0 days.
    sigma_glicko = GLICKO2_SCALE * rating.volatility
    deviation = min(
        math.sqrt(rating.deviation**2 + periods * sigma_glicko * sigma_glicko), max_deviation
    )
    return Rating(rating.rating, deviation, rating.volatility)


def cap(rating: Rating) -> Rating:
    """The rating within the site's bounds: rating >= 400, deviation 45-500, volatility <= 0.1.

    Source: lila ``Glicko.cap`` (``minRating``, ``minDeviation``, ``maxDeviation``,
    ``maxVolatility``), applied to both players before a game and to the result after it.

    :raises ValueError: an argument that is not a :class:`Rating`.

    >>> cap(Rating(300, 20, 0.5))
    Rating(rating=400.0, deviation=45.0, volatility=0.1)
    """
    _check_rating(rating, "rating")
    return Rating(
        max(rating.rating, MIN_RATING),
        min(max(rating.deviation, MIN_DEVIATION), MAX_DEVIATION),
        min(rating.volatility, MAX_VOLATILITY),
    )


def rate_match(
    player: Rating, opponent: Rating, score: float, *, days_since_last: float
) -> Rating:
    """The player's rating after one rated match, under the site's whole policy (lichess's).

    1. Widen the player's deviation for the ``days_since_last`` days since their previous rated
       match in this pool (:func:`widen`, lichess's ``liveDeviation`` when a rating is read).
    2. Clamp both ratings (:func:`cap`, lichess's ``toGlickoPlayer``).
    3. Rate the match as its own rating period: :func:`rate` with tau = 0.75 and
       ``increase_deviation=False`` (lichess's ``computeGame(..., skipDeviationIncrease = true)``).
    4. Keep the rating change within +-700 of the rating before the match, then clamp the result
       again (:func:`cap`; lichess's ``Perf.addOrReset``).

    The opponent is taken as it stands when the match starts: widen it for its own idle time
    first (for a partnership match, pass the :func:`composite_opponent` built from the widened
    ratings of the four players). The deviation before the match, for a rating-history row, is
    ``cap(widen(player, days_since_last)).deviation``.

    :param player: the player's stored rating in the pool, as after their previous match.
    :param opponent: the opponent's rating at the start of the match.
    :param score: the player's score: 1 win, 0.5 draw, 0 loss.
    :param days_since_last: days since the player's previous rated match in the pool, 0 or more
        (0 for a new player).
    :returns: the player's new rating in the pool.
    :raises ValueError: as :func:`rate` and :func:`widen`.

    >>> after = rate_match(Rating(1500, 45, 0.06), Rating(1500, 45, 0.06), 0.5, days_since_last=0)
    >>> after.rating, after.deviation
    (1500.0, 45.0)
    """
    _check_rating(player, "player")
    _check_rating(opponent, "opponent")
    _check_score(score, "score")
    # Steps 1 and 2.
    before = cap(widen(player, days_since_last))
    # Step 3.
    after = rate(before, [(cap(opponent), score)], tau=TAU, increase_deviation=False)
    # Step 4.
    change = min(max(after.rating - before.rating, -MAX_RATING_DELTA), MAX_RATING_DELTA)
    return cap(Rating(before.rating + change, after.deviation, after.volatility))


def composite_opponent(own: Rating, partner: Rating, opponents: Sequence[Rating]) -> Rating:
    """The virtual opponent a partnership player is rated against, as in a 1v1 match.

    - rating: the player's own rating plus (the opponents' mean rating minus the own side's mean
      rating), so the player's rating difference to it is the difference between the two sides'
      means, whatever their own share of that mean;
    - deviation: the root mean square of the two opponents' deviations,
      sqrt((RD_1^2 + RD_2^2) / 2);
    - volatility: the mean of the two opponents' volatilities. :func:`rate` never reads an
      opponent's volatility (steps 3-7 use only mu_j and phi_j), so this choice changes no
      result; the mean keeps the value a plausible volatility within the opponents' bounds.

    This is the composite-opponent method of Garrick J. Williams, "Abstracting Glicko-2 for Team
    Games", M.S. thesis, University of Cincinnati, 2013, which rates each player of a team match as
    a one-on-one match against a composite player made of the opposing team. There the composite
    has the opposing team's mean rating; here it is shifted by the player's own rating minus the
    own side's mean, so that a partner's strength counts: a strong partner makes a win worth less.

    :param own: the player's rating at the start of the match.
    :param partner: their partner's rating at the start of the match.
    :param opponents: the two opponents' ratings at the start of the match.
    :returns: the opponent to pass to :func:`rate_match` for this player.
    :raises ValueError: an argument that is not a :class:`Rating`, or not exactly two opponents.

    >>> composite_opponent(Rating(1600, 100, 0.06), Rating(1400, 100, 0.06),
    ...                    [Rating(1550, 30, 0.06), Rating(1650, 40, 0.06)])
    Rating(rating=1700.0, deviation=35.35533905932738, volatility=0.06)
    """
    _check_rating(own, "own")
    _check_rating(partner, "partner")
    opponents = list(opponents)
    if len(opponents) != 2:
        raise ValueError(f"a partnership match has two opponents, got {len(opponents)}")
    for i, opponent in enumerate(opponents):
        _check_rating(opponent, f"opponent {i}")
    own_side_mean = (own.rating + partner.rating) / 2.0
    opponents_mean = sum(o.rating for o in opponents) / 2.0
    return Rating(
        own.rating + (opponents_mean - own_side_mean),
        math.sqrt(sum(o.deviation * o.deviation for o in opponents) / 2.0),
        sum(o.volatility for o in opponents) / 2.0,
    )
