"""Websocket routes of the games app (``docs/protocol.md`` "Sockets")."""

from django.urls import path

from games.consumers import LobbyConsumer, TableConsumer

websocket_urlpatterns = [
    path("ws/lobby/", LobbyConsumer.as_asgi()),
    path("ws/table/<int:match_id>/", TableConsumer.as_asgi()),
]
