"""Running tournaments: every change to an event, one typed function each (STYLE.md, "Write it
like this": lock, check, write).

Each service locks the :class:`~games.tournaments.models.Tournament` row (``select_for_update``)
inside a transaction, checks the request (raising :class:`TournamentError` before anything is
written) and writes. Tables are created through the core's actions (``games.actions``:
``create_table`` by one player, ``join_table`` by the others, seats by side: the side of a
pairing's first entrant takes seats 0 (and 2), the other 1 (and 3); RULES.md "Four players").
Results come back through :func:`on_match_finished`, connected to ``games.signals.
match_finished`` in ``TournamentsConfig.ready()``: it runs inside the transaction that ends the
match (after the match row is locked), so the order of locks is always the match, then the
event; the services that end a match (a withdrawal resigning a live table) do so after their own
transaction, never holding the event's lock.

Pairings come from ``games.tournaments.pairing``; the next round is paired as soon as the last
pairing of a round has a result (unless the event is paused). An arena pairs whoever waits each
time a match ends, until its end time; its running matches then finish and count.
"""

from __future__ import annotations

import logging
import secrets
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone

from games import actions, engine
from games.actions.store import write_transaction
from games.errors import GameError
from games.models import MOVE_SECONDS, Match
from games.ratings.models import PlayerRating, Pool
from games.tournaments import pairing
from games.tournaments.errors import Code, TournamentError
from games.tournaments.models import (
    AuditEntry,
    Entrant,
    Game,
    Pairing,
    Round,
    Tournament,
)

log = logging.getLogger(__name__)

__all__ = [
    "DEFAULT_RATING",
    "TournamentError",
    "accept_partner",
    "arena_board",
    "correct_result",
    "create_tournament",
    "knockout_places",
    "on_match_finished",
    "pair_round",
    "pause",
    "record_forfeit",
    "record_result",
    "register",
    "registration_open",
    "resume",
    "start",
    "standings",
    "tick",
    "withdraw",
]

#: The rating an entrant is seeded and paired with until the ratings app reports one.
DEFAULT_RATING = 1500.0
#: A knockout pairing played as best of 3 is won by the first to this many match wins.
BEST_OF_3_WINS = 2
#: How often one pairing's match may be aborted before the first play and set up again; the
#: next abort is a double forfeit.
MAX_ABORTS = 2

Format = Tournament.Format


def rating_of(user: Any, players: int = 2) -> float:
    """The rating a player is seeded and paired with: their Glicko-2 rating in the pool of tables
    for ``players`` (``games.ratings``), or :data:`DEFAULT_RATING` (a new player's, 1500) when
    they have none there yet."""
    rating = (
        PlayerRating.objects.filter(user_id=user.pk, pool=Pool.of_players(players))
        .values_list("rating", flat=True)
        .first()
    )
    return DEFAULT_RATING if rating is None else float(rating)


# --- locking and checks ----------------------------------------------------------------------


def _require_login(user: Any) -> None:
    if user is None or not user.is_authenticated:
        raise TournamentError(Code.LOGIN_REQUIRED)


def _lock(tournament_id: int) -> Tournament:
    """The event row, locked until the end of the transaction.

    :raises TournamentError: ``not_found``.
    """
    try:
        return Tournament.objects.select_for_update().get(pk=tournament_id)
    except Tournament.DoesNotExist:
        raise TournamentError(Code.NOT_FOUND) from None


def _check_organiser(t: Tournament, user: Any) -> None:
    """:raises TournamentError: ``login_required``, ``not_organiser``."""
    _require_login(user)
    if not t.can_manage(user):
        raise TournamentError(Code.NOT_ORGANISER)


def _audit(t: Tournament, user: Any, action: str, now: datetime, *, pairing_row=None, **details) -> None:
    if user is not None:
        AuditEntry.objects.create(
            tournament=t, actor=user, action=action, pairing=pairing_row, details=details,
            created_at=now,
        )


# --- creating and registering ----------------------------------------------------------------


