"""HTTP routes of the moderation app (namespace ``moderation``)."""

from django.urls import path

from games.moderation import views

app_name = "moderation"

urlpatterns = [
    path("players/<str:username>/report/", views.report, name="report"),
    path("moderation/", views.queue, name="queue"),
    path("moderation/log/", views.log, name="log"),
    path("moderation/messages/", views.inbox, name="messages"),
    path("moderation/players/<str:username>/", views.player, name="player"),
    path("moderation/players/<str:username>/act/", views.act, name="act"),
]
