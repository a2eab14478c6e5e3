"""Routes of the replays app (included at the site's root by ``basra_site.urls``)."""

from django.urls import path, re_path

from games.replays import views

app_name = "replays"

urlpatterns = [
    path("replays/", views.recent, name="recent"),
    path("match/<int:match_id>/replay/", views.match_replay, name="match"),
    path("match/<int:match_id>/replay/analysis/", views.match_analysis, name="match_analysis"),
    path("replay/import/", views.import_record, name="import"),
    re_path(r"^replay/(?P<token>[A-Za-z0-9_-]{16,32})/$", views.imported_replay, name="imported"),
    re_path(r"^replay/(?P<token>[A-Za-z0-9_-]{16,32})/record\.json$", views.imported_record,
            name="imported_record"),
    re_path(r"^replay/(?P<token>[A-Za-z0-9_-]{16,32})/analysis/$", views.imported_analysis,
            name="imported_analysis"),
    re_path(r"^replay/(?P<token>[A-Za-z0-9_-]{16,32})/keep/$", views.keep_import,
            name="keep_import"),
    re_path(r"^replay/(?P<token>[A-Za-z0-9_-]{16,32})/delete/$", views.delete_import,
            name="delete_import"),
]
