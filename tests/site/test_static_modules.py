"""The scripts are ES modules whose imports the production storage rewrites to the hashed names
(basra_site/storage.py): collectstatic, as ``DEBUG=0`` runs it, hashes every module, and every
import of a hashed module names a hashed file that was collected; the table page's
``modulepreload`` links name those hashed files. The files are collected once for the module
(collectstatic hashes every static file of the site: seconds of CPU)."""
from __future__ import annotations

import json
import re

import pytest
from django.core.management import call_command
from django.template import engines
from django.test import override_settings

PRELOAD = re.compile(r'<link rel="modulepreload" href="([^"]+)">')
#: The production storage, as ``DEBUG=0`` runs it.
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "basra_site.storage.ModuleManifestStorage"},
}
IMPORT = re.compile(r"""(?:\bimport|\bexport\b[^;]*?\bfrom)\s*[^;'"]*?['"]([^'"]+)['"]\s*;""")


@pytest.fixture(scope="module")
def collected(tmp_path_factory):
    """The static root collectstatic wrote under the production storage, and its manifest's
    ``paths`` (source name to hashed name)."""
    root = tmp_path_factory.mktemp("static")
    # Django resets staticfiles_storage when STORAGES or STATIC_ROOT change (setting_changed).
    with override_settings(STATIC_ROOT=root, STORAGES=STORAGES, DEBUG=False):
        call_command("collectstatic", interactive=False, verbosity=0)
    return root, json.loads((root / "staticfiles.json").read_text())["paths"]


def test_collectstatic_rewrites_the_modules_imports_to_hashed_names(collected):
    tmp_path, paths = collected
    hashed = set(paths.values())
    main = tmp_path / paths["games/table/main.js"]
    seen = 0
    for name in hashed:
        if not name.endswith(".js"):
            continue
        source = (tmp_path / name).read_text(encoding="utf-8")
        folder = name.rpartition("/")[0]
        for specifier in IMPORT.findall(source):
            # Relative or absolute, never a bare name (the storage rewrites only those).
            assert specifier.startswith(("./", "../", "/")), (name, specifier)
            target = specifier.lstrip("/") if specifier.startswith("/") else _join(folder, specifier)
            assert target in hashed, (name, specifier)
            seen += 1
    assert seen > 20
    assert re.search(r'from "\./store\.[0-9a-f]{12}\.js";', main.read_text(encoding="utf-8"))


def test_under_the_manifest_storage_the_preload_links_are_the_hashed_names(collected):
    root, paths = collected
    with override_settings(STATIC_ROOT=root, STORAGES=STORAGES, DEBUG=False):
        links = engines["django"].from_string(
            "{% load modules %}{% modulepreload 'games/table/main.js' %}").render({})
    hrefs = PRELOAD.findall(links)
    assert hrefs[0] == "/static/" + paths["games/table/main.js"]
    assert "/static/" + paths["games/table/store.js"] in hrefs
    assert all(href.removeprefix("/static/") in paths.values() for href in hrefs)


def _join(folder: str, relative: str) -> str:
    parts = folder.split("/") if folder else []
    for piece in relative.split("/"):
        if piece == "..":
            parts.pop()
        elif piece != ".":
            parts.append(piece)
    return "/".join(parts)
