"""The organiser's actions: before the start, change the settings, cancel the event, remove an
entrant or set the seeds; on a running event, pause and resume, record a forfeit, correct a
result, withdraw an entrant (a no-show); before the end, name or remove an arbiter. Each kept
in the audit trail (``games.tournaments.services``).

Who may act (``Tournament.can_manage``): the organiser, an arbiter they named, or staff; only
the organiser or staff name the arbiters (``Tournament.can_name_arbiters``). Nobody but staff
decides a pairing they play in (:func:`check_not_involved`): an organiser who plays leaves their
own results to an arbiter, or to staff when no arbiter is named, as a club arbiter does."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.db.models import Q
from django.utils import timezone

from games.core.for_apps import write_transaction
from games.tournaments import follow, news
from games.tournaments.checks import Format, audit, check_organiser, lock, locked_pairing, require_login
from games.tournaments.errors import Code, TournamentError
from games.tournaments.models import AuditEntry, Entrant, Pairing, Round, Tournament
from games.tournaments.registration import event_settings, withdraw_entrant
from games.tournaments.tables import decide_live_tables, finish_pairing, live_games, lock_matches


def pause(*, user: Any, tournament_id: int, now: datetime | None = None) -> None:
    """Pause: no new round or arena wave is paired (matches being played go on and count); an
    arena's clock stops with it (:func:`resume` moves its end on by the pause).

    :raises TournamentError: ``login_required``, ``not_organiser``, ``not_found``,
        ``not_running``, ``already_paused``.
    """
    _set_paused(user, tournament_id, now, paused=True)


def resume(*, user: Any, tournament_id: int, now: datetime | None = None) -> None:
    """Resume a paused event; a round that ended meanwhile is followed by the next as soon as
    this commits (``follow.wake``). An arena's end moves on by the pause's length (its time
    is the time its players could be paired; the audit trail keeps the new end).

    :raises TournamentError: ``login_required``, ``not_organiser``, ``not_found``,
        ``not_running``, ``not_paused``.
    """
    _set_paused(user, tournament_id, now, paused=False)


def _set_paused(user: Any, tournament_id: int, now: datetime | None, *, paused: bool) -> None:
    """:func:`pause` (``paused``) or :func:`resume`, under the event's row lock, audited."""
    now = timezone.now() if now is None else now
    with write_transaction():
        t = lock(tournament_id)
        check_organiser(t, user)
        if t.status != Tournament.Status.RUNNING:
            raise TournamentError(Code.NOT_RUNNING)
        if t.paused == paused:
            raise TournamentError(Code.ALREADY_PAUSED if paused else Code.NOT_PAUSED)
        t.paused = paused
        details = {}
        if paused:
            t.paused_at = now
        else:
            if t.ends_at is not None and t.paused_at is not None:
                moved = max(now - t.paused_at, timedelta(0))
                t.ends_at += moved
                details = {"ends_at": t.ends_at.isoformat(), "moved_seconds": round(moved.total_seconds())}
            t.paused_at = None
        t.save(update_fields=["paused", "paused_at", "ends_at"])
        action = AuditEntry.Action.PAUSE if paused else AuditEntry.Action.RESUME
        audit(t, user, action, now, **details)
        if not paused:
            follow.wake(t.pk)  # a round that ended meanwhile: the next, after the commit


def _winner_of(p: Pairing, winner_id: int | None) -> Entrant | None:
    if winner_id is None:
        return None
    if winner_id == p.a_id:
        return p.a
    if p.b_id is not None and winner_id == p.b_id:
        return p.b
    raise TournamentError(Code.BAD_WINNER)


def check_not_involved(user: Any, p: Pairing) -> None:
    """An organiser or arbiter who plays in the event may not decide a pairing of their own
    (staff may): a forfeit in one's own favour is no arbiter's decision. The one rule the
    services and the event page (its forms) share.

    :raises TournamentError: ``own_pairing``.
    """
    if user.is_staff:
        return
    entrants = [e for e in (p.a, p.b) if e is not None]
    if any(member.pk == user.pk for e in entrants for member in e.members()):
        raise TournamentError(Code.OWN_PAIRING)


