"""Playing: a person's card, the computer's card, and the card the server plays for a person whose
time ran out. Each ends a round when it is the round's last (``round_end``, then ``match_end`` or
the next ``deal``).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db.models import Q
from django.utils import timezone

from games import engine
from games.core.actions import funnel, presence, seating
from games.core.actions.endings import abort_if_unplayed, finish, in_play, my_seat_in_play
from games.core.actions.funnel import Change, require_login
from games.core.actions.store import write_transaction
from games.core.errors import GameError, from_engine
from games.core.models import Event, Match, Seat
from games.core.state import liveness, reads
from games.core.state.cache import seat_rows
from games.engine.bots import BOTS, GreedyBot

#: Seconds a computer player may think per play (the strong bot uses it all; the others need
#: far less). It adds to the human-looking delay, so it is kept short.
BOT_TIME_LIMIT = 0.5


def apply_play(change: Change, seat: int, card: engine.Card, extra: dict | None = None) -> None:
    """Play ``card`` for ``seat``: the ``play`` event, and after the last play of a round
    ``round_end`` then the match's end or the next ``deal``; the new deadline (after a new
    deal, ``BASRA_ROUND_PAUSE_SECONDS`` later than usual).

    :param extra: more payload for the ``play`` event (``timeout``, ``bot``).
    :raises GameError: the engine's refusal (``not_your_turn``, ``card_not_in_hand``, …).
    """
    capture = change.play(seat, card)
    change.log(
        Event.Kind.PLAY,
        {
            "card": card.code,
            "taken": [c.code for c in sorted(capture.taken)],
            "basra": None if capture.basra is None else capture.basra.value,
            **(extra or {}),
        },
        seat=seat,
    )
    live = change.live
    if live.rounds[-1].over:
        finished = live.rounds[-1]
        change.log(
            Event.Kind.ROUND_END,
            {
                "round": len(live.rounds),
                "breakdown": finished.score_breakdown().to_dict(),
                "scores": list(live.scores),
            },
        )
        change.match.scores = list(live.scores)
        if live.over:
            finish(change, live.winner, Match.Result.TARGET)
            return
        seating.deal(change)
        # The next round's first play: its clock starts after a pause, so that the score of
        # the round just ended can be read (the computer waits too).
        change.set_deadline(pause=settings.BASRA_ROUND_PAUSE_SECONDS)
        return
    change.set_deadline()


def _parse(card: Any) -> engine.Card:
    """:raises GameError: ``bad_card`` unless ``card`` is a card code (RULES.md "Names")."""
    if not isinstance(card, str):
        raise GameError("bad_card")
    try:
        return engine.Card.from_code(card)
    except engine.BasraError as error:
        raise from_engine(error) from None


def _timed_out_since(match: Match, seat: int, seq: int) -> bool:
    """Whether the server played for ``seat`` on a timeout after event ``seq``."""
    return Event.objects.filter(
        match_id=match.pk, seq__gt=seq, kind=Event.Kind.PLAY, seat=seat, payload__timeout=True
    ).exists()


def play_card(
    *, user: Any, match_id: int, card: str, seq: int, now: datetime | None = None
) -> int:
    """Play ``card`` for ``user``'s seat.

    The play is applied only if ``seq`` is the table's current ``seq`` (the client saw the latest
    state), which also turns a double click into a ``stale`` refusal; when the server played for
    the seat on a timeout since ``seq``, the refusal is ``timed_out``. The engine decides the
    capture; the ``play`` event records it. A player marked absent who plays is back:
    ``returned`` comes first. Through the funnel's compare-and-set when this process keeps the
    table at ``seq`` (``games.core.actions.funnel``).

    :param card: a card code (RULES.md "Names"; ``T`` accepted for 10).
    :param seq: the latest ``seq`` the client has seen.
    :returns: the table's new ``seq``.
    :raises GameError: ``login_required``, ``not_found``, ``not_seated``, ``not_started``,
        ``match_over``, ``replaced_by_bot``, ``timed_out``, ``stale``, ``bad_card``,
        ``not_your_turn``, ``card_not_in_hand``.
    """
    require_login(user)
    valid_seq = isinstance(seq, int) and not isinstance(seq, bool)

    def body(change: Change) -> int:
        match = change.match
        mine = my_seat_in_play(change, user)
        if seq != match.seq:
            if valid_seq and _timed_out_since(match, mine.seat, seq):
                raise GameError("timed_out")
            raise GameError("stale")
        chosen = _parse(card)
        if mine.absent or mine.timeouts:
            change.needs_lock()
            if mine.absent:
                change.log(Event.Kind.RETURNED, {"by": "play"}, seat=mine.seat)
            # Back, and seen now: the clock must not find the seat silent again at once.
            Seat.objects.filter(match_id=match.pk, seat=mine.seat).update(
                absent=False, timeouts=0, last_seen=change.now
            )
            change.changed_seating()
        apply_play(change, mine.seat, chosen)
        return match.seq

    return funnel.run(match_id, body, now=now, seen=seq if valid_seq else None)


# --- the computer ---------------------------------------------------------------------------


@dataclass(frozen=True)
class BotTurn:
    """What a computer seat needs to choose its card, read at one ``seq`` of the table.

    ``view`` is the engine's ``SeatView`` of ``seat`` (plain values, picklable: it can be sent
    to another process to think); ``seed`` makes the choice repeatable for this table, seat and
    ``seq``; ``level`` is a key of ``games.engine.bots.BOTS``.
    """

    match_id: int
    seat: int
    seq: int
    level: str
    seed: str
    view: Any


def bot_turn(*, match_id: int, seat: int) -> BotTurn:
    """The turn of the computer seat ``seat`` at table ``match_id``, as the table is now.

    :raises GameError: ``not_found``, ``not_bot_seat`` (a person plays ``seat``, or it is not a
        seat), ``not_started``, ``match_over``, ``not_your_turn``.
    """
    try:
        match = Match.objects.get(pk=match_id)
    except Match.DoesNotExist:
        raise GameError("not_found") from None
    mine = next((s for s in seat_rows(match) if s.seat == seat), None)
    if mine is None or not mine.bot:
        raise GameError("not_bot_seat")
    in_play(match)
    view = reads.turn_view(match, seat)
    if view is None:
        raise GameError("not_your_turn")
    return BotTurn(
        match_id=match.pk, seat=seat, seq=match.seq, level=mine.bot,
        seed=f"{match.pk}:{seat}:{match.seq}", view=view,
    )


def choose_card(turn: BotTurn) -> engine.Card:
    """The card the computer of ``turn.level`` plays on ``turn`` (pure: no database; it may run
    in another process). Thinks at most ``BOT_TIME_LIMIT`` seconds."""
    return BOTS[turn.level](seed=turn.seed, time_limit=BOT_TIME_LIMIT).choose(turn.view)


def bot_play(
    *,
    match_id: int,
    seat: int,
    now: datetime | None = None,
    card: engine.Card | None = None,
    seen: int | None = None,
) -> int:
    """The computer plays for ``seat``, which it holds, seeing only that seat's view.

    Without ``card``, the bot thinks here (:func:`bot_turn`, :func:`choose_card`), outside the
    transaction. With ``card`` (chosen elsewhere, e.g. in a worker process, on the table as it
    was at ``seen``), it is only applied. Either way the card is applied only if the table is
    still at that ``seq``, like a person's play. The clock calls this when the seat's delay is
    over.

    :returns: the table's new ``seq``.
    :raises GameError: ``not_found``, ``not_bot_seat`` (a person plays ``seat``, or it is not a
        seat), ``not_started``, ``match_over``, ``not_your_turn``, ``stale`` (the table changed
        while the bot thought).
    """
    if card is None:
        turn = bot_turn(match_id=match_id, seat=seat)
        card, seen = choose_card(turn), turn.seq

    def body(change: Change) -> int:
        if change.match.seq != seen:
            raise GameError("stale")
        mine = next((s for s in change.seats if s.seat == seat), None)
        if mine is None or not mine.bot:
            raise GameError("not_bot_seat")
        in_play(change.match)
        apply_play(change, seat, card, {"bot": mine.bot})
        return change.match.seq

    return funnel.run(match_id, body, now=now)


# --- the clock ------------------------------------------------------------------------------


def act_on_deadline(*, match_id: int, now: datetime | None = None) -> bool:
    """What the clock does when a table's ``deadline`` has passed at ``now``.

    The computer to move plays (:func:`bot_play`). A person to move runs out of time: the server
    plays the greedy bot's card for them (RULES.md leaves the choice open), logged as a ``play``
    with ``"timeout": true``; after ``presence.TIMEOUTS_ABSENT`` timeouts in a row the seat is
    absent (``presence.absent``'s consequences follow; the last person absent ends the match
    ``abandoned``, ``presence.end_if_nobody_left``). At a rated table, a person whose time runs
    out before they played a card of the first deal themselves gets no card: the match is
    aborted there and then (``endings.abort_if_unplayed``). At a table an app seats (a
    tournament's), a person who has not come yet is waited for instead (:func:`_wait_for`).

    :returns: whether the clock acted (a play, or the abort; False: the deadline had not
        passed, or the table changed meanwhile; the next tick looks again).
    """
    now = timezone.now() if now is None else now
    match = Match.objects.filter(pk=match_id).first()
    if (
        match is None
        or match.status != Match.Status.PLAYING
        or match.deadline is None
        or match.deadline > now
    ):
        return False
    turn = reads.seat_to_move(match)
    if turn is None:
        return False
    mover = next((s for s in seat_rows(match) if s.seat == turn), None)
    if mover is not None and mover.bot:
        try:
            bot_play(match_id=match_id, seat=turn, now=now)
        except GameError:
            return False
        return True
    if _wait_for(match, turn, now):
        return True
    return _timeout(match_id, turn, match.seq, now)


def _wait_for(match: Match, seat: int, now: datetime) -> bool:
    """Whether the clock waits for the person of ``seat``, whose time ran out at ``now``,
    rather than play for them: the table is one an app seats (``seating.seated_by_app``: a
    tournament's, opened for its players wherever they are), the person has not opened it yet
    (``Seat.last_seen`` not after the start), and the wait for its players (``liveness.absent_grace``
    from the start, which a tournament's no-show rule waits too) is not over. Their time then
    starts when that wait ends: the deadline moves to its end plus the time per play, so a
    person who comes late has a whole time per play, as lichess's tournaments wait for a first
    move. Under the row lock, the deadline alone moved (``funnel.move_deadline``), as an
    outage's time is given back. Queries: one, two with an app's; the lock only when it waits."""
    wait_end = match.started_at + liveness.absent_grace() if match.started_at else None
    if wait_end is None or now >= wait_end or not match.move_seconds:
        return False
    # The table counts its people as seen when it opens (``create_table``): a page of it opened
    # since is what says the person came.
    never_seen = Seat.objects.filter(
        Q(last_seen__isnull=True) | Q(last_seen__lte=match.started_at),
        match_id=match.pk, seat=seat, user__isnull=False, bot="",
    )
    if not never_seen.exists() or not seating.seated_by_app(match.pk):
        return False
    with write_transaction():
        locked = funnel.lock(match.pk)
        if (
            locked.seq != match.seq
            or locked.status != Match.Status.PLAYING
            or locked.deadline is None
            or locked.deadline > now
            or not never_seen.exists()
        ):
            return False
        funnel.move_deadline(locked, wait_end + timedelta(seconds=locked.move_seconds))
    return True


def _timeout(match_id: int, seat: int, seen: int, now: datetime) -> bool:
    """Play the greedy bot's card for person ``seat`` whose time ran out, or abort the rated
    match they never played in (see :func:`act_on_deadline`)."""

    def body(change: Change) -> bool:
        match = change.match
        if (
            match.seq != seen
            or match.status != Match.Status.PLAYING
            or match.deadline is None
            or match.deadline > now
        ):
            return False
        mine = next(s for s in change.seat_models() if s.seat == seat)
        live = change.live
        if mine.bot or live.round is None or live.round.over or live.round.turn != seat:
            return False
        if abort_if_unplayed(change, [seat]):
            return True
        apply_play(change, seat, GreedyBot().choose(live.view(seat)), {"timeout": True})
        mine.timeouts += 1
        fields = ["timeouts"]
        if change.finished:  # the last play of the match: nothing follows its end
            mine.save(update_fields=fields)
            return True
        if mine.timeouts >= presence.TIMEOUTS_ABSENT and not mine.absent:
            presence.absent(change, mine, "timeouts")
            fields += ["absent", "bot"]
        mine.save(update_fields=fields)
        change.changed_seating()
        if mine.absent and presence.end_if_nobody_left(change):
            return True
        if mine.bot:
            change.set_deadline()  # the computer now moves for the seat: its delay, not the clock
        return True

    try:
        return funnel.run(match_id, body, now=now)
    except GameError:
        return False
