"""The static files' storage when ``DEBUG`` is off (``settings.STORAGES["staticfiles"]``).

WhiteNoise's ``CompressedManifestStaticFilesStorage`` (hashed names, gzip and Brotli copies),
which also rewrites the ES modules' import specifiers to the hashed names: Django's
``ManifestStaticFilesStorage`` does so only when ``support_js_module_import_aggregation`` is
set (Django 4.2+, "ManifestStaticFilesStorage", its ``support_js_module_import_aggregation``).
Without it, ``import ... from "./store.js";`` in a hashed ``main.<hash>.js`` would load the
unhashed ``store.js``, which the service worker does not keep and a browser caches by name.

What the scripts must keep to for it (static/, README "Layout"):
- a specifier starts with ``./``, ``../`` or ``/`` (a relative or absolute path, never a bare
  name), and a static ``import``/``export ... from`` ends with ``;``;
- no cycle among the modules' imports: a file's hash depends on those of what it imports, so
  a cycle cannot be hashed (collectstatic stops with "Max post-process passes exceeded").
"""
from __future__ import annotations

from whitenoise.storage import CompressedManifestStaticFilesStorage


class ModuleManifestStorage(CompressedManifestStaticFilesStorage):
    """WhiteNoise's compressed manifest storage, rewriting the ES modules' imports too."""

    support_js_module_import_aggregation = True