def create_tournament(
    *,
    user: Any,
    name: str,
    format: str,
    starts_at: datetime,
    players: int = 2,
    rules: dict | None = None,
    rated: bool = False,
    move_seconds: int | None = actions.DEFAULT_MOVE_SECONDS,
    description: str = "",
    registration_closes: datetime | None = None,
    max_entrants: int | None = None,
    seeding: str = Tournament.Seeding.RATING,
    double_round_robin: bool = False,
    third_place: bool = False,
    best_of: int = 1,
    swiss_rounds: int | None = None,
    arena_minutes: int | None = None,
    tiebreaks: Sequence[str] = (),
) -> Tournament:
    """Create an event organised by ``user`` (any registered player).

    ``rules``: ``games.engine.Rules`` fields (``players`` may be among them and must then equal
    ``players``). A rated event needs a clock (``move_seconds`` one of ``games.models.
    MOVE_SECONDS``). Swiss needs ``swiss_rounds >= 1``, an arena ``arena_minutes >= 1``;
    ``best_of`` is 1 or 3; ``tiebreaks`` are ``pairing.TieBreak`` values;
    ``registration_closes`` is at the latest ``starts_at``; ``max_entrants`` at least 2.

    :raises TournamentError: ``login_required``; ``bad_settings`` for anything else above.
    """
    _require_login(user)
    rules = dict(rules or {})
    if (
        not name.strip()
        or format not in Format.values
        or players not in (2, 4)
        or rules.pop("players", players) != players
        or seeding not in Tournament.Seeding.values
        or best_of not in (1, 3)
        or (move_seconds is not None and move_seconds not in MOVE_SECONDS)
        or (rated and move_seconds is None)
        or (format == Format.SWISS and not (swiss_rounds and swiss_rounds >= 1))
        or (format == Format.ARENA and not (arena_minutes and arena_minutes >= 1))
        or (max_entrants is not None and max_entrants < 2)
        or (registration_closes is not None and registration_closes > starts_at)
    ):
        raise TournamentError(Code.BAD_SETTINGS)
    try:
        rules_obj = engine.Rules(players=players, **rules)
        order = [pairing.TieBreak(t).value for t in tiebreaks]
    except (TypeError, ValueError):
        raise TournamentError(Code.BAD_SETTINGS) from None
    if not rules_obj.can_score:
        raise TournamentError(Code.BAD_SETTINGS)  # no match of it could ever end
    return Tournament.objects.create(
        organiser=user, name=name.strip(), description=description, format=format,
        players=players, rules=rules_obj.to_dict(), rated=bool(rated), move_seconds=move_seconds,
        starts_at=starts_at, registration_closes=registration_closes, max_entrants=max_entrants,
        seeding=seeding, double_round_robin=bool(double_round_robin) and format == Format.ROUND_ROBIN,
        third_place=bool(third_place) and format == Format.KNOCKOUT,
        best_of=best_of if format == Format.KNOCKOUT else 1,
        swiss_rounds=swiss_rounds if format == Format.SWISS else None,
        arena_minutes=arena_minutes if format == Format.ARENA else None,
        tiebreaks=order,
    )


def _entry_of(t: Tournament, user: Any) -> Entrant | None:
    """``user``'s entrant in ``t`` (as the player or the partner), withdrawn ones included."""
    return (
        Entrant.objects.filter(tournament=t)
        .filter(Q(user=user) | Q(partner=user))
        .select_related("user", "partner")
        .first()
    )


def _late_entry_open(t: Tournament) -> bool:
    """A Swiss event takes late entries until half its rounds have started (issue 13)."""
    return (
        t.status == Tournament.Status.RUNNING
        and t.format == Format.SWISS
        and 2 * t.current_round < (t.swiss_rounds or 0)
    )


def registration_open(t: Tournament, now: datetime | None = None) -> bool:
    """Whether ``t`` takes registrations now (before its deadline, or a Swiss late entry)."""
    now = timezone.now() if now is None else now
    if t.status == Tournament.Status.UPCOMING:
        return now <= t.registration_deadline
    return _late_entry_open(t)


def register(
    *, user: Any, tournament_id: int, partner: Any = None, now: datetime | None = None
) -> Entrant:
    """Register ``user`` (with ``partner`` invited, in a partnership event).

    Single players are active at once; a partnership is ``invited`` until the partner accepts
    (:func:`accept_partner`). A Swiss late entry (while fewer than half the rounds have started)
    enters at the next round, with zero points for the rounds it missed.

    :raises TournamentError: ``login_required``, ``not_found``, ``registration_closed`` (after the
        deadline, or once the event started, Swiss late entry aside), ``already_registered``,
        ``partner_required``, ``partner_not_allowed``, ``partner_self``, ``partner_registered``,
        ``event_full`` (the entrant limit reached).
    """
    _require_login(user)
    now = timezone.now() if now is None else now
    with write_transaction():
        t = _lock(tournament_id)
        if not registration_open(t, now):
            raise TournamentError(Code.REGISTRATION_CLOSED)
        if _entry_of(t, user) is not None:
            raise TournamentError(Code.ALREADY_REGISTERED)
        if t.partnerships:
            if partner is None:
                raise TournamentError(Code.PARTNER_REQUIRED)
            if partner.pk == user.pk:
                raise TournamentError(Code.PARTNER_SELF)
            if _entry_of(t, partner) is not None:
                raise TournamentError(Code.PARTNER_REGISTERED)
        elif partner is not None:
            raise TournamentError(Code.PARTNER_NOT_ALLOWED)
        taken = t.entrants.exclude(status=Entrant.Status.WITHDRAWN).count()
        if t.max_entrants is not None and taken >= t.max_entrants:
            raise TournamentError(Code.EVENT_FULL)
        rating = rating_of(user, t.players)
        if partner is not None:
            rating = (rating + rating_of(partner, t.players)) / 2
        return Entrant.objects.create(
            tournament=t, user=user, partner=partner, rating=rating,
            status=Entrant.Status.INVITED if partner is not None else Entrant.Status.ACTIVE,
            first_round=t.current_round + 1,
        )


