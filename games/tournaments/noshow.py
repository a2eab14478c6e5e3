"""Players who do not come to their tournament table: a loss by default, never a table set up
again (``games.tournaments.services``).

A paired table waits for its players :func:`wait`, the core's absence grace
(``BASRA_ABSENT_GRACE_SECONDS``, 60 s by default; ``for_apps.absent_grace``), counted from the
moment the table opens: the core's clock then marks absent every seat whose person has had no
page of the table open for that long (``presence.mark_absent``). The wait is that grace and no
longer because the clock ends a table nobody came to ``abandoned`` at that moment: a longer wait
would need a table to outlive it. The event page and the table's notice publish it.

A side is a *no-show* (:func:`no_shows`) when every player of it is absent and none of them has
played a card of the first deal themselves (``first_deal_unplayed``, the clock's plays on a
time-out not counting: as lichess takes a player who never moved for one who never started).
It is decided only once the wait is over. The core's clock plays nothing for a person who has
not come during the wait (the table is the event's: ``for_apps.claim_tables_with``), but time-outs
of a player who came and left can mark a seat absent sooner (three in a row): by then the other
side, if it did not come either, is absent too, or silent the whole wait (the core's
``silent_too_long``), and both lose. What follows is FIDE's
"default" (Laws of Chess 6.7; C.07 16.2: a forfeit is an unplayed game), the pairing decided
once, its ``no_show`` set:

- one side: the other wins by default, a forfeit win (1-0, ``Pairing.forfeit``); its table,
  still being played, is ended decided (the core's ``end_by_decision``: not rated, no longer
  playable). The scheduler's tick finds it (:func:`decide_no_shows`).
- both: both lose by default (0-0, a double forfeit), and no table is set up again. The core
  has ended the table ``abandoned`` (nobody left at it): ``rounds.record_result`` calls
  :func:`default`. A knockout pairing needs someone to go on: the better seed does, as the
  bracket's seeding already favours it (the organiser may correct it).
- In a Swiss or an arena a no-show entrant is marked absent (``Entrant.absent``,
  :func:`mark_absent`): still in the event, with the points it has, but paired no more (a
  Swiss round it sits out gives it nothing; an arena wave passes it over) until one of its
  players rejoins from the event page (``registration.rejoin``). So lichess does: a Swiss
  player who misses a game is absent until they rejoin, an arena player who does not start is
  paused (lila's ``SwissPlayer.absent``; the arena ``Player.withdraw`` flag, shown as paused).
  Else each round or wave would pair it again, and each opponent would wait for it. A round
  robin keeps its fixed schedule (each missed table a default); a knockout's loser is out.

A player who comes back before the tick (the core logs ``returned``) is no longer absent and is
no no-show.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db.models import Exists, OuterRef

from games.core.for_apps import (
    Match, Seat, absent_grace, first_deal_unplayed, silent_too_long, write_transaction,
)
from games.tournaments import follow
from games.tournaments.checks import Format, locked_pairing
from games.tournaments.models import Entrant, Game, Pairing, Tournament
from games.tournaments.tables import better_seed, decide_live_tables, finish_pairing, lock_matches


def wait() -> timedelta:
    """How long a paired table waits for its players before a no-show loses by default: the
    core's absence grace (``BASRA_ABSENT_GRACE_SECONDS``, default 60 s), from the table's
    opening."""
    return absent_grace()


def no_shows(game: Game, match: Match, now: datetime | None = None) -> list[Entrant]:
    """The entrants of ``game``'s pairing (``pairing.a``, ``pairing.b``, read) who did not come
    to its table ``match``: every player of the side absent and none of them having played a
    card of the first deal themselves (the clock's plays on a time-out and the computer's do
    not count: ``first_deal_unplayed``). Absent: ``Seat.absent``, or, given ``now``, silent
    past the wait at ``now`` (the core's own rule, ``silent_too_long``), which the core's
    clock marks absent at its next tick. Two queries."""
    seats = Seat.objects.filter(match_id=match.pk, user__isnull=False)
    absent = {
        seat: gone
        or (
            now is not None
            and silent_too_long(last_seen=last_seen, started_at=match.started_at, now=now)
        )
        for seat, gone, last_seen in seats.values_list("seat", "absent", "last_seen")
    }
    unplayed = set(first_deal_unplayed(match))
    p = game.pairing
    out = []
    for entrant, side in ((p.a, game.a_side), (p.b, 1 - game.a_side)):
        side_seats = [seat for seat in absent if seat % 2 == side]
        if side_seats and all(absent[seat] and seat in unplayed for seat in side_seats):
            out.append(entrant)
    return out


def default(t: Tournament, p: Pairing, missing: list[Entrant], now: datetime) -> None:
    """Decide pairing ``p`` of ``t`` (both locked by the caller) by default against
    ``missing`` (one or both of its entrants, :func:`no_shows`): the other wins (both missing:
    both lose, or in a knockout the better seed goes on), a forfeit, ``no_show`` set; in a
    Swiss or an arena the missing are marked absent (:func:`mark_absent`). The tables of
    ``p`` still being played are the caller's to end (:func:`decide_no_shows`); the next round
    or wave follows after the commit (``follow.wake``)."""
    if len(missing) == 1:
        winner = p.b if missing[0].pk == p.a_id else p.a
        who = Pairing.NoShow.A if missing[0].pk == p.a_id else Pairing.NoShow.B
    else:
        winner = None
        who = Pairing.NoShow.BOTH
        if t.format == Format.KNOCKOUT:  # a bracket needs someone to go on
            winner = better_seed(p)
    finish_pairing(p, winner, now, forfeit=True)
    p.no_show = who
    p.save(update_fields=["no_show"])
    mark_absent(t, missing)
    follow.wake(t.pk)


#: The formats whose no-shows are marked absent: those that pair whoever is there.
PAUSING_FORMATS = (Format.SWISS, Format.ARENA)


def mark_absent(t: Tournament, missing: list[Entrant]) -> None:
    """Mark the active ones of ``missing`` (entrants of ``t``, locked by the caller) absent,
    in a Swiss or an arena (:data:`PAUSING_FORMATS`; other formats: nothing): the next rounds
    and waves leave them out until they rejoin (``registration.rejoin``). One query."""
    if t.format not in PAUSING_FORMATS:
        return
    Entrant.objects.filter(
        pk__in=[e.pk for e in missing], status=Entrant.Status.ACTIVE,
    ).update(absent=True)


def decide_no_shows(now: datetime) -> int:
    """The scheduler's part (``scheduler.tick``): every tournament table being played, opened
    more than :func:`wait` before ``now``, at which a side is a no-show (:func:`no_shows` at
    ``now``: the core marks absent the players silent that long, and sooner those the clock
    timed out three times in a row) is decided by default (:func:`default`) and ended (the core's
    ``end_by_decision``, ``tables.decide_live_tables``), each in a transaction of its own: the
    match's row lock, then the event's (the order ``match_finished`` takes them in), checked
    again under them.

    :returns: the number of pairings decided.
    """
    absent = Seat.objects.filter(match_id=OuterRef("match_id"), user__isnull=False, absent=True)
    candidates = (
        Game.objects.filter(
            winner__isnull=True, aborted=False, match__status=Match.Status.PLAYING,
            pairing__finished_at__isnull=True,
            pairing__tournament__status=Tournament.Status.RUNNING,
        )
        # Not before the wait is over: time-outs of a player who came and left can mark a seat
        # absent sooner (3 in a row), and the other side, who did not come either, would win by
        # default.
        .filter(Exists(absent), match__started_at__lt=now - wait())
        .order_by("pk")
        .values_list("pk", "match_id", "pairing_id")
    )
    decided = 0
    for game_id, match_id, pairing_id in list(candidates):
        with write_transaction():
            lock_matches([match_id])
            t, p = locked_pairing(pairing_id)
            match = Match.objects.get(pk=match_id)
            if t.status != Tournament.Status.RUNNING or p.finished or match.status != Match.Status.PLAYING:
                continue
            game = Game.objects.get(pk=game_id)
            game.pairing = p
            missing = no_shows(game, match, now)
            if not missing:
                continue
            default(t, p, missing, now)
            decide_live_tables([game], now)
            decided += 1
    return decided