def record_forfeit(
    *, user: Any, pairing_id: int, winner_id: int | None, now: datetime | None = None,
    end_live: bool = True,
) -> Pairing:
    """The organiser records a forfeit: ``winner_id`` wins (``None``: both lose). A table of the
    pairing still being played ends there and then, decided (the core's ``end_by_decision``:
    finished, result ``decided``, the forfeit's winner its winner, not rated, no longer
    playable), unless ``end_live`` is false: then a pairing with a table being played is
    refused (the page asks the organiser to confirm, and posts ``end_live`` only once they
    did, so a double click or a forged post cannot end a table). Kept in the audit trail. The
    next round or arena wave it completes comes after the commit (``follow.wake``).

    Locks: the pairing's live matches first, then the event (the order ``match_finished``
    takes them in).

    :raises TournamentError: ``login_required``, ``not_found``, ``not_organiser``,
        ``own_pairing`` (an organiser or arbiter, not staff, who plays in it), ``not_running``,
        ``result_reported`` (the pairing has a result: correct it instead),
        ``bad_winner``, ``confirm_needed`` (a table is being played and ``end_live`` is false).
    """
    now = timezone.now() if now is None else now
    pairings = Pairing.objects.filter(pk=pairing_id)
    with write_transaction():
        lock_matches([g.match_id for g in live_games(pairings)])
        t, p = locked_pairing(pairing_id)
        check_organiser(t, user)
        check_not_involved(user, p)
        if t.status != Tournament.Status.RUNNING:
            raise TournamentError(Code.NOT_RUNNING)
        if p.finished:
            raise TournamentError(Code.RESULT_REPORTED)
        if p.b_id is None:
            raise TournamentError(Code.BAD_WINNER)
        winner = _winner_of(p, winner_id)
        if winner is None and t.format == Format.KNOCKOUT:
            raise TournamentError(Code.BAD_WINNER)  # a bracket needs someone to go on
        live = live_games(pairings)
        if live and not end_live:
            raise TournamentError(Code.CONFIRM_NEEDED)
        finish_pairing(p, winner, now, forfeit=True)
        decide_live_tables(live, now)
        audit(t, user, AuditEntry.Action.FORFEIT, now, pairing_row=p,
               winner=winner.name if winner else None)
        follow.wake(t.pk)  # the next round or arena wave, after the commit
        return p


def correctable(t: Tournament, p: Pairing) -> bool:
    """Whether the result of ``p`` (a pairing of ``t``) may still be corrected as far as the
    bracket goes: not in a knockout whose next round was paired on it (the winner went on).
    The one check :func:`correct_result` and the event page (its form) share."""
    if t.format != Format.KNOCKOUT:
        return True
    return not Round.objects.filter(tournament_id=t.pk, number__gt=p.round.number).exists()


def correct_result(
    *, user: Any, pairing_id: int, winner_id: int | None, now: datetime | None = None
) -> Pairing:
    """The organiser corrects a pairing's result: ``winner_id`` wins (``None``: both lose).
    Standings follow; pairings already made stay. Kept in the audit trail (before and after).

    :raises TournamentError: ``login_required``, ``not_found``, ``not_organiser``,
        ``own_pairing`` (an organiser or arbiter, not staff, who plays in it), ``not_finished`` (no
        result yet: record a forfeit), ``bad_winner`` (not one of the pairing's entrants, a
        bye, or nobody in a knockout), ``same_result`` (that is the result already: a fresh
        organiser's "correction" to the same winner was accepted and audited "p7 → p7"),
        ``next_round_paired`` (a knockout whose next round was paired on this result,
        :func:`correctable`).
    """
    now = timezone.now() if now is None else now
    with write_transaction():
        t, p = locked_pairing(pairing_id)
        check_organiser(t, user)
        check_not_involved(user, p)
        if not p.finished:
            raise TournamentError(Code.NOT_FINISHED)
        if p.b_id is None:
            raise TournamentError(Code.BAD_WINNER)
        winner = _winner_of(p, winner_id)
        if t.format == Format.KNOCKOUT and winner is None:
            raise TournamentError(Code.BAD_WINNER)
        if (winner.pk if winner else None) == p.winner_id:
            raise TournamentError(Code.SAME_RESULT)
        if not correctable(t, p):
            raise TournamentError(Code.NEXT_ROUND_PAIRED)
        before = p.winner.name if p.winner_id else None
        finished_at = p.finished_at
        finish_pairing(p, winner, finished_at, forfeit=p.forfeit)
        audit(t, user, AuditEntry.Action.CORRECT, now, pairing_row=p, before=before,
               after=winner.name if winner else None)
        return p


