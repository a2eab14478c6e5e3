"""Running tournaments: every change to an event, one typed function each (STYLE.md, "Write it
like this": lock, check, write).

Each service locks the :class:`~games.tournaments.models.Tournament` row (``select_for_update``)
inside a transaction, checks the request (raising :class:`TournamentError` before anything is
written) and writes. Tables are created through the core's actions (``games.core.actions``:
``create_table`` by one player, ``join_table`` by the others, seats by side: the side of a
pairing's first entrant takes seats 0 (and 2), the other 1 (and 3); RULES.md "Four players").
Results come back through :func:`on_match_finished`, connected to ``games.core.signals.
match_finished`` in ``TournamentsConfig.ready()``: it runs inside the transaction that ends the
match (after the match row is locked), so the order of locks is always the match, then the
event; the services that end a match (a withdrawal resigning a live table) do so after their own
transaction, never holding the event's lock.

Pairings come from ``games.tournaments.pairing``. A match's ending writes only the result rows;
the next round (once the last pairing of a round has a result, unless the event is paused), an
arena's next wave (each time a match ends, until its end time; its running matches then finish
and count), the next match of a best-of-3 pairing and an aborted match set up again are opened
after the ending's commit, by :func:`catch_up` in a transaction of its own (woken by
``follow.wake``, and run by every :func:`tick`: ``games.tournaments.follow``). Code that runs
the services synchronously (a test, a script) calls :func:`catch_up` where the site's server
would have been woken.

This module is the services' one address; each lives in the module of its area:

- ``checks``: constants, ``rating_of``, the event's row lock, the organiser check, the audit;
- ``registration``: ``create_tournament``, ``register``, ``accept_partner``,
  ``decline_partner``, ``withdraw``, ``rejoin`` (after a no-show), ``registration_open``; ``busy``: a player engaged in two
  events at once (one tournament table at a time; the overlap warning);
- ``rounds``: ``start``, ``pair_round``, ``on_match_finished``, ``record_result`` and what
  follows a result; ``tables``: a pairing's tables and results; ``arena``: the arena's waves;
- ``organiser``: ``edit_tournament``, ``cancel``, ``remove_entrant`` and ``set_seeds`` (before
  the start), ``pause``, ``resume``, ``record_forfeit``, ``correct_result``,
  ``withdraw_other`` (the organiser withdraws an entrant), ``add_arbiter`` and
  ``remove_arbiter`` (who may act with the organiser);
- ``scheduler``: ``tick`` (``manage.py run_tournaments``), ``catch_up`` (what follows a
  result); ``follow``: ``wake``, the step asked for after a commit; ``standings``: ``standings``,
  ``arena_board``, ``knockout_places``;
- ``news``: what the players are told through the site's notices (``games.core.state.notices``), after the
  commit: a table that waits for them, a table that no longer counts, the start, a bye, the end,
  a partner's invitation and its refusal.
"""

from games.tournaments.checks import BEST_OF_3_WINS, DEFAULT_RATING, MAX_ABORTS, rating_of
from games.tournaments.errors import TournamentError
from games.tournaments.organiser import (
    add_arbiter,
    cancel,
    correct_result,
    edit_tournament,
    pause,
    record_forfeit,
    remove_arbiter,
    remove_entrant,
    resume,
    set_seeds,
    withdraw_other,
)
from games.tournaments.registration import (
    accept_partner,
    create_tournament,
    decline_partner,
    register,
    registration_open,
    rejoin,
    withdraw,
)
from games.tournaments.rounds import on_match_finished, pair_round, record_result, start
from games.tournaments.scheduler import catch_up, tick
from games.tournaments.standings import Line, arena_board, knockout_places, standings

__all__ = [
    "BEST_OF_3_WINS",
    "DEFAULT_RATING",
    "Line",
    "MAX_ABORTS",
    "TournamentError",
    "accept_partner",
    "add_arbiter",
    "arena_board",
    "cancel",
    "catch_up",
    "correct_result",
    "create_tournament",
    "decline_partner",
    "edit_tournament",
    "knockout_places",
    "on_match_finished",
    "pair_round",
    "pause",
    "rating_of",
    "record_forfeit",
    "record_result",
    "register",
    "remove_arbiter",
    "remove_entrant",
    "registration_open",
    "rejoin",
    "resume",
    "set_seeds",
    "start",
    "standings",
    "tick",
    "withdraw",
    "withdraw_other",
]
