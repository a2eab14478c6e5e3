"""The site as an installable web app: its manifest, its service worker and the offline page
the worker keeps (issue 22, "Installable").

- ``/manifest.webmanifest``: the W3C "Web Application Manifest" (``application/manifest+json``),
  its name and description in the reader's language, opening ``/`` standalone, with the icons
  of ``static/icons/`` (drawn by ``tools/draw_icons.py``).
- ``/sw.js``: the service worker (``basra_site/service_worker.js``), served from the site's root
  so that its scope is the whole site (W3C "Service Workers", "scope": a worker's default scope
  is its script's directory, so no ``Service-Worker-Allowed`` header is needed). It keeps the
  offline page in every language and the files that page uses, and serves the page, in the
  language of the page the reader opened last, when a navigation finds no network; it never
  stores a page, a JSON answer or a socket's frame, so nothing it serves can pass for a live
  table.
- ``/offline/?lang=<code>``: that page. It names nobody and holds no form (it is stored and
  shown to whoever opens the site on that browser, later).
- ``/favicon.ico``: a redirect to ``static/favicon.ico`` (drawn by ``tools/draw_icons.py``), for
  the clients that look for a site's icon there instead of reading a page's ``<link rel="icon">``.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from django.conf import settings
from django.contrib.staticfiles.storage import ManifestFilesMixin, staticfiles_storage
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

#: The manifest's and the browser's colours: the header's felt green and the page's paper
#: (``static/css/site.css``, ``--felt`` and ``--paper``).
THEME_COLOUR = "#0b6b3a"
BACKGROUND_COLOUR = "#fdfcf7"

#: ``(file under static/, size in px, purpose)`` of each icon (W3C manifest, "purpose").
ICONS = [
    ("icons/icon-192.png", 192, "any"),
    ("icons/icon-512.png", 512, "any"),
    ("icons/icon-maskable-512.png", 512, "maskable"),
]

#: What the offline page loads, kept by the worker beside the page.
OFFLINE_ASSETS = ["css/site.css", "favicon.svg", "icons/icon-192.png"]

WORKER_SOURCE = Path(__file__).resolve().parent / "service_worker.js"


def _language(request: HttpRequest) -> str:
    """The ``lang`` query parameter when it names one of ``settings.LANGUAGES``, else the
    request's language (``LocaleMiddleware``: the language cookie, then Accept-Language)."""
    asked = request.GET.get("lang", "")
    codes = {code for code, _name in settings.LANGUAGES}
    return asked if asked in codes else translation.get_language()


@require_GET
def favicon(request: HttpRequest) -> HttpResponseRedirect:
    """``/favicon.ico``: a temporary redirect (302) to the static ICO (16, 32 and 48 px), whose
    address changes with its content once the static files are hashed (``ModuleManifestStorage``):
    a permanent one would keep a browser on an address a later deploy removes."""
    return HttpResponseRedirect(static("favicon.ico"))


@require_GET
def manifest(request: HttpRequest) -> JsonResponse:
    """The web app manifest, in the request's language.

    :returns: ``application/manifest+json``: ``name``, ``short_name``, ``description``, ``lang``,
        ``dir``, ``id``, ``start_url`` and ``scope`` (``/``), ``display`` (``standalone``),
        ``theme_color``, ``background_color`` and ``icons`` (``src``, ``sizes``, ``type``,
        ``purpose``). Sources: W3C "Web Application Manifest" (its members), web.dev
        "Add a web app manifest" (the 192 and 512 px icons browsers ask for).
    """
    body = {
        "id": "/",
        "name": _("Basra"),
        "short_name": _("Basra"),
        "description": _("Egyptian Basra, played online: live tables for two or four."),
        "lang": translation.get_language(),
        "dir": "rtl" if translation.get_language_bidi() else "ltr",
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "theme_color": THEME_COLOUR,
        "background_color": BACKGROUND_COLOUR,
        "icons": [
            {"src": static(path), "sizes": f"{size}x{size}", "type": "image/png", "purpose": purpose}
            for path, size, purpose in ICONS
        ],
    }
    return JsonResponse(body, content_type="application/manifest+json",
                        json_dumps_params={"ensure_ascii": False})


def _offline_page(language: str) -> str:
    with translation.override(language):
        return render_to_string("offline.html", {
            "LANGUAGE_CODE": language, "LANGUAGE_BIDI": translation.get_language_bidi(),
        })


@require_GET
def offline(request: HttpRequest) -> HttpResponse:
    """The page the service worker shows when a navigation finds no network, in ``lang``
    (:func:`_language`)."""
    return HttpResponse(_offline_page(_language(request)))


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    """The service worker for the whole site, the same for every reader.

    Its first line is its settings (``CONFIG``): the cache's version, a hash of the offline
    pages, of the files they use and of the static files' manifest
    (``ManifestFilesMixin.manifest_hash``, Django 4.2), so the browser installs the worker again,
    dropping the old cache with the static files it kept, whenever one of them changes (a
    browser compares a worker's bytes on each update check); the offline page's URL in each of
    ``settings.LANGUAGES``, the default language and the language cookie's name; the files kept;
    the static files' prefix, and whether their names are versioned
    (``ManifestStaticFilesStorage``, not under ``DEBUG``), which alone lets the worker answer
    them from its cache before the network.

    The worker does not depend on the reader's language, so that a language switch installs no
    new worker: a worker taking over holds the navigations made meanwhile. The offline page is
    in the language of the language cookie where the worker can read it, else in that of the
    page opened last (each page tells the worker its language and when it was opened,
    ``static/install.js``).

    :returns: ``text/javascript``, ``Cache-Control: no-cache`` (every update check reaches us).
    """
    offline_urls = {code: f"/offline/?lang={code}" for code, _name in settings.LANGUAGES}
    assets = [static(path) for path in OFFLINE_ASSETS]
    version = hashlib.sha256(
        "\n".join([*(_offline_page(code) for code in offline_urls), *assets,
                   getattr(staticfiles_storage, "manifest_hash", "")]).encode()
    ).hexdigest()[:16]
    config = {
        "version": version,
        "offlineUrls": offline_urls,
        "defaultLanguage": settings.LANGUAGE_CODE,
        "languageCookie": settings.LANGUAGE_COOKIE_NAME,
        "precache": [*offline_urls.values(), *assets],
        # The storage's own prefix: a manifest storage has no hashed name for "" to give.
        "staticPrefix": staticfiles_storage.base_url,
        "staticVersioned": isinstance(staticfiles_storage, ManifestFilesMixin),
    }
    source = WORKER_SOURCE.read_text(encoding="utf-8")
    body = f"var CONFIG = {json.dumps(config)};\n{source}"
    response = HttpResponse(body, content_type="text/javascript; charset=utf-8")
    response["Cache-Control"] = "no-cache"
    return response
