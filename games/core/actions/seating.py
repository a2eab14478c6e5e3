"""Seating: opening a table, taking and leaving seats, the client seeds, and the start of the match
(the first deal).

Every deck comes from the provably fair shuffle ``basra-shuffle/1`` (RULES.md, "Provably fair
shuffle"; ``games.engine.shuffle``): a table's server seed is drawn when it is created and kept
in ``Match.server_seed`` (only its commitment is shown until the match is over); each person
brings a client seed (``Seat.client_seed``, changeable until the start), a computer seat ``""``;
the seeds are fixed at the start (``Match.client_seeds``, the ``start`` event), and round ``r``'s
deck is ``shuffle.deck(server_seed, client_seeds, r)``.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import Any

from django.db import IntegrityError
from django.db.models import ProtectedError

from games import engine
from games.core import signals, standing
from games.core.actions import funnel
from games.core.actions.funnel import Change, require_login
from games.core.errors import (
    MAX_OPEN_TABLES, MAX_TABLES, RATED_TARGET_MIN, GameError, check_client_seed,
)
from games.core.models import MOVE_SECONDS, CreateKey, Event, Match, Seat
from games.engine import shuffle
from games.engine.bots import BOTS

#: The order seats are filled in (RULES.md "Four players": creator 0, partner 2, then 1, 3).
SEAT_ORDER = {2: (0, 1), 4: (0, 2, 1, 3)}
#: The time per play of a table whose creator did not say (seconds).
DEFAULT_MOVE_SECONDS = 30
#: The 52 card codes of one deck (RULES.md "Names"), in the engine's sorted order.
DECK_CODES = tuple(card.code for card in engine.full_deck())


#: ``claimer(match id)``: whether an app seats that table's players itself (a tournament's
#: table: its event seats them, and opens their next one). Such a table has no rematch
#: (``rematch.offered``), and its clock waits for its people to come (``play.act_on_deadline``).
#: Registered in the app's ``AppConfig.ready()`` (:func:`claim_tables_with`), as
#: ``games.core.titles`` is answered.
Claimer = Callable[[int], bool]

_claimers: list[Claimer] = []


def claim_tables_with(claimer: Claimer) -> None:
    """Register an app's :data:`Claimer` (its ``AppConfig.ready()``)."""
    if claimer not in _claimers:
        _claimers.append(claimer)


def seated_by_app(match_id: int) -> bool:
    """Whether an app seats table ``match_id``'s players itself (:func:`claim_tables_with`).
    One query an app, at most."""
    return any(claims(match_id) for claims in _claimers)


def shuffled_deck(server_seed: str, client_seeds: Sequence[str], round_number: int) -> list[str]:
    """Round ``round_number``'s deck order as 52 card codes, ``deck[0]`` on top.

    ``basra-shuffle/1`` (RULES.md, "Provably fair shuffle" 5): ``shuffle.deck(server_seed,
    client_seeds, round_number)``, ``round_number`` 1 for the match's first round, extra rounds
    counted too. A match with no server seed (created before the fair shuffle) gets a fresh
    ``secrets.SystemRandom`` shuffle instead. Either way the order is stored in the round's
    ``deal`` event, so a replay never shuffles (STYLE.md, "In this project" 2). Tests replace
    this function to deal a known deck.

    :raises games.engine.SeedError: a seed the shuffle refuses (never one stored by the actions).
    """
    if not server_seed:
        deck = list(DECK_CODES)
        secrets.SystemRandom().shuffle(deck)
        return deck
    return [card.code for card in shuffle.deck(server_seed, client_seeds, round_number)]


def first_dealer(server_seed: str, client_seeds: Sequence[str]) -> int:
    """The dealer of a match's first round: ``shuffle.first_dealer`` (RULES.md, "Provably fair
    shuffle" 5), or ``secrets.randbelow`` for a match with no server seed (one seat per client
    seed). Tests replace this function."""
    if not server_seed:
        return secrets.randbelow(len(client_seeds))
    return shuffle.first_dealer(server_seed, client_seeds)


