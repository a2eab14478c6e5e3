"""Rating a finished match, voiding one, and the win chances of a match.

The policy is ``games.ratings.glicko2.rate_match`` (lichess's): every rated match is its own
rating period; each player's deviation is first widened for the days since their previous rated
match in the pool. What is rated (the issues "Ratings, ladder, profiles and match history" and "Ranked play
players can reach and trust"; the rules page and ``docs/protocol.md``, "Rated matches", say the
same to the players):

- only a match created ``rated`` whose every seat belongs to a person (``Seat.user`` set). The
  core refuses rated tables with computer seats (``bot_not_rated``); this is checked again here.
- not rated at all, with the reason (:class:`Unrated`) kept per person (:class:`NotRated`) and
  written as the record's ``not_rated`` header: an abort before the first play (``aborted``); a
  match that ended before every person had played a card of the first deal themselves (a card
  the clock or the computer played for them does not count; ``first_deal_unplayed``): the core
  aborts it, at once when the clock runs out on such a person or the computer takes their seat
  over (``aborted_early``), or at a tournament's table, whose own abort rules stand, its
  result stands for the tournament but is not rated (``ended_early``), or a table left by
  everyone by then (``abandoned``); a match decided away from the table (``decided``: a
  tournament forfeit or withdrawal, not played out). As lichess aborts a game a player never
  moved in: a rating moves only once every person has played.
- otherwise a leaver never gains (:func:`seat_scores`): a person whose seat the computer took
  over (``Seat.bot``, 4 players) or who was absent at the end (``Seat.absent``) is rated as
  having lost, whatever their side's result, against the ratings before the match; so are all
  the people of an ``abandoned`` table (every one of them left). A person who stayed is never
  punished for another's leaving: one whose own partner left is not rated (``partner_left``:
  the computer played half of their side, so neither a win nor a loss says what they are
  worth); the others are rated by the result, a win for the winning side, a loss for the other.
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
from django.db.models import Max, Q
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext_lazy

from games.core.for_apps import Refusal, first_deal_unplayed, listing
from games.ratings import glicko2
from games.ratings.models import NotRated, PlayerRating, Pool, RatedMatch, RatingChange, RatingRefund

#: ``Match.Result`` value of an abort (the core's, repeated so this module reads no core enum).
ABORT = "abort"
#: ``Match.Result`` value of a match decided away from the table (a forfeit, a withdrawal).
DECIDED = "decided"
#: ``Match.Result`` value of a table every person had left.
ABANDONED = "abandoned"


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
            params["later"] = listing(str(m) for m in params["later"])
        return params


class Unrated(StrEnum):
    """Why a rated table's match did not rate a person: the record's ``not_rated`` header
    (RULES.md, "Game record"); a casual match has none."""

    ABORTED = "aborted"
    ABORTED_EARLY = "aborted_early"
    ENDED_EARLY = "ended_early"
    ABANDONED = "abandoned"
    DECIDED = "decided"
    PARTNER_LEFT = "partner_left"
    VOIDED = "voided"


#: The sentence shown for each :class:`Unrated` code (the table page, the match history).
NOT_RATED_MESSAGES = {
    Unrated.ABORTED: gettext_lazy("Not rated: the match was aborted before its first play."),
    Unrated.ABORTED_EARLY: gettext_lazy(
        "Not rated: the match was aborted, as a player did not play a card of the first deal "
        "themselves."
    ),
    Unrated.ENDED_EARLY: gettext_lazy(
        "Not rated: the match ended before every player had played a card of the first deal "
        "(its result stands for the tournament)."
    ),
    Unrated.ABANDONED: gettext_lazy(
        "Not rated: everyone left before every player had played a card of the first deal."
    ),
    Unrated.DECIDED: gettext_lazy(
        "Not rated: the match was decided away from the table (a forfeit or a withdrawal)."
    ),
    Unrated.PARTNER_LEFT: gettext_lazy(
        "Not rated for you: your partner left and the computer played for them."
    ),
    Unrated.VOIDED: gettext_lazy("Not rated: staff voided this match's rating."),
}


def on_match_finished(sender: Any, match: Any, winner: int | None, result: str, **kwargs: Any):
    """Receiver of ``games.core.signals.match_finished``: rate the match if it is rated, by the
    rules of this module's docstring; who is not rated gets a :class:`NotRated` row saying why.

    Runs inside the transaction that ends the match; an error here rolls the ending back.
    ``kwargs``: the core's ``early`` (the core aborted it: it ended before every person played
    a card of the first deal) and ``unplayed`` (those seats; counted here, one query, when the
    sender did not).
    """
    if not match.rated:
        return
    seats = _seats(match)
    if seats is None:
        return
    reason = None
    if result == ABORT:
        reason = Unrated.ABORTED_EARLY if kwargs.get("early") else Unrated.ABORTED
    elif result == DECIDED:
        reason = Unrated.DECIDED
    else:
        unplayed = kwargs.get("unplayed")
        if unplayed is None:
            unplayed = first_deal_unplayed(match)
        if unplayed:
            reason = Unrated.ABANDONED if result == ABANDONED else Unrated.ENDED_EARLY
    if reason is not None:
        _not_rated(match, {seat.seat: (seat.user_id, reason) for seat in seats})
        return
    scores, unrated = seat_scores(match.players, seats, winner)
    if scores and rate_finished_match(match, winner, scores=scores) is not None:
        _not_rated(match, {s.seat: (s.user_id, unrated[s.seat]) for s in seats if s.seat in unrated})


def seat_scores(
    players: int, seats: list[Any], winner: int | None
) -> tuple[dict[int, float], dict[int, Unrated]]:
    """Who of ``seats`` (the ``Seat`` rows of a finished match that is rated, every one a
    person's) is rated with what score, and who is not: ``({seat: 1.0 win or 0.0 loss},
    {seat: reason})``. A leaver (the computer took the seat over, or absent at the end) scores
    0 whatever ``winner`` (``None``: an abandoned table, everyone a leaver); a person whose
    partner left is :attr:`Unrated.PARTNER_LEFT`; the others score by ``winner``'s side."""
    leavers = {seat.seat for seat in seats if seat.bot or seat.absent}
    scores: dict[int, float] = {}
    unrated: dict[int, Unrated] = {}
    for seat in seats:
        if seat.seat in leavers:
            scores[seat.seat] = 0.0
        elif winner is None:
            unrated[seat.seat] = Unrated.ABANDONED
        elif players == 4 and (seat.seat + 2) % 4 in leavers:
            unrated[seat.seat] = Unrated.PARTNER_LEFT
        else:
            scores[seat.seat] = 1.0 if seat.seat % 2 == winner else 0.0
    return scores, unrated