def accept_partner(*, user: Any, entrant_id: int, now: datetime | None = None) -> Entrant:
    """The invited partner accepts: the partnership becomes an active entrant.

    :raises TournamentError: ``login_required``, ``not_found``, ``not_invited`` (``user`` is not
        the invited partner), ``already_accepted``, ``registration_closed`` (the event started,
        Swiss late entry aside), ``already_registered`` (``user`` entered otherwise meanwhile).
    """
    _require_login(user)
    now = timezone.now() if now is None else now
    tournament_id = Entrant.objects.filter(pk=entrant_id).values_list("tournament_id", flat=True).first()
    if tournament_id is None:
        raise TournamentError(Code.NOT_FOUND)
    with write_transaction():
        t = _lock(tournament_id)
        entrant = Entrant.objects.filter(pk=entrant_id).select_related("user", "partner").first()
        if entrant is None:
            raise TournamentError(Code.NOT_FOUND)
        if entrant.partner_id != user.pk:
            raise TournamentError(Code.NOT_INVITED)
        if entrant.status != Entrant.Status.INVITED:
            raise TournamentError(Code.ALREADY_ACCEPTED)
        if t.status != Tournament.Status.UPCOMING and not _late_entry_open(t):
            raise TournamentError(Code.REGISTRATION_CLOSED)
        if Entrant.objects.filter(tournament=t, user=user).exists():
            raise TournamentError(Code.ALREADY_REGISTERED)
        entrant.status = Entrant.Status.ACTIVE
        entrant.first_round = t.current_round + 1
        entrant.save(update_fields=["status", "first_round"])
        return entrant


def withdraw(*, user: Any, tournament_id: int, now: datetime | None = None) -> None:
    """Withdraw ``user``'s entrant (either partner may).

    Before the start the entry is removed, free. During the event the entrant is ``withdrawn``:
    its unfinished pairing is forfeited (the opponent wins), it is paired no more, and its live
    table is resigned for it after the event's transaction (a round robin's later pairings
    against it are forfeits too).

    :raises TournamentError: ``login_required``, ``not_found``, ``not_registered``,
        ``not_running`` (the event is over).
    """
    _require_login(user)
    now = timezone.now() if now is None else now
    live: list[int] = []
    with write_transaction():
        t = _lock(tournament_id)
        entrant = _entry_of(t, user)
        if entrant is None or entrant.status == Entrant.Status.WITHDRAWN:
            raise TournamentError(Code.NOT_REGISTERED)
        if t.status == Tournament.Status.UPCOMING or entrant.status == Entrant.Status.INVITED:
            entrant.delete()
            return
        if t.status != Tournament.Status.RUNNING:
            raise TournamentError(Code.NOT_RUNNING)
        entrant.status = Entrant.Status.WITHDRAWN
        entrant.withdrawn_round = t.current_round
        entrant.save(update_fields=["status", "withdrawn_round"])
        members = entrant.members()
        for p in _unfinished(t).filter(Q(a=entrant) | Q(b=entrant)):
            live += [g.match_id for g in p.games.filter(winner__isnull=True, aborted=False)]
            other = p.b if p.a_id == entrant.pk else p.a
            _finish_pairing(p, other, now, forfeit=True)
        _after_result(t, now)
    for match_id in live:
        for member in members:
            try:
                actions.resign(user=member, match_id=match_id)
            except GameError:
                pass  # the match ended meanwhile, or a partner's resignation already did it


# --- starting and pairing --------------------------------------------------------------------


def start(*, user: Any, tournament_id: int, now: datetime | None = None) -> Tournament:
    """Start the event: seed the entrants, pair the first round and open its tables.

    ``user``: the organiser or staff; ``None`` when the scheduler (:func:`tick`) starts it at
    its time. Partnerships still waiting for their partner are dropped. Seeds: by rating (ties:
    the earlier registration first) or at random (``secrets``).

    :raises TournamentError: ``login_required``, ``not_organiser``, ``not_found``,
        ``already_started``, ``too_few_entrants`` (fewer than 2 active entrants).
    """
    now = timezone.now() if now is None else now
    with write_transaction():
        t = _lock(tournament_id)
        if user is not None:
            _check_organiser(t, user)
        if t.status != Tournament.Status.UPCOMING:
            raise TournamentError(Code.ALREADY_STARTED)
        t.entrants.filter(status=Entrant.Status.INVITED).delete()
        entrants = list(t.entrants.order_by("-rating", "registered_at", "pk"))
        if len(entrants) < 2:
            raise TournamentError(Code.TOO_FEW_ENTRANTS)
        if t.seeding == Tournament.Seeding.RANDOM:
            secrets.SystemRandom().shuffle(entrants)
        for seed, e in enumerate(entrants, start=1):
            e.seed = seed
        Entrant.objects.bulk_update(entrants, ["seed"])
        t.status = Tournament.Status.RUNNING
        t.started_at = now
        if t.format == Format.ARENA:
            t.ends_at = now + timedelta(minutes=t.arena_minutes)
        t.save(update_fields=["status", "started_at", "ends_at"])
        _audit(t, user, AuditEntry.Action.START, now, entrants=len(entrants))
        _pair_next(t, now)
        return t


