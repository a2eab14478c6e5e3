"""The table clock: plays for seats whose time ran out and marks players who left as absent.

Everything it acts on is in the database (``Match.deadline``, ``Seat.last_seen``), so it keeps no
timer of its own: ``manage.py run_clock`` calls :func:`tick` every quarter second, and a clock
process that is stopped and started again (or a second one) simply finds the same deadlines.
Each action is one ``games.actions`` write (row lock, ``seq`` check, events, broadcast after the
commit), so the clock and the players' own plays never both apply: whichever takes the row lock
second finds the table changed and does nothing. The rules of what it does are
``docs/protocol.md`` "Clock, absence, claim and resign".

Every tick also writes when it ended (``games.models.ClockTick``). A tick that finds the last one
ended more than :func:`liveness.outage_after` ago knows no clock ran meanwhile (a restart, a database
outage): it first gives every table the time back (``actions.resume_clock``), so a restart
makes nobody absent and plays no timeout for a person who could not play. The web servers beat
too (``games.models.WebTick``, while they have open sockets); while they are silent the clock
does nothing and writes no tick, so their outage is given back the same way.
"""

from __future__ import annotations

import logging
import time
from datetime import datetime, timedelta

from django.db.models import Q

from games import actions, liveness
from games.models import Match, Seat

logger = logging.getLogger(__name__)

#: How many due tables one tick handles at most (the rest wait for the next tick, oldest first).
BATCH = 200


def _due(now: datetime) -> list[int]:
    """Matches being played whose deadline has passed, the longest overdue first."""
    return list(
        Match.objects.filter(status=Match.Status.PLAYING, deadline__lte=now)
        .order_by("deadline", "pk")
        .values_list("pk", flat=True)[:BATCH]
    )


def _gone(now: datetime) -> list[int]:
    """Matches being played with a person not yet absent whose sockets fell silent.

    A seat's disconnection is counted from ``max(last_seen, started_at)``: a person who joined
    an open table and closed the page is not absent the moment the last seat is taken.
    """
    cutoff = now - liveness.absent_grace()
    return list(
        Seat.objects.filter(
            match__status=Match.Status.PLAYING,
            match__started_at__lt=cutoff,
            user__isnull=False,
            bot="",
            absent=False,
        )
        .filter(Q(last_seen__isnull=True) | Q(last_seen__lt=cutoff))
        .order_by("match_id")
        .values_list("match_id", flat=True)
        .distinct()[:BATCH]
    )


def tick(*, now: datetime, outage: timedelta | None = None) -> int:
    """Do everything the clock owes at ``now``; returns the number of actions taken.

    Nothing at all while the web servers are down (no server with open sockets has said it was
    up for longer than ``outage``): players cannot reach their tables, and the clock counts as
    stopped since their last beat (``liveness.clock_paused``). Otherwise it acts on deadlines and
    silences up to that last beat (the horizon), never past what a server was up to see.
    First, if the previous tick ended more than ``outage`` (default :func:`liveness.outage_after`) before
    ``now``, the clock was not running (or the web servers were down): every table gets the
    time back
    (``actions.resume_clock``: deadlines moved on by the gap, seats seen at ``now``; not an
    action, no event). Then the absences (a seat silent longer than :func:`liveness.absent_grace` is marked absent, and in
    a 4-player match the computer takes it over), then the deadlines (the computer plays for a
    computer seat whose thinking delay is over, and for a person whose time per play ran out,
    the greedy bot's card, logged as a timeout). Tests pass ``now`` to move time on without
    waiting. A table whose action fails is logged and left for the next tick; the others go on.
    """
    started = time.monotonic()
    outage = liveness.outage_after() if outage is None else outage
    web = liveness.web_last_seen()
    if web is not None and now - web > outage:
        # No web server is up: nobody can play or keep a socket open. Do nothing, and count
        # the clock as stopped since the last beat: when a server is back, that whole gap is
        # given back as an outage.
        liveness.clock_paused(at=web)
        return 0
    # Act only on what a server was up to see: a deadline after the last beat waits for the
    # next one (a second at most), so servers that die just before it decide nothing.
    horizon = now if web is None else min(now, web)
    gap = actions.resume_clock(now=now, outage=outage)
    if gap is not None:
        logger.warning("clock: no tick for %s; the tables got that time back", gap)
    done = 0
    for match_id in _gone(horizon):
        try:
            done += actions.mark_absent(match_id=match_id, now=horizon)
        except Exception:  # noqa: BLE001 - one broken table must not stop the clock for all
            logger.exception("clock: absence check of match %s failed", match_id)
    for match_id in _due(horizon):
        try:
            if actions.act_on_deadline(match_id=match_id, now=now):
                done += 1
        except Exception:  # noqa: BLE001 - as above
            logger.exception("clock: deadline of match %s failed", match_id)
    # The end of this tick, on ``now``'s time line (tests inject ``now``): a long tick (many
    # computer plays) is not mistaken for an outage by the next one.
    liveness.clock_ran(until=now + timedelta(seconds=time.monotonic() - started))
    return done