def withdraw_other(
    *, user: Any, entrant_id: int, now: datetime | None = None, end_live: bool = True
) -> Entrant:
    """The organiser withdraws an entrant from the running event (a no-show, a player who left):
    as the entrant's own withdrawal does (``registration.withdraw_entrant``: its pairing still
    being played is forfeited, its live table ended, it is paired no more), kept in the audit
    trail by the organiser. ``end_live`` false refuses it when a table of the entrant is being
    played (the page asks to confirm first).

    Locks: the entrant's live matches first, then the event.

    :raises TournamentError: ``login_required``, ``not_found``, ``not_organiser``,
        ``own_pairing`` (an organiser or arbiter, not staff, withdrawing their own opponent or themselves),
        ``not_running``, ``not_registered`` (the entrant is not active: withdrawn already, or a
        partnership still invited), ``confirm_needed``.
    """
    now = timezone.now() if now is None else now
    tournament_id = Entrant.objects.filter(pk=entrant_id).values_list("tournament_id", flat=True).first()
    if tournament_id is None:
        raise TournamentError(Code.NOT_FOUND)
    theirs = Pairing.objects.filter(tournament_id=tournament_id, finished_at__isnull=True).filter(
        Q(a_id=entrant_id) | Q(b_id=entrant_id))
    with write_transaction():
        lock_matches([g.match_id for g in live_games(theirs)])
        t = lock(tournament_id)
        check_organiser(t, user)
        entrant = Entrant.objects.select_related("user", "partner").get(pk=entrant_id)
        if t.status != Tournament.Status.RUNNING:
            raise TournamentError(Code.NOT_RUNNING)
        if entrant.status != Entrant.Status.ACTIVE:
            raise TournamentError(Code.NOT_REGISTERED)
        if not user.is_staff and any(m.pk == user.pk for m in entrant.members()):
            raise TournamentError(Code.OWN_PAIRING)
        for p in theirs.select_related("a__user", "a__partner", "b__user", "b__partner"):
            check_not_involved(user, p)
        withdraw_entrant(t, entrant, user, now, end_live=end_live)
        return entrant


def cancel(
    *, user: Any, tournament_id: int, now: datetime | None = None, confirmed: bool = True
) -> Tournament:
    """The organiser cancels the event before it starts: status ``cancelled``, audited; every
    registered entrant's players (a partnership still invited too) are told (``news``,
    ``"cancelled"``), after the commit. ``confirmed`` false refuses it (the page asks the
    organiser first, ``static/site.js``, and posts the confirmation only once they
    said yes: a stray or forged post cancels nothing).

    :raises TournamentError: ``login_required``, ``not_found``, ``not_organiser``,
        ``already_started`` (running, finished or cancelled already), ``confirm_cancel``.
    """
    now = timezone.now() if now is None else now
    with write_transaction():
        t = _lock_upcoming(tournament_id, user)
        if not confirmed:
            raise TournamentError(Code.CONFIRM_CANCEL)
        entrants = list(t.entrants.exclude(status=Entrant.Status.WITHDRAWN))
        t.status = Tournament.Status.CANCELLED
        t.finished_at = now
        t.save(update_fields=["status", "finished_at"])
        audit(t, user, AuditEntry.Action.CANCEL, now, entrants=len(entrants))
        news.tell_news(t, entrants, "cancelled")
        return t