def new_client_seed() -> str:
    """A client seed for a person whose request brought none (16 hex digits from ``secrets``).

    The site's pages always send the one the browser drew; this is for other callers (scripts,
    tests), and the person may still change it before the start (:func:`set_client_seed`).
    """
    return secrets.token_hex(8)


def _client_seed(client_seed: str | None) -> str:
    """:raises GameError: a ``client_seed_*`` code unless ``None`` or a valid seed."""
    return new_client_seed() if client_seed is None else check_client_seed(client_seed)


def _check_clock(rated: bool, move_seconds: int | None) -> None:
    if move_seconds is None:
        if rated:
            raise GameError("bad_clock")
    elif isinstance(move_seconds, bool) or move_seconds not in MOVE_SECONDS:
        raise GameError("bad_clock")


def check_rated_target(rated: bool, target: int, least: int | None = RATED_TARGET_MIN) -> None:
    """Refuse a rated table whose ``target`` (points) is below ``least``
    (``errors.RATED_TARGET_MIN``, 61; ``None``: no least, a tournament's table).

    :raises GameError: ``rated_target_too_low``.
    """
    if rated and least is not None and target < least:
        raise GameError("rated_target_too_low")


def _check_bots(players: int, bots: Mapping[int, str]) -> dict[int, str]:
    checked = {}
    for seat, level in bots.items():
        if (
            isinstance(seat, bool)
            or not isinstance(seat, int)
            or not 1 <= seat < players
            or level not in BOTS
        ):
            raise GameError("bad_bot")
        checked[seat] = level
    return checked


