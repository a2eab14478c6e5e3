"""The API's NDJSON streams: the account's events and a match for one seat (``docs/api.md``).

Each stream is an async generator under ASGI (Django's ``StreamingHttpResponse``), reading a
channel of its own on the channel layer: the match's states come from the table's group
(``table_group``), the very broadcast every table socket of that match gets, each seat's view
built once by the core (``games.core.state.reads``, ``broadcast.send_states``); the stream
passes on its account's seat's view. Nothing builds a second view. When the channel says
nothing for ``settings.BASRA_API_KEEPALIVE_SECONDS`` (6 s), an empty line goes out (API.md asks
for one at least every 7 s), and a game stream whose last state's ``deadline`` has passed reads
the table once (the clock may run in another process, whose broadcast the in-memory layer cannot
carry). A stream holds its channel, the last ``seq`` and the seats' names: nothing grows while
it stays open. It ends when the client goes away (Django cancels the generator), after the
state that shows the match over, or, for an event stream, when a newer one of its token opens.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from datetime import datetime
from typing import Any

import orjson
from channels.layers import get_channel_layer
from django.conf import settings
from django.utils import timezone

from games.api import events, shapes
from games.chat import for_apps as chat
from games.core.for_apps import (
    DATABASE_UNAVAILABLE, GameError, in_worker, notice_group, player_connected, player_seen,
    table_group, table_state,
)

#: Seconds between two writes of a streaming seat's ``last_seen`` (the clock marks a seat
#: absent after ``BASRA_ABSENT_GRACE_SECONDS``, 60 s; a table socket's beat writes it as often).
SEEN_EVERY = 10.0

#: Game streams open in this process, per account (``limits.MAX_GAME_STREAMS``).
game_streams: dict[int, int] = {}


def line(obj: Any) -> bytes:
    """One NDJSON line."""
    return orjson.dumps(obj, option=orjson.OPT_NON_STR_KEYS) + b"\n"


KEEPALIVE = b"\n"


def keepalive_seconds() -> float:
    return float(getattr(settings, "BASRA_API_KEEPALIVE_SECONDS", 6.0))


async def _receive(layer: Any, channel: str, timeout: float) -> dict | None:
    """The channel's next message, or ``None`` after ``timeout`` seconds of silence."""
    try:
        return await asyncio.wait_for(layer.receive(channel), timeout)
    except TimeoutError:
        return None


def _as_game_state(state: dict) -> dict:
    return {**{k: v for k, v in state.items() if k != "type"}, "type": "gameState"}


def _passed(deadline: str | None) -> bool:
    return deadline is not None and datetime.fromisoformat(deadline).timestamp() < time.time()


