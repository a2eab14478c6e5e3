"""The lobby's and the spectators' side of the sockets (docs/protocol.md "Lobby", "Watching"):
who may watch over the table socket, the spectator count, the lobby's matches.
"""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async

from games.core import actions
from games.core.models import Match, Seat, Watcher
from tests.core.helpers import expect_error, seated_match, table_path

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

db = database_sync_to_async


def set_watchers(match_id: int, value: str) -> None:
    Match.objects.filter(pk=match_id).update(watchers=value)


async def expect_refused(comm, code: str) -> None:
    """An ``error`` with ``code``, then the socket closed with 4403; no state before."""
    await expect_error(comm, code)
    assert (await comm.receive_output())["code"] == 4403


async def test_a_spectator_the_table_does_not_allow_is_refused_with_the_reason(
    make_player, open_socket, known_decks
):
    alice, bob, carol = [await db(make_player)(n) for n in ("alice", "bob", "carol")]
    match = await db(seated_match)([alice.user, bob.user])
    await db(set_watchers)(match.pk, "registered")
    await expect_refused(await open_socket(table_path(match.pk)), "watch_login_required")
    # A registered player watches; nothing of a hand reaches them.
    view = await (await open_socket(table_path(match.pk), carol.cookie)).receive_json_from()
    assert view["type"] == "state" and view["you"] is None and view["round"]["hand"] == []
    await db(set_watchers)(match.pk, "nobody")
    await expect_refused(await open_socket(table_path(match.pk), carol.cookie), "watch_nobody")
    # The players themselves always may.
    mine = await (await open_socket(table_path(match.pk), alice.cookie)).receive_json_from()
    assert mine["you"] == 0 and len(mine["round"]["hand"]) == 4
    assert await db(Watcher.objects.count)() == 1  # carol's first socket only


async def test_a_waiting_room_spectator_is_refused_when_the_match_starts(
    make_player, open_socket, known_decks
):
    alice, bob = await db(make_player)("alice"), await db(make_player)("bob")
    match = await db(actions.create_table)(
        user=alice.user, players=2, rules={}, rated=False, watchers="nobody")
    watcher = await open_socket(table_path(match.pk))
    assert (await watcher.receive_json_from())["match"]["status"] == "open"
    await db(actions.join_table)(user=bob.user, match_id=match.pk)
    await expect_refused(watcher, "watch_nobody")


async def test_the_spectator_count_follows_the_spectator_sockets(
    make_player, open_socket, known_decks
):
    alice, bob, carol = [await db(make_player)(n) for n in ("alice", "bob", "carol")]
    match = await db(seated_match)([alice.user, bob.user])
    seat = await open_socket(table_path(match.pk), alice.cookie)
    await seat.receive_json_from()
    # Asked for, not pushed: a socket that does not ask hears nothing of it.
    await seat.send_json_to({"type": "watchers"})
    assert await seat.receive_json_from() == {"type": "watchers", "count": 0}
    first = await open_socket(table_path(match.pk))
    await first.receive_json_from()
    assert await seat.receive_json_from() == {"type": "watchers", "count": 1}
    second = await open_socket(table_path(match.pk), carol.cookie)
    await second.receive_json_from()
    assert await seat.receive_json_from() == {"type": "watchers", "count": 2}
    assert await db(lambda: sorted(
        Watcher.objects.filter(match_id=match.pk).values_list("user__username", flat=True),
        key=str))() == [None, "carol"]
    await first.disconnect()
    assert await seat.receive_json_from() == {"type": "watchers", "count": 1}
    await second.disconnect()
    assert await seat.receive_json_from() == {"type": "watchers", "count": 0}
    assert await db(Watcher.objects.count)() == 0


async def test_a_spectator_who_takes_a_seat_stops_counting(make_player, open_socket):
    alice, bob = await db(make_player)("alice"), await db(make_player)("bob")
    match = await db(actions.create_table)(user=alice.user, players=4, rules={}, rated=False)
    comm = await open_socket(table_path(match.pk), bob.cookie)
    await comm.receive_json_from()
    assert await db(Watcher.objects.count)() == 1
    await db(actions.join_table)(user=bob.user, match_id=match.pk, seat=2)
    view = await comm.receive_json_from()
    assert view["you"] == 2
    await comm.send_json_to({"type": "watchers"})
    assert await comm.receive_json_from() == {"type": "watchers", "count": 0}


async def test_the_lobby_socket_sends_the_matches_when_asked(make_player, open_socket, known_decks):
    alice, bob, carol = [await db(make_player)(n) for n in ("alice", "bob", "carol")]
    match = await db(seated_match)([alice.user, bob.user])
    waiting = await db(actions.create_table)(user=carol.user, players=2, rules={}, rated=False)
    await db(lambda: Seat.objects.filter(match=waiting).update(last_seen=None))()
    lobby = await open_socket("/ws/lobby/", carol.cookie)
    [row] = (await lobby.receive_json_from())["tables"]
    # carol's lobby socket counts as her being there: her table is not abandoned, she is online.
    assert row["id"] == waiting.pk and row["mine"] and row["created_by_online"]
    await lobby.send_json_to({"type": "matches"})
    message = await lobby.receive_json_from()
    assert message["type"] == "matches" and message["mine"] == []
    [live] = message["live"]
    assert live["id"] == match.pk and live["watchers"] == 0
    assert [side["names"] for side in live["sides"]] == ["alice", "bob"]
    mine = await open_socket("/ws/lobby/", alice.cookie)
    await mine.receive_json_from()
    await mine.send_json_to({"type": "matches"})
    message = await mine.receive_json_from()
    assert [row["id"] for row in message["mine"]] == [match.pk] and message["live"] == []
    assert message["mine"][0]["turn"]["text"] in ("Your turn", "bob to play")


async def test_one_owner_has_at_most_so_many_sockets_open(make_player, open_socket, settings):
    """A user's sockets of every kind count together; beyond the limit one is refused with the
    reason and 4429, and a closed one frees its place; somebody else is not limited."""
    settings.BASRA_SOCKETS_PER_OWNER = 3
    alice, bob = [await db(make_player)(n) for n in ("alice", "bob")]
    opened = [await open_socket("/ws/lobby/", alice.cookie) for _ in range(2)]
    opened.append(await open_socket("/ws/me/", alice.cookie))
    refused = await open_socket("/ws/lobby/", alice.cookie)
    error = await refused.receive_json_from()
    assert error["type"] == "error" and error["code"] == "too_many_sockets"
    assert (await refused.receive_output())["code"] == 4429
    await open_socket("/ws/lobby/", bob.cookie)  # bob's own count
    await opened[0].disconnect()
    again = await open_socket("/ws/lobby/", alice.cookie)
    assert (await again.receive_json_from())["type"] != "error"