def create_table(
    *,
    user: Any,
    players: int,
    rules: dict,
    rated: bool,
    move_seconds: int | None = DEFAULT_MOVE_SECONDS,
    bots: Mapping[int, str] | None = None,
    client_seed: str | None = None,
    watchers: str = Match.Watchers.EVERYONE,
    private: bool = False,
    private_watchable: bool = False,
    people: Mapping[int, tuple[Any, str | None]] | None = None,
    capped: bool = True,
    early_abort: bool = True,
    rated_target_min: int | None = RATED_TARGET_MIN,
    create_key: str | None = None,
    now: datetime | None = None,
) -> Match:
    """Open a table; ``user`` takes seat 0, the computer the seats in ``bots`` and the persons
    in ``people`` theirs.

    With a ``create_key`` (the one-time key of the lobby's form, ``models.CreateKey``) that
    ``user`` already made a table with, nothing is made or checked: that table is returned, so a
    form posted twice (a double submit, a retry after an answer lost) makes one table.

    :param players: 2 or 4.
    :param rules: ``Rules`` fields other than ``players`` (RULES.md, "The engine's public
        interface"); missing fields take the engine's defaults. A ``players`` key is accepted only
        if it equals ``players``.
    :param rated: stored for the ratings; never with a computer seat.
    :param move_seconds: the time per play, one of ``models.MOVE_SECONDS``; ``None`` (no clock)
        only at a casual table.
    :param bots: ``{seat: level}``, a level of ``games.engine.bots.BOTS`` for seats 1 and up.
        When they fill the table with the creator it starts at once.
    :param client_seed: the creator's client seed (RULES.md, "Provably fair shuffle" 2);
        ``None``: one from :func:`new_client_seed`.
    :param watchers: who may watch the match being played, a ``Match.Watchers`` value
        (``games.core.actions.watching.check_may_watch``).
    :param private: listed nowhere; a seat is taken only with its ``invite_token`` (drawn here,
        ``secrets.token_urlsafe(32)``), see :func:`join_table`.
    :param private_watchable: a private table everyone may see (else only its seated players
        and the invited sessions, ``games.core.state.watching.check_may_see_private``).
    :param people: ``{seat: (user, client seed or None)}``, other persons seated from the start
        (a challenge accepted, a rematch; ``games.core.actions.challenges``, ``games.core.actions.rematch``),
        seats 1 and up, none of them ``user`` nor a seat in ``bots``. A table that these fill is
        not counted against ``MAX_OPEN_TABLES``: it starts at once.
    :param capped: whether ``MAX_TABLES`` applies (:func:`check_table_cap`); ``False`` for a
        table an app opens for its players (a tournament's pairing: the event, not the player,
        decides that it is played).
    :param early_abort: a rated match that ends before every person has played a card of the
        first deal is aborted (``Match.early_abort``, ``endings.finish``); ``False`` for a table
        an app opens under abort rules of its own (a tournament's pairing).
    :param rated_target_min: the least target of a rated table (:func:`check_rated_target`,
        ``errors.RATED_TARGET_MIN``, 61 points); ``None`` for a table an app opens under targets
        of its own (a tournament's pairing: its organiser chose the target).
    :param create_key: the form's one-time key, at most 64 characters; ``None``: none.
    :returns: the new ``Match`` (status ``open``, or ``playing`` if every seat is taken), or
        the one made before with ``create_key``.
    :raises GameError: ``login_required``; ``bad_rules`` (players not 2 or 4, an unknown
        option or a bad value); ``rules_no_points`` (no point can ever be scored:
        ``Rules.can_score``); ``rated_target_too_low`` (a rated table's target under
        ``rated_target_min``); ``bad_clock``; ``bad_bot`` (not a level, or not a free seat);
        ``bot_not_rated``; ``ranked_banned`` (a rated table with a person a moderator barred
        from rated play, ``games.core.standing``); ``bad_watchers``; ``too_many_open_tables`` (``user`` already sits at
        ``MAX_OPEN_TABLES`` tables that have not started); ``too_many_tables`` (``user`` or one
        of ``people`` already sits at ``MAX_TABLES`` unfinished tables, :func:`check_table_cap`); ``client_seed_empty``,
        ``client_seed_too_long``, ``client_seed_newline``, ``client_seed_not_printable``.
    """
    require_login(user)
    if (made := _made_with(user, create_key)) is not None:
        return made
    creator_seed = _client_seed(client_seed)
    if players not in SEAT_ORDER or not isinstance(rules, dict):
        raise GameError("bad_rules")
    options = dict(rules)
    if options.pop("players", players) != players:
        raise GameError("bad_rules")
    try:
        rules_obj = engine.Rules(players=players, **options)
    except (TypeError, ValueError):
        raise GameError("bad_rules") from None
    if not rules_obj.can_score:
        raise GameError("rules_no_points")
    check_rated_target(bool(rated), rules_obj.target, rated_target_min)
    _check_clock(bool(rated), move_seconds)
    bots = _check_bots(players, bots or {})
    if bots and rated:
        raise GameError("bot_not_rated")
    standing.check_rated(bool(rated), [user.pk, *(person.pk for person, _seed in (people or {}).values())])
    if watchers not in Match.Watchers.values:
        raise GameError("bad_watchers")
    others = {}
    for seat, (person, seed) in (people or {}).items():
        require_login(person)
        if seat in bots or not 1 <= seat < players or person.pk == user.pk or any(
            person.pk == other.pk for other, _seed in others.values()
        ):
            raise GameError("seat_taken")
        others[seat] = (person, _client_seed(seed))
    starts_full = len(bots) + len(others) + 1 == players

    def new(now: datetime) -> Match:
        # Inside the write transaction (the write lock is already held on SQLite): the count
        # and the insert see the same database.
        if not (others and starts_full) and Seat.objects.filter(
            user=user, match__status=Match.Status.OPEN
        ).count() >= MAX_OPEN_TABLES:
            raise GameError("too_many_open_tables")
        if capped:
            check_table_cap([user, *(person for person, _seed in others.values())])
        match = Match.objects.create(
            created_by=user,
            players=players,
            rules=rules_obj.to_dict(),
            rated=bool(rated),
            scores=[0, 0],
            move_seconds=move_seconds,
            watchers=watchers,
            server_seed=shuffle.new_server_seed(),
            private=bool(private),
            invite_token=secrets.token_urlsafe(32) if private else "",
            early_abort=bool(early_abort),
            private_watchable=bool(private and private_watchable),
        )
        if create_key is not None:
            # Unique (user, key): a post of the same form in flight waits here for this
            # commit, then fails, and returns this table (below).
            CreateKey.objects.create(user=user, key=create_key, match=match)
        return match

    def body(change: Change) -> Match:
        match = change.match
        seats = [
            Seat.objects.create(
                match=match, seat=0, user=user, last_seen=change.now, client_seed=creator_seed
            )
        ]
        seats += Seat.objects.bulk_create(
            [Seat(match=match, seat=seat, bot=level) for seat, level in sorted(bots.items())]
            + [
                Seat(match=match, seat=seat, user=person, last_seen=change.now, client_seed=seed)
                for seat, (person, seed) in sorted(others.items())
            ]
        )
        joins = {0: {"user": user.pk, "username": user.get_username()}}
        joins |= {seat: {"bot": level} for seat, level in bots.items()}
        joins |= {
            seat: {"user": person.pk, "username": person.get_username()}
            for seat, (person, _seed) in others.items()
        }
        for seat, payload in sorted(joins.items()):
            change.log(Event.Kind.JOIN, payload, seat=seat)
        change.announce, change.lobby = None, True
        if len(seats) == players:
            start(change, seats)
        return match

    try:
        return funnel.run(None, body, now=now, new=new)
    except IntegrityError:
        if (made := _made_with(user, create_key)) is not None:
            return made
        raise


