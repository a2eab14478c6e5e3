"""Forged websocket traffic at the edges: unknown paths and frames built to crash the parser."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async

from games.core.models import Event, Match
from tests.conftest import communicator
from tests.core.helpers import seated_match

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("path", ["/ws/table/abc/", "/ws/table/-1/", "/ws/nothing/", "/ws/"])
async def test_an_unknown_socket_path_is_refused_not_a_server_error(make_player, path):
    alice = await database_sync_to_async(make_player)("alice")
    comm = communicator(path, alice.cookie)
    connected, _code = await comm.connect()
    assert not connected  # refused at the handshake (403); no route error, no HTTP 500
    await comm.send_input({"type": "websocket.disconnect", "code": 1006})  # as a server does
    await comm.wait(30)  # the application ends, and raised nothing
    assert comm.future.done() and not comm.future.cancelled()


async def test_a_frame_nested_too_deep_is_bad_json_and_the_socket_lives_on(make_player, open_socket):
    alice = await database_sync_to_async(make_player)("alice")
    bob = await database_sync_to_async(make_player)("bob")
    match = await database_sync_to_async(seated_match)([alice.user, bob.user])
    sock = await open_socket(f"/ws/table/{match.pk}/", alice.cookie)
    first = await sock.receive_json_from()
    assert first["type"] == "state"
    before = await database_sync_to_async(
        lambda: (Match.objects.get(pk=match.pk).seq, Event.objects.filter(match=match).count())
    )()

    depth = 100_000
    await sock.send_to(text_data='{"type":"play","card":' + "[" * depth + "]" * depth + ',"seq":1}')
    error = await sock.receive_json_from()
    assert (error["type"], error["code"]) == ("error", "bad_json")

    await sock.send_json_to({"type": "sync"})  # still connected and answering
    again = await sock.receive_json_from()
    assert again["type"] == "state" and again["seq"] == first["seq"]
    after = await database_sync_to_async(
        lambda: (Match.objects.get(pk=match.pk).seq, Event.objects.filter(match=match).count())
    )()
    assert after == before


@pytest.mark.parametrize("origin", ["http://testserver:9999", "http://testserver:80.evil"])
async def test_a_page_from_another_port_of_the_same_host_is_refused(make_player, origin):
    """Browsers share cookies across ports: only the socket's own origin may open it."""
    alice = await database_sync_to_async(make_player)("alice")
    comm = communicator("/ws/lobby/", alice.cookie, origin=origin)
    connected, _code = await comm.connect()
    assert not connected
    await comm.send_input({"type": "websocket.disconnect", "code": 1006})  # as a server does
    await comm.wait(30)
    assert comm.future.done() and not comm.future.cancelled()


async def test_the_sites_own_origin_is_accepted(make_player):
    alice = await database_sync_to_async(make_player)("alice")
    comm = communicator("/ws/lobby/", alice.cookie, origin="http://testserver")
    connected, _code = await comm.connect()
    assert connected
    await comm.disconnect()


async def test_a_refused_play_is_told_in_the_sockets_language(make_player, open_socket):
    """The actions run in no particular language; the refusal's text is the socket's
    (``Accept-Language`` of its handshake), English and Arabic sockets side by side."""
    from django.utils import translation

    from games.core import errors
    from tests.core.helpers import expect_error, table_path

    alice = await database_sync_to_async(make_player)("alice")
    bob = await database_sync_to_async(make_player)("bob")
    match = await database_sync_to_async(seated_match)([alice.user, bob.user])
    arabic = await open_socket(table_path(match.pk), alice.cookie, language="ar")
    view = await arabic.receive_json_from()
    if view["round"]["turn"] == view["you"]:  # the one not to move plays
        await arabic.disconnect()
        arabic = await open_socket(table_path(match.pk), bob.cookie, language="ar")
        view = await arabic.receive_json_from()
    mine = alice if view["you"] == (await database_sync_to_async(
        lambda: match.seats.get(user=alice.user).seat)()) else bob
    english = await open_socket(table_path(match.pk), mine.cookie, language="en")
    await english.receive_json_from()
    assert view["round"]["turn"] != view["you"]
    for socket, language in ((arabic, "ar"), (english, "en"), (arabic, "ar")):
        await socket.send_json_to(
            {"type": "play", "card": view["round"]["hand"][0], "seq": view["seq"]}
        )
        error = await expect_error(socket, "not_your_turn")
        with translation.override(language):
            assert error["message"] == errors.message("not_your_turn")
    with translation.override("ar"):
        arabic_text = errors.message("not_your_turn")
    assert arabic_text != errors.message("not_your_turn")  # it is translated
