"""The tournaments' notices over the real notice socket /ws/me/ (docs/protocol.md, "Notices"):
a table the event opens reaches the seated players' sockets, and no one else's; a page opened
later is told of it by the pending provider."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from django.conf import settings
from django.urls import reverse

from games.core import actions
from games.core.state.notices import send_notice
from games.tournaments import scheduler, services
from tests.tournaments.helpers import enter, event, live_games

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

db = database_sync_to_async


async def test_a_table_notice_reaches_the_seated_players_sockets_only(make_player, open_socket):
    org, alice, bob, carol = [await db(make_player)(name) for name in ("org", "alice", "bob", "carol")]
    t = await db(event)(org.user, "round_robin")
    await db(enter)(t, [alice.user, bob.user])
    sockets = {p.username: await open_socket("/ws/me/", p.cookie) for p in (alice, bob, carol)}
    for comm in sockets.values():
        assert await comm.receive_json_from() == {"type": "pending", "notices": []}

    await db(services.start)(user=org.user, tournament_id=t.pk)
    (game,) = await db(live_games)(t)
    url = reverse("table", args=[game.match_id])
    for name in ("alice", "bob"):
        started = await sockets[name].receive_json_from()
        assert started["type"] == "notice" and started["kind"] == "tournament_news"
        assert started["payload"]["news"] == "started" and started["payload"]["tournament_id"] == t.pk
        table = await sockets[name].receive_json_from()
        assert table == {"type": "notice", "kind": "tournament_table", "payload": {
            "match_id": game.match_id, "url": url, "tournament_id": t.pk, "event": t.name,
            "event_url": reverse("tournament", args=[t.pk]), "round": 1, "game": 1,
            "wait_seconds": settings.BASRA_ABSENT_GRACE_SECONDS,
        }}
    # None for carol. Barrier: the start's notices were sent when it committed, in this call
    # (it returned once they were in the channels); a notice to carol sent now is behind any of
    # them in her channel (delivered in order), so it must be her next frame.
    await db(send_notice)(carol.user.pk, "barrier", {})
    assert await sockets["carol"].receive_json_from() == {
        "type": "notice", "kind": "barrier", "payload": {},
    }

    # A page alice opens now is told of her table on connect (the pending provider); carol's not.
    late = await open_socket("/ws/me/", alice.cookie)
    pending = await late.receive_json_from()
    assert pending["type"] == "pending"
    assert [(n["kind"], n["payload"]["url"]) for n in pending["notices"]] == [("tournament_table", url)]
    other = await open_socket("/ws/me/", carol.cookie)
    assert await other.receive_json_from() == {"type": "pending", "notices": []}

    # The match ends: the table no longer waits for them, and the next page offers nothing.
    # What follows the result (here the event's end) runs after the commit, woken, on the
    # scheduler's thread, as in a server process (no tick: run_tournaments would tick).
    stop = scheduler.start_in_server(None, in_process=False)
    try:
        await db(actions.resign)(user=bob.user, match_id=game.match_id)
        for comm in (sockets["alice"], sockets["bob"], late):
            frames = []
            while True:
                frame = await comm.receive_json_from()
                frames.append(frame)
                if frame.get("kind") == "tournament_table_over":
                    break
            assert frame["payload"] == {"match_id": game.match_id, "tournament_id": t.pk}
        # That was the event's one round: it is over, and they are told so.
        finished = await late.receive_json_from()
        assert finished["kind"] == "tournament_news" and finished["payload"]["news"] == "finished"
        await late.send_json_to({"type": "sync"})
        assert await late.receive_json_from() == {"type": "pending", "notices": []}
    finally:
        await stop()
