"""HTTP routes of the games app: the lobby and the table pages."""

from django.urls import path

from games.core.pages import friend_views, health, rules_page, views

urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("rules/", rules_page.rules, name="rules"),
    path("health/", health.health, name="health"),
    path("table/new/", views.table_create, name="table_create"),
    path("table/computer/", views.table_computer, name="table_computer"),
    path("table/<int:match_id>/", views.table, name="table"),
    path("table/<int:match_id>/join/", views.table_join, name="table_join"),
    path("table/<int:match_id>/leave/", views.table_leave, name="table_leave"),
    path("table/<int:match_id>/seed/", views.table_seed, name="table_seed"),
    path(
        "table/<int:match_id>/invite/<str:token>/", friend_views.table_invite, name="table_invite"
    ),
    path(
        "players/<str:username>/challenge/", friend_views.challenge_create,
        name="challenge_create",
    ),
    path(
        "challenge/<int:challenge_id>/accept/", friend_views.challenge_accept,
        name="challenge_accept",
    ),
    path(
        "challenge/<int:challenge_id>/decline/", friend_views.challenge_decline,
        name="challenge_decline",
    ),
    path(
        "challenge/<int:challenge_id>/cancel/", friend_views.challenge_cancel,
        name="challenge_cancel",
    ),
    path("match/<int:match_id>/record.json", views.match_record, name="match_record"),
]
