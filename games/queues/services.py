"""The queues' use cases: join, leave, invite a partner and accept, run a wave, settle the
no-shows (``docs/protocol.md``, "Queues").

Locks: every change of a player's queue state first locks the player's :class:`Record` row
(``select_for_update``, created on first use), several players' in ``user_id`` order; then the
entries. A wave seats a group only after locking its players' records and finding every one of
their entries still there, so a player who left or joined elsewhere meanwhile is never seated
twice, and a join that waited on the wave's lock sees the seat the wave made (``queue_seated``).
Whoever sits at another table meanwhile (a challenge, a tournament round) is taken out of the
queue by the next wave, before it pairs anyone.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db.models import Count, F, Q
from django.utils import timezone

from games.core.for_apps import (
    MOVE_SECONDS,
    GameError,
    Match,
    Seat,
    abort_match,
    create_table,
    current_table,
    end_by_decision,
    join_table,
    relations,
    standing,
    titles,
    write_transaction,
)
from games.queues import matching, news
from games.queues.errors import Code, QueueError
from games.queues.models import Entry, Invitation, QueueTable, Record
from games.ratings import for_apps as ratings
from games.tournaments import for_apps as tournaments

logger = logging.getLogger(__name__)

#: The queues: (players, seconds per play), 1v1 first.
QUEUES: tuple[tuple[int, int], ...] = tuple((p, s) for p in (2, 4) for s in MOVE_SECONDS)
#: The first no-show's cooldown in seconds; each further one doubles it, up to :data:`MAX_COOLDOWN`
#: (lila's rage-sit counter lengthens a player's waits as it grows).
FIRST_COOLDOWN = 60
MAX_COOLDOWN = 3600
#: The no-show count halves for each of these without a no-show (:func:`decayed_no_shows`).
QUIET_PERIOD = timedelta(days=1)
#: How a match ends when its players played it to its end (each lowers their no-show count).
PLAYED_OUT = frozenset({Match.Result.TARGET, Match.Result.CLAIM, Match.Result.RESIGN})


def no_show_seconds() -> float:
    """Seconds a paired player has to open the table (``BASRA_QUEUE_NO_SHOW_SECONDS``, 20)."""
    return float(getattr(settings, "BASRA_QUEUE_NO_SHOW_SECONDS", 20))


def invitation_seconds() -> float:
    """Seconds a partner's invitation may be accepted (``BASRA_QUEUE_INVITATION_SECONDS``, 300:
    five minutes); an older one is refused (``queue_invitation_expired``) and then cleared by
    the scheduler (:func:`expire_invitations`)."""
    return float(getattr(settings, "BASRA_QUEUE_INVITATION_SECONDS", 300))


def decayed_no_shows(no_shows: int, last: datetime | None, now: datetime) -> int:
    """A player's no-show count ``no_shows`` as it stands at ``now``, their last no-show at
    ``last``: halved (rounded down) for each whole :data:`QUIET_PERIOD` (a day) since. With
    :func:`on_match_finished` (each match played to its end takes one off) it decays as lila's
    rage-sit counter does (``modules/playban``: good games bring the counter back, and an old
    offence weighs less)."""
    if last is None or no_shows <= 0:
        return max(no_shows, 0)
    quiet = int((now - last) / QUIET_PERIOD)
    return no_shows >> min(max(quiet, 0), 31)


def on_match_finished(sender: object, *, match: Any, result: str, **kwargs: object) -> None:
    """The core's ``match_finished`` receiver: each player seated at ``match`` who played it to
    its end (a result of :data:`PLAYED_OUT`, their seat not taken over by the computer) has one
    no-show fewer (not below 0). One query, inside the ending's transaction."""
    if result not in PLAYED_OUT:
        return
    present = Seat.objects.filter(match_id=match.pk, user__isnull=False, absent=False).values("user_id")
    Record.objects.filter(user_id__in=present, no_shows__gt=0).update(no_shows=F("no_shows") - 1)


def cooldown_seconds(no_shows: int) -> int:
    """The cooldown after a player's ``no_shows``-th no-show (1 or more): 60 s, doubled for each
    earlier one, at most an hour."""
    return min(MAX_COOLDOWN, FIRST_COOLDOWN * 2 ** max(no_shows - 1, 0))