def pair_round(*, user: Any, tournament_id: int, now: datetime | None = None) -> Round | None:
    """The organiser pairs the next round by hand (after a pause; otherwise it is automatic).

    :returns: the new round, or ``None`` when the event ended instead.
    :raises TournamentError: ``login_required``, ``not_organiser``, ``not_found``,
        ``not_running``, ``no_rounds`` (an arena), ``round_not_over`` (a pairing of the current
        round has no result yet).
    """
    now = timezone.now() if now is None else now
    with write_transaction():
        t = _lock(tournament_id)
        _check_organiser(t, user)
        if t.status != Tournament.Status.RUNNING:
            raise TournamentError(Code.NOT_RUNNING)
        if t.format == Format.ARENA:
            raise TournamentError(Code.NO_ROUNDS)
        if _unfinished(t).filter(round__number=t.current_round).exists():
            raise TournamentError(Code.ROUND_NOT_OVER)
        _audit(t, user, AuditEntry.Action.PAIR, now, round=t.current_round + 1)
        _pair_next(t, now)
        return t.rounds.filter(number=t.current_round).first() if t.status == t.Status.RUNNING else None


def _active(t: Tournament):
    return t.entrants.filter(status=Entrant.Status.ACTIVE)


def _unfinished(t: Tournament):
    return Pairing.objects.filter(tournament=t, finished_at__isnull=True).select_related("a", "b")


def _pair_next(t: Tournament, now: datetime) -> None:
    """Pair the next round (every format but the arena's later waves) and open its tables.

    Byes and forfeits against withdrawn entrants are results at once; if they complete the
    round, the one after is paired too, and the event finishes after its last round.
    """
    while t.status == Tournament.Status.RUNNING:
        number = t.current_round + 1
        pairs = _next_pairs(t, number)
        if pairs is None:
            _finish_event(t, now)
            return
        rnd = Round.objects.create(tournament=t, number=number, started_at=now)
        t.current_round = number
        t.save(update_fields=["current_round"])
        for board, (a, b, third) in enumerate(pairs, start=1):
            p = Pairing.objects.create(
                tournament=t, round=rnd, board=board, a=a, b=b, third_place=third,
                created_at=now,
            )
            _open_pairing(t, p, now)
        if t.format == Format.ARENA:
            _arena_wave(t, now)
            return
        if _unfinished(t).filter(round=rnd).exists():
            return
        rnd.finished_at = now
        rnd.save(update_fields=["finished_at"])
        if t.paused:
            return


def _next_pairs(t: Tournament, number: int) -> list[tuple[Entrant, Entrant | None, bool]] | None:
    """Round ``number``'s pairs ``(a, b or None for a bye, third place)``; ``None``: the event is over."""
    if t.format == Format.ARENA:
        return [] if number == 1 else None
    by_id = {e.pk: e for e in t.entrants.select_related("user", "partner")}
    if t.format == Format.ROUND_ROBIN:
        seeded = sorted((e for e in by_id.values() if e.seed), key=lambda e: e.seed)
        if number > t.planned_rounds(len(seeded)):
            return None
        table = pairing.round_robin(len(seeded))
        cycle, index = divmod(number - 1, len(table))
        out = []
        for x, y in table[index]:
            if y is None:
                out.append((seeded[x - 1], None, False))
            elif cycle % 2:
                out.append((seeded[y - 1], seeded[x - 1], False))
            else:
                out.append((seeded[x - 1], seeded[y - 1], False))
        return out
    if t.format == Format.KNOCKOUT:
        return _knockout_pairs(t, number, by_id)
    # Swiss
    if number > (t.swiss_rounds or 0):
        return None
    playing = [
        e for e in by_id.values()
        if e.status == Entrant.Status.ACTIVE and e.first_round <= number
    ]
    if len(playing) < 2:
        return None
    score: dict[int, float] = defaultdict(float)
    opponents: dict[int, set[int]] = defaultdict(set)
    had_bye: set[int] = set()
    for p in Pairing.objects.filter(tournament=t, finished_at__isnull=False):
        score[p.a_id] += p.score_a or 0.0
        if p.b_id is None:
            had_bye.add(p.a_id)
            continue
        score[p.b_id] += p.score_b or 0.0
        opponents[p.a_id].add(p.b_id)
        opponents[p.b_id].add(p.a_id)
    pairs, bye = pairing.swiss_round([
        pairing.SwissEntrant(
            id=e.pk, score=score[e.pk], rating=e.rating, opponents=frozenset(opponents[e.pk]),
            had_bye=e.pk in had_bye,
        )
        for e in playing
    ])
    out = [(by_id[a], by_id[b], False) for a, b in pairs]
    if bye is not None:
        out.append((by_id[bye], None, False))
    return out


def _knockout_pairs(t: Tournament, number: int, by_id: dict[int, Entrant]):
    if number == 1:
        seeded = sorted((e for e in by_id.values() if e.seed), key=lambda e: e.seed)
        out = []
        for x, y in pairing.knockout_bracket(len(seeded)):
            first, second = (x, y) if x is not None else (y, x)
            out.append((seeded[first - 1], seeded[second - 1] if second else None, False))
        return out
    previous = list(
        Pairing.objects.filter(tournament=t, round__number=number - 1, third_place=False)
        .order_by("board")
    )
    if len(previous) <= 1:
        return None
    out = []
    for left, right in zip(previous[::2], previous[1::2]):
        out.append((by_id[left.winner_id], by_id[right.winner_id], False))
    if len(previous) == 2 and t.third_place:
        losers = [p.loser for p in previous]
        if all(x is not None for x in losers):
            out.append((by_id[losers[0].pk], by_id[losers[1].pk], True))
    return out


