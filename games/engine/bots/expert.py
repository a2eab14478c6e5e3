"""The expert bot: Information Set MCTS, and an exact solver for a two-player round's last deal;
with four players, the strong bot's determinized search with more deals and the inference below.

Why this design (issue 42):

- **The strong bot's weakness is strategy fusion.** It is perfect-information Monte Carlo
  (Ginsberg, GIB, JAIR 2001): it deals the hidden cards, then judges each card as if it knew
  that deal, and averages. Long, Sturtevant, Buro & Furtak (AAAI 2010) show where that fails:
  the average of "best plays knowing the deal" overrates moves that need knowledge the seat
  does not have (strategy fusion), and it plans its own later plays with a fixed greedy
  policy. Basra has both: whether to dump a card now or keep it for a later capture depends on
  what the next seat holds.
- **Information Set MCTS** (Cowling, Powley & Whitehouse, "Information Set Monte Carlo Tree
  Search", IEEE TCIAIG 4(2), 2012; the single-observer variant, SO-ISMCTS) grows *one* tree
  over the seat's information sets: each iteration deals the hidden cards again at random,
  consistent with the view (a determinization), and walks the one tree with only the plays that
  deal allows. A node's statistics therefore mix every deal, which removes strategy fusion
  at the seat's own nodes; selection is UCB1 with *availability counts* (a child's exploration
  term uses how often it could have been chosen, not its parent's visits), the paper's
  correction for plays that exist only in some deals. In Scopone, a fishing game close to
  Basra, ISMCTS beat the best rule-based player 64.8% to 23.3% (Di Palma & Lanzi, IEEE ToG
  2018, arXiv 1807.06813). Below the tree, a playout uses the strong bot's fast greedy policy
  (:func:`~games.engine.bots.playout._policy`) and stops ``horizon`` plays after the root's,
  estimating the majority from the pile lead (:func:`~games.engine.bots.playout._rollout`),
  so a playout is as cheap as the strong bot's.
- **The last deal of a two-player round is a perfect-information game.** With the stock empty,
  every card the seat has not seen is in the opponent's hand, so the seat knows the whole
  state: at most four cards each, at most 4!·4! = 576 orders of play. The expert solves it
  exactly by minimax with alpha-beta (:func:`solve`), the value of each card being the round
  points its side makes from here on less the other side's (majority, cards left to the last
  capturer, basras, card points when they count). No sampling, no noise: the expert never
  misplays a last deal. (Four players: the unseen cards are split between three hands, so
  the last deal stays with the search.)
- **Inference of the opponents' cards, where it is certain enough to cost nothing.** Weighting
  every deal by the likelihood of the opponents' past plays under a model of their policy
  (Whitehouse, Powley & Cowling, IEEE CIG 2011; Cowling et al. 2012, section VIII) costs a
  policy evaluation per past play per deal, most of what a move can afford in pure Python. One
  inference is nearly free and nearly sure: a seat that played without a basra when a card
  ``c`` would have made one on that floor does not hold ``c`` (every bot of the site takes a
  basra it has; so does any player who knows the rule). :func:`unlikely_cards` reads those
  cards from the view once a move (the floors of the current deal replayed from the first
  floor), and each determinization swaps them out of that seat's hand for stock cards
  (:func:`_respect`): a weight of 0 or 1. In games of the strong and greedy bots it fires at
  about one view in five, two or three cards each time, and was never wrong.
- **Softer inference, built and not switched on.** A seat that played a card while holding
  one the greedy policy values above it on that floor (more cards taken, not leaving a lone
  card) played against the greedy policy; ``likelihood`` weights each deal by that, per such
  play (:func:`passed_over`). Against the strong bot the evidence is weak: in 805 of its plays
  (30 rounds against itself, 400 samples) its hand held such a card 28% of the time where a
  random hand of the same size would 43% of the time, a likelihood ratio of about 0.5; a
  screen on decision regret (``bench/expert_regret.py``) found no gain at 0.3 or 0.1, so the
  default leaves it off until matches say otherwise.
- **With four players, the strong bot's search, with the expert's budget and inference.** At
  0.1 s of CPU (1,400 iterations with four players) the tree is thin: it branches at three
  other seats, two of them opponents whose hands are unseen, so each card of the seat gets a
  few hundred walks spread over nodes that mix many deals, and 60 matches of the expert pair
  against the strong pair (deal seeds 0-29, ``bench/bots.py``) were won 26 times (43.3%, 95%
  CI 31.6-55.9%; -3.0 round points a round, CI -7.5..+1.5). So with four players the expert
  runs :class:`~games.engine.bots.StrongBot`'s determinized search (its code, through the
  ``_deal`` hook, :class:`_InformedSearch`) with the CPU time the tree had: ``iterations / 2``
  deals a move (1,400 iterations: 700 deals, 104 ms of CPU a searched move against the tree's
  102 ms and the strong bot's 61 ms at its 400, measured on the same 209 four-player views),
  each deal keeping out of every other seat's hand the cards :func:`unlikely_cards` says it
  lacks (in 4 rounds of strong bots against each other, 453 cards inferred, none wrong). It
  is then the strong bot with 1.75 times the deals and deals closer to the truth: not weaker
  than it by construction, stronger by however much those buy. The strategy fusion the tree
  removes costs less here than the tree's thinness; the partner's nodes were never the fault
  (a node reached by the partner's play already scores for the seat's side). Measured:
  the same 60 matches (seeds 0-29, 1,400 iterations against 400 samples, ``--time-limit 1``)
  were won 30 times (50.0%, CI 37.7-62.3%; +0.5 round points a round, CI -4.2..+5.2, 233
  rounds): 3.5 points a round above the tree, a gain the intervals do not tell from noise;
  over 160 matches (seeds 0-79) 81 won (50.6%, CI 43.0-58.3%; +0.7 a round, CI -2.2..+3.5,
  628 rounds): level with the strong pair, not worse, not shown better; the tree on the same
  160 won 73 (45.6%, CI 38.1-53.4%; about -2.1 a round). ``four="ismcts"`` keeps the tree,
  for the bench.
- **Only what a walk can reach is dealt at random.** A walk from the root makes at most
  ``horizon`` plays, so only the other hands and the stock's top ``ceil(horizon / 4n)`` deals
  are shuffled (a partial Fisher-Yates shuffle in :func:`~games.engine.bots.playout._sample_world`):
  about 10% more iterations for the same CPU time.

Measured (``bench/bots.py``, its docstring has the table): at 1,500 iterations a move (under
0.1 s of CPU: 52 ms on this shared machine) against the strong bot at the site's 400 samples,
two players, 60 matches (deal seeds 0-29, seats swapped): uniform deals won 28 (46.7%, 95% CI
34.6-59.1%; -0.6 round points a round, CI -5.3..+4.1); with the inference above, 80 matches
(seeds 0-39) won 46 (57.5%, CI 46.6-67.7%; +4.4 round points a round, CI +0.6..+8.1; the
first 60 alone: 34, 56.7%). Better than the strong bot by its round margin, but the issue's
60% of matches is not shown (the interval holds 50%), and the ceiling, a search that sees every
hand and the stock's order with the same budget, wins every match by about 29 round points a
round: half that gap is not closed. (Later, 300 matches: 59.7%, about +4.3 a round; 600:
59.2%, CI 55.2-63.0%, about +4.0 a round; a search that sees every hand but not the stock's
order, the issue's ceiling, +20.9 a round, so the expert closes about a fifth of that gap;
``bench/bots.py`` and ``bench/expert_inference.py``
have the tables.) A larger exploration constant (30 instead of 15; rewards have a standard
deviation of about 26 points) changed nothing measurable. At the whole 0.1 s (2,400 iterations,
the cap equivalent to 0.1 s of CPU with two players, measured with ``bench/bots.py
--calibrate``: 23,500-25,000 iterations a CPU second on a quiet core), the same 60 matches
(seeds 0-29) were won 35 times (58.3%, CI 45.7-69.9%; +3.5 round points a round, CI
-1.0..+8.0), no measurable change from 1,500; with seeds 30-42, 86 matches: 50 won (58.1%, CI
47.6-68.0%; +3.6 a round, CI -0.1..+7.2). The targets are still not reached.

Values are in round points for the seat's side, the same unit as the strong bot's
:meth:`~games.engine.bots.StrongBot.evaluate`, so the analysis may call either.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from math import log, sqrt
from typing import Any

from ..capture import capture
from ..cards import Card
from ..rules import Rules
from .playout import _FULL, _World, _capture_code, _play, _playout, _sample_world
from .seat import hidden_cards
from .strong import SearchBot, StrongBot, _class_key, _distinct, _view_key

__all__ = ["ExpertBot", "passed_over", "solve", "unlikely_cards"]


class _Node:
    """One node of the information-set tree: reached by a play of ``side`` (0 or 1).

    ``visits``: playouts through it; ``total``: their sum of round-points differences for
    ``side``; ``avail``: how many times its play was legal when its parent was visited
    (Cowling et al. 2012, availability counts); ``kids``: by the play's class key.
    """

    __slots__ = ("side", "visits", "total", "avail", "kids")

    def __init__(self, side: int) -> None:
        self.side = side
        self.visits = 0
        self.total = 0.0
        self.avail = 1
        self.kids: dict = {}


class ExpertBot(SearchBot):
    """ISMCTS over the rest of the round; exact solving of a two-player round's last deal.

    See the module for the design and its sources. ``choose`` plays the card of best value
    (:class:`~games.engine.bots.strong.SearchBot`), ties to the greedy order.

    ``seed``, ``time_limit`` (seconds a move, at most :data:`MAX_TIME_LIMIT`): as every bot.
    ``iterations``: the most ISMCTS iterations a move (a cap that makes the bot deterministic for
    a fixed seed while the time limit is not reached); ``clock``: the time source in seconds (a
    test passes a fake one). ``horizon``: plays a playout makes after the root's play before the
    majority is estimated (``None``: one deal's worth, ``4 * players``); ``exploration``: UCB1's
    constant, in round points (rewards are not scaled to [0, 1]); ``danger``, ``spread``: the
    playout policy's, as :class:`~games.engine.bots.StrongBot`'s; ``inference``: whether the
    determinizations keep out of each other seat's hand the cards :func:`unlikely_cards` says
    it lacks (``False``: uniform deals, as Cowling et al.'s plain SO-ISMCTS). ``likelihood``
    (0 to 1; 1, the default, turns it off): the weight of a determinization for each play of
    another seat in this deal that passed over a card the deal gives it (:func:`passed_over`),
    drawn by rejection sampling, at most eight deals a determinization. ``final``: ``"mean"``
    plays the card of best mean value, ``"visits"`` the most visited (ties to the mean).
    ``four``: the search with four players, ``"pimc"`` (the strong bot's determinized search
    with ``iterations / 2`` deals a move, the same CPU time, each deal respecting ``inference``;
    the module says why) or ``"ismcts"`` (the tree, as with two players).

    :raises ValueError: ``iterations`` below 1, ``time_limit`` not positive, or ``likelihood``,
        ``final`` or ``four`` not one of the values above.
    """

    name = "expert"

    def __init__(
        self,
        *,
        seed: int | str = 0,
        time_limit: float = 1.0,
        iterations: int = 20_000,
        clock: Callable[[], float] = time.perf_counter,
        horizon: int | None = None,
        exploration: float = 15.0,
        danger: float | None = None,
        spread: float = 1.0,
        inference: bool = True,
        likelihood: float = 1.0,
        final: str = "mean",
        four: str = "pimc",
    ) -> None:
        super().__init__(seed=seed, time_limit=time_limit)
        if iterations < 1:
            raise ValueError(f"iterations must be at least 1, not {iterations!r}")
        self.iterations = iterations
        self._clock = clock
        self.horizon = horizon
        self.exploration = exploration
        self.danger = danger
        self.spread = spread
        self.inference = inference
        if not 0.0 <= likelihood <= 1.0:
            raise ValueError(f"likelihood must be in [0, 1], not {likelihood!r}")
        self.likelihood = likelihood
        if final not in ("mean", "visits"):
            raise ValueError(f"final must be 'mean' or 'visits', not {final!r}")
        self.final = final
        if four not in ("pimc", "ismcts"):
            raise ValueError(f"four must be 'pimc' or 'ismcts', not {four!r}")
        self.four = four
        # The four-player search, kept from move to move for its capture memo.
        self._pimc = _InformedSearch(
            seed=seed, time_limit=time_limit, danger=danger, clock=clock, horizon=horizon,
            spread=spread, samples=max(1, round(iterations * _SAMPLES_PER_ITERATION)),
        )
        self._absent: dict[int, set[Card]] = {}
        self._passed: list[tuple[int, int]] = []
        self._visits: dict[Card, int] = {}
        self._depth: int | None = None
        #: How the last :meth:`evaluate` searched: ``"exact"`` (solved; ``last_samples`` is 1),
        #: ``"ismcts"`` (``last_samples``: the iterations run) or ``"pimc"`` (four players: the
        #: strong bot's search with the inference; ``last_samples``: its deals).
        self.last_search = ""

    @property
    def last_exact(self) -> bool:
        """Whether the last :meth:`evaluate` solved the position exactly."""
        return self.last_search == "exact"

    def evaluate(self, view: Any) -> dict[Card, float]:
        """Each card the rules tell apart in ``view.hand`` and its value, in round points.

        The value is the round points the seat's side makes from here on less the other side's
        (the majority estimated from the pile lead at the playouts' horizon): exact when a
        two-player round's last deal is solved (:attr:`last_exact`); with four players (``four=
        "pimc"``) the mean over ``last_samples`` sampled deals, as
        :meth:`~games.engine.bots.StrongBot.evaluate`; else the mean over the ISMCTS playouts
        through that card (``last_samples`` iterations in all; a card never tried scores 0.0).
        Every value is 0.0 when the time ran out before the first deal or iteration.
        :attr:`last_search` says which.

        :raises ValueError: if the hand is empty or ``view`` is not the seat to move's.
        """
        deadline = self._clock() + self.time_limit * 0.95
        hand = self._check(view)
        if view.turn != view.seat:
            raise ValueError("the search runs for the seat to move only")
        rules: Rules = view.rules
        candidates = _distinct(hand, rules)
        rng = random.Random(f"{self.seed}|{_view_key(view)}")
        memo = self._memo_for(rules)
        exact = self._exact_world(view, rng)
        if exact is not None:
            side = view.seat & 1
            self.last_samples = 1
            self.last_search = "exact"
            return {c: solve(exact, c, rules, side, memo) for c in candidates}
        if view.players == 4 and self.four == "pimc":
            self.last_search = "pimc"
            search = self._pimc
            search.absent = unlikely_cards(view) if self.inference else {}
            values = search.evaluate(view)
            self.last_samples = search.last_samples
            self._visits = {}
            return values
        self.last_search = "ismcts"
        root = self._search(view, rng, memo, deadline)
        out = {}
        self._visits = {}
        for card in candidates:
            kid = root.kids.get(_class_key(card, rules))
            out[card] = kid.total / kid.visits if kid is not None and kid.visits else 0.0
            self._visits[card] = kid.visits if kid is not None else 0
        return out

    def _ranking(self, totals: dict[Card, float]) -> dict[Card, Any]:
        """The mean value (``final="mean"``), or the visits and then the mean (``"visits"``,
        the "robust child" of Chaslot et al., "Progressive strategies for Monte-Carlo tree
        search", 2008); a solved position by its exact value."""
        if self.final == "mean" or self.last_search != "ismcts":
            return totals
        return {c: (self._visits.get(c, 0), v) for c, v in totals.items()}

    # --- the two ways to know the rest of the round; the bench's cheating search overrides them

    def _exact_world(self, view: Any, rng: random.Random) -> _World | None:
        """The whole state when the view determines it (two players, stock empty), else ``None``."""
        if view.players != 2 or view.stock_size:
            return None
        hidden = hidden_cards(view)
        if len(hidden) != view.hand_sizes[1 - view.seat]:
            return None  # a view without the first floor: not every unseen card is placed
        return _sample_world(view, hidden, rng)

    def _determinize(self, view: Any, hidden: list[Card], rng: random.Random) -> _World:
        """One deal of the hidden cards consistent with the view and with what the other seats'
        plays of this deal tell (:func:`unlikely_cards`, ``self._absent``), at random."""
        for _ in range(_TRIES):
            world = _sample_world(view, hidden, rng, self._depth)
            if self._absent:
                _respect(world, view, self._absent, rng)
            if not self._passed:
                return world
            # Rejection sampling: a deal in which a seat held a card its play passed over is
            # kept with probability ``likelihood`` for each such play.
            against = 0
            bits = {}
            for seat, passed in self._passed:
                mask = bits.get(seat)
                if mask is None:
                    mask = bits[seat] = _bits(world.hands[seat])
                if mask & passed:
                    against += 1
            if not against or rng.random() < self.likelihood**against:
                return world
        return world

    # --- the search

    def _prepare(self, view: Any, memo: dict) -> tuple[float, int]:
        """Read what the other seats' plays tell (``self._absent``, ``self._passed``) and how
        deep the deals must be drawn (``self._depth``), for :meth:`_determinize`.

        :returns: ``(danger, horizon)``: the playout policy's danger, in round points, and the
            plays a walk makes from the root (the root's own play included).
        """
        rules: Rules = view.rules
        n = view.players
        self._absent = unlikely_cards(view) if self.inference else {}
        danger = self.danger if self.danger is not None else rules.basra_points * 0.3
        self._passed = passed_over(view, danger, memo) if self.inference and self.likelihood < 1 else []
        horizon = (self.horizon if self.horizon is not None else 4 * n) + 1
        # A walk from the root makes at most ``horizon`` plays: it reaches no deal after the
        # ceil(horizon / 4n)-th, so only that many deals' worth of the stock is drawn at random.
        deal = 4 * n
        self._depth = (horizon + deal - 1) // deal * deal
        return danger, horizon

    def _search(self, view: Any, rng: random.Random, memo: dict, deadline: float) -> _Node:
        rules: Rules = view.rules
        n = view.players
        side = view.seat & 1
        hidden = hidden_cards(view)
        danger, horizon = self._prepare(view, memo)
        spread = self.spread
        c = self.exploration
        keys = {card: _class_key(card, rules) for card in _ALL}
        clock = self._clock
        root = _Node(1 - side)
        done = 0
        while done < self.iterations and clock() < deadline:
            world = self._determinize(view, hidden, rng)
            node = root
            path = []
            depth = 0
            while depth < horizon:
                hand = world.hands[world.turn]
                if not hand:
                    break
                kids = node.kids
                options: dict = {}
                for card in hand:
                    k = keys[card]
                    if k not in options:
                        options[k] = card
                untried = []
                for k in options:
                    kid = kids.get(k)
                    if kid is None:
                        untried.append(k)
                    else:
                        kid.avail += 1
                mover = world.turn & 1
                if untried:
                    k = untried[rng.randrange(len(untried))] if len(untried) > 1 else untried[0]
                    kid = kids[k] = _Node(mover)
                    _play(world, options[k], None, rules, n, memo)
                    path.append(kid)
                    depth += 1
                    break
                best = None
                best_score = -1e300
                for k in options:
                    kid = kids[k]
                    score = kid.total / kid.visits + c * sqrt(log(kid.avail) / kid.visits)
                    if score > best_score:
                        best, best_score = k, score
                node = kids[best]
                _play(world, options[best], None, rules, n, memo)
                path.append(node)
                depth += 1
            r = _playout(world, rules, n, side, danger, memo, horizon - depth, spread)
            for node in path:
                node.visits += 1
                node.total += r if node.side == side else -r
            done += 1
        self.last_samples = done
        return root


class _InformedSearch(StrongBot):
    """The strong bot's determinized search whose deals keep out of each other seat's hand the
    cards ``absent`` says it lacks (:func:`unlikely_cards`, :func:`_respect`): the expert's
    search with four players (see the module)."""

    name = "expert"

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        #: ``{seat: cards}``, set by the expert before each search.
        self.absent: dict[int, set[Card]] = {}

    def _deal(self, view: Any, hidden: list[Card], rng: random.Random) -> _World:
        world = super()._deal(view, hidden, rng)
        if self.absent:
            _respect(world, view, self.absent, rng)
        return world


def _deal_floors(view: Any) -> list[tuple[int, Card, list[Card]]] | None:
    """The plays of the current deal by the other seats, each with the floor it was played on:
    ``(seat, card, floor before)``, replayed from ``view.initial_floor`` and ``view.played`` with
    :func:`~games.engine.capture.capture`; ``None`` when the view lacks the first floor or the
    replay disagrees with ``view.floor``."""
    initial = getattr(view, "initial_floor", None)
    if initial is None:
        return None
    rules: Rules = view.rules
    n = view.players
    played = view.played
    start = len(played) // (4 * n) * (4 * n)
    floor = list(initial)
    out: list[tuple[int, Card, list[Card]]] = []
    for i, (seat, card) in enumerate(played):
        if i >= start and seat != view.seat:
            out.append((seat, card, list(floor)))
        taken = capture(card, floor, rules).taken if floor else ()
        if taken:
            floor = [c for c in floor if c not in taken]
        else:
            floor.append(card)
    if set(floor) != set(view.floor):
        return None
    return out


def unlikely_cards(view: Any) -> dict[int, set[Card]]:
    """The cards each other seat very likely does not hold, from its plays of the current deal.

    A seat's hand of the current deal holds, at each of its plays of that deal, every card it
    still holds. When a seat played a card that made no basra although the floor then lay so
    that a card ``c`` would have made one (a basra or a jack basra: ``basra_points`` or more
    for one play), it is taken not to hold ``c``: every bot of the site takes a basra when it
    has one, and so do players who know the rule. The floors come from :func:`_deal_floors`.

    Returns ``{seat: cards}`` for the seats with such cards (only cards hidden from ``view``'s
    seat), ``{}`` when the view lacks the first floor or its replay disagrees with ``view.floor``.
    Source of the idea: inference in ISMCTS by weighting determinizations with the opponents'
    likely policy (Whitehouse, Powley & Cowling, "Determinization and information set Monte Carlo
    tree search for the card game Dou Di Zhu", IEEE CIG 2011; Cowling et al. 2012, section VIII);
    here the weight is 0 or 1, for a play no bot of the site makes.
    """
    plays = _deal_floors(view)
    if not plays:
        return {}
    rules: Rules = view.rules
    hidden = hidden_cards(view)
    out: dict[int, set[Card]] = {}
    for seat, card, before in plays:
        if before and capture(card, before, rules).basra is None:
            for c in hidden:
                if capture(c, before, rules).basra is not None:
                    out.setdefault(seat, set()).add(c)
    return out


def passed_over(view: Any, danger: float, memo: dict) -> list[tuple[int, int]]:
    """For each play of the current deal by another seat, the hidden cards it passed over.

    A card is passed over when the playout policy (:func:`~games.engine.bots.playout._policy`,
    ``danger`` as there) values it strictly above the card played on that floor: more cards
    taken, a basra, or not leaving a lone card to sweep. That value depends on the card and the
    floor only, so a seat that held such a card played against the greedy policy, which a seat
    of the site's bots does in a minority of plays. Returns ``(seat, cards as bits)`` pairs
    (bit ``card.index``; pairs with no card left out); ``[]`` without the first floor. The
    expert weights each determinization by ``likelihood`` to the power of the plays its deal
    makes against the policy (:meth:`ExpertBot._determinize`).
    """
    plays = _deal_floors(view)
    if not plays:
        return []
    rules: Rules = view.rules
    hidden = hidden_cards(view)
    out = []
    for seat, card, before in plays:
        mask = 0
        for c in before:
            mask |= 1 << c.index
        mine = _policy_value(card, before, mask, rules, danger, memo)
        bits = 0
        for c in hidden:
            if _policy_value(c, before, mask, rules, danger, memo) > mine:
                bits |= 1 << c.index
        if bits:
            out.append((seat, bits))
    return out


def _policy_value(card: Card, floor: list[Card], mask: int, rules: Rules, danger: float, memo: dict) -> float:
    """The value :func:`~games.engine.bots.playout._policy` gives ``card`` on ``floor`` (before
    its tie-breaks): cards taken with it, a basra's bonus, less ``danger`` for a lone card left."""
    code = _capture_code(card, floor, mask, rules, memo) if floor else 0
    taken = (code & _FULL).bit_count()
    value = taken + 1 if code else 0
    kind = code >> 52
    if kind:
        value += rules.basra_points if kind == 1 else rules.jack_basra_points
    left = len(floor) - taken if code else len(floor) + 1
    return value - danger if left == 1 else value


def _respect(world: _World, view: Any, absent: dict[int, set[Card]], rng: random.Random) -> None:
    """Swap out of each other seat's hand the cards ``absent`` says it lacks, each for a card of
    the stock it may hold, at random (the buried Jacks/7D stay in place). By symmetry the hand
    is then uniform among the hands without those cards; a card stays when no swap is left (the
    inference was wrong: the seat did hold it)."""
    stock = world.stock
    buried = len([c for c in getattr(view, "buried", ()) if c in stock]) if stock else 0
    free = len(stock) - buried
    if not free:
        return
    stock = list(stock)
    for seat, cards in absent.items():
        hand = world.hands[seat]
        for i, c in enumerate(hand):
            if c in cards:
                options = [j for j in range(free) if stock[j] not in cards]
                if not options:
                    break
                j = options[rng.randrange(len(options))]
                hand[i], stock[j] = stock[j], c
    world.stock = stock


_ALL = tuple(Card(rank, suit) for rank in range(1, 14) for suit in "CDHS")

#: The four-player search's deals a move for each ISMCTS iteration of the cap: the same CPU
#: time (``bench/bots.py --calibrate``).
_SAMPLES_PER_ITERATION = 0.5

#: Deals drawn at most per determinization by the rejection sampling of ``likelihood``.
_TRIES = 8


def _bits(cards: list[Card]) -> int:
    mask = 0
    for c in cards:
        mask |= 1 << c.index
    return mask


def solve(world: _World, first: Card, rules: Rules, side: int, memo: dict | None = None) -> float:
    """The exact value of playing ``first`` in ``world`` when every card is known, for ``side``.

    ``world``: a whole state (:class:`~games.engine.bots.playout._World`) whose stock is empty,
    so that no card is dealt again; ``first``: a card of the hand of the seat to move. Both
    sides then play perfectly (minimax with alpha-beta pruning; cards the rules cannot tell
    apart are tried once). The value is the round points ``side`` makes from here on less the
    other side's: the majority (cards left on the floor to the last capturer), basras and card
    points made from here on, in points. ``world`` is not changed.

    :raises ValueError: the stock is not empty (the deal after it is not known).
    """
    if world.stock:
        raise ValueError("the exact solver needs an empty stock")
    memo = {} if memo is None else memo
    n = len(world.hands)
    w = world.copy()
    _play(w, first, None, rules, n, memo)
    return _negamax(w, rules, n, side, memo, -1e9, 1e9)


def _negamax(world: _World, rules: Rules, n: int, side: int, memo: dict, alpha: float, beta: float) -> float:
    """Minimax value for ``side`` of ``world`` (alpha-beta window ``alpha``..``beta``, for ``side``)."""
    hand = world.hands[world.turn]
    if not hand:
        return _playout(world, rules, n, side, 0.0, memo, None, 1.0)
    maximize = (world.turn & 1) == side
    best = -1e9 if maximize else 1e9
    for card in _distinct(hand, rules):
        w = world.copy()
        _play(w, card, None, rules, n, memo)
        v = _negamax(w, rules, n, side, memo, alpha, beta)
        if maximize:
            if v > best:
                best = v
            if best > alpha:
                alpha = best
        else:
            if v < best:
                best = v
            if best < beta:
                beta = best
        if alpha >= beta:
            break
    return best