def check_queue(players: Any, move_seconds: Any) -> tuple[int, int]:
    """``(players, move_seconds)`` as ints, one of :data:`QUEUES`.

    :raises QueueError: ``bad_queue`` (not numbers, or no such queue: a forged form).
    """
    try:
        key = (int(players), int(move_seconds))
    except (TypeError, ValueError):
        raise QueueError(Code.BAD_QUEUE) from None
    if key not in QUEUES:
        raise QueueError(Code.BAD_QUEUE)
    return key


def rating_in(user_id: int, players: int) -> float:
    """``user_id``'s rating in the pool of tables for ``players`` (``games.ratings.for_apps``;
    a new player's 1500 without one there yet)."""
    return ratings.rating_of(user_id, players)


def _require_login(user: Any) -> None:
    if user is None or not user.is_authenticated:
        raise QueueError(Code.LOGIN_REQUIRED)


def _require_people(*user_ids: int) -> None:
    """Refuse a bot account (``games.core.titles``; docs/api.md says why quick pairing is for
    people), and a player a moderator barred from rated play (``games.core.standing``): one
    ask of each for all of ``user_ids``.

    :raises QueueError: ``queue_bot``; ``queue_ranked_banned``.
    """
    if any(title == titles.BOT for title in titles.titles(user_ids).values()):
        raise QueueError(Code.BOT)
    if not standing.may_play_rated(user_ids):
        raise QueueError(Code.RANKED_BANNED)


def lock_records(user_ids: Iterable[int]) -> dict[int, Record]:
    """The :class:`Record` rows of ``user_ids``, created when missing and locked in id order."""
    ids = sorted(set(user_ids))
    existing = set(Record.objects.filter(user_id__in=ids).values_list("user_id", flat=True))
    Record.objects.bulk_create([Record(user_id=i) for i in ids if i not in existing], ignore_conflicts=True)
    return {r.user_id: r for r in Record.objects.select_for_update().filter(user_id__in=ids).order_by("user_id")}


def seated_elsewhere(user_ids: Iterable[int]) -> set[int]:
    """Which of ``user_ids`` hold a person's seat at a table that is not over (open or being
    played; an absent player replaced by the computer no longer plays there). One query."""
    return set(
        Seat.objects.filter(user_id__in=set(user_ids), absent=False)
        .exclude(match__status=Match.Status.FINISHED).values_list("user_id", flat=True)
    )


def in_tournament(user_ids: Iterable[int]) -> set[int]:
    """Which of ``user_ids`` play in a running tournament or are wanted by one
    (``games.tournaments.for_apps.engaged``)."""
    return tournaments.engaged(user_ids)


def _check_free(records: dict[int, Record], now: datetime, *, partner: int | None = None) -> None:
    for user_id, record in records.items():
        if record.cooldown_until is not None and record.cooldown_until > now:
            if user_id == partner:
                raise QueueError(Code.PARTNER_BUSY)
            raise QueueError(Code.COOLDOWN, seconds=int((record.cooldown_until - now).total_seconds()) + 1)
    ids = set(records)
    seated = seated_elsewhere(ids)
    if seated == {partner}:
        raise QueueError(Code.PARTNER_BUSY)
    if seated:
        # The way back to the table goes with the refusal, shown where the player pressed.
        me = next(i for i in ids if i != partner)
        raise QueueError(Code.SEATED, table=current_table(me))
    engaged = in_tournament(ids)
    if engaged:
        raise QueueError(Code.PARTNER_BUSY if engaged == {partner} else Code.IN_TOURNAMENT)


def _entry_of(user_id: int) -> Entry | None:
    return Entry.objects.filter(Q(user_id=user_id) | Q(partner_id=user_id)).first()


