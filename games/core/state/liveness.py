"""Who is up: the clock's and the web servers' heartbeats, and the times that turn silence into
absence or an outage (``docs/protocol.md``, "Clock, absence, claim and resign").

A seat's sockets refresh ``Seat.last_seen`` every :func:`heartbeat_seconds`; a seat silent for
longer than :func:`absent_grace` is absent. The clock writes ``ClockTick`` at the end of every tick
and the web servers write ``WebTick`` every second; a gap longer than :func:`outage_after` in
either is an outage, whose time every table gets back (``games.core.actions.presence.resume_clock``).
A table of one person against the computer whose person is absent is paused
(:func:`waiting_for`) for at most :func:`computer_table_wait`.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.utils import timezone

from games.core.models import ClockTick, WebTick

#: How often an open table socket tells the server its seat is still there (seconds), at most
#: (:func:`heartbeat_seconds`).
HEARTBEAT_SECONDS = 15


def heartbeat_seconds() -> float:
    """How often a process beats for its table sockets (``games.core.sockets.beats``):
    :data:`HEARTBEAT_SECONDS`, or a quarter of the absence grace or of the time after which an
    open table is abandoned when one is shorter, so a connected seat is never taken for gone
    whatever ``BASRA_ABSENT_GRACE_SECONDS`` and ``BASRA_OPEN_TABLE_ABANDON_SECONDS`` say (a
    socket's first beat comes at the latest one period after it opened, which counted too)."""
    return min(
        HEARTBEAT_SECONDS,
        absent_grace().total_seconds() / 4,
        settings.BASRA_OPEN_TABLE_ABANDON_SECONDS / 4,
    )


def absent_grace() -> timedelta:
    """How long a seat may be disconnected before it is absent: ``BASRA_ABSENT_GRACE_SECONDS``.

    Default 60 seconds (lichess gives a similar grace before a claim).
    """
    return timedelta(seconds=settings.BASRA_ABSENT_GRACE_SECONDS)


def silent_too_long(*, last_seen: datetime | None, started_at: datetime, now: datetime) -> bool:
    """Whether a person seated at a table that started at ``started_at``, whose sockets were
    last seen at ``last_seen`` (``None``: never), has been silent longer than
    :func:`absent_grace` at ``now``: silent since ``max(last_seen, started_at)``, so a table's
    first minute counts for a person who never came. The clock marks such a seat absent
    (``actions.presence.mark_absent``)."""
    since = started_at if last_seen is None else max(last_seen, started_at)
    return since < now - absent_grace()


def computer_table_wait() -> timedelta:
    """How long a table against the computer waits, paused, for its absent person, counted from
    when they were last seen: ``BASRA_COMPUTER_TABLE_WAIT_SECONDS`` (default 6 hours); then the
    clock ends it ``abandoned``."""
    return timedelta(seconds=settings.BASRA_COMPUTER_TABLE_WAIT_SECONDS)


def against_computer(seats: Iterable[Any]) -> bool:
    """Whether a started table whose taken seats are ``seats`` (``Seat`` rows or
    ``games.core.state.cache.SeatRow`` rows: ``user_id`` is all that is read) is one person
    against the computer: exactly one seat is a person's, every other was the computer's from
    the start. A seat the computer took over keeps its person's ``user_id``, so a table of
    people is never one, however many of them the computer replaced."""
    return sum(1 for seat in seats if seat.user_id is not None) == 1


def waiting_for(seats: Iterable[Any]) -> int | None:
    """The seat a table against the computer (:func:`against_computer`) waits for, paused: its
    person's, while they are absent (``Seat.absent``, not taken over); ``None`` otherwise (not
    such a table, or its person is there). Nobody plays while it waits: the table has no
    ``deadline`` (``docs/protocol.md``, "Clock, absence, claim and resign")."""
    seats = list(seats)
    if not against_computer(seats):
        return None
    person = next(seat for seat in seats if seat.user_id is not None)
    return person.seat if person.absent and not person.bot else None


def outage_after() -> timedelta:
    """The longest gap between two ticks that is not an outage: ``BASRA_CLOCK_OUTAGE_SECONDS``.

    Default 5 seconds: twenty ticks of ``run_clock`` missed, far more than a slow tick or a busy
    database takes, far less than the absence grace.
    """
    return timedelta(seconds=settings.BASRA_CLOCK_OUTAGE_SECONDS)


def clock_ran(*, until: datetime) -> None:
    """Note that a tick of the clock ended at ``until`` (``ClockTick.last_tick``, never back).

    One ``UPDATE`` (the row is created the first time).
    """
    if not ClockTick.objects.filter(pk=ClockTick.ONE, last_tick__lt=until).update(
        last_tick=until
    ):
        ClockTick.objects.get_or_create(pk=ClockTick.ONE, defaults={"last_tick": until})


def clock_last_ran() -> datetime | None:
    """When the clock's last tick ended (:func:`clock_ran`); ``None``: it never ran."""
    return (
        ClockTick.objects.filter(pk=ClockTick.ONE).values_list("last_tick", flat=True).first()
    )


def clock_paused(*, at: datetime) -> None:
    """The web servers went silent at ``at``: count the clock as stopped from then on
    (``ClockTick.last_tick`` moved back to ``at`` if later), so that the time given back when
    a server returns starts when the players lost their tables."""
    ClockTick.objects.filter(pk=ClockTick.ONE, last_tick__gt=at).update(last_tick=at)


def web_seen(*, now: datetime | None = None) -> None:
    """A web server process is up: ``WebTick.last_seen`` is ``now`` (never back).

    One ``UPDATE`` (the row is created the first time).
    """
    now = timezone.now() if now is None else now
    if not WebTick.objects.filter(pk=WebTick.ONE, last_seen__lt=now).update(last_seen=now):
        WebTick.objects.get_or_create(pk=WebTick.ONE, defaults={"last_seen": now})


def web_last_seen() -> datetime | None:
    """When a web server last said it was up (:func:`web_seen`); ``None``: none ever has."""
    return WebTick.objects.filter(pk=WebTick.ONE).values_list("last_seen", flat=True).first()
