"""Running an event: the start, each round's pairings (Berger tables, the bracket, Swiss, the
arena's first wave), the results that come back from the core's ``match_finished``, and what
follows them (:func:`after_result`, run after the ending's commit: ``games.tournaments.follow``;
``games.tournaments.services``)."""

from __future__ import annotations

import secrets
from collections import defaultdict
from datetime import datetime, timedelta
from typing import Any

from django.db.models import Max
from django.utils import timezone

from games.core.for_apps import Event, Match, write_transaction
from games.tournaments import follow, news, noshow, pairing
from games.tournaments.arena import arena_wave
from games.tournaments.checks import BEST_OF_3_WINS, MAX_ABORTS, Format, audit, check_organiser, lock
from games.tournaments.errors import Code, TournamentError
from games.tournaments.models import AuditEntry, Entrant, Game, Pairing, Round, Tournament
from games.tournaments.tables import better_seed, finish_event, finish_pairing, open_pairing, unfinished


def start(*, user: Any, tournament_id: int, now: datetime | None = None) -> Tournament:
    """Start the event: seed the entrants, pair the first round and open its tables.

    ``user``: the organiser or staff; ``None`` when the scheduler (:func:`tick`) starts it at
    its time. Partnerships still waiting for their partner are dropped. Seeds: by rating (ties:
    the earlier registration first), at random (``secrets``) or the organiser's
    (``organiser.set_seeds``; entrants without one after them, by rating), numbered 1..n. Every entrant's players are told
    that it started (``news``), and each seated player that their table is ready.

    :raises TournamentError: ``login_required``, ``not_organiser``, ``not_found``,
        ``already_started``, ``too_few_entrants`` (fewer than 2 active entrants).
    """
    now = timezone.now() if now is None else now
    with write_transaction():
        t = lock(tournament_id)
        if user is not None:
            check_organiser(t, user)
        if t.status != Tournament.Status.UPCOMING:
            raise TournamentError(Code.ALREADY_STARTED)
        t.entrants.filter(status=Entrant.Status.INVITED).delete()
        entrants = list(t.entrants.order_by("-rating", "registered_at", "pk"))
        if len(entrants) < 2:
            raise TournamentError(Code.TOO_FEW_ENTRANTS)
        if t.seeding == Tournament.Seeding.RANDOM:
            secrets.SystemRandom().shuffle(entrants)
        elif t.seeding == Tournament.Seeding.MANUAL:
            entrants.sort(key=lambda e: (e.seed is None, e.seed or 0))  # stable: the rest by rating
        for seed, e in enumerate(entrants, start=1):
            e.seed = seed
        Entrant.objects.bulk_update(entrants, ["seed"])
        t.status = Tournament.Status.RUNNING
        t.started_at = now
        if t.format == Format.ARENA:
            t.ends_at = now + timedelta(minutes=t.arena_minutes)
        t.save(update_fields=["status", "started_at", "ends_at"])
        audit(t, user, AuditEntry.Action.START, now, entrants=len(entrants))
        news.tell_news(t, entrants, "started")
        pair_next(t, now)
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
        t = lock(tournament_id)
        check_organiser(t, user)
        if t.status != Tournament.Status.RUNNING:
            raise TournamentError(Code.NOT_RUNNING)
        if t.format == Format.ARENA:
            raise TournamentError(Code.NO_ROUNDS)
        if unfinished(t).filter(round__number=t.current_round).exists():
            raise TournamentError(Code.ROUND_NOT_OVER)
        audit(t, user, AuditEntry.Action.PAIR, now, round=t.current_round + 1)
        pair_next(t, now)
        return t.rounds.filter(number=t.current_round).first() if t.status == t.Status.RUNNING else None


