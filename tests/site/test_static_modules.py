"""The scripts are ES modules whose imports the production storage rewrites to the hashed names
(basra_site/storage.py): collectstatic, as ``DEBUG=0`` runs it, hashes every module, and every
import of a hashed module names a hashed file that was collected."""
from __future__ import annotations

import json
import re

from django.core.management import call_command
from django.test import override_settings

IMPORT = re.compile(r"""(?:\bimport|\bexport\b[^;]*?\bfrom)\s*[^;'"]*?['"]([^'"]+)['"]\s*;""")


def test_collectstatic_rewrites_the_modules_imports_to_hashed_names(tmp_path):
    storages = {
        "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
        "staticfiles": {"BACKEND": "basra_site.storage.ModuleManifestStorage"},
    }
    # Django resets staticfiles_storage when STORAGES or STATIC_ROOT change (setting_changed).
    with override_settings(STATIC_ROOT=tmp_path, STORAGES=storages):
        call_command("collectstatic", interactive=False, verbosity=0)
    paths = json.loads((tmp_path / "staticfiles.json").read_text())["paths"]
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


def _join(folder: str, relative: str) -> str:
    parts = folder.split("/") if folder else []
    for piece in relative.split("/"):
        if piece == "..":
            parts.pop()
        elif piece != ".":
            parts.append(piece)
    return "/".join(parts)