def _made_with(user: Any, create_key: str | None) -> Match | None:
    """The table ``user`` made with ``create_key``, if any (``None`` for no key)."""
    if create_key is None:
        return None
    found = CreateKey.objects.filter(user=user, key=create_key).select_related("match").first()
    return None if found is None else found.match


def check_table_cap(users: list[Any]) -> None:
    """Refuse a table to anyone in ``users`` who already sits at ``MAX_TABLES`` unfinished
    tables (open or being played) with a seat not lost to absence. One query a person.

    :raises GameError: ``too_many_tables``.
    """
    for person in users:
        if Seat.objects.filter(
            user=person, absent=False, match__status__in=(Match.Status.OPEN, Match.Status.PLAYING)
        ).count() >= MAX_TABLES:
            raise GameError("too_many_tables")


def join_table(
    *,
    user: Any,
    match_id: int,
    seat: int | None = None,
    client_seed: str | None = None,
    invite: str | None = None,
    capped: bool = True,
    now: datetime | None = None,
) -> int:
    """Take a seat of an open table; the match starts when the last seat is taken.

    A private table (``Match.private``) takes a seat only with ``invite`` equal to its
    ``invite_token`` (the last part of its invite link; compared in constant time).

    Without ``seat``, the next empty seat in the order 0, 1 (2 players) or 0, 2, 1, 3 (4 players;
    RULES.md "Four players"). With ``seat``, that seat: an empty one, or a computer's (the person
    replaces the computer there, before the start only). ``client_seed``: the person's client
    seed (RULES.md, "Provably fair shuffle" 2; ``None``: one from :func:`new_client_seed`).
    ``capped``: as in :func:`create_table`. Starting appends ``start`` (the names by seat, the first dealer and the fixed client seeds)
    and ``deal`` (round 1's deck from the fair shuffle): :func:`start`.

    :returns: the seat taken.
    :raises GameError: ``login_required``, ``not_found``, ``already_seated``, ``table_full``
        (no empty seat, or the match already started), ``bad_seat`` (``seat`` is not a number
        from 0 to ``players`` - 1), ``seat_taken`` (``seat`` is a person's), ``private_table`` (a
        private table without its invite), ``too_many_tables`` (:func:`check_table_cap`);
        ``ranked_banned`` (a rated table, ``user`` barred from rated play: ``games.core.standing``);
        ``client_seed_empty``, ``client_seed_too_long``, ``client_seed_newline``,
        ``client_seed_not_printable`` (checked first: nothing is changed).
    """
    require_login(user)
    seed = _client_seed(client_seed)

    def body(change: Change) -> int:
        match = change.match
        seats = change.seat_models()
        if any(s.user_id == user.pk for s in seats):
            raise GameError("already_seated")
        if match.status != Match.Status.OPEN:
            raise GameError("table_full")
        if seat is not None and (
            isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < match.players
        ):
            raise GameError("bad_seat")
        if match.private and not (
            isinstance(invite, str) and invite.isascii()
            and secrets.compare_digest(invite, match.invite_token)
        ):
            raise GameError("private_table")
        if capped:
            check_table_cap([user])
        standing.check_rated(match.rated, [user.pk])
        by_number = {s.seat: s for s in seats}
        free = [n for n in SEAT_ORDER[match.players] if n not in by_number]
        payload = {"user": user.pk, "username": user.get_username()}
        taken_seat = seat
        if taken_seat is None:
            if not free:
                raise GameError("table_full")
            taken_seat = free[0]
        if taken_seat in free:
            seats.append(
                Seat.objects.create(
                    match=match, seat=taken_seat, user=user, last_seen=change.now,
                    client_seed=seed,
                )
            )
        elif (
            isinstance(taken_seat, int)
            and taken_seat in by_number
            and by_number[taken_seat].user_id is None
        ):
            taken = by_number[taken_seat]
            payload["replaced_bot"] = taken.bot
            taken.user, taken.bot, taken.last_seen = user, "", change.now
            taken.client_seed = seed
            taken.save(update_fields=["user", "bot", "last_seen", "client_seed"])
        else:
            raise GameError("seat_taken")
        change.changed_seating()
        change.log(Event.Kind.JOIN, payload, seat=taken_seat)
        change.announce, change.lobby = "seating", True
        if len(seats) == match.players:
            start(change, seats)
        return taken_seat

    return funnel.run(match_id, body, now=now)


