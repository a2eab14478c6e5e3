"""Rating a finished match, voiding one, and the win chances of a match.

The policy is ``games.ratings.glicko2.rate_match`` (lichess's): every rated match is its own
rating period; each player's deviation is first widened for the days since their previous rated
match in the pool. What is rated (the issue "Ratings, ladder, profiles and match history"):

- only a match created ``rated`` whose every seat belongs to a person (``Seat.user`` set; a
  person's seat the computer took over after they left a match for four still counts for them:
  they sat down to a rated match). The core refuses rated tables with computer seats
  (``bot_not_rated``); this is checked again here.
- an abort (``result`` "abort", no winner) is not rated, nor a match decided away from the
  table (``result`` "decided": a tournament forfeit or withdrawal, not played out), nor a match
  whose every play was the computer's (:func:`played_by_nobody`: everyone left before the first
  play and the stand-ins or the clock played it out, as lichess aborts a game nobody moved in);
  every other ending (target, claim, resignation) is a win for the winning side and a loss for
  the other.
- 1v1 (tables for two): :func:`glicko2.rate_match` against the opponent's rating at the start.
- partnership (tables for four): each player is rated as in a 1v1 against
  :func:`glicko2.composite_opponent` of their partner and their two opponents (the
  composite-opponent method, Williams 2013, cited there).

Exactly once: :class:`RatedMatch` has a one-to-one key on the match and is inserted first, in a
savepoint, so a second ``match_finished`` for the same match (sent twice, or by two processes at
once: PostgreSQL makes the second insert wait for the first transaction, then fail) rates nothing.
The rating rows are then locked (``select_for_update``, in user id order, so two matches sharing
players never deadlock) before they are read.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import StrEnum
from datetime import datetime
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext_lazy

from games.core.for_apps import Refusal
from games.ratings import glicko2
from games.ratings.models import PlayerRating, Pool, RatedMatch, RatingChange

#: ``Match.Result`` value of an abort (the core's, repeated so this module reads no core enum).
ABORT = "abort"
#: ``Match.Result`` value of a match decided away from the table (a forfeit, a withdrawal).
DECIDED = "decided"


class VoidCode(StrEnum):
    """Why a void is refused."""

    NOT_RATED = "not_rated"
    VOID_ALREADY = "void_already"
    LATER_MATCHES = "later_matches"


VOID_MESSAGES = {
    VoidCode.NOT_RATED: gettext_lazy("Match %(id)s was not rated: there is nothing to void."),
    VoidCode.VOID_ALREADY: gettext_lazy(
        "Match %(id)s is void already (since %(when)s): nothing was changed."
    ),
    VoidCode.LATER_MATCHES: gettext_lazy(
        "Match %(id)s cannot be voided: its players have played later rated matches "
        "(%(later)s). Void those first, newest first."
    ),
}


class VoidRefused(Refusal):
    """A void that was refused: nothing was changed (``games.core.for_apps.Refusal``).

    ``params``: ``id`` (the match), ``when`` (a ``datetime``, written in the reader's format
    when the message is read), ``later`` (match ids).
    """

    codes = VoidCode
    messages = VOID_MESSAGES

    def _params(self) -> dict:
        params = dict(self.params)
        if "when" in params:
            params["when"] = date_format(timezone.localtime(params["when"]), "SHORT_DATETIME_FORMAT")
        if "later" in params:
            params["later"] = ", ".join(str(m) for m in params["later"])
        return params


def on_match_finished(sender: Any, match: Any, winner: int | None, result: str, **kwargs: Any):
    """Receiver of ``games.core.signals.match_finished``: rate the match if it is rated.

    Runs inside the transaction that ends the match; an error here rolls the ending back. A
    match decided away from the table (``decided``: a tournament forfeit or withdrawal, not
    played out) is not rated, like an abort, nor one that only the computer played
    (:func:`played_by_nobody`).
    """
    if not match.rated or winner is None or result in (ABORT, DECIDED):
        return
    if played_by_nobody(match):
        return
    rate_finished_match(match, winner)


def played_by_nobody(match: Any) -> bool:
    """Whether ``match`` had plays and none of them was a person's: each was the computer's
    (``bot`` in the ``play`` event's payload: a stand-in for an absent person) or the clock's
    (``timeout``). ``docs/protocol.md`` "Event log". A match ended before its first play (a
    resignation, a claim) is not one of these.

    One query, read in ``seq`` order until the first person's play.
    """
    plays = match.events.filter(kind="play").order_by("seq").values_list("payload", flat=True)
    seen = False
    for payload in plays.iterator(chunk_size=100):
        seen = True
        if not payload.get("bot") and payload.get("timeout") is not True:
            return False
    return seen


def _days(since: datetime | None, now: datetime) -> float:
    if since is None:
        return 0.0
    return max((now - since).total_seconds() / 86400.0, 0.0)


def _seats(match: Any) -> list[Any] | None:
    """The match's seats in seat order, or ``None`` unless every seat is a person's."""
    seats = list(match.seats.select_related("user").order_by("seat"))
    if len(seats) != match.players or any(seat.user_id is None for seat in seats):
        return None
    return seats


def rate_finished_match(match: Any, winner: int) -> RatedMatch | None:
    """Rate ``match`` (finished, ``winner`` the winning side 0 or 1), once.

    :returns: the new :class:`RatedMatch`, or ``None`` when nothing was rated: not every seat is
        a person's, or the match was rated already.
    :raises ValueError: ``winner`` is not 0 or 1.
    """
    if winner not in (0, 1):
        raise ValueError(f"the winner is side 0 or 1, got {winner!r}")
    seats = _seats(match)
    if seats is None:
        return None
    pool = Pool.of_players(match.players)
    now = match.finished_at or timezone.now()
    with transaction.atomic():
        try:
            with transaction.atomic():
                record = RatedMatch.objects.create(match=match, pool=pool, rated_at=now)
        except IntegrityError:
            return None  # rated already: exactly once
        user_ids = sorted(seat.user_id for seat in seats)
        PlayerRating.objects.bulk_create(
            [PlayerRating(user_id=user_id, pool=pool) for user_id in user_ids],
            ignore_conflicts=True,
        )
        rows = {
            row.user_id: row
            for row in PlayerRating.objects.select_for_update()
            .filter(pool=pool, user_id__in=user_ids)
            .order_by("user_id")
        }
        before = {seat.seat: rows[seat.user_id].current(now) for seat in seats}
        changes, record_seats = [], []
        for seat in seats:
            row = rows[seat.user_id]
            score = 1.0 if seat.seat % 2 == winner else 0.0
            if match.players == 2:
                opponent = before[1 - seat.seat]
            else:
                opponent = glicko2.composite_opponent(
                    before[seat.seat],
                    before[(seat.seat + 2) % 4],
                    [before[s.seat] for s in seats if s.seat % 2 != seat.seat % 2],
                )
            after = glicko2.rate_match(
                row.glicko, opponent, score, days_since_last=_days(row.last_rated_at, now)
            )
            changes.append(
                RatingChange(
                    user_id=seat.user_id, rated=record, match=match, pool=pool, rated_at=now,
                    score=score, rating_before=row.rating, rating_after=after.rating,
                    deviation_before=before[seat.seat].deviation,
                    deviation_after=after.deviation, volatility_after=after.volatility,
                    stored_deviation_before=row.deviation,
                    stored_volatility_before=row.volatility,
                    previous_rated_at=row.last_rated_at,
                )
            )
            record_seats.append({
                "seat": seat.seat, "user": seat.user_id, "side": seat.seat % 2, "score": score,
                "before": round(row.rating, 2), "after": round(after.rating, 2),
                "deviation_before": round(before[seat.seat].deviation, 2),
                "deviation_after": round(after.deviation, 2),
            })
            row.rating, row.deviation, row.volatility = after.rating, after.deviation, after.volatility
            row.matches += 1
            row.wins += score == 1.0
            row.losses += score == 0.0
            row.last_rated_at = now
        PlayerRating.objects.bulk_update(
            rows.values(),
            ["rating", "deviation", "volatility", "matches", "wins", "losses", "last_rated_at"],
        )
        RatingChange.objects.bulk_create(changes)
        record.seats = record_seats
        record.save(update_fields=["seats"])
    return record


def void_match(match_id: int, *, by: Any = None, now: datetime | None = None) -> RatedMatch:
    """Undo a rated match's rating changes (staff, from the admin).

    Every player of the match gets back their row exactly as it was before the match (rating,
    deviation, volatility, counts, last rated match); their history rows stay, marked voided.

    **Refused when a player of the match has a later rated match in the pool** (not voided),
    rather than recomputing those: a recomputation would replay every later match of these
    players, which moves their later opponents' ratings too, and theirs' opponents', so a void
    would rewrite the ratings, the history and the before/after of matches that never involved
    the voided one. Refusing keeps every shown figure true; staff who must can void the later
    matches first, newest first, each of which is then exact (lichess likewise never recomputes
    past games; it refunds points).

    :param by: the staff user, recorded as ``voided_by``.
    :returns: the voided :class:`RatedMatch`.
    :raises VoidRefused: the match was not rated; it is void already; later rated matches of its
        players exist (the message names them). Nothing is changed.
    """
    now = timezone.now() if now is None else now
    with transaction.atomic():
        record = RatedMatch.objects.select_for_update().filter(match_id=match_id).first()
        if record is None:
            raise VoidRefused(VoidCode.NOT_RATED, id=match_id)
        if record.voided_at is not None:
            raise VoidRefused(VoidCode.VOID_ALREADY, id=match_id, when=record.voided_at)
        changes = list(record.changes.filter(voided=False).order_by("user_id"))
        user_ids = [change.user_id for change in changes]
        rows = {
            row.user_id: row
            for row in PlayerRating.objects.select_for_update()
            .filter(pool=record.pool, user_id__in=user_ids)
            .order_by("user_id")
        }
        later = sorted({
            match for match in RatingChange.objects.filter(
                user_id__in=user_ids, pool=record.pool, voided=False
            ).filter(
                Q(rated_at__gt=record.rated_at) | Q(rated_at=record.rated_at, rated_id__gt=record.pk)
            ).values_list("match_id", flat=True)
        })
        if later:
            raise VoidRefused(VoidCode.LATER_MATCHES, id=match_id, later=later)
        for change in changes:
            row = rows[change.user_id]
            row.rating = change.rating_before
            row.deviation = change.stored_deviation_before
            row.volatility = change.stored_volatility_before
            row.last_rated_at = change.previous_rated_at
            row.matches -= 1
            row.wins -= change.score == 1.0
            row.losses -= change.score == 0.0
        PlayerRating.objects.bulk_update(
            rows.values(),
            ["rating", "deviation", "volatility", "matches", "wins", "losses", "last_rated_at"],
        )
        record.changes.update(voided=True)
        record.voided_at, record.voided_by = now, by
        record.save(update_fields=["voided_at", "voided_by"])
    return record


@dataclass(frozen=True)
class SideChance:
    """One side's win chance before a rated match: ``names`` of its players, ``ratings`` shown
    (e.g. "1523?"), ``chance`` the expected score 0 to 1, ``percent`` rounded."""

    names: list[str]
    ratings: list[str]
    chance: float

    @property
    def percent(self) -> int:
        """The chance in whole percent."""
        return round(self.chance * 100)

    @property
    def players(self) -> list[tuple[str, str]]:
        """``(name, shown rating)`` of each player of the side."""
        return list(zip(self.names, self.ratings))


def shown(rating: float, deviation: float) -> str:
    """A rating as people read it: rounded, with "?" while provisional (deviation >= 110)."""
    mark = "?" if deviation >= glicko2.PROVISIONAL_DEVIATION else ""
    return f"{round(rating)}{mark}"


def _side_rating(ratings: list[glicko2.Rating]) -> glicko2.Rating:
    """A side as one player: the mean rating, the root mean square deviation (as the
    composite opponent, ``glicko2.composite_opponent``), the mean volatility."""
    return glicko2.Rating(
        sum(r.rating for r in ratings) / len(ratings),
        math.sqrt(sum(r.deviation**2 for r in ratings) / len(ratings)),
        sum(r.volatility for r in ratings) / len(ratings),
    )


def win_chances(match: Any, now: datetime | None = None) -> list[SideChance] | None:
    """Each side's expected score before ``match`` starts, from the ratings before it.

    A rated match that was rated already uses the ratings its record kept from before it; one
    not yet rated uses the players' ratings now (widened for idle time). The expected score is
    :func:`glicko2.expected_score` (Glickman's Glicko formula, both deviations); for four
    players each side counts as one player of its mean rating and root-mean-square deviation.

    :returns: ``[side 0, side 1]``, or ``None`` when the match is not rated, not every seat is
        taken by a person, or it was aborted.
    """
    if not match.rated or match.result == ABORT:
        return None
    seats = _seats(match)
    if seats is None:
        return None
    names = {seat.seat: seat.user.get_username() for seat in seats}
    record = RatedMatch.objects.filter(match=match).first()
    if record is not None and record.seats:
        by_seat = {
            s["seat"]: glicko2.Rating(s["before"], s["deviation_before"], glicko2.NEW_PLAYER.volatility)
            for s in record.seats
        }
    else:
        now = timezone.now() if now is None else now
        pool = Pool.of_players(match.players)
        rows = {
            row.user_id: row
            for row in PlayerRating.objects.filter(pool=pool, user_id__in=[s.user_id for s in seats])
        }
        by_seat = {
            seat.seat: rows[seat.user_id].current(now) if seat.user_id in rows
            else glicko2.NEW_PLAYER
            for seat in seats
        }
    sides = [[seat.seat for seat in seats if seat.seat % 2 == side] for side in (0, 1)]
    side_ratings = [_side_rating([by_seat[s] for s in side]) for side in sides]
    first = glicko2.expected_score(side_ratings[0], side_ratings[1])
    return [
        SideChance(
            names=[names[s] for s in side],
            ratings=[shown(by_seat[s].rating, by_seat[s].deviation) for s in side],
            chance=chance,
        )
        for side, chance in zip(sides, (first, 1.0 - first))
    ]
