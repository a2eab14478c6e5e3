"""``/ws/lobby/``: the lobby's websocket consumer (``docs/protocol.md``), on the base socket of
``games.core.sockets``; the rows it sends are ``games.core.state.lobby``'s and ``games.core.state.reads``'."""

from __future__ import annotations

import asyncio
import logging
import random

from django.utils import translation

from games.core import actions
from games.core.sockets.auth import scope_user
from games.core.sockets.base import JsonSocket
from games.core.sockets.workers import in_worker
from games.core.state import broadcast, liveness, lobby, outages, reads

logger = logging.getLogger(__name__)

#: Seconds between two refreshes of a lobby socket (at most; less when ``liveness.heartbeat_seconds``
#: is): its user counts as there for the open tables they sit at (``actions.seen_waiting``), and
#: the matches, ages and who is online are sent again.
LOBBY_REFRESH_SECONDS = 15.0


class LobbyConsumer(JsonSocket):
    """``/ws/lobby/``: the open tables, sent on connect, on ``sync`` and after every change.

    A socket that asks for the matches (``{"type": "matches"}``: the user's own being played,
    the ones to watch) gets them at once, on every ``sync`` and every
    :data:`LOBBY_REFRESH_SECONDS`, when the open tables are sent again too (their ages and who
    is online change with time alone). While it is open, its user counts as there at the open
    tables they sit at (``actions.seen_waiting``, every :data:`LOBBY_REFRESH_SECONDS`): a table
    is not abandoned while its creator waits in the lobby. Rows are written for this socket's
    user, in its language (``games.core.state.lobby``).
    """

    refresher: asyncio.Task | None = None
    #: The client asked for the matches (``{"type": "matches"}``).
    follows_matches = False

    async def connect(self) -> None:
        self.user = scope_user(self.scope)
        await super().connect()
        await self.join(broadcast.LOBBY_GROUP)
        self.refresher = asyncio.ensure_future(self._refresh_now_and_then())
        await self.send_tables()

    async def disconnect(self, code: int) -> None:
        refresher, self.refresher = self.refresher, None
        if refresher is not None:
            refresher.cancel()
            await asyncio.wait({refresher})

    async def layer_returned(self) -> None:
        """Back in the lobby's group after the layer failed it: the tables (and the matches)
        as they are now, for the changes missed meanwhile."""
        await self.send_tables()

    @property
    def username(self) -> str | None:
        user = self.user
        return user.get_username() if user is not None and user.is_authenticated else None

    def _rows(self, tables: list[dict]) -> list[dict]:
        with translation.override(self.language):
            return lobby.open_table_rows(tables, username=self.username)

    def _tables(self) -> list[dict]:
        """The open table rows for this socket (in a worker thread); its user is seen."""
        actions.seen_waiting(user=self.user)
        return self._rows(reads.open_tables())

    def _matches(self) -> dict:
        """The ``matches`` message for this socket (in a worker thread)."""
        with translation.override(self.language):
            return {
                "type": "matches",
                "mine": lobby.your_matches(self.user),
                "live": lobby.live_matches(self.user),
            }

    async def send_tables(self) -> None:
        """Send the open tables, and the matches if the client follows them."""
        await self.send_json({"type": "tables", "tables": await in_worker(self._tables)()})
        if self.follows_matches:
            await self.send_json(await in_worker(self._matches)())

    async def _refresh_now_and_then(self) -> None:
        while not (self.closing or self.gone):
            every = min(LOBBY_REFRESH_SECONDS, liveness.heartbeat_seconds())
            await asyncio.sleep(every * random.uniform(0.9, 1.1))
            if self.closing or self.gone:
                return
            try:
                if self.follows_matches:
                    await self.send_tables()
                else:
                    await in_worker(actions.seen_waiting)(user=self.user)
            except outages.UNAVAILABLE:
                pass  # logged once per outage (games.core.state.outages): the next one may work
            except Exception:  # noqa: BLE001 - a database hiccup must not end the refreshes
                logger.exception("lobby refresh failed")

    async def receive_message(self, message: dict) -> None:
        kind = message.get("type")
        if kind == "sync":
            await self.send_tables()
        elif kind == "matches":
            self.follows_matches = True
            await self.send_json(await in_worker(self._matches)())
        else:
            await self.send_error("unknown_type")

    async def lobby_tables(self, event: dict) -> None:
        """Group message: the open tables changed (the rows as ``reads.open_tables`` gives
        them, written here for this socket)."""
        await self.send_json({"type": "tables", "tables": self._rows(event["tables"])})