def _open_pairing(t: Tournament, p: Pairing, now: datetime) -> None:
    """A bye is a win at once; a pairing with a withdrawn entrant is a forfeit; else a table."""
    if p.b_id is None:
        _finish_pairing(p, p.a if p.a.status != Entrant.Status.WITHDRAWN else None, now)
        return
    gone = [e for e in (p.a, p.b) if e.status == Entrant.Status.WITHDRAWN]
    if gone:
        winner = None if len(gone) == 2 else (p.b if gone[0].pk == p.a_id else p.a)
        _finish_pairing(p, winner, now, forfeit=True)
        return
    _open_table(t, p, 1, now)


def _open_table(t: Tournament, p: Pairing, number: int, now: datetime) -> Game | None:
    """Create match ``number`` of pairing ``p`` through the core's actions and seat its players.

    The sides alternate from match to match (``a`` holds side 0 in odd-numbered ones). The
    first player of side 0 creates the table (``create_table``), the others join their seats
    (``join_table``); the match starts when the last one sits down. A refusal of the core
    (``too_many_open_tables``, for one) leaves the pairing without a table: :func:`tick` tries
    again, and nothing else is undone.
    """
    a_side = (number - 1) % 2
    side0, side1 = (p.a, p.b) if a_side == 0 else (p.b, p.a)
    seats = [(side0.user, 0), (side1.user, 1)]
    if t.players == 4:
        seats += [(side0.partner, 2), (side1.partner, 3)]
    try:
        with transaction.atomic():
            match = actions.create_table(
                user=seats[0][0], players=t.players, rules=t.rules, rated=t.rated,
                move_seconds=t.move_seconds, now=now,
            )
            for member, seat in seats[1:]:
                actions.join_table(user=member, match_id=match.pk, seat=seat, now=now)
            return Game.objects.create(pairing=p, number=number, match=match, a_side=a_side)
    except GameError as error:
        log.warning("tournament %s pairing %s: no table yet (%s)", t.pk, p.pk, error)
        return None


def _finish_pairing(p: Pairing, winner: Entrant | None, now: datetime, *, forfeit: bool = False) -> None:
    """Write ``p``'s result: a win 1, a loss 0; ``winner`` ``None``: both lost (double forfeit)."""
    p.winner = winner
    p.score_a = 1.0 if winner is not None and winner.pk == p.a_id else 0.0
    p.score_b = None if p.b_id is None else (1.0 if winner is not None and winner.pk == p.b_id else 0.0)
    p.forfeit = forfeit
    p.finished_at = now
    p.save(update_fields=["winner", "score_a", "score_b", "forfeit", "finished_at"])


def _after_result(t: Tournament, now: datetime) -> None:
    """What follows a result: the arena's next wave (or its end), or the next round."""
    if t.status != Tournament.Status.RUNNING:
        return
    if t.format == Format.ARENA:
        if now >= t.ends_at:
            if not _unfinished(t).exists():
                _finish_event(t, now)
        elif not t.paused:
            _arena_wave(t, now)
        return
    rnd = t.rounds.filter(number=t.current_round).first()
    if rnd is None or _unfinished(t).filter(round=rnd).exists():
        return
    if rnd.finished_at is None:
        rnd.finished_at = now
        rnd.save(update_fields=["finished_at"])
    if not t.paused:
        _pair_next(t, now)


def _finish_event(t: Tournament, now: datetime) -> None:
    t.status = Tournament.Status.FINISHED
    t.finished_at = now
    t.save(update_fields=["status", "finished_at"])
    t.rounds.filter(finished_at__isnull=True).update(finished_at=now)


# --- results ---------------------------------------------------------------------------------


def on_match_finished(sender: Any, match: Match, winner: int | None, result: str, **kwargs: Any) -> None:
    """``games.signals.match_finished`` receiver: a tournament table's result, recorded once.

    Runs inside the transaction that ends the match; matches of no tournament cost one indexed
    query. A result that was already recorded (the signal again, or the organiser's forfeit
    first) changes nothing.
    """
    if not Game.objects.filter(match_id=match.pk).exists():
        return
    try:
        record_result(match_id=match.pk, winner=winner, result=result, now=match.finished_at)
    except TournamentError as error:
        if error.code != Code.RESULT_REPORTED:
            raise


