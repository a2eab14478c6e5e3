"""A pairing's tables and results: a bye or a forfeit at once, else a table created through the
core's actions; a pairing's result; the end of an event (``games.tournaments.services``)."""

from __future__ import annotations

from datetime import datetime

from django.db import transaction

from games.core.for_apps import GameError, Match, create_table, end_by_decision, join_table
from games.tournaments import busy, news
from games.tournaments.checks import log
from games.tournaments.models import Entrant, Game, Pairing, Tournament


def active(t: Tournament):
    return t.entrants.filter(status=Entrant.Status.ACTIVE)


def unfinished(t: Tournament):
    return Pairing.objects.filter(tournament=t, finished_at__isnull=True).select_related("a", "b")


def open_pairing(t: Tournament, p: Pairing, now: datetime) -> None:
    """A bye is a win at once (its players are told: ``news``); a pairing with a withdrawn
    entrant is a forfeit; else a table."""
    if p.b_id is None:
        present = p.a.status != Entrant.Status.WITHDRAWN
        finish_pairing(p, p.a if present else None, now)
        if present:
            news.tell_news(t, [p.a], "bye", round_number=p.round.number)
        return
    gone = [e for e in (p.a, p.b) if e.status == Entrant.Status.WITHDRAWN]
    if gone:
        winner = None if len(gone) == 2 else (p.b if gone[0].pk == p.a_id else p.a)
        finish_pairing(p, winner, now, forfeit=True)
        return
    open_table(t, p, 1, now)


def is_event_table(match_id: int) -> bool:
    """Whether table ``match_id`` is one of an event's (a ``Game`` of a pairing): the core asks
    (``for_apps.claim_tables_with``), so that it offers no rematch and its clock waits for a
    player who has not come yet. One query."""
    return Game.objects.filter(match_id=match_id).exists()


def open_table(t: Tournament, p: Pairing, number: int, now: datetime) -> Game | None:
    """Create match ``number`` of pairing ``p`` through the core's actions and seat its players.

    The sides alternate from match to match (``a`` holds side 0 in odd-numbered ones). The
    first player of side 0 creates the table (``create_table``), the others join their seats
    (``join_table``); the match starts when the last one sits down, and each of them is told
    after the commit, wherever they are on the site (``news.tell_table``). A refusal of the core
    (``too_many_open_tables``, for one) leaves the pairing without a table: :func:`tick` tries
    again, and nothing else is undone. So does a player engaged in another event (``busy``: at
    a table there, or wanted first by a pairing there): a player sits at one tournament table
    at a time, and this one opens when they are free. The event's rules stand as its organiser
    chose them: ``early_abort=False`` (its own abort rules) and ``rated_target_min=None`` (a
    rated event may play to fewer than the core's 61 points).
    """
    a_side = (number - 1) % 2
    side0, side1 = (p.a, p.b) if a_side == 0 else (p.b, p.a)
    seats = [(side0.user, 0), (side1.user, 1)]
    if t.players == 4:
        seats += [(side0.partner, 2), (side1.partner, 3)]
    elsewhere = busy.engaged([member.pk for member, _seat in seats], tournament_id=t.pk, pairing_id=p.pk)
    if elsewhere:
        log.info("tournament %s pairing %s: no table yet (players %s engaged elsewhere)",
                 t.pk, p.pk, sorted(elsewhere))
        return None
    try:
        with transaction.atomic():
            match = create_table(
                user=seats[0][0], players=t.players, rules=t.rules, rated=t.rated,
                move_seconds=t.move_seconds, early_abort=False, rated_target_min=None, now=now,
            )
            for member, seat in seats[1:]:
                join_table(user=member, match_id=match.pk, seat=seat, now=now)
            game = Game.objects.create(pairing=p, number=number, match=match, a_side=a_side)
            news.tell_table(t, p, game, [member.pk for member, _seat in seats])
            return game
    except GameError as error:
        log.warning("tournament %s pairing %s: no table yet (%s)", t.pk, p.pk, error)
        return None


def finish_pairing(p: Pairing, winner: Entrant | None, now: datetime, *, forfeit: bool = False) -> None:
    """Write ``p``'s result: a win 1, a loss 0; ``winner`` ``None``: both lost (double forfeit).
    The players of a table of ``p`` still being played (a forfeit) are told it no longer
    counts (``news.tell_table_over``); the caller ends it (:func:`decide_live_tables`)."""
    p.winner = winner
    p.score_a = 1.0 if winner is not None and winner.pk == p.a_id else 0.0
    p.score_b = None if p.b_id is None else (1.0 if winner is not None and winner.pk == p.b_id else 0.0)
    p.forfeit = forfeit
    p.finished_at = now
    p.save(update_fields=["winner", "score_a", "score_b", "forfeit", "finished_at"])
    if p.b_id is not None:
        live = p.games.filter(
            winner__isnull=True, aborted=False, match__status=Match.Status.PLAYING
        ).values_list("match_id", flat=True)
        news.tell_table_over(p, list(live))


def better_seed(p: Pairing) -> Entrant:
    """The entrant of ``p`` with the better seed (the smaller ``seed``; one without a seed
    after, then the earlier entrant): who goes on in a knockout pairing that both its entrants
    lost (a double no-show, ``noshow.default``; aborts as many, ``rounds.record_result``), as
    the bracket's seeding already favours it."""
    return min((p.a, p.b), key=lambda e: (e.seed is None, e.seed or 0, e.pk))


def live_games(pairings) -> list[Game]:
    """The games of ``pairings`` (a ``Pairing`` queryset) whose table is still being played."""
    return list(
        Game.objects.filter(
            pairing__in=pairings, winner__isnull=True, aborted=False,
            match__status=Match.Status.PLAYING,
        )
    )


def lock_matches(match_ids: list[int]) -> None:
    """Lock the ``Match`` rows ``match_ids`` (in ``pk`` order), before the event's lock: the
    order of locks is always the match, then the event (``match_finished`` runs under the
    match's lock and takes the event's)."""
    list(
        Match.objects.select_for_update(no_key=True).filter(pk__in=match_ids)
        .order_by("pk").values_list("pk", flat=True)
    )


def decide_live_tables(games: list[Game], now: datetime) -> None:
    """End each of ``games`` (tables still being played of pairings just decided by a forfeit)
    through the core's ``end_by_decision``: the match is finished with the pairing's winner's
    side the winner (``None``: nobody), so it can no longer be played or claimed and is not
    rated. The game keeps that winner; this module's ``match_finished`` receiver skips the
    ``decided`` ending (the pairing's result is already recorded). A table that ended
    meanwhile is left as it is."""
    for game in games:
        p = Pairing.objects.get(pk=game.pairing_id)  # as just decided
        side = None
        if p.winner_id is not None:
            side = game.a_side if p.winner_id == p.a_id else 1 - game.a_side
        try:
            end_by_decision(match_id=game.match_id, winner=side, now=now)
        except GameError as error:
            log.info("tournament pairing %s: table %s already over (%s)", p.pk, game.match_id, error)
            continue
        if p.winner_id is not None:
            game.winner_id = p.winner_id
            game.save(update_fields=["winner"])


def finish_event(t: Tournament, now: datetime) -> None:
    """The event is over: every active entrant's players are told (``news``)."""
    t.status = Tournament.Status.FINISHED
    t.finished_at = now
    t.save(update_fields=["status", "finished_at"])
    t.rounds.filter(finished_at__isnull=True).update(finished_at=now)
    news.tell_news(t, active(t), "finished")