def _not_rated(match: Any, reasons: dict[int, tuple[int, str]]) -> None:
    """Keep ``{seat: (user id, reason)}`` as :class:`NotRated` rows, once (a second ending of
    the same match inserts nothing)."""
    NotRated.objects.bulk_create(
        [
            NotRated(match=match, seat=seat, user_id=user_id, reason=str(reason))
            for seat, (user_id, reason) in sorted(reasons.items())
        ],
        ignore_conflicts=True,
    )


def not_rated_reason(match: Any, user: Any = None) -> str | None:
    """The :class:`Unrated` code saying why a finished rated ``match`` was not rated, or
    ``None``: a casual match, one not finished, one that was rated. With ``user`` (a person
    seated there): why it did not rate them (``partner_left`` in a match rated for others).
    Staff voided its rating: ``voided``. A match finished before these reasons were kept has
    none. At most two queries, none for a casual match; the sentence to show is
    ``NOT_RATED_MESSAGES[code]``."""
    if not match.rated or match.finished_at is None:
        return None
    rated = RatedMatch.objects.filter(match_id=match.pk).only("voided_at").first()
    voided = str(Unrated.VOIDED) if rated is not None and rated.voided_at else None
    reasons = NotRated.objects.filter(match_id=match.pk).order_by("seat")
    if user is None:
        if rated is not None:
            return voided
    else:
        reasons = reasons.filter(user_id=user.pk)
    return reasons.values_list("reason", flat=True).first() or voided


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


def rate_finished_match(
    match: Any, winner: int | None, *, scores: dict[int, float] | None = None
) -> RatedMatch | None:
    """Rate ``match`` (finished, ``winner`` the winning side 0 or 1), once.

    :param scores: ``{seat: score}`` (1.0 a win, 0.0 a loss) of the seats to rate
        (:func:`seat_scores`); the others keep their ratings and are left out of the
        :class:`RatedMatch`. Every seat is rated against every other's rating before the match
        all the same. ``None``: every seat, by ``winner``.
    :returns: the new :class:`RatedMatch`, or ``None`` when nothing was rated: not every seat is
        a person's, or the match was rated already.
    :raises ValueError: ``scores`` is ``None`` and ``winner`` is not 0 or 1.
    """
    if scores is None and winner not in (0, 1):
        raise ValueError(f"the winner is side 0 or 1, got {winner!r}")
    seats = _seats(match)
    if seats is None:
        return None
    if scores is None:
        scores = {seat.seat: 1.0 if seat.seat % 2 == winner else 0.0 for seat in seats}
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
            [PlayerRating(user_id=s.user_id, pool=pool) for s in seats if s.seat in scores],
            ignore_conflicts=True,
        )
        rows = {
            row.user_id: row
            for row in PlayerRating.objects.select_for_update()
            .filter(pool=pool, user_id__in=user_ids)
            .order_by("user_id")
        }
        before = {
            seat.seat: rows[seat.user_id].current(now) if seat.user_id in rows
            else glicko2.NEW_PLAYER
            for seat in seats
        }
        changes, record_seats = [], []
        for seat in (seat for seat in seats if seat.seat in scores):
            row = rows[seat.user_id]
            score = scores[seat.seat]
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
            row.top = after.rating if row.top is None else max(row.top, after.rating)
        PlayerRating.objects.bulk_update(
            [rows[change.user_id] for change in changes],
            ["rating", "deviation", "volatility", "matches", "wins", "losses", "last_rated_at", "top"],
        )
        RatingChange.objects.bulk_create(changes)
        record.seats = record_seats
        record.save(update_fields=["seats"])
    return record


