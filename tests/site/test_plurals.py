"""Every count the site writes uses the language's plural forms (issue 21, "Ladder and wording"):
Arabic has six (zero, one, two, few, many, other), English and French two (French's "one" is
0 and 1: "0 seconde"). The pages' counts go through
``ngettext``/``{% plural %}``; the scripts' through Django's JavaScript catalogue (``/jsi18n/``,
``static/games/live.js``'s ``ngettext``), whose strings live in ``locale/*/djangojs.po``."""

from __future__ import annotations

import gettext
import json
import re
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from games.queues.errors import Code, QueueError

ROOT = Path(__file__).resolve().parents[2]
#: ``ngettext("one", "many", n)`` in the scripts, with literal strings (what makemessages reads).
CALL = re.compile(r'ngettext\(\s*"((?:[^"\\]|\\.)*)",\s*"((?:[^"\\]|\\.)*)"')


def script_plurals() -> set[tuple[str, str]]:
    found = set()
    for path in [*ROOT.glob("static/**/*.js"), *ROOT.glob("games/*/static/**/*.js")]:
        found.update(CALL.findall(path.read_text(encoding="utf-8")))
    return found


def test_every_plural_of_the_scripts_has_its_six_arabic_forms():
    calls = script_plurals()
    assert ("%(count)s watching", "%(count)s watching") in calls  # the lobby, the table
    catalogue = gettext.GNUTranslations(
        open(ROOT / "locale/ar/LC_MESSAGES/djangojs.mo", "rb"))
    for singular, plural in calls:
        forms = {catalogue.ngettext(singular, plural, n) for n in (0, 1, 2, 3, 11, 100)}
        # Untranslated, ngettext gives back the English: one form for 1, the other for the rest.
        assert singular not in forms and plural not in forms, singular
        assert len(forms) >= 3, (singular, forms)


def test_every_plural_of_the_scripts_has_its_two_french_forms():
    catalogue = gettext.GNUTranslations(
        open(ROOT / "locale/fr/LC_MESSAGES/djangojs.mo", "rb"))
    for singular, plural in script_plurals():
        one, other = (catalogue.ngettext(singular, plural, n) for n in (1, 2))
        assert singular != one and plural != other, singular
        assert catalogue.ngettext(singular, plural, 0) == one  # French says "0 erreur"


def served_script(language: str) -> str:
    """The ``/jsi18n/`` script a page of ``language`` loads."""
    client = Client()
    client.cookies["django_language"] = language
    return client.get(reverse("javascript-catalog") + f"?language={language}").content.decode()


@pytest.mark.django_db
def test_the_catalogue_gives_the_scripts_the_french_plural_rule():
    assert "(n>1)" in served_script("fr").replace(" ", "")


@pytest.mark.django_db
def test_the_catalogue_gives_the_scripts_the_arabic_plural_rule():
    body = served_script("ar")
    # The plural rule of the .po's header, and the dual ("two watching"), as JSON escapes.
    assert "n%100>=3&&n%100<=10?3" in body.replace(" ", "")
    two = json.dumps("مشاهدان")[1:-1]
    assert two in body
    english = Client().get(reverse("javascript-catalog") + "?language=en").content.decode()
    assert two not in english


@pytest.mark.django_db
def test_the_lobby_links_the_catalogue_of_its_language(client):
    html = client.get(reverse("lobby"), HTTP_ACCEPT_LANGUAGE="ar").content.decode()
    assert f'src="{reverse("javascript-catalog")}?language=ar"' in html


@pytest.mark.parametrize(("seconds", "english", "arabic", "french"), [
    (1, "in 1 second.", "بعد ثانية واحدة.", "dans 1 seconde."),
    (2, "in 2 seconds.", "بعد ثانيتين.", "dans 2 secondes."),
    (5, "in 5 seconds.", "بعد 5 ثوانٍ.", "dans 5 secondes."),
    (45, "in 45 seconds.", "بعد 45 ثانية.", "dans 45 secondes."),
])
def test_the_queue_cooldown_counts_its_seconds(seconds, english, arabic, french):
    error = QueueError(Code.COOLDOWN, seconds=seconds)
    with translation.override("en"):
        assert error.message.endswith(english)
    with translation.override("ar"):
        assert error.message.endswith(arabic)
    with translation.override("fr"):
        assert error.message.endswith(french)