def record_result(
    *, match_id: int, winner: int | None, result: str, now: datetime | None = None
) -> Pairing:
    """Record the end of a tournament table: the winning side (``None``: aborted), and how.

    A win decides the pairing (in a best-of-3 knockout pairing, the second win does; until
    then the next match's table opens, sides swapped). An aborted match (before its first
    play) is set up again, up to :data:`MAX_ABORTS` times, then both entrants lose by
    forfeit. A match whose pairing already has a result (a forfeit) only keeps its winner.
    Then :func:`_after_result`: the next round or arena wave.

    :raises TournamentError: ``not_found`` (not a tournament table), ``result_reported`` (this
        match's result is already recorded).
    """
    now = timezone.now() if now is None else now
    tournament_id = (
        Game.objects.filter(match_id=match_id).values_list("pairing__tournament_id", flat=True).first()
    )
    if tournament_id is None:
        raise TournamentError(Code.NOT_FOUND)
    with write_transaction():
        t = _lock(tournament_id)
        game = Game.objects.select_related("pairing__a", "pairing__b").get(match_id=match_id)
        if game.winner_id is not None or game.aborted:
            raise TournamentError(Code.RESULT_REPORTED)
        p = game.pairing
        if winner is None:
            game.aborted = True
            game.save(update_fields=["aborted"])
        else:
            won = p.a if winner == game.a_side else p.b
            game.winner = won
            game.save(update_fields=["winner"])
        if p.finished:
            return p
        if winner is None:
            if p.games.filter(aborted=True).count() > MAX_ABORTS:
                _finish_pairing(p, None, now, forfeit=True)
            else:
                _open_table(t, p, game.number + 1, now)
                return p
        elif t.format == Format.KNOCKOUT and t.best_of == 3:
            if won.pk == p.a_id:
                p.wins_a += 1
            else:
                p.wins_b += 1
            p.save(update_fields=["wins_a", "wins_b"])
            if max(p.wins_a, p.wins_b) < BEST_OF_3_WINS:
                _open_table(t, p, game.number + 1, now)
                return p
            _finish_pairing(p, won, now)
        else:
            _finish_pairing(p, won, now)
        _after_result(t, now)
        return p


# --- the organiser ---------------------------------------------------------------------------


def pause(*, user: Any, tournament_id: int, now: datetime | None = None) -> None:
    """Pause: no new round or arena wave is paired (matches being played go on and count).

    :raises TournamentError: ``login_required``, ``not_organiser``, ``not_found``,
        ``not_running``, ``already_paused``.
    """
    _set_paused(user, tournament_id, now, paused=True)


def resume(*, user: Any, tournament_id: int, now: datetime | None = None) -> None:
    """Resume a paused event; a round that ended meanwhile is followed by the next at once.

    :raises TournamentError: ``login_required``, ``not_organiser``, ``not_found``,
        ``not_running``, ``not_paused``.
    """
    _set_paused(user, tournament_id, now, paused=False)


def _set_paused(user: Any, tournament_id: int, now: datetime | None, *, paused: bool) -> None:
    """:func:`pause` (``paused``) or :func:`resume`, under the event's row lock, audited."""
    now = timezone.now() if now is None else now
    with write_transaction():
        t = _lock(tournament_id)
        _check_organiser(t, user)
        if t.status != Tournament.Status.RUNNING:
            raise TournamentError(Code.NOT_RUNNING)
        if t.paused == paused:
            raise TournamentError(Code.ALREADY_PAUSED if paused else Code.NOT_PAUSED)
        t.paused = paused
        t.save(update_fields=["paused"])
        action = AuditEntry.Action.PAUSE if paused else AuditEntry.Action.RESUME
        _audit(t, user, action, now)
        if not paused:
            _after_result(t, now)


def _locked_pairing(pairing_id: int) -> tuple[Tournament, Pairing]:
    tournament_id = Pairing.objects.filter(pk=pairing_id).values_list("tournament_id", flat=True).first()
    if tournament_id is None:
        raise TournamentError(Code.NOT_FOUND)
    t = _lock(tournament_id)
    return t, Pairing.objects.select_related("a", "b", "round").get(pk=pairing_id)


def _winner_of(p: Pairing, winner_id: int | None) -> Entrant | None:
    if winner_id is None:
        return None
    if winner_id == p.a_id:
        return p.a
    if p.b_id is not None and winner_id == p.b_id:
        return p.b
    raise TournamentError(Code.BAD_WINNER)


def record_forfeit(
    *, user: Any, pairing_id: int, winner_id: int | None, now: datetime | None = None
) -> Pairing:
    """The organiser records a forfeit: ``winner_id`` wins (``None``: both lose). A table still
    being played goes on, but its result no longer counts. Kept in the audit trail.

    :raises TournamentError: ``login_required``, ``not_found``, ``not_organiser``,
        ``not_running``, ``result_reported`` (the pairing has a result: correct it instead),
        ``bad_winner``.
    """
    now = timezone.now() if now is None else now
    with write_transaction():
        t, p = _locked_pairing(pairing_id)
        _check_organiser(t, user)
        if t.status != Tournament.Status.RUNNING:
            raise TournamentError(Code.NOT_RUNNING)
        if p.finished:
            raise TournamentError(Code.RESULT_REPORTED)
        if p.b_id is None:
            raise TournamentError(Code.BAD_WINNER)
        winner = _winner_of(p, winner_id)
        if winner is None and t.format == Format.KNOCKOUT:
            raise TournamentError(Code.BAD_WINNER)  # a bracket needs someone to go on
        _finish_pairing(p, winner, now, forfeit=True)
        _audit(t, user, AuditEntry.Action.FORFEIT, now, pairing_row=p,
               winner=winner.name if winner else None)
        _after_result(t, now)
        return p