def pair_next(t: Tournament, now: datetime) -> None:
    """Pair the next round (every format but the arena's later waves) and open its tables.

    Byes and forfeits against withdrawn entrants are results at once; if they complete the
    round, the one after is paired too, and the event finishes after its last round.
    """
    while t.status == Tournament.Status.RUNNING:
        number = t.current_round + 1
        pairs = _next_pairs(t, number)
        if pairs is None:
            finish_event(t, now)
            return
        rnd = Round.objects.create(tournament=t, number=number, started_at=now)
        t.current_round = number
        t.save(update_fields=["current_round"])
        for board, (a, b, third) in enumerate(pairs, start=1):
            p = Pairing.objects.create(
                tournament=t, round=rnd, board=board, a=a, b=b, third_place=third,
                created_at=now,
            )
            open_pairing(t, p, now)
        if t.format == Format.ARENA:
            arena_wave(t, now)
            return
        if unfinished(t).filter(round=rnd).exists():
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
    # An absent entrant (a no-show, ``noshow.mark_absent``) sits the round out, with no points,
    # until it rejoins (``registration.rejoin``).
    playing = [
        e for e in by_id.values()
        if e.status == Entrant.Status.ACTIVE and not e.absent and e.first_round <= number
    ]
    if len(playing) < 2:
        return None
    score: dict[int, float] = defaultdict(float)
    opponents: dict[int, set[int]] = defaultdict(set)
    met: dict[int, list[tuple[int, int]]] = defaultdict(list)
    had_bye: set[int] = set()
    rows = Pairing.objects.filter(tournament=t, finished_at__isnull=False).values_list(
        "a_id", "b_id", "score_a", "score_b", "round__number")
    for a, b, score_a, score_b, number_played in rows:
        score[a] += score_a or 0.0
        if b is None:
            had_bye.add(a)
            continue
        score[b] += score_b or 0.0
        opponents[a].add(b)
        opponents[b].add(a)
        met[a].append((b, number_played))
        met[b].append((a, number_played))
    pairs, bye = pairing.swiss_round([
        pairing.SwissEntrant(
            id=e.pk, score=score[e.pk], rating=e.rating, opponents=frozenset(opponents[e.pk]),
            had_bye=e.pk in had_bye, met=tuple(met[e.pk]),
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


def after_result(t: Tournament, now: datetime) -> None:
    """What follows the results of event ``t`` (locked by the caller), decided from the stored
    rows alone, so that running it again changes nothing: the arena's next wave (or its end,
    once its time is up and its last match ended; neither while it is paused), or, when every pairing of the current round
    has its result, the round's end (at its last result's time) and the next round (unless the
    event is paused). Run after the commit of a result (``scheduler.catch_up``, woken by
    ``follow.wake``) and by every tick, never inside a match's ending."""
    if t.status != Tournament.Status.RUNNING:
        return
    if t.format == Format.ARENA:
        if t.paused:
            return  # no wave, and no end: the end moves on by the pause (organiser.resume)
        if now >= t.ends_at:
            if not unfinished(t).exists():
                finish_event(t, now)
        else:
            arena_wave(t, now)
        return
    rnd = t.rounds.filter(number=t.current_round).first()
    if rnd is None or unfinished(t).filter(round=rnd).exists():
        return
    if rnd.finished_at is None:
        last = rnd.pairings.aggregate(last=Max("finished_at"))["last"]
        rnd.finished_at = now if last is None else min(last, now)
        rnd.save(update_fields=["finished_at"])
    if not t.paused:
        pair_next(t, now)


def on_match_finished(sender: Any, match: Match, winner: int | None, result: str, **kwargs: Any) -> None:
    """``games.core.signals.match_finished`` receiver: a tournament table's result, recorded once.

    Runs inside the transaction that ends the match and writes only the result rows
    (:func:`record_result`); the tables that follow are opened after its commit
    (``follow.wake``). Matches of no tournament cost one indexed query. A result that was
    already recorded (the signal again, or the organiser's forfeit first) changes nothing; a
    ``decided`` ending (a forfeit or a withdrawal ended the table: ``tables.decide_live_tables``,
    which keeps the game's winner) is not recorded again.
    """
    if result == Match.Result.DECIDED:
        return
    if not Game.objects.filter(match_id=match.pk).exists():
        return
    try:
        record_result(match_id=match.pk, winner=winner, result=result, now=match.finished_at)
    except TournamentError as error:
        if error.code != Code.RESULT_REPORTED:
            raise


def _not_the_aborter(p: Pairing) -> Entrant | None:
    """Who wins a pairing whose matches were aborted too often: the entrant who aborted fewer of
    them (each ``abort`` event names its seat, ``games.core.actions.abort_match``); ``None`` (both
    lose) when they aborted as many: one player's aborts must not cost the opponent, who did
    nothing, the pairing too."""
    games = {g.match_id: g for g in p.games.filter(aborted=True)}
    counts = {p.a_id: 0, p.b_id: 0}
    for match_id, seat in Event.objects.filter(
        match_id__in=games, kind=Event.Kind.ABORT
    ).values_list("match_id", "seat"):
        side = seat % 2
        counts[p.a_id if side == games[match_id].a_side else p.b_id] += 1
    if counts[p.a_id] == counts[p.b_id]:
        return None
    return p.b if counts[p.a_id] > counts[p.b_id] else p.a


def record_result(
    *, match_id: int, winner: int | None, result: str, now: datetime | None = None
) -> Pairing:
    """Record the end of a tournament table: the winning side (``None``: aborted), and how.

    A win decides the pairing (in a best-of-3 knockout pairing, the second win does; until
    then the pairing waits for its next match, sides swapped). An aborted match (before its
    first play) leaves the pairing waiting for a match set up again, up to :data:`MAX_ABORTS`
    times; then the entrant who aborted fewer of them wins by forfeit (both lose when they
    aborted as many; in a knockout, whose bracket needs someone to go on, the better seed
    wins then). A table the core ended ``abandoned`` (every player absent) at which a side
    never played (``noshow.no_shows``) is no abort: the pairing is decided by default
    (``noshow.default``), and no table is set up again. A match whose pairing already has a result (a forfeit) only keeps its
    winner. The match's players are told that it no longer waits for them
    (``news.tell_table_over``). No table is opened here: the pairing's next match, the next
    round or arena wave come after the commit (``follow.wake``: ``scheduler.catch_up``, which
    the scheduler's tick also runs), in a transaction of their own.

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
        t = lock(tournament_id)
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
        news.tell_table_over(p, [match_id])
        if p.finished:
            return p
        missing = []
        if result == Match.Result.ABANDONED:
            missing = noshow.no_shows(game, Match.objects.get(pk=match_id))
        if missing:
            # Nobody came (or the one who did has gone too): a default, not a table set up again.
            noshow.default(t, p, missing, now)
        elif winner is None:
            if p.games.filter(aborted=True).count() > MAX_ABORTS:
                winner_by_aborts = _not_the_aborter(p)
                if winner_by_aborts is None and t.format == Format.KNOCKOUT:
                    winner_by_aborts = better_seed(p)  # a bracket needs someone to go on
                finish_pairing(p, winner_by_aborts, now, forfeit=True)
        elif t.format == Format.KNOCKOUT and t.best_of == 3:
            if won.pk == p.a_id:
                p.wins_a += 1
            else:
                p.wins_b += 1
            p.save(update_fields=["wins_a", "wins_b"])
            if max(p.wins_a, p.wins_b) >= BEST_OF_3_WINS:
                finish_pairing(p, won, now)
        else:
            finish_pairing(p, won, now)
        # The next match of the pairing, the next round or arena wave: after the commit.
        follow.wake(t.pk)
        return p