def join(*, user: Any, players: Any, move_seconds: Any, now: datetime | None = None) -> Entry:
    """Wait in the queue ``(players, move_seconds)``, alone.

    Already waiting there: nothing changes (two tabs, a double click), the entry is returned.
    Waiting in another queue: moved to this one (one queue at a time; lila's pools too). A
    pair entry the player is in is dissolved, and an invitation they sent withdrawn.

    :returns: the player's entry.
    :raises QueueError: ``login_required``; ``bad_queue``; ``queue_cooldown`` (a no-show's
        cooldown runs); ``queue_seated`` (at a table that is not over, named by the error's
        ``table``); ``queue_in_tournament``; ``queue_bot`` (a bot account); ``queue_ranked_banned`` (barred
        from rated play by a moderator).
    """
    _require_login(user)
    _require_people(user.pk)
    players, move_seconds = check_queue(players, move_seconds)
    now = timezone.now() if now is None else now
    with write_transaction():
        records = lock_records([user.pk])
        current = _entry_of(user.pk)
        if current is not None and current.partner_id is None and (current.players, current.move_seconds) == (players, move_seconds):
            return current
        _check_free(records, now)
        if current is not None:
            current.delete()
        Invitation.objects.filter(inviter_id=user.pk).delete()
        return Entry.objects.create(
            user_id=user.pk, players=players, move_seconds=move_seconds,
            rating=rating_in(user.pk, players), joined_at=now,
        )


def leave(*, user: Any) -> bool:
    """Leave the queue (a pair: both leave it), and withdraw an invitation sent.

    :returns: whether there was anything to leave (``False``: a no-op).
    :raises QueueError: ``login_required``.
    """
    _require_login(user)
    with write_transaction():
        lock_records([user.pk])
        gone = Invitation.objects.filter(inviter_id=user.pk).delete()[0]
        gone += Entry.objects.filter(Q(user_id=user.pk) | Q(partner_id=user.pk)).delete()[0]
        return gone > 0


def leave_closing(sender: Any, user: Any, **kwargs: Any) -> None:
    """``accounts.closing.account_closing``'s receiver: ``user``'s account is closing, so they
    leave the queue as :func:`leave` has it."""
    leave(user=user)


def invite(*, user: Any, username: str, move_seconds: Any, now: datetime | None = None) -> Invitation:
    """Ask ``username`` to wait together with ``user`` in the partnership queue of
    ``move_seconds`` (they are told: ``queue_invite``). Replaces an invitation ``user`` sent
    before; ``user`` leaves any queue they wait in (they wait for the answer instead).

    :raises QueueError: ``login_required``, ``bad_queue``, ``queue_no_such_player``,
        ``queue_partner_self``, ``queue_bot`` (either is a bot account), and those of
        :func:`join` for ``user``.
    """
    _require_login(user)
    _players, move_seconds = check_queue(4, move_seconds)
    now = timezone.now() if now is None else now
    partner = get_user_model().objects.filter(username__iexact=(username or "").strip(), is_active=True).first()
    if partner is None:
        raise QueueError(Code.NO_SUCH_PLAYER)
    if partner.pk == user.pk:
        raise QueueError(Code.PARTNER_SELF)
    _require_people(user.pk, partner.pk)
    with write_transaction():
        records = lock_records([user.pk])
        _check_free(records, now)
        Entry.objects.filter(Q(user_id=user.pk) | Q(partner_id=user.pk)).delete()
        Invitation.objects.filter(inviter_id=user.pk).delete()
        invitation = Invitation.objects.create(inviter=user, invited=partner, move_seconds=move_seconds, created_at=now)
        news.tell_invite(partner.pk, user.get_username(), move_seconds)
        return invitation


def accept(*, user: Any, inviter: str, now: datetime | None = None) -> Entry:
    """Accept ``inviter``'s invitation: both wait as one entry in its partnership queue (its
    rating the mean of theirs), leaving whatever queue either waited in.

    :raises QueueError: ``login_required``, ``queue_not_invited``,
        ``queue_invitation_expired`` (sent :func:`invitation_seconds` ago or more),
        ``queue_partner_busy`` (the inviter is seated, in a tournament or cooling down), and
        those of :func:`join` for ``user``; ``queue_bot`` (either is a bot account).
    """
    _require_login(user)
    now = timezone.now() if now is None else now
    with write_transaction():
        invitation = Invitation.objects.filter(invited_id=user.pk, inviter__username__iexact=(inviter or "").strip()).first()
        if invitation is None:
            raise QueueError(Code.NOT_INVITED)
        _require_people(user.pk, invitation.inviter_id)
        records = lock_records([user.pk, invitation.inviter_id])
        invitation = Invitation.objects.filter(pk=invitation.pk).first()
        if invitation is None:
            raise QueueError(Code.NOT_INVITED)
        if invitation.created_at <= now - timedelta(seconds=invitation_seconds()):
            raise QueueError(Code.INVITATION_EXPIRED)
        _check_free(records, now, partner=invitation.inviter_id)
        both = [invitation.inviter_id, user.pk]
        Entry.objects.filter(Q(user_id__in=both) | Q(partner_id__in=both)).delete()
        Invitation.objects.filter(inviter_id__in=both).delete()
        rating = (rating_in(both[0], 4) + rating_in(both[1], 4)) / 2
        return Entry.objects.create(
            user_id=both[0], partner_id=both[1], players=4, move_seconds=invitation.move_seconds,
            rating=rating, joined_at=now,
        )


