"""Dates and numbers are written one way per language (basra_site/formats/), on every page;
lists are joined as the language joins them (games/core/pages/lists.py)."""

import re
from datetime import datetime, timezone
from pathlib import Path

import pytest
from django.template import Context, Template
from django.utils import translation
from django.utils.formats import date_format

from games.core.pages.lists import listing

ROOT = Path(__file__).resolve().parents[2]
MOMENT = datetime(2026, 12, 1, 18, 5, tzinfo=timezone.utc)


@pytest.mark.parametrize(
    ("language", "date", "moment"),
    [("en", "1 Dec 2026", "1 Dec 2026, 18:05"), ("ar", "1 ديسمبر 2026", "1 ديسمبر 2026، 18:05"),
     ("fr", "1 décembre 2026", "1 décembre 2026 à 18:05")],
)
def test_one_date_format_per_language(language, date, moment):
    with translation.override(language):
        assert date_format(MOMENT, "SHORT_DATE_FORMAT") == date
        assert date_format(MOMENT, "DATE_FORMAT") == date
        assert date_format(MOMENT, "SHORT_DATETIME_FORMAT") == moment
        shown = Template('{{ when|date:"SHORT_DATE_FORMAT" }}|{{ when|date:"SHORT_DATETIME_FORMAT" }}')
        assert shown.render(Context({"when": MOMENT})) == f"{date}|{moment}"


def test_templates_use_only_the_language_s_formats():
    """A literal format ("Y-m-d H:i") would show the same date differently from its neighbours;
    ``'c'`` (the ``datetime`` attribute) and ``'Y-m-d'`` (an ``<input type=date>`` value) are
    machine formats, not shown."""
    allowed = {"SHORT_DATE_FORMAT", "SHORT_DATETIME_FORMAT", "c", "Y-m-d"}
    found = {}
    for path in [*ROOT.glob("templates/**/*.html"), *ROOT.glob("games/*/templates/**/*.html")]:
        for fmt in re.findall(r"""\|date:["']([^"']*)["']""", path.read_text()):
            if fmt not in allowed:
                found.setdefault(str(path.relative_to(ROOT)), []).append(fmt)
    assert found == {}


@pytest.mark.parametrize(
    ("language", "written"),
    [("en", "1.5|1.0|12,345.50"), ("fr", "1,5|1,0|12\u202f345,50"),
     # Western digits, as everywhere on the site; the Arabic decimal and thousands separators
     # (U+066B, U+066C), not Django's Latin "1,0".
     ("ar", "1\u066b5|1\u066b0|12\u066c345\u066b50")],
)
def test_a_number_s_separators_are_the_language_s(language, written):
    """A rating deviation, an accuracy, a half point: every float a template writes, as it is or
    through ``floatformat``, takes the language's separators."""
    with translation.override(language):
        shown = Template('{{ value }}|{{ one|floatformat:1 }}|{{ big|floatformat:"2g" }}')
        assert shown.render(Context({"value": 1.5, "one": 1, "big": 12345.5})) == written


@pytest.mark.parametrize(
    ("language", "two", "four"),
    [("en", "Amira and Omar", "Amira, Omar, Hala, and Nour"),
     ("fr", "Amira et Omar", "Amira, Omar, Hala et Nour"),
     ("ar", "Amira وOmar", "Amira وOmar وHala وNour")],
)
def test_a_list_is_joined_as_the_language_joins_one(language, two, four):
    """The same list whether Python joins it (``listing``) or a template's loop over items with
    markup does (``{% list_separator forloop %}``); never the Latin ", " in Arabic."""
    names = ["Amira", "Omar", "Hala", "Nour"]
    loop = Template("{% load lists %}{% for n in names %}<b>{{ n }}</b>{% list_separator forloop %}{% endfor %}")
    with translation.override(language):
        assert listing(names[:2]) == two and listing(names) == four
        assert Template("{% load lists %}{{ names|listing }}").render(Context({"names": names})) == four
        assert loop.render(Context({"names": names})).replace("<b>", "").replace("</b>", "") == four
        assert loop.render(Context({"names": names[:1]})) == "<b>Amira</b>"
