"""The table page lists its whole module graph as ``<link rel="modulepreload">`` in its head
(``games/core/pages/modules.py``), so the browser fetches every module at once instead of one
level of imports after another; under the manifest storage the links are the hashed names the
modules' rewritten imports ask for (that one in tests/site/test_static_modules.py, which collects
the static files once for both)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse

from games.core import actions

ROOT = Path(__file__).resolve().parents[2]
#: A static import or re-export of a module (as tests/site/test_static_modules.py reads them).
IMPORT = re.compile(r"""(?:\bimport|\bexport\b[^;]*?\bfrom)\s*[^;'"]*?['"]([^'"]+)['"]\s*;""")
PRELOAD = re.compile(r'<link rel="modulepreload" href="([^"]+)">')


def source(path: str) -> str:
    for folder in [ROOT / "static", *ROOT.glob("games/*/static")]:
        if (folder / path).is_file():
            return (folder / path).read_text(encoding="utf-8")
    raise FileNotFoundError(path)


def resolve(importer: str, specifier: str) -> str:
    parts = importer.split("/")[:-1]
    for piece in specifier.split("/"):
        if piece == "..":
            parts.pop()
        elif piece != ".":
            parts.append(piece)
    return "/".join(parts)


@pytest.mark.django_db
def test_the_table_page_preloads_every_module_its_entries_import(django_user_model):
    alice = django_user_model.objects.create_user("alice", "alice@example.com", None)
    match = actions.create_table(user=alice, players=2, rules={"players": 2}, rated=False)
    client = Client()
    client.force_login(alice)
    html = client.get(reverse("table", args=[match.id])).content.decode()
    head = html.split("</head>")[0]
    preloaded = [href.removeprefix("/static/") for href in PRELOAD.findall(head)]
    assert len(preloaded) == len(set(preloaded))
    # The page's entry modules, and every module any preloaded module imports (the closure).
    assert {"site.js", "games/table/main.js"} <= set(preloaded)
    for module in preloaded:
        for specifier in IMPORT.findall(source(module)):
            assert resolve(module, specifier) in preloaded, (module, specifier)
    assert "games/table/store.js" in preloaded and len(preloaded) > 15
