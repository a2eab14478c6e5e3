"""URL map of the site."""

from allauth.account.decorators import secure_admin_login
from django.contrib import admin
from django.urls import include, path

from basra_site import install

# The admin's log-in is allauth's (its documented ``secure_admin_login``): the admin's own form
# checked staff passwords with none of allauth's limits on failed log-ins. A visitor who is not
# logged in is sent to /accounts/login/; a logged-in user who is not staff is refused (403).
admin.site.login = secure_admin_login(admin.site.login)

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/", include("allauth.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    # At the root: a service worker's scope is its script's directory (basra_site/install.py).
    path("sw.js", install.service_worker, name="service_worker"),
    path("manifest.webmanifest", install.manifest, name="web_manifest"),
    path("offline/", install.offline, name="offline"),
    path("", include("games.ratings.urls")),
    path("", include("accounts.urls")),
    path("", include("games.core.pages.urls")),
    path("", include("games.replays.urls")),
    path("tournaments/", include("games.tournaments.urls")),
    path("play/", include("games.queues.urls")),
]