def correct_result(
    *, user: Any, pairing_id: int, winner_id: int | None, now: datetime | None = None
) -> Pairing:
    """The organiser corrects a pairing's result: ``winner_id`` wins (``None``: both lose).
    Standings follow; pairings already made stay. Kept in the audit trail (before and after).

    :raises TournamentError: ``login_required``, ``not_found``, ``not_organiser``,
        ``not_finished`` (no result yet: record a forfeit), ``bad_winner`` (not one of the
        pairing's entrants, a bye, or nobody in a knockout), ``next_round_paired`` (a knockout
        whose next round was paired on this result).
    """
    now = timezone.now() if now is None else now
    with write_transaction():
        t, p = _locked_pairing(pairing_id)
        _check_organiser(t, user)
        if not p.finished:
            raise TournamentError(Code.NOT_FINISHED)
        if p.b_id is None:
            raise TournamentError(Code.BAD_WINNER)
        winner = _winner_of(p, winner_id)
        if t.format == Format.KNOCKOUT:
            if winner is None:
                raise TournamentError(Code.BAD_WINNER)
            if t.rounds.filter(number__gt=p.round.number).exists():
                raise TournamentError(Code.NEXT_ROUND_PAIRED)
        before = p.winner.name if p.winner_id else None
        finished_at = p.finished_at
        _finish_pairing(p, winner, finished_at, forfeit=p.forfeit)
        _audit(t, user, AuditEntry.Action.CORRECT, now, pairing_row=p, before=before,
               after=winner.name if winner else None)
        return p


# --- the scheduler ---------------------------------------------------------------------------


def tick(now: datetime | None = None) -> dict[str, int]:
    """What time alone changes: start the events whose time has come (cancel those with fewer
    than 2 entrants), end the arenas whose time is up once their last match ended, and open the
    tables the core refused before. Run by ``manage.py run_tournaments`` (the core's clock
    never imports this app).

    :returns: counts ``{"started", "cancelled", "finished", "tables"}``.
    """
    now = timezone.now() if now is None else now
    counts = {"started": 0, "cancelled": 0, "finished": 0, "tables": 0}
    due = Tournament.objects.filter(status=Tournament.Status.UPCOMING, starts_at__lte=now)
    for tournament_id in due.values_list("pk", flat=True):
        try:
            start(user=None, tournament_id=tournament_id, now=now)
            counts["started"] += 1
        except TournamentError as error:
            if error.code == Code.TOO_FEW_ENTRANTS:
                with write_transaction():
                    t = _lock(tournament_id)
                    if t.status == Tournament.Status.UPCOMING:
                        t.status = Tournament.Status.CANCELLED
                        t.finished_at = now
                        t.save(update_fields=["status", "finished_at"])
                        counts["cancelled"] += 1
    ended = Tournament.objects.filter(
        status=Tournament.Status.RUNNING, format=Format.ARENA, ends_at__lte=now
    )
    for tournament_id in ended.values_list("pk", flat=True):
        with write_transaction():
            t = _lock(tournament_id)
            if t.status == Tournament.Status.RUNNING and not _unfinished(t).exists():
                _finish_event(t, now)
                counts["finished"] += 1
    waiting = (
        Pairing.objects.filter(
            tournament__status=Tournament.Status.RUNNING, finished_at__isnull=True,
            b__isnull=False,
        )
        .exclude(Exists(Game.objects.filter(pairing=OuterRef("pk"), winner__isnull=True, aborted=False)))
        .values_list("pk", flat=True)
    )
    for pairing_id in waiting:
        with write_transaction():
            t, p = _locked_pairing(pairing_id)
            if p.finished or p.games.filter(winner__isnull=True, aborted=False).exists():
                continue
            if _open_table(t, p, (p.games.count() or 0) + 1, now) is not None:
                counts["tables"] += 1
    return counts


# --- the arena -------------------------------------------------------------------------------


def _arena_sheet(t: Tournament) -> tuple[dict[int, list[str]], set[int], dict[int, int]]:
    """One read of the arena's pairings: each entrant's results in the order they ended
    (``"win"``/``"loss"``), the entrants playing now, and each one's last opponent."""
    results: dict[int, list[str]] = defaultdict(list)
    busy: set[int] = set()
    last: dict[int, int] = {}
    rows = (
        Pairing.objects.filter(tournament=t)
        .order_by("finished_at", "pk")
        .values_list("a_id", "b_id", "winner_id", "finished_at")
    )
    for a, b, winner, finished_at in rows:
        if finished_at is None:
            busy.update(x for x in (a, b) if x is not None)
            continue
        for me in (a, b):
            if me is not None:
                results[me].append("win" if winner == me else "loss")
        if b is not None:
            last[a], last[b] = b, a
    return results, busy, last


def _arena_results(t: Tournament) -> dict[int, list[str]]:
    """Each entrant's arena results in the order they ended (``"win"``/``"loss"``)."""
    return _arena_sheet(t)[0]