class GameStream:
    """One account's stream of match ``match_id`` (``/api/bot|board/game/stream/{id}``).

    :meth:`open` (before the answer's status is sent) joins the table's group, then reads the
    seat's state: 404 ``not_found`` when the account does not sit there.
    """

    def __init__(self, user: Any, match_id: int) -> None:
        self.user, self.match_id = user, match_id
        self.layer = get_channel_layer()
        self.channel = ""
        self.seq = -1
        self.deadline: str | None = None
        self.names: dict[int, str | None] = {}
        self.seat: int | None = None
        self.seen_at = 0.0

    async def open(self) -> dict:
        """:raises GameError: ``not_found``."""
        self.channel = await self.layer.new_channel()
        await self.layer.group_add(table_group(self.match_id), self.channel)
        try:
            state = await self._read()
            if state["you"] is None:
                raise GameError("not_found")
            # A program reading its seat's stream is at the table, as an open table socket is:
            # seen now (an absent seat is back), and every SEEN_EVERY seconds while it reads.
            await in_worker(player_connected)(match_id=self.match_id, user=self.user)
            self.seen_at = time.monotonic()
        except BaseException:
            await self.close()
            raise
        return state

    async def close(self) -> None:
        if self.channel:
            channel, self.channel = self.channel, ""
            await self.layer.group_discard(table_group(self.match_id), channel)

    async def _seen(self, *, force: bool = False) -> None:
        """Write the seat's ``last_seen`` if :data:`SEEN_EVERY` has passed (or ``force``)."""
        if force or time.monotonic() - self.seen_at >= SEEN_EVERY:
            self.seen_at = time.monotonic()
            try:
                await in_worker(player_seen)(match_id=self.match_id, user=self.user)
            except DATABASE_UNAVAILABLE:
                pass  # logged by in_worker once per outage; the next one writes it

    async def _read(self) -> dict:
        return await in_worker(table_state)(match_id=self.match_id, user=self.user)

    def _take(self, state: dict) -> bool:
        """Keep ``state`` if it is news (a later ``seq``, or the same with a new deadline)."""
        if state["seq"] < self.seq or (state["seq"] == self.seq and state["deadline"] == self.deadline):
            return False
        self.seq, self.deadline = state["seq"], state["deadline"]
        self.names = {s["seat"]: s.get("username") for s in state["seats"]}
        self.seat = state["you"]
        return True

    @staticmethod
    def over(state: dict) -> bool:
        return state["match"]["status"] == "finished"

    async def lines(self, first: dict) -> AsyncIterator[bytes]:
        """``gameFull``, then ``gameState`` and ``chatLine`` lines, keep-alives between."""
        user_id = self.user.pk
        try:
            self._take(first)
            yield line({
                "type": "gameFull", "id": self.match_id, "players": first["match"]["players"],
                "rated": first["match"]["rated"], "rules": first["match"]["rules"],
                "seats": first["seats"], "you": first["you"], "state": _as_game_state(first),
            })
            if self.over(first):
                return
            while True:
                message = await _receive(self.layer, self.channel, keepalive_seconds())
                await self._seen()
                state = None
                if message is None:
                    yield KEEPALIVE
                    if _passed(self.deadline):
                        state = await self._read()
                elif message["type"] == "table.states":
                    text = next((v for _s, u, v in message["views"] if u == user_id), None)
                    if text is not None and message["seq"] >= self.seq:
                        state = orjson.loads(text)
                elif message["type"] == "table.seating":
                    state = await self._read()
                elif message["type"] == "table.phrase":
                    if user_id not in message.get("hidden_from", ()):
                        yield line({
                            "type": "chatLine", "room": "player",
                            "username": self.names.get(message["seat"]), "text": message["id"],
                        })
                elif message["type"] == "table.app":
                    chat_line = chat.api_line(message, self.seat, user_id)
                    if chat_line is not None:
                        yield line(chat_line)
                elif message["type"] == "table.closed":
                    return
                if state is not None and self._take(state):
                    yield line(_as_game_state(state))
                    if self.over(state):
                        return
        finally:
            # The grace before "absent" counts from the stream's end, as from a socket's close.
            await self._seen(force=True)
            await self.close()
            game_streams[user_id] = game_streams.get(user_id, 1) - 1
            if game_streams[user_id] <= 0:
                game_streams.pop(user_id, None)


