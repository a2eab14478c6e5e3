"""Creating an event and entering it: create, register (a partnership's partner is invited and
accepts or declines), withdraw, rejoin after a no-show (``games.tournaments.services``)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from django.db.models import Q
from django.utils import timezone

from games import engine
from games.core.for_apps import DEFAULT_MOVE_SECONDS, MOVE_SECONDS, write_transaction
from games.tournaments import follow, news, pairing, zones
from games.tournaments.checks import (
    Format, audit, lock, rating_of, require_login, require_people,
)
from games.tournaments.errors import Code, TournamentError
from games.tournaments.models import (
    DEFAULT_TIEBREAKS, DESCRIPTION_MAX, AuditEntry, Entrant, Pairing, Tournament,
)
from games.tournaments.tables import (
    decide_live_tables,
    finish_pairing,
    live_games,
    lock_matches,
    unfinished,
)


#: Events one organiser may have upcoming (created, not yet started) at once; the message of
#: ``too_many_events`` names it.
UPCOMING_MAX = 5


def create_tournament(
    *,
    user: Any,
    name: str,
    format: str,
    starts_at: datetime,
    players: int = 2,
    rules: dict | None = None,
    rated: bool = False,
    move_seconds: int | None = DEFAULT_MOVE_SECONDS,
    description: str = "",
    registration_closes: datetime | None = None,
    max_entrants: int | None = None,
    seeding: str = Tournament.Seeding.RATING,
    double_round_robin: bool = False,
    third_place: bool = False,
    best_of: int = 1,
    swiss_rounds: int | None = None,
    arena_minutes: int | None = None,
    tiebreaks: Sequence[str] | None = None,
    time_zone: str = zones.DEFAULT,
) -> Tournament:
    """Create an event organised by ``user`` (any registered player).

    ``rules``: ``games.engine.Rules`` fields (``players`` may be among them and must then equal
    ``players``). A rated event needs a clock (``move_seconds`` one of ``games.core.models.
    MOVE_SECONDS``). Swiss needs ``swiss_rounds >= 1``, an arena ``arena_minutes >= 1``;
    ``best_of`` is 1 or 3; ``tiebreaks`` are ``pairing.TieBreak`` values in order (``None``:
    the format's default, ``models.DEFAULT_TIEBREAKS``; empty: none, tied entrants share a
    place, FIDE C.07 2.1), each at most once;
    ``registration_closes`` is at the latest ``starts_at``; ``max_entrants`` at least 2;
    ``description`` at most ``models.DESCRIPTION_MAX`` characters; ``time_zone`` an IANA
    name (``zones.names``), the organiser's.

    :raises TournamentError: ``login_required``; ``too_many_events`` (``user`` already organises
        :data:`UPCOMING_MAX` upcoming events; staff are not limited); ``bad_settings`` for
        anything else above.
    """
    require_login(user)
    if not user.is_staff and Tournament.objects.filter(
        organiser=user, status=Tournament.Status.UPCOMING
    ).count() >= UPCOMING_MAX:
        raise TournamentError(Code.TOO_MANY_EVENTS)
    return Tournament.objects.create(organiser=user, **event_settings(
        name=name, format=format, starts_at=starts_at, players=players, rules=rules, rated=rated,
        move_seconds=move_seconds, description=description,
        registration_closes=registration_closes, max_entrants=max_entrants, seeding=seeding,
        double_round_robin=double_round_robin, third_place=third_place, best_of=best_of,
        swiss_rounds=swiss_rounds, arena_minutes=arena_minutes, tiebreaks=tiebreaks,
        time_zone=time_zone,
    ))


def event_settings(
    *, name: str, format: str, starts_at: datetime, players: int, rules: dict | None,
    rated: bool, move_seconds: int | None, description: str,
    registration_closes: datetime | None, max_entrants: int | None, seeding: str,
    double_round_robin: bool, third_place: bool, best_of: int, swiss_rounds: int | None,
    arena_minutes: int | None, tiebreaks: Sequence[str] | None, time_zone: str,
) -> dict:
    """The checked settings of :func:`create_tournament` (and of an edit,
    ``organiser.edit_tournament``) as ``Tournament`` field values.

    :raises TournamentError: ``bad_settings``.
    """
    rules = dict(rules or {})
    if (
        not name.strip()
        or len(description) > DESCRIPTION_MAX
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
        or not zones.known(time_zone)
    ):
        raise TournamentError(Code.BAD_SETTINGS)
    try:
        rules_obj = engine.Rules(players=players, **rules)
        if tiebreaks is None:
            order = [tb.value for tb in DEFAULT_TIEBREAKS.get(format, [])]
        else:
            order = [pairing.TieBreak(tb).value for tb in tiebreaks]
    except (TypeError, ValueError):
        raise TournamentError(Code.BAD_SETTINGS) from None
    if len(order) != len(set(order)):
        raise TournamentError(Code.BAD_SETTINGS)
    if not rules_obj.can_score:
        raise TournamentError(Code.BAD_SETTINGS)  # no match of it could ever end
    return dict(
        name=name.strip(), description=description, format=format,
        players=players, rules=rules_obj.to_dict(), rated=bool(rated), move_seconds=move_seconds,
        starts_at=starts_at, registration_closes=registration_closes, max_entrants=max_entrants,
        seeding=seeding, double_round_robin=bool(double_round_robin) and format == Format.ROUND_ROBIN,
        third_place=bool(third_place) and format == Format.KNOCKOUT,
        best_of=best_of if format == Format.KNOCKOUT else 1,
        swiss_rounds=swiss_rounds if format == Format.SWISS else None,
        arena_minutes=arena_minutes if format == Format.ARENA else None,
        tiebreaks=order, time_zone=time_zone,
    )


def entry_of(t: Tournament, user: Any) -> Entrant | None:
    """``user``'s entrant in ``t`` (as the player or the partner), withdrawn ones included."""
    return (
        Entrant.objects.filter(tournament=t)
        .filter(Q(user=user) | Q(partner=user))
        .select_related("user", "partner")
        .first()
    )