def set_client_seed(*, user: Any, match_id: int, client_seed: str) -> None:
    """Change one's client seed (RULES.md, "Provably fair shuffle" 2) before the match starts.

    Nothing is logged: the seeds are logged once they are fixed, in the ``start`` event. No one
    else is told (the seeds are shown to everyone at the start).

    :raises GameError: ``login_required``; ``client_seed_empty``, ``client_seed_too_long``,
        ``client_seed_newline``, ``client_seed_not_printable``; ``not_found``, ``not_seated``;
        ``seeds_fixed`` (the match has started).
    """
    require_login(user)
    seed = check_client_seed(client_seed)

    def body(change: Change) -> None:
        mine = next((s for s in change.seat_models() if s.user_id == user.pk), None)
        if mine is None:
            raise GameError("not_seated")
        if change.match.status != Match.Status.OPEN:
            raise GameError("seeds_fixed")
        mine.client_seed = seed
        mine.save(update_fields=["client_seed"])

    funnel.run(match_id, body)


def start(change: Change, seats: list[Seat]) -> None:
    """Start the match (every seat taken): the ``start`` and the first ``deal`` events.

    The client seeds are fixed here (``Match.client_seeds``: each person's ``Seat.client_seed``,
    ``""`` for a computer seat) and logged in ``start`` with the algorithm and the commitment;
    the first dealer is :func:`first_dealer` of the seeds (RULES.md, "Provably fair shuffle" 5).
    A match with no server seed (opened before the fair shuffle) logs no shuffle data.
    """
    match = change.match
    ordered = sorted(seats, key=lambda s: s.seat)
    client_seeds = [s.client_seed if s.user_id is not None else "" for s in ordered]
    payload: dict[str, Any] = {
        "seats": [s.name for s in ordered],
        "bots": [s.bot or None for s in ordered],
    }
    if match.fair:
        match.client_seeds = client_seeds  # saved with the row (funnel.MATCH_FIELDS)
        payload |= {
            "algorithm": shuffle.ALGORITHM,
            "commitment": shuffle.commitment(match.server_seed),
            "client_seeds": client_seeds,
        }
    dealer = first_dealer(match.server_seed, client_seeds)
    payload["dealer"] = dealer
    change.log(Event.Kind.START, payload)
    change.begin(engine.Match(engine.Rules.from_dict(match.rules), dealer=dealer))
    deal(change)
    match.status = Match.Status.PLAYING
    match.started_at = change.now
    change.set_deadline()
    signals.match_started.send(
        sender=Match, match=match, people=[s.user_id for s in ordered if s.user_id is not None]
    )


