"""Time zones by IANA name (``Africa/Cairo``), as the organiser enters an event's times and as
each viewer reads them: the organiser's zone is stored with the event; a viewer's is the one
their browser reports (``tournaments/zone.js`` sets the :data:`COOKIE`), else the event's.
The offsets, summer time included, come from the system's tz database (``zoneinfo``); the names
people read ("Egypt Time", "توقيت مصر", "heure : Égypte") from Unicode's CLDR through Babel."""

from __future__ import annotations

import functools
from collections import Counter
from datetime import datetime
from zoneinfo import ZoneInfo, available_timezones

from babel import Locale, UnknownLocaleError
from babel.core import get_global
from babel.dates import get_timezone_location
from django.http import HttpRequest
from django.utils.translation import get_language, gettext

from games.core.for_apps import collation_key

#: The cookie ``tournaments/zone.js`` keeps the browser's zone in (its IANA name).
COOKIE = "basra_tz"
#: The zone of an event whose organiser named none, and of the form before the browser answers.
DEFAULT = "UTC"


#: The areas of the tz database's geographic names (``Area/Location``, its "Theory" file); the
#: system also lists ``Etc/…``, ``US/…``, ``posix/…``, ``Factory``, ``localtime`` and the like.
AREAS = frozenset({"Africa", "America", "Antarctica", "Arctic", "Asia", "Atlantic", "Australia",
                   "Europe", "Indian", "Pacific"})


@functools.cache
def names() -> tuple[str, ...]:
    """The zones an organiser may choose, sorted: every geographic IANA name the system knows
    (``Africa/Cairo``, …) and ``UTC``, less the old names CLDR takes as another zone's alias
    (``America/Virgin`` is ``America/St_Thomas``: CLDR's ``zone_aliases`` through Babel) when
    that zone is offered, so no place is listed twice."""
    every = _geographic()
    aliases = get_global("zone_aliases")
    return tuple(sorted(z for z in every if aliases.get(z) not in every))


@functools.cache
def _geographic() -> frozenset[str]:
    return frozenset({z for z in _system() if "/" in z and z.split("/")[0] in AREAS} | {DEFAULT})


def canonical(name: str) -> str:
    """The zone :func:`names` offers for ``name`` (itself, or the zone it is an alias of)."""
    target = get_global("zone_aliases").get(name)
    return target if target in names() else name


@functools.cache
def _system() -> frozenset[str]:
    return frozenset(available_timezones() | {DEFAULT})


def label(name: str, language: str | None = None) -> str:
    """Zone ``name`` as a reader of ``language`` (a Django language code; the active one when
    ``None``) names it: CLDR's "location format" (``Africa/Cairo``: "Egypt Time" in English,
    "توقيت مصر" in Arabic; a country of several zones names its city: "United States (New York)
    Time"). ``UTC`` is the site's own words, CLDR having no location for it. A language CLDR
    lacks reads English."""
    if name == DEFAULT:
        return gettext("Coordinated Universal Time (UTC)")
    return _cldr_label(name, (language or get_language() or "en").replace("-", "_"))


#: CLDR's territory of a zone in no country (``Antarctica/Troll``): "001", the world.
WORLD = "001"


@functools.cache
def _cldr_label(name: str, language: str) -> str:
    try:
        locale = Locale.parse(language)
    except (UnknownLocaleError, ValueError):
        locale = Locale.parse("en")
    if get_global("zone_territories").get(name) == WORLD:
        # Babel names the world as the country ("world (Troll Station) Time"); CLDR's region
        # format takes the exemplar city alone where no country is ("Troll Station Time").
        city = get_timezone_location(name, locale=locale, return_city=True)
        return locale.zone_formats["region"] % city
    return get_timezone_location(name, locale=locale)


def choices(language: str | None = None) -> list[tuple[str, str]]:
    """``[(name, label), …]`` of :func:`names` for a form's select, in the order of their
    labels by the Unicode Collation Algorithm (``UTC`` first; ``collation_key``), so a reader finds their country where their language sorts it; a
    label two zones share is followed by the zone's name ("Australia (Adelaide) Time
    (Australia/South)"), so that every label is one zone's."""
    named = [(z, label(z, language)) for z in names()]
    # The tz database keeps old names beside new ones (Australia/South is Australia/Adelaide),
    # and CLDR names both alike: such a label takes its zone's name, so no two read the same.
    seen = Counter(text for _zone, text in named)
    named = [(z, f"{text} ({z})" if seen[text] > 1 else text) for z, text in named]
    return sorted(named, key=lambda pair: (pair[0] != DEFAULT, collation_key(pair[1])))


def known(name: str | None) -> bool:
    """Whether ``name`` is a zone an event may keep: one :func:`names` offers, or an alias of
    one (an older event's)."""
    return bool(name) and name in _geographic()


def _readable(name: str | None) -> bool:
    """Whether the system has zone ``name`` (any name: a browser or an older event may use one
    the form does not offer)."""
    return bool(name) and name in _system()


def viewer_zone(request: HttpRequest, fallback: str) -> ZoneInfo:
    """The zone to show times in: the viewer's browser's (the cookie), else ``fallback``."""
    name = request.COOKIES.get(COOKIE)
    return ZoneInfo(name if _readable(name) else (fallback if _readable(fallback) else DEFAULT))


def in_zone(value: datetime | None, name: str) -> datetime | None:
    """``value`` (as a form read it: aware, in the server's zone, or naive) read as the wall
    clock time it shows in zone ``name``; a time summer time skips or repeats takes the first
    offset (``fold=0``)."""
    if value is None:
        return None
    return value.replace(tzinfo=None, fold=0).replace(tzinfo=ZoneInfo(name))
