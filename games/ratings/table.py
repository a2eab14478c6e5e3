"""The ratings at a rated table, live: what the ratings app adds to the core's ``state`` message.

:func:`table_ratings` is connected to ``games.core.signals.table_extras`` (``RatingsConfig.ready``);
the core keeps its answer with the table's seats, so it is read once per seating and status of a
started match, never once per play (``games.core.state.cache.table_extras``). The table's
scripts (``static/ratings/table_ratings.js``) show each person's rating beside their name, the win
chances once the table is full, and at the end every name's new rating and change (side by
side) or why nobody's moved: for every seat and every spectator, the moment the match ends, and
the same on a reload.

As lichess shows a game's players (rating, "?" while provisional, the change at the end:
``modules/round``'s ``ratingDiff``, the difference of the ratings as shown).
"""

from __future__ import annotations

from typing import Any

from games.ratings.models import NotRated, RatedMatch
from games.ratings.rating import Unrated, ratings_before, shown, side_chances

#: The name of the ratings' part of the ``state`` message's ``extras``.
NAME = "ratings"


def table_ratings(sender: Any, match: Any, seats: tuple, **kwargs: Any) -> tuple[str, dict] | None:
    """Receiver of ``games.core.signals.table_extras``: ``("ratings", value)`` for a rated
    table and for a casual one still open (its waiting room shows the players' ratings, as the
    lobby's open tables do: ``games.ratings.lobby``), ``None`` for a casual match once it has
    started. ``value`` (``docs/protocol.md``, "state", ``extras``):

    - ``seats``: ``[{"seat", "rating", "rating_after", "change", "not_rated"}]``, each person's
      seat in seat order: ``rating`` as shown before the match ("1523?": rounded, "?" while
      provisional, :func:`shown`), ``rating_after`` as shown after it, in the same form, and
      ``change`` (the rounded rating after minus the rounded rating before, an int, ``+0``
      included), both once the match is rated for them, else ``null``; ``not_rated`` the
      ``Unrated`` code saying why a finished match did not rate them, else ``null``;
    - ``chances``: each side's expected score in whole percent (``[53, 47]``) once every seat is
      a person's while the match is played, ``null`` before and once it is over (a forecast:
      the result and the ``change`` replace it);
    - ``not_rated``: why a finished match rated nobody (an ``Unrated`` code), else ``null``.

    At most three queries, for the seats' ratings and, once finished, what the rating kept.
    """
    # A casual match moves nobody's rating, so once it starts its names go bare (a rating
    # beside them would read as what is at stake); while it waits, the ratings tell whoever
    # would sit down whom they would meet, as a lichess seek shows its creator's.
    if not match.rated and match.status != match.Status.OPEN:
        return None
    people = {seat.seat: seat.user_id for seat in seats if seat.user_id is not None}
    finished = match.finished_at is not None
    record = RatedMatch.objects.filter(match_id=match.pk).first() if finished else None
    reasons = (
        dict(NotRated.objects.filter(match_id=match.pk).values_list("seat", "reason"))
        if finished else {}
    )
    before = ratings_before(match, people, record=record)  # the record read once, above
    if record is not None and record.voided_at is not None:
        record, reasons = None, {seat: str(Unrated.VOIDED) for seat in people}
    after = {s["seat"]: s for s in (record.seats if record is not None else [])}
    rows = []
    for seat in sorted(people):
        rating = before[seat]
        change = rating_after = None
        if seat in after:
            kept = after[seat]
            change = round(kept["after"]) - round(kept["before"])
            rating_after = shown(kept["after"], kept["deviation_after"])
        rows.append({
            "seat": seat,
            "rating": shown(rating.rating, rating.deviation),
            "rating_after": rating_after,
            "change": change,
            "not_rated": reasons.get(seat),
        })
    full = len(people) == match.players and not finished
    chances = None
    if full:
        first = round(side_chances(before)[0] * 100)
        chances = [first, 100 - first]
    nobody = None
    if finished and not after:
        nobody = next(iter(sorted(reasons.items())), (None, None))[1]
    return NAME, {"seats": rows, "chances": chances, "not_rated": nobody}