@dataclass(frozen=True)
class QueueCount:
    """One queue's figures for the page: ``waiting`` players, ``playing`` at its tables."""

    players: int
    move_seconds: int
    waiting: int
    playing: int


def counts() -> list[QueueCount]:
    """Every queue's waiting and playing players, in :data:`QUEUES` order. Two queries."""
    waiting = {
        (r["players"], r["move_seconds"]): r["n"] + r["pairs"]
        for r in Entry.objects.values("players", "move_seconds").annotate(n=Count("pk"), pairs=Count("partner"))
    }
    playing = {
        (r["players"], r["move_seconds"]): r["n"] * r["players"]
        for r in QueueTable.objects.filter(match__status=Match.Status.PLAYING)
        .values("players", "move_seconds").annotate(n=Count("pk"))
    }
    return [QueueCount(p, s, waiting.get((p, s), 0), playing.get((p, s), 0)) for p, s in QUEUES]


def status(user: Any, now: datetime | None = None) -> dict:
    """What the "Play now" page shows ``user``: ``{"queues": [{"players", "move_seconds",
    "waiting", "playing"}], "mine": None | {"players", "move_seconds", "waited" (seconds),
    "partner" (a username or None)}, "cooldown": seconds left or 0, "invitations": [{"inviter",
    "move_seconds"}], "invited": None | {"partner", "move_seconds"}, "table": None | {"match_id",
    "url", "playing"}}``, the invitations those not expired (:func:`invitation_seconds`),
    ``table`` the one ``user`` sits at that is not over (``games.core.for_apps.current_table``:
    joining is refused while there is one). JSON."""
    now = timezone.now() if now is None else now
    out: dict[str, Any] = {"queues": [c.__dict__ for c in counts()], "mine": None, "cooldown": 0,
                           "invitations": [], "invited": None, "table": None}
    if user is None or not user.is_authenticated:
        return out
    out["table"] = current_table(user.pk)
    entry = Entry.objects.filter(Q(user_id=user.pk) | Q(partner_id=user.pk)).select_related("user", "partner").first()
    if entry is not None:
        other = None
        if entry.partner_id is not None:
            other = (entry.partner if entry.user_id == user.pk else entry.user).get_username()
        out["mine"] = {"players": entry.players, "move_seconds": entry.move_seconds,
                       "waited": max(0, int((now - entry.joined_at).total_seconds())), "partner": other}
    record = Record.objects.filter(user_id=user.pk).first()
    if record is not None and record.cooldown_until is not None and record.cooldown_until > now:
        out["cooldown"] = int((record.cooldown_until - now).total_seconds()) + 1
    live = Invitation.objects.filter(created_at__gt=now - timedelta(seconds=invitation_seconds()))
    out["invitations"] = [
        {"inviter": name, "move_seconds": s}
        for name, s in live.filter(invited_id=user.pk).values_list("inviter__username", "move_seconds")
    ]
    sent = live.filter(inviter_id=user.pk).values_list("invited__username", "move_seconds").first()
    if sent is not None:
        out["invited"] = {"partner": sent[0], "move_seconds": sent[1]}
    return out


def expire_invitations(now: datetime | None = None) -> int:
    """Delete the invitations sent :func:`invitation_seconds` ago or more; returns how many."""
    now = timezone.now() if now is None else now
    return Invitation.objects.filter(created_at__lte=now - timedelta(seconds=invitation_seconds())).delete()[0]


def _waiter(
    e: Entry, records: dict[int, Record], now: datetime, never: dict[int, frozenset[int]]
) -> matching.Waiter:
    recent = frozenset(u for m in e.members for u in (records[m].last_opponents if m in records else []))
    blocked = frozenset().union(*(never.get(m, ()) for m in e.members))
    return matching.Waiter(
        id=e.pk, rating=e.rating, waited=max(0.0, (now - e.joined_at).total_seconds()),
        members=e.members, recent=recent, blocked=blocked, front=e.front,
    )


