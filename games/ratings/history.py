"""A player's match history and a head-to-head, read from the core's seats and matches.

Sides are ``seat % 2`` (RULES.md "Four players"); ``Match.winner_side`` is the winning side
(``None`` after an abort) and ``Match.result`` how it ended. A page of rows costs four queries
whatever its length: the seats with their matches, every seat of those matches with its user,
the player's rating changes in them, and why the rated ones that did not rate them did not.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any

from django.db.models import Count, Exists, F, OuterRef, Prefetch, Q, QuerySet
from django.urls import reverse
from django.utils.translation import gettext as _

from games.core.for_apps import (
    Match, Opponent, Seat, match_ending, match_score, seat_person, titles,
)
from games.ratings.models import NotRated, Pool, RatingChange
from games.ratings.refunds import cheaters_among

PER_PAGE = 50
RESULTS = ("won", "lost", "aborted")


def result_choices() -> list[tuple[str, str]]:
    """The result filter's values and their translated names."""
    return [("won", _("Won")), ("lost", _("Lost")), ("aborted", _("Aborted"))]


@dataclass(frozen=True)
class Filters:
    """What a history is narrowed to; ``None`` is no filter. ``opponent``: a username on the
    other side; ``together_with``: a username at the same table, on either side."""

    pool: str | None = None
    result: str | None = None
    opponent: str | None = None
    since: date | None = None
    until: date | None = None
    together_with: str | None = None


def _other_side(username: str):
    return Exists(
        Seat.objects.annotate(other_side=F("seat") % 2).filter(
            match=OuterRef("match"), user__username__iexact=username
        ).exclude(other_side=OuterRef("side"))
    )


def seats_of(player: Any, filters: Filters = Filters()) -> QuerySet:
    """``player``'s seats at finished matches, newest first, narrowed by ``filters``; each
    with ``side`` annotated and its match's seats (and users) prefetched."""
    seats = (
        Seat.objects.filter(user=player, match__status=Match.Status.FINISHED)
        .annotate(side=F("seat") % 2)
        .select_related("match")
        .prefetch_related(
            Prefetch("match__seats", queryset=Seat.objects.select_related("user").order_by("seat"))
        )
        .order_by("-match__finished_at", "-match_id")
    )
    if filters.pool:
        seats = seats.filter(match__players=2 if filters.pool == Pool.ONE_V_ONE else 4)
    if filters.result == "won":
        seats = seats.filter(match__winner_side=F("side"))
    elif filters.result == "lost":
        seats = seats.filter(match__winner_side__isnull=False).exclude(
            match__winner_side=F("side")
        )
    elif filters.result == "aborted":
        seats = seats.filter(match__winner_side__isnull=True)
    if filters.opponent:
        seats = seats.filter(_other_side(filters.opponent))
    if filters.together_with:
        seats = seats.filter(
            Exists(Seat.objects.filter(
                match=OuterRef("match"), user__username__iexact=filters.together_with
            ))
        )
    if filters.since:
        seats = seats.filter(match__finished_at__date__gte=filters.since)
    if filters.until:
        seats = seats.filter(match__finished_at__date__lte=filters.until)
    return seats


@dataclass(frozen=True)
class HistoryRow:
    """One finished match as a history lists it. ``change`` is the rating change shown
    ("+12", "−8") or ``""`` for an unrated (or voided) match; ``score`` is own–other;
    ``not_rated``: at a rated table, the sentence saying why the match did not rate the player
    (``rating.NOT_RATED_MESSAGES``), or ``""``."""

    url: str
    when: datetime | None
    pool: str
    rated: bool
    opponents: list[Opponent]
    partners: list[Opponent]
    outcome: str
    result: str
    score: str
    change: str
    rating_after: str = ""
    not_rated: str = ""
    extra: dict = field(default_factory=dict)


def rows(seats: Any, player: Any) -> list[HistoryRow]:
    """The :class:`HistoryRow` of each of ``player``'s seats (from :func:`seats_of`)."""
    from games.ratings.rating import NOT_RATED_MESSAGES, Unrated, shown

    seats = list(seats)
    changes, reasons = {}, {}
    for change in RatingChange.objects.filter(
        user=player, match_id__in=[seat.match_id for seat in seats]
    ):
        if change.voided:
            reasons[change.match_id] = Unrated.VOIDED
        else:
            changes[change.match_id] = change
    reasons.update(
        NotRated.objects.filter(
            user=player, match_id__in=[seat.match_id for seat in seats if seat.match.rated]
        ).values_list("match_id", "reason")
    )
    # The accounts' titles ("BOT"), asked once for the page's seats; and who of them was
    # closed for cheating (``refunds.cheaters_among``), once too.
    marks = titles.titles(seat.user_id for own in seats for seat in own.match.seats.all())
    cheaters = cheaters_among({seat.user_id for own in seats for seat in own.match.seats.all()})
    result = []
    for own in seats:
        match = own.match
        side = own.seat % 2
        others = [seat for seat in match.seats.all() if seat.pk != own.pk]
        outcome, text = match_ending(match, side)
        change = changes.get(match.pk)
        # As the table's result and the replay show it (``for_apps``): the rounded rating after
        # less the rounded rating before, so that "+68 → 1809" adds up beside the 1741 shown
        # before it; the rounded change itself can differ from that by one.
        delta = round(change.rating_after) - round(change.rating_before) if change else None
        result.append(HistoryRow(
            url=reverse("table", kwargs={"match_id": match.pk}),
            when=match.finished_at,
            pool=str(Pool(Pool.of_players(match.players)).label),
            rated=match.rated,
            opponents=[seat_person(seat, marks) for seat in others if seat.seat % 2 != side],
            partners=[seat_person(seat, marks) for seat in others if seat.seat % 2 == side],
            outcome=outcome,
            result=text,
            score=match_score(match, side),
            change="" if delta is None else (f"+{delta}" if delta >= 0 else f"−{-delta}"),
            rating_after=shown(change.rating_after, change.deviation_after) if change else "",
            not_rated=str(NOT_RATED_MESSAGES.get(reasons.get(match.pk), "")),
            extra={"cheater_opponent": any(
                seat.user_id in cheaters for seat in others if seat.seat % 2 != side
            )},
        ))
    return result


def tally(player: Any, opponent: Any) -> dict[str, int]:
    """``{"matches", "wins", "losses"}`` of ``player`` against ``opponent`` (on the other side),
    aborts left out: one query."""
    seats = seats_of(player).filter(
        _other_side(opponent.get_username()), match__winner_side__isnull=False
    )
    counts = seats.order_by().aggregate(
        matches=Count("pk"),
        wins=Count("pk", filter=Q(match__winner_side=F("side"))),
    )
    counts["losses"] = counts["matches"] - counts["wins"]
    return counts
