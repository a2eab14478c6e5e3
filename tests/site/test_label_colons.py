"""A label joined to its value in code takes the reader's language's colon
(``games.core.pages.labels``: ``{% colon %}`` on the pages, ``colon()`` of
``static/games/live.js`` in the scripts): French writes a no-break space before ":" ("1 contre
1 : 1741?"), so no template or script writes a bare ": " after a label of its own."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation

from games.core.pages.labels import colon, labelled
from tests.site.catalogue import ROOT

#: A template's text that Django's translation tags keep together (its own words, translated
#: whole: a colon inside is the catalogue's), and its comments.
TRANSLATED = re.compile(
    r"\{% blocktranslate.*?\{% endblocktranslate %\}|\{#.*?#\}|\{% comment %\}.*?\{% endcomment %\}",
    re.S,
)
#: A colon and a space right after a variable, a tag or a closing element: a label the
#: template wrote itself, then ": " in English whatever the language.
BARE_COLON = re.compile(r"(\}\}|%\}|</[a-z]+>):(\s|<)")
#: A script's string literal (double-quoted, as the scripts write them).
SCRIPT_STRING = re.compile(r'"((?:[^"\\\n]|\\.)*)"')


def test_the_colon_is_the_languages():
    assert (colon(), labelled("Pool")) == (":", "Pool:")
    with translation.override("fr"):
        assert (colon(), labelled("Classement")) == ("\u00a0:", "Classement\u00a0:")
    with translation.override("ar"):
        assert colon() == ":"


def test_no_template_writes_a_bare_colon_after_a_label():
    found = []
    for folder in ("templates", "games"):
        for path in sorted((ROOT / folder).rglob("*.html")):
            text = TRANSLATED.sub("", path.read_text(encoding="utf-8"))
            found += [f"{path.relative_to(ROOT)}: {m.group(0)!r}" for m in BARE_COLON.finditer(text)]
    assert found == []


def test_no_script_joins_a_label_with_a_bare_colon():
    found = []
    for path in sorted((ROOT / "static").rglob("*.js")):
        if "vendor" in path.parts:
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            code = line.split("//", 1)[0]
            if code.lstrip().startswith("*"):
                continue
            # A literal that is a colon and a space, or ends in one ("Label: ").
            if any(m.group(1).endswith(": ") for m in SCRIPT_STRING.finditer(code)):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert found == []


def french(client: Client) -> Client:
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "fr"
    return client


@pytest.mark.django_db
def test_the_french_profile_and_event_pages_space_their_colons(django_user_model):
    from games.ratings.models import PlayerRating
    from games.tournaments import services

    amira = django_user_model.objects.create_user(username="amira", password=None)
    PlayerRating.objects.create(user=amira, pool="1v1", rating=1741, deviation=120, matches=3,
                                last_rated_at=timezone.now())
    html = french(Client()).get(reverse("profile", args=["amira"])).content.decode()
    assert re.search(r"1 contre 1\u00a0: <bdi class=\"rating\" dir=\"ltr\">1741\?</bdi>", html)
    # An event in Cairo's zone read by a browser in UTC: the hint names the organiser's zone
    # once, with the one colon CLDR's French "heure : Égypte" has.
    t = services.create_tournament(
        user=amira, name="Coupe", format="swiss", players=2, swiss_rounds=3,
        starts_at=timezone.now() + timedelta(hours=1), rules={"target": 11},
        time_zone="Africa/Cairo",
    )
    client = french(Client())
    client.cookies["basra_tz"] = "UTC"
    html = client.get(reverse("tournament", args=[t.pk])).content.decode()
    hint = re.search(r'<dd id="event-zone">.*?<small>\((.*?)\)</small>', html, re.S)
    assert hint is not None, html[html.index('id="event-zone"'):][:300]
    assert hint.group(1).startswith("celui de l'organisateur, heure")
    assert hint.group(1).count(":") == 1