def never_meet(user_ids: Iterable[int]) -> dict[int, frozenset[int]]:
    """For each of ``user_ids`` that must not be paired with some of the others, those others
    (one of the two blocked the other: ``games.core.relations``, kind ``pair``, asked once for
    all of them; ``{}`` when no app answers). The matching keeps them apart
    (``matching.Waiter.blocked``)."""
    users = frozenset(user_ids)
    out: dict[int, set[int]] = {}
    for a, b in relations.barriers("pair", users, users):
        out.setdefault(a, set()).add(b)
        out.setdefault(b, set()).add(a)
    return {user: frozenset(others) for user, others in out.items()}


def blocked_for(user_ids: tuple[int, ...], among: Iterable[int] = ()) -> frozenset[int]:
    """The user ids among ``among`` that the players ``user_ids`` (one entry's members) never
    meet (:func:`never_meet`)."""
    never = never_meet({*user_ids, *among})
    return frozenset().union(*(never.get(u, ()) for u in user_ids))


def wave(players: int, move_seconds: int, now: datetime | None = None) -> list[int]:
    """One wave of the queue ``(players, move_seconds)``: take out whoever is seated elsewhere or
    engaged in a tournament, match the others (``matching.pair_wave`` or
    ``matching.table_wave``) and seat each group at a rated table of its own (:func:`seat`).

    :returns: the ids of the matches opened.
    :raises QueueError: ``bad_queue``.
    """
    players, move_seconds = check_queue(players, move_seconds)
    now = timezone.now() if now is None else now
    entries = list(Entry.objects.filter(players=players, move_seconds=move_seconds).order_by("joined_at", "pk"))
    if not entries:
        return []
    everyone = {m for e in entries for m in e.members}
    taken = seated_elsewhere(everyone) | in_tournament(everyone)
    if taken:
        # Sat at another table (or a tournament wants them): they leave the queue.
        gone = [e.pk for e in entries if set(e.members) & taken]
        Entry.objects.filter(pk__in=gone).delete()
        entries = [e for e in entries if e.pk not in gone]
    records = Record.objects.in_bulk({m for e in entries for m in e.members})
    never = never_meet({m for e in entries for m in e.members})
    units = [_waiter(e, records, now, never) for e in entries]
    by_id = {e.pk: e for e in entries}
    opened = []
    if players == 2:
        for a, b in matching.pair_wave(units, size=1):
            match_id = seat([by_id[a], by_id[b]], (by_id[a].user_id,), (by_id[b].user_id,), now)
            if match_id is not None:
                opened.append(match_id)
    else:
        for t in matching.table_wave(units):
            match_id = seat([by_id[i] for i in t.units], t.side0, t.side1, now)
            if match_id is not None:
                opened.append(match_id)
    return opened


def seat(entries: list[Entry], side0: tuple[int, ...], side1: tuple[int, ...], now: datetime) -> int | None:
    """Seat ``side0`` against ``side1`` (user ids; seats 0 and 2, seats 1 and 3) at a rated
    table of ``entries``' queue, made through the core's actions, in one transaction: their
    records locked, their entries (still all there, else nothing is done) deleted, a
    :class:`QueueTable` kept for the no-show check, each player's last opponents noted, and
    everyone told (``queue_paired``) after the commit.

    :returns: the match id, or ``None`` (an entry left meanwhile, or the core refused).
    """
    first = entries[0]
    members = [m for e in entries for m in e.members]
    try:
        with write_transaction():
            records = lock_records(members)
            ids = [e.pk for e in entries]
            if len(Entry.objects.select_for_update().filter(pk__in=ids)) != len(ids):
                return None
            Entry.objects.filter(pk__in=ids).delete()
            users = get_user_model().objects.in_bulk(members)
            seats = [(side0[0], 0), (side1[0], 1)]
            if first.players == 4:
                seats += [(side0[1], 2), (side1[1], 3)]
            match = create_table(user=users[seats[0][0]], players=first.players, rules={}, rated=True,
                                 move_seconds=first.move_seconds, now=now)
            for user_id, number in seats[1:]:
                join_table(user=users[user_id], match_id=match.pk, seat=number, now=now)
            QueueTable.objects.create(
                match=match, players=first.players, move_seconds=first.move_seconds, created_at=now,
                entries=[{"user": e.user_id, "partner": e.partner_id, "rating": e.rating,
                          "joined_at": e.joined_at.isoformat()} for e in entries],
            )
            for user_id, record in records.items():
                record.last_opponents = list(side1 if user_id in side0 else side0)
                record.save(update_fields=["last_opponents"])
            news.tell_paired(members, match.pk, first.players, first.move_seconds)
            return match.pk
    except GameError as error:
        logger.warning("queues: no table for entries %s (%s)", [e.pk for e in entries], error)
        return None