def late_entry_open(t: Tournament) -> bool:
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
    return late_entry_open(t)


def is_full(t: Tournament) -> bool:
    """Whether ``t`` has as many entrants (withdrawn ones not counted) as its limit allows."""
    taken = t.entrants.exclude(status=Entrant.Status.WITHDRAWN).count()
    return t.max_entrants is not None and taken >= t.max_entrants


def register(
    *, user: Any, tournament_id: int, partner: Any = None, now: datetime | None = None
) -> Entrant:
    """Register ``user`` (with ``partner`` invited, in a partnership event).

    Single players are active at once; a partnership is ``invited`` until the partner accepts
    (:func:`accept_partner`) or declines (:func:`decline_partner`); the partner is told live,
    wherever they are on the site (``news.tell_invitation``). A Swiss late entry (while fewer than half the rounds have started)
    enters at the next round, with zero points for the rounds it missed.

    :raises TournamentError: ``login_required``, ``not_found``, ``registration_closed`` (after the
        deadline, or once the event started, Swiss late entry aside), ``withdrew`` (``user``
        withdrew from the running event: a withdrawal is final), ``already_registered``,
        ``partner_required``, ``partner_not_allowed``, ``partner_self``, ``partner_invited`` (the partner has a pending invitation
        from another player), ``partner_registered``,
        ``event_full`` (the entrant limit reached), ``tournament_bot`` (``user`` or ``partner``
        is a bot account).
    """
    require_login(user)
    require_people(user, partner)
    now = timezone.now() if now is None else now
    with write_transaction():
        t = lock(tournament_id)
        if not registration_open(t, now):
            raise TournamentError(Code.REGISTRATION_CLOSED)
        entry = entry_of(t, user)
        if entry is not None and entry.status == Entrant.Status.WITHDRAWN:
            raise TournamentError(Code.WITHDREW)
        if entry is not None:
            raise TournamentError(Code.ALREADY_REGISTERED)
        if t.partnerships:
            if partner is None:
                raise TournamentError(Code.PARTNER_REQUIRED)
            if partner.pk == user.pk:
                raise TournamentError(Code.PARTNER_SELF)
            other = entry_of(t, partner)
            if other is not None and other.status == Entrant.Status.INVITED and other.partner_id == partner.pk:
                # One pending invitation a player: accepting one of several would have to
                # drop the others (accept_partner checks the invitee's own entry only).
                raise TournamentError(Code.PARTNER_INVITED)
            if other is not None:
                raise TournamentError(Code.PARTNER_REGISTERED)
        elif partner is not None:
            raise TournamentError(Code.PARTNER_NOT_ALLOWED)
        if is_full(t):
            raise TournamentError(Code.EVENT_FULL)
        rating = rating_of(user, t.players)
        if partner is not None:
            rating = (rating + rating_of(partner, t.players)) / 2
        entrant = Entrant.objects.create(
            tournament=t, user=user, partner=partner, rating=rating,
            status=Entrant.Status.INVITED if partner is not None else Entrant.Status.ACTIVE,
            first_round=t.current_round + 1,
        )
        if partner is not None:
            news.tell_invitation(t, entrant)
        return entrant


