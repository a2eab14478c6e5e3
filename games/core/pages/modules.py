"""The static import graph of a page's ES modules, for ``<link rel="modulepreload">``.

A browser finds a module's imports only once it has that module: the table's entry
(``static/games/table/main.js``) reaches its deepest module through six levels of imports, six
round trips before the first render. Listing every module of the graph in the page's head lets
the browser fetch them all at once (HTML, "modulepreload").

The graph is read from the scripts' sources (the static files' finders, else the collected
copy), following the static ``import``/``export … from "…";`` of each module: the same forms
the static storage rewrites (``basra_site/storage.py``: specifiers start with ``./``, ``../``
or ``/``). The URLs are the static storage's, so under ``DEBUG=0`` they are the hashed names
the modules' rewritten imports ask for (a preload under another URL would be fetched twice).
"""

from __future__ import annotations

import functools
import posixpath
import re

from django.conf import settings
from django.contrib.staticfiles import finders
from django.contrib.staticfiles.storage import staticfiles_storage

#: A static import or re-export ending with ``;`` (``import {a} from "./a.js";``,
#: ``import "./b.js";``, ``export {c} from "../c.js";``): group 1 is the specifier. A dynamic
#: ``import("…")`` is not preloaded (its module may never be needed).
IMPORT = re.compile(r"""(?:\bimport(?!\s*\()|\bexport\b[^;]*?\bfrom)\s*[^;'"]*?['"]([^'"]+)['"]\s*;""")
#: ``/* … */`` and ``// …`` comments, whose words ("imports what it uses") are not imports.
COMMENT = re.compile(r"/\*.*?\*/|(?<![:\"'\\])//[^\n]*", re.S)


def _source(path: str) -> str:
    """The text of the static file ``path`` ("games/table/main.js"): the source's, else the
    collected copy's.

    :raises FileNotFoundError: when neither exists.
    """
    found = finders.find(path)
    if found:
        with open(found, encoding="utf-8") as handle:
            return handle.read()
    with staticfiles_storage.open(path) as handle:
        return handle.read().decode("utf-8")


def _target(importer: str, specifier: str) -> str | None:
    """The static path a specifier of the module ``importer`` names, or ``None`` for one outside
    the static files (a bare name, another origin)."""
    static_url = "/" + settings.STATIC_URL.lstrip("/")
    if specifier.startswith(static_url):
        return specifier[len(static_url):]
    if specifier.startswith(("./", "../")):
        return posixpath.normpath(posixpath.join(posixpath.dirname(importer), specifier))
    return None


def imports(path: str) -> list[str]:
    """The static paths the module ``path`` imports statically, in source order, each once."""
    found = []
    for specifier in IMPORT.findall(COMMENT.sub("", _source(path))):
        target = _target(path, specifier)
        if target is not None and target not in found:
            found.append(target)
    return found


def graph(*entries: str) -> list[str]:
    """Every module the ``entries`` reach through static imports, the entries included, each
    once, depth first in import order (static paths such as ``"games/table/store.js"``).

    :raises FileNotFoundError: when a module or an import names no static file.
    """
    seen: list[str] = []

    def visit(path: str) -> None:
        if path in seen:
            return
        seen.append(path)
        for target in imports(path):
            visit(target)

    for entry in entries:
        visit(entry)
    return seen


@functools.cache
def _cached_urls(entries: tuple[str, ...], storage: tuple) -> tuple[str, ...]:
    return tuple(staticfiles_storage.url(path) for path in graph(*entries))


def preload_urls(*entries: str) -> list[str]:
    """The static storage's URLs of :func:`graph`: read once per process, or on every call
    under ``DEBUG`` (a developer edits the scripts while the server runs)."""
    if settings.DEBUG:
        return [staticfiles_storage.url(path) for path in graph(*entries)]
    # Keyed by the storage too: its class and manifest decide the names.
    storage = (staticfiles_storage.__class__, getattr(staticfiles_storage, "manifest_hash", ""))
    return list(_cached_urls(entries, storage))
