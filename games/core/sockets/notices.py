"""``/ws/me/``: a signed-in player's notice socket, open on every page of the site
(``games.core.state.notices``; ``docs/protocol.md``, "Notices").

Thin like the table sockets: it authenticates from ``scope["user"]`` (an anonymous socket is
closed at once, code :data:`CLOSE_LOGIN`), joins the user's notice group
(``broadcast.notice_group``) and forwards what comes through it. It is also in the user's
account group: when the session it was opened with is logged out (``session.ended``) or may
have ended (``session.recheck``, a password change), it closes (code :data:`CLOSE_LOGIN`).
"""

from __future__ import annotations

from django.utils import translation

from games.core.sockets.auth import scope_user, session_user_is
from games.core.sockets.base import JsonSocket
from games.core.sockets.workers import in_worker
from games.core.state import broadcast, notices

#: Close code of a notice socket without a signed-in user (4401: HTTP 401 in the private range).
CLOSE_LOGIN = 4401


class NoticeConsumer(JsonSocket):
    """One page's notice socket (see the module)."""

    async def connect(self) -> None:
        self.user = scope_user(self.scope)
        if self.user is None or not self.user.is_authenticated:
            # Accepted, then closed with the reason: a handshake refused outright reaches the
            # page as 1006, which it would take for a dropped connection and retry.
            await self.accept()
            await self.close(CLOSE_LOGIN)
            return
        await super().connect()
        for group in (broadcast.account_group(self.user.pk), broadcast.notice_group(self.user.pk)):
            await self.join(group)
        await self.send_pending()

    async def layer_returned(self) -> None:
        """Back in its groups after the layer failed it: the notices pushed meanwhile were
        lost, so the whole list of what still waits again."""
        await self.send_pending()

    async def send_pending(self) -> None:
        """Send ``{"type": "pending", "notices": [...]}`` (``notices.pending``)."""

        def read() -> list[dict]:
            with translation.override(self.language):
                return notices.pending(self.user)

        await self.send_json({"type": "pending", "notices": await in_worker(read)()})

    async def receive_message(self, message: dict) -> None:
        if message.get("type") == "sync":
            await self.send_pending()
        else:
            await self.send_error("unknown_type")

    async def notice_push(self, event: dict) -> None:
        """Group message: a notice for this user (``broadcast.send_notices``)."""
        await self.send_json({"type": "notice", "kind": event["kind"], "payload": event["payload"]})

    async def session_ended(self, event: dict) -> None:
        """Group message (account group): a session of this user was logged out; if it is this
        socket's, close."""
        key = getattr(self.scope.get("session"), "session_key", None)
        if key and event["session"] == broadcast.session_tag(key):
            await self.close(CLOSE_LOGIN)

    async def session_recheck(self, event: dict) -> None:
        """Group message (account group): the password changed; close unless the session is
        still this user's."""
        if not await in_worker(session_user_is)(self.scope, self.user):
            await self.close(CLOSE_LOGIN)