def accept_partner(*, user: Any, entrant_id: int, now: datetime | None = None) -> Entrant:
    """The invited partner accepts: the partnership becomes an active entrant.

    :raises TournamentError: ``login_required``, ``not_found``, ``not_invited`` (``user`` is not
        the invited partner), ``already_accepted``, ``registration_closed`` (the event started,
        Swiss late entry aside), ``already_registered`` (``user`` entered otherwise meanwhile),
        ``tournament_bot`` (``user`` is a bot account).
    """
    require_login(user)
    require_people(user)
    now = timezone.now() if now is None else now
    with write_transaction():
        t, entrant = _invitation_of(user, entrant_id)
        if t.status != Tournament.Status.UPCOMING and not late_entry_open(t):
            raise TournamentError(Code.REGISTRATION_CLOSED)
        if Entrant.objects.filter(tournament=t, user=user).exists():
            raise TournamentError(Code.ALREADY_REGISTERED)
        entrant.status = Entrant.Status.ACTIVE
        entrant.first_round = t.current_round + 1
        entrant.save(update_fields=["status", "first_round"])
        return entrant


def decline_partner(*, user: Any, entrant_id: int, now: datetime | None = None) -> None:
    """The invited partner declines: the invitation (the ``invited`` entrant) is removed, and
    the player who invited them is told live (``news.tell_declined``); they may invite someone
    else.

    :raises TournamentError: ``login_required``, ``not_found``, ``not_invited`` (``user`` is not
        the invited partner), ``already_accepted``.
    """
    require_login(user)
    with write_transaction():
        t, entrant = _invitation_of(user, entrant_id)
        news.tell_declined(t, entrant)
        entrant.delete()


def _invitation_of(user: Any, entrant_id: int) -> tuple[Tournament, Entrant]:
    """The tournament (locked) and the ``invited`` entrant ``entrant_id`` whose invited partner
    is ``user``; inside the caller's transaction (accepting, declining).

    :raises TournamentError: ``not_found``, ``not_invited``, ``already_accepted``.
    """
    tournament_id = Entrant.objects.filter(pk=entrant_id).values_list("tournament_id", flat=True).first()
    if tournament_id is None:
        raise TournamentError(Code.NOT_FOUND)
    t = lock(tournament_id)
    entrant = Entrant.objects.filter(pk=entrant_id).select_related("user", "partner").first()
    if entrant is None:
        raise TournamentError(Code.NOT_FOUND)
    if entrant.partner_id != user.pk:
        raise TournamentError(Code.NOT_INVITED)
    if entrant.status != Entrant.Status.INVITED:
        raise TournamentError(Code.ALREADY_ACCEPTED)
    return t, entrant


def withdraw(
    *, user: Any, tournament_id: int, now: datetime | None = None, end_live: bool = True
) -> None:
    """Withdraw ``user``'s entrant (either partner may).

    Before the start the entry is removed, free. During the event the entrant is ``withdrawn``
    (:func:`withdraw_entrant`, which says what it keeps); ``end_live`` false refuses it when a
    table of the entrant is being played (the page asks to confirm first). Kept in the
    organiser's changes (the audit trail), by ``user``.

    Locks: the entrant's live matches first, then the event (the order ``match_finished``
    takes them in).

    :raises TournamentError: ``login_required``, ``not_found``, ``not_registered``,
        ``not_running`` (the event is over), ``confirm_needed``.
    """
    require_login(user)
    now = timezone.now() if now is None else now
    mine = Q(a__user=user) | Q(a__partner=user) | Q(b__user=user) | Q(b__partner=user)
    before = Pairing.objects.filter(tournament_id=tournament_id, finished_at__isnull=True).filter(mine)
    with write_transaction():
        lock_matches([g.match_id for g in live_games(before)])
        t = lock(tournament_id)
        entrant = entry_of(t, user)
        if entrant is None or entrant.status == Entrant.Status.WITHDRAWN:
            raise TournamentError(Code.NOT_REGISTERED)
        if t.status == Tournament.Status.UPCOMING or entrant.status == Entrant.Status.INVITED:
            entrant.delete()
            return
        withdraw_entrant(t, entrant, user, now, end_live=end_live)


