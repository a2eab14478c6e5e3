"""URL map of the site."""

from allauth.account.decorators import secure_admin_login
from django.contrib import admin
from django.utils import timezone
from django.urls import include, path
from django.views.decorators.http import last_modified
from django.views.i18n import JavaScriptCatalog

from basra_site import install

# The admin's log-in is allauth's (its documented ``secure_admin_login``): the admin's own form
# checks staff passwords with none of allauth's limits on failed log-ins. A visitor who is not
# logged in is sent to /accounts/login/; a logged-in user who is not staff is refused (403).
admin.site.login = secure_admin_login(admin.site.login)

# The scripts' plural forms (``ngettext`` in static/games/live.js): Django's catalogue of the
# ``djangojs`` domain (locale/*/LC_MESSAGES/djangojs.po). Its text changes only with a deploy,
# so a browser revalidates it against the server's start time (a 304) instead of fetching it;
# base.html names the page's language in its address, so that each language is kept apart.
_STARTED = timezone.now()
javascript_catalog = last_modified(lambda request, **kwargs: _STARTED)(JavaScriptCatalog.as_view())

urlpatterns = [
    path("jsi18n/", javascript_catalog, name="javascript-catalog"),
    path("admin/", admin.site.urls),
    path("accounts/", include("allauth.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    # At the root: a service worker's scope is its script's directory (basra_site/install.py).
    path("sw.js", install.service_worker, name="service_worker"),
    path("favicon.ico", install.favicon, name="favicon"),
    path("manifest.webmanifest", install.manifest, name="web_manifest"),
    path("offline/", install.offline, name="offline"),
    path("", include("games.ratings.urls")),
    path("", include("accounts.urls")),
    path("", include("games.core.pages.urls")),
    path("", include("games.replays.urls")),
    path("tournaments/", include("games.tournaments.urls")),
    path("play/", include("games.queues.urls")),
    path("", include("games.people.urls")),
    path("", include("games.chat.urls")),
    path("", include("games.api.urls")),
    path("", include("games.moderation.urls")),
]