def deal(change: Change) -> None:
    """Deal the next round and log its whole deck order (``deal``).

    The deck is :func:`shuffled_deck` of the match's seeds for the next round's number
    (1 for the first; every round of the match counts, extra rounds too).
    """
    match = change.match
    number = change.live.round_number + 1
    deck = shuffled_deck(match.server_seed, list(match.client_seeds or ()), number)
    change.deal(deck)
    live = change.live
    change.log(
        Event.Kind.DEAL, {"round": live.round_number, "dealer": live.round.dealer, "deck": deck}
    )


def leave_table(*, user: Any, match_id: int) -> None:
    """Give up one's seat before the match starts.

    When the last seated person leaves, the table is removed (it holds no game; computer seats
    do not keep it): its sockets get ``closed`` and the lobby drops it. If other people still
    wait, the table stays open.

    :raises GameError: ``login_required``, ``not_found``, ``not_seated``, ``cannot_leave``
        (the match has started).
    """
    require_login(user)

    def body(change: Change) -> None:
        match = change.match
        seats = change.seat_models()
        mine = next((s for s in seats if s.user_id == user.pk), None)
        if mine is None:
            raise GameError("not_seated")
        if match.status != Match.Status.OPEN:
            raise GameError("cannot_leave")
        mine.delete()
        change.lobby = True
        if not any(s.user_id is not None and s is not mine for s in seats):
            match.delete()
            change.deleted, change.announce = True, "closed"
            return
        change.changed_seating()
        change.log(
            Event.Kind.LEAVE, {"user": user.pk, "username": user.get_username()}, seat=mine.seat
        )
        change.announce = "seating"

    funnel.run(match_id, body)


def close_abandoned(*, match_id: int, now: datetime, silent_since: datetime) -> bool:
    """Close an open table that nobody seated there has had a socket at since ``silent_since``.

    The clock's sweep (``games.core.clock.clock.tick``; ``silent_since`` is ``now`` less
    ``BASRA_OPEN_TABLE_ABANDON_SECONDS``): a table whose creator (and whoever joined) went away
    would stay in the lobby, and a person joining it would wait for nobody. A seated person is
    there while one of their sockets beats (``Seat.last_seen``, refreshed by the table and lobby
    sockets). Like the last person leaving (:func:`leave_table`), the table is removed (it holds
    no game): its sockets get ``closed`` and the lobby drops it. Checked again under the row
    lock, so a person who came back meanwhile keeps the table. A table another app protects
    (a tournament's) is left alone.

    :returns: whether the table was closed (``False``: it started, someone was seen, it is
        protected, or it is gone).
    """

    def body(change: Change) -> bool:
        match = change.match
        if match.status != Match.Status.OPEN:
            return False
        seats = change.seat_models()
        people = [s for s in seats if s.user_id is not None]
        if any(s.last_seen is not None and s.last_seen >= silent_since for s in people):
            return False
        if match.created_at >= silent_since:
            return False
        try:
            match.delete()
        except ProtectedError:
            return False
        change.deleted, change.announce, change.lobby = True, "closed", True
        return True

    try:
        return funnel.run(match_id, body, now=now)
    except GameError:
        return False  # removed meanwhile