def rejoin(*, user: Any, tournament_id: int) -> Entrant:
    """``user`` (either partner) brings back their entrant, marked absent after it did not come
    to a table (``noshow.mark_absent``): it is paired again from the next Swiss round, or the
    arena's next wave (woken after the commit, ``follow.wake``). As lichess's "rejoin" of a
    Swiss player marked absent, or of a paused arena player.

    :returns: the entrant, ``absent`` false.
    :raises TournamentError: ``login_required``, ``not_found``, ``not_registered`` (no active
        entrant of ``user``), ``not_running``, ``not_absent`` (the entrant is not absent).
    """
    require_login(user)
    with write_transaction():
        t = lock(tournament_id)
        entrant = entry_of(t, user)
        if entrant is None or entrant.status != Entrant.Status.ACTIVE:
            raise TournamentError(Code.NOT_REGISTERED)
        if t.status != Tournament.Status.RUNNING:
            raise TournamentError(Code.NOT_RUNNING)
        if not entrant.absent:
            raise TournamentError(Code.NOT_ABSENT)
        entrant.absent = False
        entrant.save(update_fields=["absent"])
        follow.wake(t.pk)  # an arena's next wave may pair it now
        return entrant


def withdraw_closing(sender: Any, user: Any, **kwargs: Any) -> None:
    """``accounts.closing.account_closing``'s receiver (connected in ``apps.py``): ``user``'s
    account is closing, so each of their entries in an event not over is withdrawn as
    :func:`withdraw` does it, by them (an upcoming event's entry removed; a running event's
    entrant ``withdrawn``, its unfinished pairing forfeited, its live table decided for the
    opponent). An event that ended meanwhile is passed over."""
    mine = Q(user=user) | Q(partner=user)
    events = (
        Entrant.objects.filter(mine)
        .exclude(status=Entrant.Status.WITHDRAWN)
        .filter(tournament__status__in=[Tournament.Status.UPCOMING, Tournament.Status.RUNNING])
        .values_list("tournament_id", flat=True)
    )
    for tournament_id in list(events):
        try:
            withdraw(user=user, tournament_id=tournament_id, end_live=True)
        except TournamentError:
            continue


def withdraw_entrant(t: Tournament, entrant: Entrant, actor: Any, now: datetime, *, end_live: bool) -> None:
    """Withdraw ``entrant`` from the running event ``t`` (locked by the caller, with the
    entrant's live matches before it), by ``actor`` (the entrant's player or the organiser),
    kept in the audit trail: ``withdrawn``, its unfinished pairing forfeited (the opponent
    wins), paired no more, and its live table ended there and then, decided for the opponent
    (the core's ``end_by_decision``: not rated, no longer playable; a round robin's later
    pairings against it are forfeits too).

    What it keeps (FIDE practice; C.07 16.1.1: every round after a withdrawal is a zero-point
    bye): the points of its matches already decided. A bye of the round still being played
    (its round has not ended) is not kept: it becomes a zero-point bye, as if the entrant had
    not been paired (else a player could withdraw with the round's bye and rank above players
    who played on). A knockout's bye carries no points and stays (the next
    round's opponent wins by forfeit). In the standings the entrant is marked withdrawn and
    listed after every entrant still in the event (``standings.standings``), so it is never
    placed above them nor the winner.

    :raises TournamentError: ``not_running``, ``confirm_needed`` (``end_live`` false and a
        table of the entrant is being played).
    """
    if t.status != Tournament.Status.RUNNING:
        raise TournamentError(Code.NOT_RUNNING)
    pairings = unfinished(t).filter(Q(a=entrant) | Q(b=entrant))
    live = live_games(pairings)
    if live and not end_live:
        raise TournamentError(Code.CONFIRM_NEEDED)
    entrant.status = Entrant.Status.WITHDRAWN
    entrant.withdrawn_round = t.current_round
    entrant.save(update_fields=["status", "withdrawn_round"])
    if t.format != Format.KNOCKOUT:
        byes = Pairing.objects.filter(
            tournament=t, a=entrant, b__isnull=True, winner=entrant,
            round__finished_at__isnull=True,
        ).select_related("a")
        for p in byes:
            finish_pairing(p, None, p.finished_at or now)  # a zero-point bye
    for p in pairings:
        other = p.b if p.a_id == entrant.pk else p.a
        finish_pairing(p, other, now, forfeit=True)
    decide_live_tables(live, now)
    audit(t, actor, AuditEntry.Action.WITHDRAW, now, entrant=entrant.name,
          round=t.current_round)
    follow.wake(t.pk)  # the next round it may complete, after the commit