class EventStream:
    """One token's stream of its account's events (``/api/stream/event``)."""

    def __init__(self, user: Any, token_id: int) -> None:
        self.user, self.token_id = user, token_id
        self.layer = get_channel_layer()
        self.channel = ""
        self.groups = (
            events.token_group(token_id), events.user_group(user.pk), notice_group(user.pk),
        )
        #: ``{challenge id: expires_at}`` of the challenges told as waiting: a
        #: ``challengeCanceled`` (status ``expired``) is told when one expires unanswered.
        self.waiting: dict[int, datetime] = {}

    async def open(self) -> list[dict]:
        """Close the token's stream open before this one, join the groups, then read the
        first events (matches in play, open challenges): a change made in between is told
        twice rather than never."""
        self.channel = await self.layer.new_channel()
        await self.layer.group_send(
            events.token_group(self.token_id), {"type": "api.replace", "keep": self.channel}
        )
        for group in self.groups:
            await self.layer.group_add(group, self.channel)
        try:
            return await in_worker(self._first)()
        except BaseException:
            await self.close()
            raise

    async def close(self) -> None:
        if self.channel:
            channel, self.channel = self.channel, ""
            for group in self.groups:
                await self.layer.group_discard(group, channel)

    def _first(self) -> list[dict]:
        first = [{"type": "gameStart", "game": g} for g in shapes.games_in_play(self.user)] + [
            {"type": "challenge", "challenge": c} for c in shapes.open_challenges(self.user)
        ]
        self._follow(first)
        return first

    def _follow(self, told: list[dict]) -> None:
        """Keep the expiry of each challenge ``told`` as waiting; forget the others."""
        created = {e["challenge"]["id"] for e in told if e.get("challenge", {}).get("status") == "created"}
        for event in told:
            if "challenge" in event and event["challenge"]["id"] not in created:
                self.waiting.pop(event["challenge"]["id"], None)
        if created:
            self.waiting.update(shapes.expiries(created))

    def _until_expiry(self) -> float:
        """Seconds until the first waiting challenge expires (``inf``: none waits)."""
        if not self.waiting:
            return float("inf")
        return max(0.0, (min(self.waiting.values()) - timezone.now()).total_seconds())

    def _expired(self) -> list[dict]:
        """``challengeCanceled`` (status ``expired``) for each waiting challenge whose time ran
        out unanswered (worker thread; one query a challenge that expired)."""
        now = timezone.now()
        told = []
        for challenge_id in [c for c, at in self.waiting.items() if at <= now]:
            del self.waiting[challenge_id]
            challenge = shapes.challenge_by_id(challenge_id, self.user.pk)
            if challenge is not None and challenge["status"] == "expired":
                told.append({"type": "challengeCanceled", "challenge": challenge})
        return told

    def _event(self, message: dict) -> dict | None:
        """The event a layer message tells the account of, if any (worker thread); the
        challenges it tells of are followed to their expiry (:meth:`_follow`)."""
        event = self._told(message)
        if event is not None and "challenge" in event:
            self._follow([event])
        return event

    def _told(self, message: dict) -> dict | None:
        if message["type"] == "api.game":
            game = shapes.game(message["match_id"], self.user)
            if game is None:
                return None
            return {"type": message["event"], "game": game}
        if message["type"] != "notice.push":
            return None
        kind, payload = message.get("kind"), message.get("payload") or {}
        if kind not in ("challenge", "challenge_sent", "challenge_answer"):
            return None
        challenge = shapes.challenge_by_id(payload.get("id"), self.user.pk)
        if challenge is None:
            return None
        if kind in ("challenge", "challenge_sent"):
            return {"type": "challenge", "challenge": challenge}
        if challenge["status"] == "declined":
            return {"type": "challengeDeclined", "challenge": challenge}
        if challenge["status"] == "canceled":
            return {"type": "challengeCanceled", "challenge": challenge}
        return None  # accepted: the gameStart follows

    async def lines(self, first: list[dict]) -> AsyncIterator[bytes]:
        try:
            for event in first:
                yield line(event)
            while True:
                wait = min(keepalive_seconds(), self._until_expiry())
                message = await _receive(self.layer, self.channel, wait)
                if message is None:
                    expired = await in_worker(self._expired)() if self._until_expiry() == 0 else []
                    for event in expired:
                        yield line(event)
                    if not expired:
                        yield KEEPALIVE
                elif message["type"] == "api.replace":
                    if message["keep"] != self.channel:
                        return
                else:
                    event = await in_worker(self._event)(message)
                    if event is not None:
                        yield line(event)
        finally:
            await self.close()
