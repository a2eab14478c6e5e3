"""The table socket's session checks (``games.core.sockets.table.TableConsumer`` mixes them in):
the heartbeat's questions about a socket's session (``games.core.sockets.beats``), and what a
socket does when its session ends (a logout, a password change, a session found ended at an
action): it becomes an anonymous spectator's (``TableConsumer._become_spectator``) and sends the
spectators' view at once, so no later state of the seat, no hand, reaches it."""

from __future__ import annotations

from django.conf import settings

from games.core.state import broadcast


class SessionChecks:
    """Methods of ``TableConsumer`` (which gives ``scope``, ``user``, ``logged_in``,
    ``session_good_until``, ``inbox``, ``send_json``, ``send_error``, ``refresh`` and
    ``_become_spectator``)."""

    def session_due(self, by: float) -> tuple[str, int] | None:
        """The heartbeat's session question: ``(session key, user id)`` if this socket is
        logged in and trusts its session check only until ``by`` (seconds on
        ``beats.table_beats.clock``, ``time.monotonic()``) or less (``games.core.sockets.beats``)."""
        key = getattr(self.scope.get("session"), "session_key", None)
        if key and self.logged_in and self.session_good_until <= by:
            return key, self.user.pk
        return None

    def session_checked(self, at: float, alive: bool) -> None:
        """The heartbeat checked this socket's session at ``at`` (``beats.table_beats.clock``): still
        the user's, trusted for another ``BASRA_SESSION_RECHECK_SECONDS``; ended, the socket
        checks it once more itself and becomes a spectator's (:meth:`session_recheck`, queued
        behind the messages it is handling)."""
        if alive:
            self.session_good_until = max(
                self.session_good_until, at + settings.BASRA_SESSION_RECHECK_SECONDS
            )
        elif self.logged_in:
            self.inbox.put_nowait({"type": "session.recheck"})

    async def _session_gone(self) -> None:
        """The session was found ended at an action: ``login_required``, and from now on this is
        a spectator's socket (the spectator view follows)."""
        await self.send_error("login_required")
        await self._become_spectator()
        await self.refresh(force=True)

    async def session_ended(self, event: dict) -> None:
        """Group message (account group): a session of this user was logged out
        (``broadcast.send_session_ended``, ``{"session": tag}``); if it is the one this socket
        was opened with, :meth:`_become_spectator`, say so (``logged_out``) and send the
        spectators' view of the table."""
        key = getattr(self.scope.get("session"), "session_key", None)
        if key and self.logged_in and event["session"] == broadcast.session_tag(key):
            await self._become_spectator()
            await self._tell_logged_out()
            # At once the spectators' view, so the page stops showing the hand and the seat's
            # buttons now, not at the next click.
            await self.refresh(force=True)

    async def _tell_logged_out(self) -> None:
        """``{"type": "logged_out"}``: this socket's session ended (a logout, maybe in another
        tab); the page says so and offers to log in again. No hand is in it, and no read."""
        await self.send_json({"type": "logged_out"})