def settle_tables(now: datetime | None = None) -> dict[str, int]:
    """Deal with the queue tables older than :func:`no_show_seconds`: each whose players all
    opened the table (or that is over) is settled; at one where a player never opened it (their
    seat not seen since the table was made), the match is called off through the core
    (``abort_match``, or ``end_by_decision`` with no winner once a play was made: neither is
    rated), each no-show gets a cooldown (:func:`cooldown_seconds` of their count, decayed
    first: :func:`decayed_no_shows`, then one more) and everyone
    else is put back at the front of the queue (their old ``joined_at``; a pair together only if
    both came) and told (``queue_requeued``).

    :returns: ``{"settled", "no_shows", "requeued"}`` counts.
    """
    now = timezone.now() if now is None else now
    out = {"settled": 0, "no_shows": 0, "requeued": 0}
    due = QueueTable.objects.filter(settled=False, created_at__lte=now - timedelta(seconds=no_show_seconds()))
    for table_id in due.order_by("pk").values_list("pk", flat=True):
        with write_transaction():
            table = QueueTable.objects.select_for_update().filter(pk=table_id, settled=False).first()
            if table is None:
                continue
            table.settled = True
            table.save(update_fields=["settled"])
            out["settled"] += 1
            match = Match.objects.get(pk=table.match_id)
            if match.status != Match.Status.PLAYING:
                continue
            seats = list(Seat.objects.filter(match=match, user__isnull=False).select_related("user"))
            missing = [s for s in seats if s.last_seen is None or s.last_seen <= table.created_at]
            if not missing:
                continue
            _call_off(match.pk, missing[0].user, now)
            gone = {s.user_id for s in missing}
            records = lock_records(s.user_id for s in seats)
            for user_id in gone:
                record = records[user_id]
                record.no_shows = decayed_no_shows(record.no_shows, record.last_no_show_at, now) + 1
                record.last_no_show_at = now
                record.cooldown_until = now + timedelta(seconds=cooldown_seconds(record.no_shows))
                record.save(update_fields=["no_shows", "last_no_show_at", "cooldown_until"])
            out["no_shows"] += len(gone)
            out["requeued"] += _requeue(table, gone)
    return out


def _call_off(match_id: int, user: Any, now: datetime) -> None:
    try:
        abort_match(user=user, match_id=match_id, now=now)
    except GameError:
        # A play was made (the clock plays for a seat whose time ran out): not an abort any
        # more, but still nobody's win and not rated.
        try:
            end_by_decision(match_id=match_id, winner=None, now=now)
        except GameError as error:
            logger.info("queues: table %s already over (%s)", match_id, error)


def _requeue(table: QueueTable, gone: set[int]) -> int:
    """Put back at the front whoever of ``table``'s entries came; returns how many players."""
    count = 0
    for snap in table.entries:
        members = [m for m in (snap["user"], snap["partner"]) if m is not None]
        came = [m for m in members if m not in gone]
        if not came:
            continue
        together = len(came) == len(members)
        for user_id in (came[:1] if together else came):
            if _entry_of(user_id) is not None or (together and snap["partner"] and _entry_of(snap["partner"])):
                continue
            partner = snap["partner"] if together else None
            rating = snap["rating"] if together else rating_in(user_id, table.players)
            Entry.objects.create(
                user_id=user_id, partner_id=partner, players=table.players,
                move_seconds=table.move_seconds, rating=rating,
                joined_at=datetime.fromisoformat(snap["joined_at"]), front=True,
            )
        for user_id in came:
            news.tell_requeued(user_id, table.players, table.move_seconds)
            count += 1
    return count