def remove_entrant(
    *, user: Any, entrant_id: int, now: datetime | None = None, confirmed: bool = True
) -> Entrant:
    """The organiser removes an entrant (or a partnership still invited) before the start: its
    row is deleted (the player may register again, as after their own withdrawal), the audit
    trail keeps its name, and its players are told (``news``, ``"removed"``), after the commit.
    After the start it is :func:`withdraw_other`. ``confirmed`` false refuses it, as
    :func:`cancel` does.

    :raises TournamentError: ``login_required``, ``not_found``, ``not_organiser``,
        ``already_started``, ``confirm_remove``.
    """
    now = timezone.now() if now is None else now
    tournament_id = Entrant.objects.filter(pk=entrant_id).values_list("tournament_id", flat=True).first()
    if tournament_id is None:
        raise TournamentError(Code.NOT_FOUND)
    with write_transaction():
        t = _lock_upcoming(tournament_id, user)
        if not confirmed:
            raise TournamentError(Code.CONFIRM_REMOVE)
        entrant = Entrant.objects.select_related("user", "partner").get(pk=entrant_id)
        audit(t, user, AuditEntry.Action.REMOVE, now, entrant=entrant.name)
        news.tell_news(t, [entrant], "removed")
        entrant.delete()
        return entrant


def set_seeds(*, user: Any, tournament_id: int, seeds: dict[int, int], now: datetime | None = None) -> None:
    """The organiser orders the entrants by hand before the start: ``seeds`` maps every active
    entrant's id to its seed, all distinct, 1 to their number. The event's seeding becomes
    ``manual``: :func:`~games.tournaments.rounds.start` keeps this order (entrants registered
    later follow, by rating). Audited: ``{"before": [names] or None, "after": [names]}``,
    the entrants' names in seed order (``AuditEntry``).

    :raises TournamentError: ``login_required``, ``not_found``, ``not_organiser``,
        ``already_started``, ``bad_seeds`` (an entrant missing or foreign, a seed repeated or
        out of 1..n).
    """
    now = timezone.now() if now is None else now
    with write_transaction():
        t = _lock_upcoming(tournament_id, user)
        entrants = list(t.entrants.filter(status=Entrant.Status.ACTIVE).select_related("user", "partner"))
        if set(seeds) != {e.pk for e in entrants} or sorted(seeds.values()) != list(range(1, len(entrants) + 1)):
            raise TournamentError(Code.BAD_SEEDS)
        before = [e.name for e in sorted(entrants, key=lambda e: (e.seed is None, e.seed or 0, e.pk)) if e.seed]
        for e in entrants:
            e.seed = seeds[e.pk]
        Entrant.objects.bulk_update(entrants, ["seed"])
        t.seeding = Tournament.Seeding.MANUAL
        t.save(update_fields=["seeding"])
        after = [e.name for e in sorted(entrants, key=lambda e: e.seed)]
        # Lists, not text: the page joins them as the reader's language writes a list.
        audit(t, user, AuditEntry.Action.SEED, now, before=before or None, after=after)


def edit_tournament(*, user: Any, tournament_id: int, now: datetime | None = None, **settings: Any) -> Tournament:
    """The organiser changes the event's settings before the start: ``settings`` are
    :func:`~games.tournaments.registration.create_tournament`'s, all of them, checked alike
    (``registration.event_settings``). Audited: ``{"changes": {field: [before, after]}}``
    (times in ISO 8601); no change, no entry. Every registered entrant's players (a
    partnership still invited too) are told what changed (``news``, ``"edited"``, with the
    changed fields' names and the new start), after the commit.

    :raises TournamentError: ``login_required``, ``not_found``, ``not_organiser``,
        ``already_started``, ``bad_settings``, ``fixed_once_registered`` (the format or the
        players at a table changed while an entrant is registered), ``limit_below_entrants``
        (an entrant limit under the entrants registered).
    """
    now = timezone.now() if now is None else now
    with write_transaction():
        t = _lock_upcoming(tournament_id, user)
        fields = event_settings(**settings)
        entrants = t.entrants.exclude(status=Entrant.Status.WITHDRAWN).count()
        if entrants and (fields["format"] != t.format or fields["players"] != t.players):
            raise TournamentError(Code.FIXED_ONCE_REGISTERED)
        if fields["max_entrants"] is not None and fields["max_entrants"] < entrants:
            raise TournamentError(Code.LIMIT_BELOW_ENTRANTS)
        changes = {}
        for field, after in fields.items():
            before = getattr(t, field)
            if before != after:
                changes[field] = [_plain(before), _plain(after)]
                setattr(t, field, after)
        if changes:
            t.save(update_fields=list(changes))
            audit(t, user, AuditEntry.Action.EDIT, now, changes=changes)
            told = t.entrants.exclude(status=Entrant.Status.WITHDRAWN).select_related("user", "partner")
            news.tell_edit(t, told, list(changes))
        return t


