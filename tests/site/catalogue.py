"""Test helpers for the scripts' strings: the JavaScript catalogue a page loads (``/jsi18n/``)
and the ``gettext``/``pgettext`` calls of the scripts themselves."""

from __future__ import annotations

import json
import re
from pathlib import Path

from django.test import Client
from django.urls import reverse

ROOT = Path(__file__).resolve().parents[2]

#: ``gettext("…")`` and ``pgettext("context", "…")`` in a script, with literal strings (what
#: ``makemessages -d djangojs`` reads); a leading word character rules out ``ngettext``.
GETTEXT = re.compile(r'(?<![\w.])gettext\(\s*"((?:[^"\\]|\\.)*)"\s*\)')
PGETTEXT = re.compile(r'(?<![\w.])pgettext\(\s*"((?:[^"\\]|\\.)*)",\s*"((?:[^"\\]|\\.)*)"\s*\)')


def scripts() -> list[Path]:
    """Every script of the site: the core's (``static/``) and the apps' (``games/*/static/``)."""
    return [*ROOT.glob("static/**/*.js"), *ROOT.glob("games/*/static/**/*.js")]


def script_msgids() -> set[tuple[str | None, str]]:
    """``(context or None, msgid)`` of every ``gettext``/``pgettext`` call of the scripts."""
    found = set()
    for path in scripts():
        text = path.read_text(encoding="utf-8")
        found.update((None, json.loads(f'"{m}"')) for m in GETTEXT.findall(text))
        found.update((json.loads(f'"{c}"'), json.loads(f'"{m}"')) for c, m in PGETTEXT.findall(text))
    return found


def served_catalogue(language: str) -> dict:
    """The catalogue ``/jsi18n/?language=…`` serves, as the page's ``django.catalog`` gets it:
    ``{msgid: translation}`` (a context's msgid is ``"context\\x04msgid"``; a plural's
    translation a list)."""
    client = Client()
    client.cookies["django_language"] = language
    body = client.get(reverse("javascript-catalog") + f"?language={language}").content.decode()
    found = re.search(r"const newcatalog = (\{.*?\n  \});", body, re.S)
    return json.loads(found.group(1)) if found else {}


def script_label(path: str, key: str) -> str:
    """The msgid of ``key: gettext("…")`` in a script (``"static/games/table/labels.js"``,
    ``"saidFloor"`` -> ``"Floor: %(cards)s."``), or of ``key: pgettext("context", "…")``."""
    text = (ROOT / path).read_text(encoding="utf-8")
    found = re.search(rf'\b{key}: p?gettext\(\s*(?:"(?:[^"\\]|\\.)*",\s*)?"((?:[^"\\]|\\.)*)"', text)
    assert found, f"no {key} in {path}"
    return json.loads(f'"{found.group(1)}"')
