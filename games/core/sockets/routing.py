"""Websocket routes of the games app (``docs/protocol.md`` "Sockets")."""

from channels.generic.websocket import AsyncWebsocketConsumer
from django.urls import path, re_path

from games.core.sockets.lobby import LobbyConsumer
from games.core.sockets.notices import NoticeConsumer
from games.core.sockets.table import TableConsumer


class UnknownPathConsumer(AsyncWebsocketConsumer):
    """Any other websocket path: the handshake is refused (HTTP 403), never an HTTP 500."""

    async def connect(self) -> None:
        await self.close()


websocket_urlpatterns = [
    path("ws/lobby/", LobbyConsumer.as_asgi()),
    path("ws/me/", NoticeConsumer.as_asgi()),
    path("ws/table/<int:match_id>/", TableConsumer.as_asgi()),
    re_path(r"", UnknownPathConsumer.as_asgi()),
]
