"""Time zones by IANA name (``Africa/Cairo``), as the organiser enters an event's times and as
each viewer reads them: the organiser's zone is stored with the event; a viewer's is the one
their browser reports (``tournaments/zone.js`` sets the :data:`COOKIE`), else the event's.
The offsets, summer time included, come from the system's tz database (``zoneinfo``)."""

from __future__ import annotations

import functools
from datetime import datetime
from zoneinfo import ZoneInfo, available_timezones

from django.http import HttpRequest

#: The cookie ``tournaments/zone.js`` keeps the browser's zone in (its IANA name).
COOKIE = "basra_tz"
#: The zone of an event whose organiser named none, and of the form before the browser answers.
DEFAULT = "UTC"


@functools.cache
def names() -> tuple[str, ...]:
    """Every IANA zone name the system knows, sorted (``Africa/Cairo``, …, ``UTC``)."""
    return tuple(sorted(available_timezones() | {DEFAULT}))


def known(name: str | None) -> bool:
    return bool(name) and name in names()


def viewer_zone(request: HttpRequest, fallback: str) -> ZoneInfo:
    """The zone to show times in: the viewer's browser's (the cookie), else ``fallback``."""
    name = request.COOKIES.get(COOKIE)
    return ZoneInfo(name if known(name) else (fallback if known(fallback) else DEFAULT))


def in_zone(value: datetime | None, name: str) -> datetime | None:
    """``value`` (as a form read it: aware, in the server's zone, or naive) read as the wall
    clock time it shows in zone ``name``; a time summer time skips or repeats takes the first
    offset (``fold=0``)."""
    if value is None:
        return None
    return value.replace(tzinfo=None, fold=0).replace(tzinfo=ZoneInfo(name))
