"""What the ratings app adds to a player's public profile (the core's ``profile.sections`` slot).

``ratings_section`` (shown by ``templates/ratings/_profile.html``, included by the profile):

- ``pools``: per pool the player has a rating in, ``{"pool", "label", "rating"`` (shown, "?"
  while provisional), ``"deviation", "matches", "wins", "losses", "win_rate"`` (percent or
  ``None``), ``"chart"`` (:func:`chart`, or ``None`` before two points)``}``;
- ``totals``: every finished match of the player, rated or not, aborts left out and so is a
  match decided away from the table (a forfeit) in which the player played no card themselves
  (lichess counts no game its player never played):
  ``{"matches", "wins", "losses", "win_rate", "basras_per_match", "points_per_round"}``; basras
  and points are their side's, from the ``round_end`` events (``docs/protocol.md``, "Event log");
- ``history_url``: the player's match history.

Fixed cost: one query for the ratings, one for the chart points of each pool, two for the totals.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Count, Exists, F, OuterRef, Q
from django.urls import reverse
from django.utils import timezone

from games.core.for_apps import OWN_PLAY, Event, Match, Seat
from games.ratings.models import PlayerRating, Pool, RatingChange
from games.ratings.rating import shown

#: The chart shows at most the last this many rated matches of a pool.
CHART_POINTS = 100
CHART_WIDTH, CHART_HEIGHT, CHART_PAD = 600, 180, 28
#: The gutter left of the line, where the scale's labels stand: wide enough for a four-digit
#: rating at the labels' largest size (ratings.css: 20 view-box units on a phone, where the chart
#: is drawn at about half its view box, so that they read at 11 px).
CHART_LEFT = 60


def chart(changes: list[RatingChange]) -> dict[str, Any] | None:
    """A rating-history line chart as SVG coordinates, oldest first: the rating before the
    first match, then after each one.

    :returns: ``{"width", "height", "points"`` (the polyline's ``"x,y x,y"``), ``"dots"`` (list
        of ``{"x", "y", "rating", "when"}``), ``"top", "bottom"`` (the axis labels),
        ``"top_y", "bottom_y", "left"`` (where the line and the grid start: the labels' gutter
        is left of it)``}``, in view-box units, or ``None`` with no change.
    """
    if not changes:
        return None
    values = [(changes[0].rated_at, changes[0].rating_before)] + [
        (change.rated_at, change.rating_after) for change in changes
    ]
    low, high = min(v for _, v in values), max(v for _, v in values)
    if high - low < 50:  # a flat line would look like noise at full height
        middle = (high + low) / 2
        low, high = middle - 25, middle + 25
    span_x = CHART_WIDTH - CHART_LEFT - CHART_PAD
    span_y = CHART_HEIGHT - 2 * CHART_PAD
    step = span_x / max(len(values) - 1, 1)
    dots = []
    for i, (when, value) in enumerate(values):
        x = CHART_LEFT + i * step
        y = CHART_PAD + (high - value) / (high - low) * span_y
        dots.append({"x": round(x, 1), "y": round(y, 1), "rating": round(value), "when": when})
    return {
        "width": CHART_WIDTH,
        "height": CHART_HEIGHT,
        "points": " ".join(f"{d['x']},{d['y']}" for d in dots),
        "dots": dots,
        "top": round(high),
        "bottom": round(low),
        "top_y": CHART_PAD,
        "bottom_y": CHART_HEIGHT - CHART_PAD,
        "left": CHART_LEFT,
    }


def totals(player: Any) -> dict[str, Any]:
    """Totals over ``player``'s finished matches (see the module docstring): three queries."""
    # A play of the player's own: not the clock's on a time-out, not the computer's standing in.
    own_play = Event.objects.filter(OWN_PLAY, match_id=OuterRef("match_id"), seat=OuterRef("seat"))
    seats = Seat.objects.filter(
        user=player, match__status="finished", match__winner_side__isnull=False
    ).exclude(Q(match__result=Match.Result.DECIDED) & ~Exists(own_play)).annotate(side=F("seat") % 2)
    counts = seats.order_by().aggregate(
        matches=Count("pk"), wins=Count("pk", filter=Q(match__winner_side=F("side")))
    )
    sides = dict(seats.values_list("match_id", "side"))
    basras = points = rounds = 0
    for match_id, payload in Event.objects.filter(
        match_id__in=list(sides), kind="round_end"
    ).values_list("match_id", "payload"):
        breakdown = payload.get("breakdown") or {}
        side = sides[match_id]
        points += (breakdown.get("total") or [0, 0])[side]
        rounds += 1
    # Basras and jack basras made by the player's side: the plays that made one (a round's
    # breakdown has their points, not their number).
    for match_id, seat in Event.objects.filter(
        match_id__in=list(sides), kind="play", payload__basra__in=["basra", "jack_basra"]
    ).values_list("match_id", "seat"):
        basras += seat % 2 == sides[match_id]
    matches = counts["matches"]
    return {
        "matches": matches,
        "wins": counts["wins"],
        "losses": matches - counts["wins"],
        "win_rate": round(100 * counts["wins"] / matches) if matches else None,
        "basras_per_match": round(basras / matches, 2) if matches else None,
        "points_per_round": round(points / rounds, 1) if rounds else None,
    }


def ratings_section(player: Any) -> dict[str, Any]:
    """The ``ratings_section`` context of ``player``'s profile (module docstring)."""
    now = timezone.now()
    pools = []
    for row in PlayerRating.objects.filter(user=player, matches__gt=0).order_by("pool"):
        current = row.current(now)
        changes = list(
            RatingChange.objects.filter(user=player, pool=row.pool, voided=False)
            .order_by("-rated_at", "-pk")[:CHART_POINTS]
        )[::-1]
        pools.append({
            "pool": row.pool,
            "label": Pool(row.pool).label,
            "rating": shown(row.rating, current.deviation),
            "deviation": round(current.deviation),
            "matches": row.matches,
            "wins": row.wins,
            "losses": row.losses,
            "win_rate": round(row.win_rate * 100) if row.win_rate is not None else None,
            "chart": chart(changes),
            "ladder_url": reverse("ladder", kwargs={"pool": row.pool}),
        })
    return {
        "pools": pools,
        "totals": totals(player),
        "history_url": reverse("match_history", kwargs={"username": player.get_username()}),
    }


def profile_section(request: Any, page: Any) -> dict[str, Any]:
    """The ``profile.sections`` context of ``page["player"]``'s ratings (``RatingsConfig.ready``)."""
    return {"ratings_section": ratings_section(page["player"])}