def _top_without(change: RatingChange) -> float | None:
    """The player's highest recorded rating in the pool with ``change`` voided: the best of
    their other rating changes not voided and of their refunds (``None``: none)."""
    changes = RatingChange.objects.filter(user_id=change.user_id, pool=change.pool, voided=False)
    best = changes.exclude(pk=change.pk).aggregate(top=Max("rating_after"))["top"]
    refunded = RatingRefund.objects.filter(user_id=change.user_id, pool=change.pool).aggregate(
        top=Max("rating_after"))["top"]
    found = [value for value in (best, refunded) if value is not None]
    return max(found) if found else None


def void_match(match_id: int, *, by: Any = None, now: datetime | None = None) -> RatedMatch:
    """Undo a rated match's rating changes (staff, from the admin).

    Every player of the match gets back their row exactly as it was before the match (rating,
    deviation, volatility, counts, last rated match, highest rating); their history rows stay,
    marked voided.

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
            row.top = _top_without(change)
        PlayerRating.objects.bulk_update(
            rows.values(),
            ["rating", "deviation", "volatility", "matches", "wins", "losses", "last_rated_at", "top"],
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


#: ``ratings_before``'s default: read the match's :class:`RatedMatch` itself.
_READ = object()


def ratings_before(
    match: Any, user_ids: dict[int, int], now: datetime | None = None, *, record: Any = _READ
) -> dict[int, glicko2.Rating]:
    """``{seat: rating}`` of the persons ``user_ids`` (``{seat: user id}``) at ``match``
    before it: the ratings its :class:`RatedMatch` kept for the seats it rated, the players'
    ratings now (widened for idle time, ``PlayerRating.current``) for the others, Glicko-2's
    new player for one without a rating in the pool. At most two queries; one when the caller
    has read the ``record`` already (``None``: the match has none)."""
    if record is _READ:
        record = RatedMatch.objects.filter(match_id=match.pk).first() if match.pk else None
    kept = {
        s["seat"]: glicko2.Rating(s["before"], s["deviation_before"], glicko2.NEW_PLAYER.volatility)
        for s in (record.seats if record is not None else [])
    }
    rest = {seat: user for seat, user in user_ids.items() if seat not in kept}
    rows = {}
    if rest:
        rows = {
            row.user_id: row
            for row in PlayerRating.objects.filter(
                pool=Pool.of_players(match.players), user_id__in=set(rest.values())
            )
        }
    now = timezone.now() if now is None else now
    return kept | {
        seat: rows[user].current(now) if user in rows else glicko2.NEW_PLAYER
        for seat, user in rest.items()
    }


def side_chances(by_seat: dict[int, glicko2.Rating]) -> tuple[float, float]:
    """Each side's expected score from every seat's rating (``{seat: rating}``, side ``seat %
    2``): :func:`glicko2.expected_score` (Glickman's Glicko formula, both deviations); at four
    each side counts as one player of its mean rating and root-mean-square deviation."""
    sides = [[by_seat[s] for s in sorted(by_seat) if s % 2 == side] for side in (0, 1)]
    first = glicko2.expected_score(_side_rating(sides[0]), _side_rating(sides[1]))
    return first, 1.0 - first


def win_chances(match: Any, now: datetime | None = None) -> list[SideChance] | None:
    """Each side's expected score before ``match`` starts, from the ratings before it
    (:func:`ratings_before`, :func:`side_chances`).

    :returns: ``[side 0, side 1]``, or ``None`` when the match is not rated, not every seat is
        taken by a person, or it was aborted.
    """
    if not match.rated or match.result == ABORT:
        return None
    seats = _seats(match)
    if seats is None:
        return None
    names = {seat.seat: seat.user.get_username() for seat in seats}
    by_seat = ratings_before(match, {seat.seat: seat.user_id for seat in seats}, now)
    sides = [[seat.seat for seat in seats if seat.seat % 2 == side] for side in (0, 1)]
    return [
        SideChance(
            names=[names[s] for s in side],
            ratings=[shown(by_seat[s].rating, by_seat[s].deviation) for s in side],
            chance=chance,
        )
        for side, chance in zip(sides, side_chances(by_seat))
    ]
