"""Every string a script shows comes from Django's JavaScript catalogue (``/jsi18n/``: the
scripts' own ``gettext``, ``pgettext``, ``ngettext``), translated in
``locale/ar/LC_MESSAGES/djangojs.po`` and ``locale/fr/LC_MESSAGES/djangojs.po``; a page's JSON config carries data, never a ``labels``
dict of translated strings (README, "Where a script's words go")."""

from __future__ import annotations

import gettext
import json
import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from games.core import actions
from games.ratings.rating import NOT_RATED_MESSAGES
from tests.site.catalogue import ROOT, script_msgids, served_catalogue

#: Every ``<script type="application/json">`` block of a page (json_script).
JSON_SCRIPT = re.compile(r'<script id="([\w-]+)" type="application/json">(.*?)</script>', re.S)


def label_dicts(value, path="") -> list[str]:
    """Where a ``labels`` key sits in a config (``"config.labels"``), at any depth."""
    found = []
    if isinstance(value, dict):
        for key, inner in value.items():
            if key == "labels":
                found.append(f"{path}.{key}")
            found += label_dicts(inner, f"{path}.{key}")
    elif isinstance(value, list):
        for i, inner in enumerate(value):
            found += label_dicts(inner, f"{path}[{i}]")
    return found


@pytest.mark.django_db
def test_no_page_config_passes_a_labels_dict(django_user_model):
    alice = django_user_model.objects.create_user("alice", "alice@example.com", None)
    bob = django_user_model.objects.create_user("bob", "bob@example.com", None)
    rated = actions.create_table(
        user=alice, players=2, rules={"players": 2, "target": 101}, rated=True)
    actions.join_table(user=bob, match_id=rated.id)
    finished = actions.create_table(
        user=alice, players=2, rules={"players": 2, "target": 101}, rated=False)
    actions.join_table(user=bob, match_id=finished.id)
    actions.resign(user=bob, match_id=finished.id)
    client = Client()
    client.force_login(alice)
    pages = [reverse("lobby"), reverse("table", args=[rated.id]),
             reverse("replays:match", args=[finished.id]), reverse("queues")]
    seen = set()
    for url in pages:
        html = client.get(url).content.decode()
        blocks = JSON_SCRIPT.findall(html)
        assert blocks, url
        for element_id, text in blocks:
            seen.add(element_id)
            assert label_dicts(json.loads(text), element_id) == [], url
    # The pages' own configs and the header's (a signed-in player's notices, a rated table's).
    assert {"lobby-config", "table-config", "replay-config", "queues-config", "notice-config",
            "tournament-notice-config", "rating-config"} <= seen


class Missing(gettext.NullTranslations):
    """What a catalogue falls back to for a msgid it lacks: ``None``."""

    def gettext(self, message):
        return None

    def pgettext(self, context, message):
        return None


@pytest.mark.parametrize("language", ["ar", "fr"])
def test_every_string_of_the_scripts_has_its_translation(language):
    msgids = script_msgids()
    assert (None, "The floor is empty") in msgids  # the table's and the replay's
    assert ("card", "seven") in msgids
    catalogue = gettext.GNUTranslations(
        open(ROOT / f"locale/{language}/LC_MESSAGES/djangojs.mo", "rb"))
    catalogue.add_fallback(Missing())  # a translation the same as its msgid is one
    missing = [
        msgid for context, msgid in msgids
        if (catalogue.pgettext(context, msgid) if context else catalogue.gettext(msgid)) is None
    ]
    assert missing == []


@pytest.mark.django_db
def test_the_catalogues_served_to_the_scripts_have_the_tables_strings():
    arabic, english = served_catalogue("ar"), served_catalogue("en")
    assert arabic["The floor is empty"] == "الأرض فارغة"
    assert arabic["card\x04seven"] == "سبعة"
    assert "%(card)s" in arabic["Your time ran out: %(card)s was played for you."]
    assert "The floor is empty" not in english
    french = served_catalogue("fr")
    assert french["The floor is empty"] == "Le tapis est vide"
    assert french["card\x04seven"] == "Sept"  # as "As", "Roi": every rank of a card name capitalised alike


def test_the_ratings_script_words_every_not_rated_reason_as_the_server_does():
    script = (ROOT / "static/ratings/table_ratings.js").read_text(encoding="utf-8")
    with translation.override("en"):  # English is the msgids' language
        for code, message in NOT_RATED_MESSAGES.items():
            # The same msgid under the same code: one translation for the page and the script.
            assert f"{code}: gettext({json.dumps(str(message))})" in script, code
