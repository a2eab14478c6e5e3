"""URL map of the site."""

from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/", include("allauth.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("", include("games.ratings.urls")),
    path("", include("accounts.urls")),
    path("", include("games.core.pages.urls")),
    path("", include("games.replays.urls")),
    path("tournaments/", include("games.tournaments.urls")),
]
