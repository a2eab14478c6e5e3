"""Every count the site writes uses the language's plural forms (issue 21, "Ladder and wording"):
Arabic has six (zero, one, two, few, many, other), English two. The pages' counts go through
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


@pytest.mark.django_db
def test_the_catalogue_gives_the_scripts_the_arabic_plural_rule():
    client = Client()
    client.cookies["django_language"] = "ar"
    body = client.get(reverse("javascript-catalog") + "?language=ar").content.decode()
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


@pytest.mark.parametrize(("seconds", "english", "arabic"), [
    (1, "in 1 second.", "بعد ثانية واحدة."),
    (2, "in 2 seconds.", "بعد ثانيتين."),
    (5, "in 5 seconds.", "بعد 5 ثوانٍ."),
    (45, "in 45 seconds.", "بعد 45 ثانية."),
])
def test_the_queue_cooldown_counts_its_seconds(seconds, english, arabic):
    error = QueueError(Code.COOLDOWN, seconds=seconds)
    with translation.override("en"):
        assert error.message.endswith(english)
    with translation.override("ar"):
        assert error.message.endswith(arabic)