def _arena_wave(t: Tournament, now: datetime) -> None:
    """Pair the arena's waiting entrants (``pairing.arena_pairs``) and open their tables."""
    results, busy, last = _arena_sheet(t)
    waiting = [e for e in _active(t).select_related("user", "partner") if e.pk not in busy]
    if len(waiting) < 2:
        return
    pairs = pairing.arena_pairs([
        pairing.ArenaPlayer(
            id=e.pk, score=pairing.arena_points(results.get(e.pk, [])).total, rating=e.rating,
            last_opponent=last.get(e.pk),
        )
        for e in waiting
    ])
    if not pairs:
        return
    by_id = {e.pk: e for e in waiting}
    rnd = t.rounds.get(number=1)
    board = Pairing.objects.filter(tournament=t).count()
    for a, b in pairs:
        board += 1
        p = Pairing.objects.create(
            tournament=t, round=rnd, board=board, a=by_id[a], b=by_id[b], created_at=now
        )
        _open_table(t, p, 1, now)


# --- standings -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Line:
    """One line of an event's standings: ``rank``, the ``entrant``, its ``score`` (arena:
    points), the tie-break values in the event's order, and for an arena each match's points
    and whether the entrant is on fire (two wins in a row: the next win counts double)."""

    rank: int
    entrant: Entrant
    score: float
    tiebreaks: list[float | None]
    points: tuple[int, ...] = ()
    on_fire: bool = False


def standings(t: Tournament) -> list[Line]:
    """The event's standings so far (round robin and Swiss: ``pairing.standings`` with the
    organiser's tie-breaks, FIDE C.07; knockout: :func:`knockout_places`; arena:
    :func:`arena_board`)."""
    entrants = {e.pk: e for e in t.entrants.exclude(status=Entrant.Status.INVITED).select_related("user", "partner")}
    if t.format == Format.ARENA:
        return arena_board(t, entrants)
    if t.format == Format.KNOCKOUT:
        return knockout_places(t, entrants)
    results = []
    for p in Pairing.objects.filter(tournament=t, finished_at__isnull=False).select_related("round"):
        results.append(pairing.MatchResult(
            round=p.round.number, a=p.a_id, b=p.b_id, score_a=p.score_a,
            score_b=p.score_b, forfeit=p.forfeit,
        ))
    order = t.tiebreak_order()
    lines = pairing.standings(
        results, order, entrants=entrants, rounds=t.current_round or None,
        predetermined=t.format == Format.ROUND_ROBIN,
    )
    return [
        Line(rank=s.rank, entrant=entrants[s.id], score=s.score,
             tiebreaks=[s.tiebreaks.get(k) for k in order])
        for s in lines if s.id in entrants
    ]


def arena_board(t: Tournament, entrants: dict[int, Entrant]) -> list[Line]:
    """The arena leaderboard: ``pairing.arena_points`` totals (2 a win, doubled on a streak),
    highest first; ties share a rank."""
    results = _arena_results(t)
    sheets = {i: pairing.arena_points(results.get(i, [])) for i in entrants}
    ordered = sorted(entrants, key=lambda i: (-sheets[i].total, -entrants[i].rating, i))
    lines: list[Line] = []
    for i in ordered:
        rank = lines[-1].rank if lines and lines[-1].score == sheets[i].total else len(lines) + 1
        lines.append(Line(rank=rank, entrant=entrants[i], score=sheets[i].total, tiebreaks=[],
                          points=sheets[i].points, on_fire=sheets[i].on_fire))
    return lines


def knockout_places(t: Tournament, entrants: dict[int, Entrant]) -> list[Line]:
    """Knockout places: the further an entrant went the better; the final's winner first, then
    its loser, then the third-place match's winner and loser; entrants out in the same round
    share a place. ``score`` is the number of the last round the entrant was in."""
    reached: dict[int, int] = {}
    out_in: dict[int, int] = {}
    final_order: dict[int, int] = {}
    pairings = list(Pairing.objects.filter(tournament=t).select_related("round"))
    last_round = max((p.round.number for p in pairings), default=0)
    for p in pairings:
        n = p.round.number
        for e in (p.a_id, p.b_id):
            if e is not None and not p.third_place:
                reached[e] = max(reached.get(e, 0), n)
        if p.finished and p.b_id is not None and not p.third_place:
            out_in[p.loser.pk if p.loser else p.a_id] = n
        if p.finished and n == last_round and p.b_id is not None and p.winner_id is not None:
            base = 2 if p.third_place else 0
            final_order[p.winner_id] = base
            final_order[p.loser.pk] = base + 1
    def key(i: int):
        if t.status == Tournament.Status.FINISHED and i in final_order:
            return (0, final_order[i])
        return (1, -reached.get(i, 0), 0 if i not in out_in else 1)
    ordered = sorted(entrants, key=lambda i: (key(i), entrants[i].seed or 0))
    lines: list[Line] = []
    for i in ordered:
        rank = lines[-1].rank if lines and key(ordered[len(lines) - 1]) == key(i) else len(lines) + 1
        lines.append(Line(rank=rank, entrant=entrants[i], score=reached.get(i, 0), tiebreaks=[]))
    return lines
