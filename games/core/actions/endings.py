"""How a match ends: :func:`finish`, the one function every ending goes through, and the actions
that end a match before its target (claim, resignation, abort, a decision from outside the table).
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from django.db import transaction

from games.core.actions import funnel
from games.core.actions.funnel import Change, require_login
from games.core.errors import GameError
from games.core.models import Event, Match, is_own_play
from games.core.signals import match_finished
from games.core.state.cache import SeatRow, seat_rows


def finish(
    change: Change,
    winner: int | None,
    result: str,
    *,
    missed: list[int] | None = None,
    unplayed: list[int] | None = None,
) -> None:
    """End the match: ``match_end``, the row's end fields, and ``match_finished``.

    Every way a match ends (the target reached, a claim, a resignation, an abort before the first
    play, a decision from outside the table, a table nobody is left at) goes through here (after
    lila's ``round/Finisher.scala``), so the finished row always looks the same to whatever reads
    it later. The row and its events are written first, then
    ``games.core.signals.match_finished`` is sent, inside the transaction: a receiver that raises
    rolls the ending back and the match stays playable. Nothing may be logged after it.

    A rated match is aborted early, as lichess aborts a game a player never moved in, when a
    person seated at it has not played a card of the first deal themselves
    (:func:`first_deal_unplayed`): at once, when the clock runs out on them or the computer
    takes their seat over (:func:`abort_if_unplayed`, which passes ``missed``), or else when
    the match ends (target, claim, resignation) before they did. ``winner`` is then ``None``,
    ``result`` ``abort``, and ``match_end`` has ``"early": true`` and ``"missed"``: the seats
    that lost their chance then (at once), or that never played (at the end)
    (``docs/protocol.md``, "Event log"). Not at a table opened with ``early_abort=False`` (a
    tournament's: its own abort rules stand), nor an ``abandoned`` one (already no result for
    anybody). ``match_finished`` carries ``early`` (whether this happened) and ``unplayed``
    (those seats, or ``None`` when not counted: a casual match, an abort, a decision), so its
    receivers need not count again.

    :param winner: the winning side, 0 or 1; ``None`` for an abort (or a decision that nobody won).
    :param result: a ``Match.Result`` value.
    :param missed: when the match is aborted early now (``result`` ``abort``), the seats whose
        person lost the chance to play a card of the first deal; ``None`` otherwise.
    :param unplayed: with ``missed``, :func:`first_deal_unplayed` as counted by the caller.
    :raises funnel.Moved: a compare-and-set change found the row moved on (the funnel retries).
    """
    match = change.match
    early = bool(missed)
    if not early:
        unplayed = None
        if match.rated and result not in (Match.Result.ABORT, Match.Result.DECIDED):
            unplayed = first_deal_unplayed(match, change.events)
            if unplayed and match.early_abort and result != Match.Result.ABANDONED:
                # The match ended before those persons played: every one of them missed it.
                winner, result, early, missed = None, Match.Result.ABORT, True, unplayed
    payload = {"scores": list(match.scores), "winner": winner, "reason": str(result)}
    if early:
        payload["early"] = True
        payload["missed"] = sorted(missed)
    change.log(Event.Kind.MATCH_END, payload)
    match.status = Match.Status.FINISHED
    match.finished_at = change.now
    match.winner_side = winner
    match.result = result
    match.deadline = None
    change.finished = True
    # One transaction with the receivers (a savepoint inside the locked way's transaction; the
    # transaction itself after a compare-and-set, which has none of its own on PostgreSQL).
    with transaction.atomic():
        change.write()
        match_finished.send(
            sender=Match, match=match, winner=winner, result=str(result),
            early=early, unplayed=unplayed,
        )


def first_deal_unplayed(match: Match, pending: Iterable[Event] = ()) -> list[int]:
    """The seats of persons (``Seat.user`` set) who have not played a card of the match's first
    deal themselves: the first ``4 * players`` plays (RULES.md, "Dealing": 4 cards to every
    seat), a play of the clock (``"timeout": true``) or of the computer standing in
    (``"bot"``) not counting. Seat numbers in order; ``[]`` when everyone has.

    One query (the written plays, at most ``4 * players`` of them); ``pending``: events logged
    and perhaps not written yet (a change's), counted too.
    """
    first = 4 * match.players
    written = Event.objects.filter(match_id=match.pk, kind=Event.Kind.PLAY).order_by("seq")
    plays = dict(
        (seq, (seat, payload))
        for seq, seat, payload in written.values_list("seq", "seat", "payload")[:first]
    )
    plays.update(
        (event.seq, (event.seat, event.payload))
        for event in pending if event.kind == Event.Kind.PLAY
    )
    played = {
        seat for _seq, (seat, payload) in sorted(plays.items())[:first]
        if is_own_play(Event.Kind.PLAY, payload)
    }
    return [s.seat for s in seat_rows(match) if s.user_id is not None and s.seat not in played]


def abort_if_unplayed(change: Change, seats: Iterable[int]) -> bool:
    """Abort the match at once if one of ``seats``, a person's, is losing the chance to play a
    card of the first deal themselves: the clock ran out on them, or the computer took their
    seat over, before they played one (lichess aborts a game whose player does not make a first
    move, there and then). The people who are there are not made to play on for a match that
    will be aborted anyway (:func:`finish`'s conversion at the end stays, for the rest).

    Only at a rated table opened with ``early_abort`` (a tournament's has its own abort rules),
    while its first deal is being played (the first ``4 * players`` plays). Ends through
    :func:`finish` with ``missed``: those of ``seats`` who have not played a card of the first
    deal themselves (:func:`first_deal_unplayed`, one query). The others who have not played
    yet are not named: their turn had not come.

    :param seats: the seats whose person lost the chance (the one to move whose time ran out,
        the seats just taken over).
    :returns: whether the match ended.
    """
    match = change.match
    if not (match.rated and match.early_abort and match.status == Match.Status.PLAYING):
        return False
    live = change.live
    first_deal = len(live.rounds) == 1 and len(live.rounds[0].plays) < 4 * match.players
    if not first_deal:
        return False
    unplayed = first_deal_unplayed(match, change.events)
    missed = sorted(set(seats) & set(unplayed))
    if not missed:
        return False
    finish(change, None, Match.Result.ABORT, missed=missed, unplayed=unplayed)
    return True


def in_play(match: Match) -> None:
    """:raises GameError: ``not_started`` or ``match_over`` unless the match is being played."""
    if match.status == Match.Status.OPEN:
        raise GameError("not_started")
    if match.status == Match.Status.FINISHED:
        raise GameError("match_over")


def my_seat_in_play(change: Change, user: Any) -> SeatRow:
    """``user``'s seat, at a match being played, still played by them.

    :raises GameError: ``not_seated``, ``not_started``, ``match_over``, ``replaced_by_bot``.
    """
    mine = next((s for s in change.seats if s.user_id == user.pk), None)
    if mine is None:
        raise GameError("not_seated")
    in_play(change.match)
    if mine.bot:
        raise GameError("replaced_by_bot")
    return mine


def claim_win(*, user: Any, match_id: int, now: datetime | None = None) -> int:
    """Win a 2-player match whose opponent is absent (lichess's "claim victory").

    Logs ``claim`` then ``match_end`` (``"reason": "claim"``); the match ends with the claimer's
    side the winner and the scores of the finished rounds.

    :returns: the table's new ``seq``.
    :raises GameError: ``login_required``, ``not_found``, ``not_seated``, ``not_started``,
        ``match_over``, ``claim_not_allowed`` (4 players, a computer opponent, or an opponent who
        is not absent), ``opponent_returned`` (the opponent was absent and came back).
    """
    require_login(user)

    def body(change: Change) -> int:
        mine = my_seat_in_play(change, user)
        match = change.match
        if match.players != 2:
            raise GameError("claim_not_allowed")
        other = next(s for s in change.seats if s.seat == 1 - mine.seat)
        if other.user_id is None or not other.absent:
            returned = Event.objects.filter(
                match_id=match.pk, kind=Event.Kind.RETURNED, seat=other.seat
            ).exists()
            raise GameError("opponent_returned" if returned else "claim_not_allowed")
        change.log(Event.Kind.CLAIM, {"absent_seat": other.seat}, seat=mine.seat)
        finish(change, mine.seat % 2, Match.Result.CLAIM)
        return match.seq

    return funnel.run(match_id, body, now=now)


def resign(*, user: Any, match_id: int, now: datetime | None = None, alone: bool = False) -> str:
    """Resign for one's side (the client asks for a confirmation first).

    2 players: the side loses at once (``resign``, ``match_end`` with ``"reason": "resign"``).
    4 players: the side resigns when both partners agree, or at once when the partner is absent
    or played by the computer, or ``alone`` is true (the player's account is closing:
    ``accounts.closing``); otherwise this is an offer (``resign_offer``) that stands until
    the partner resigns too or the match ends.

    :returns: ``"resigned"`` or ``"offered"``.
    :raises GameError: ``login_required``, ``not_found``, ``not_seated``, ``not_started``,
        ``match_over``, ``replaced_by_bot``, ``resign_offered`` (an offer of this seat stands).
    """
    require_login(user)

    def body(change: Change) -> str:
        mine = my_seat_in_play(change, user)
        side = mine.seat % 2
        partner = None
        if change.match.players == 4:
            partner = next(s for s in change.seats if s.seat == (mine.seat + 2) % 4)
        if alone or partner is None or partner.bot or partner.absent or partner.resign_offered:
            agreed = [mine.seat] + ([partner.seat] if partner and partner.resign_offered else [])
            change.log(Event.Kind.RESIGN, {"side": side, "seats": agreed}, seat=mine.seat)
            finish(change, 1 - side, Match.Result.RESIGN)
            return "resigned"
        if mine.resign_offered:
            raise GameError("resign_offered")
        seat = next(s for s in change.seat_models() if s.seat == mine.seat)
        seat.resign_offered = True
        seat.save(update_fields=["resign_offered"])
        change.changed_seating()
        change.log(Event.Kind.RESIGN_OFFER, {"side": side}, seat=mine.seat)
        return "offered"

    return funnel.run(match_id, body, now=now)


def abort_match(*, user: Any, match_id: int, now: datetime | None = None) -> int:
    """Call a match off before its first play (lichess's "abort"): nobody wins, and it is not
    rated. Logs ``abort`` then ``match_end`` (``"reason": "abort"``, ``"winner": null``).

    :returns: the table's new ``seq``.
    :raises GameError: ``login_required``, ``not_found``, ``not_seated``, ``not_started``,
        ``match_over``, ``replaced_by_bot``, ``abort_not_allowed`` (a card has been played).
    """
    require_login(user)

    def body(change: Change) -> int:
        mine = my_seat_in_play(change, user)
        live = change.live
        if len(live.rounds) != 1 or live.round.plays:
            raise GameError("abort_not_allowed")
        change.log(Event.Kind.ABORT, {}, seat=mine.seat)
        finish(change, None, Match.Result.ABORT)
        return change.match.seq

    return funnel.run(match_id, body, now=now)


def end_by_decision(*, match_id: int, winner: int | None, now: datetime | None = None) -> int:
    """End a match being played by a decision taken away from the table: an app built on the
    core (a tournament organiser's forfeit, a withdrawal) has already decided its outcome.

    Logs ``match_end`` (``"reason": "decided"``) through :func:`finish`, so the row is finished
    (``result`` ``decided``, ``winner_side`` ``winner``), ``match_finished`` is sent inside the
    transaction and every socket of the table gets the final state after the commit; the table
    can no longer be played, claimed or resigned (``match_over``). The scores stay those of the
    finished rounds. Called inside the caller's transaction, it locks the match row there: the
    caller takes the match's lock before any lock of its own that a ``match_finished`` receiver
    takes (the tournaments app: the match, then the event).

    :param winner: the side that wins, 0 or 1; ``None``: nobody wins (both sides lose).
    :returns: the table's new ``seq``.
    :raises GameError: ``bad_winner`` (not 0, 1 or ``None``), ``not_found``, ``not_started``
        (still waiting for players), ``match_over`` (already finished).
    """
    if winner is not None and winner not in (0, 1):
        raise GameError("bad_winner")

    def body(change: Change) -> int:
        in_play(change.match)
        finish(change, winner, Match.Result.DECIDED)
        return change.match.seq

    return funnel.run(match_id, body, now=now)