def _plain(value: Any) -> Any:
    return value.isoformat() if isinstance(value, datetime) else value


def _lock_upcoming(tournament_id: int, user: Any) -> Tournament:
    """The event row, locked, for its organiser's change before the start.

    :raises TournamentError: ``login_required``, ``not_found``, ``not_organiser``,
        ``already_started``.
    """
    t = lock(tournament_id)
    check_organiser(t, user)
    if t.status != Tournament.Status.UPCOMING:
        raise TournamentError(Code.ALREADY_STARTED)
    return t


def add_arbiter(*, user: Any, tournament_id: int, arbiter: Any, now: datetime | None = None) -> None:
    """The organiser names ``arbiter`` (a registered user) an arbiter of the event, before its
    end: from then on they may do what the organiser does on it (``Tournament.can_manage``),
    deciding the organiser's own pairings among it. Audited (``appoint``, the arbiter's
    username); the arbiter is told (``news``, ``"arbiter"``), after the commit.

    :raises TournamentError: ``login_required``, ``not_found``, ``not_event_organiser`` (an
        arbiter or anyone else but the organiser or staff), ``event_over`` (finished or
        cancelled), ``arbiter_is_organiser``, ``already_arbiter``.
    """
    now = timezone.now() if now is None else now
    with write_transaction():
        t = _lock_for_arbiters(tournament_id, user)
        if arbiter.pk == t.organiser_id:
            raise TournamentError(Code.ARBITER_IS_ORGANISER)
        if t.arbiters.filter(pk=arbiter.pk).exists():
            raise TournamentError(Code.ALREADY_ARBITER)
        t.arbiters.add(arbiter)
        audit(t, user, AuditEntry.Action.APPOINT, now, arbiter=arbiter.get_username())
        news.tell_arbiter(t, arbiter)


def remove_arbiter(*, user: Any, tournament_id: int, arbiter_id: int, now: datetime | None = None) -> None:
    """The organiser removes the arbiter whose user id is ``arbiter_id``, before the event's
    end: they act for it no more. Audited (``dismiss``, the arbiter's username).

    :raises TournamentError: ``login_required``, ``not_found``, ``not_event_organiser``,
        ``event_over``, ``not_arbiter``.
    """
    now = timezone.now() if now is None else now
    with write_transaction():
        t = _lock_for_arbiters(tournament_id, user)
        arbiter = t.arbiters.filter(pk=arbiter_id).first()
        if arbiter is None:
            raise TournamentError(Code.NOT_ARBITER)
        t.arbiters.remove(arbiter)
        audit(t, user, AuditEntry.Action.DISMISS, now, arbiter=arbiter.get_username())


def _lock_for_arbiters(tournament_id: int, user: Any) -> Tournament:
    """The event row, locked, for a change of its arbiters by its organiser (or staff).

    :raises TournamentError: ``login_required``, ``not_found``, ``not_event_organiser``,
        ``event_over``.
    """
    require_login(user)
    t = lock(tournament_id)
    if not t.can_name_arbiters(user):
        raise TournamentError(Code.NOT_EVENT_ORGANISER)
    if t.status in (Tournament.Status.FINISHED, Tournament.Status.CANCELLED):
        raise TournamentError(Code.EVENT_OVER)
    return t
