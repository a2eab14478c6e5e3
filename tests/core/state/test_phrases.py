"""Quick phrases at a table (games/core/state/phrases.py, ``TableConsumer.phrase``; docs/protocol.md
"Quick phrases"): seated players send an id of a fixed list, everyone at the table receives it,
one every ``BASRA_PHRASE_SECONDS`` per player; anything else is refused and nothing is sent.
"""

from __future__ import annotations

import pytest
import pytest_asyncio
from channels.db import database_sync_to_async
from django.core.cache import cache
from django.utils import translation

from games.core.state import phrases
from tests.site.catalogue import script_label, served_catalogue
from tests.core.helpers import (
    expect_error,
    log_size,
    seated_match,
    synced,
    table_barrier,
    table_path,
)

pytestmark = [pytest.mark.django_db(transaction=True)]

db = database_sync_to_async


@pytest.fixture(autouse=True)
def _fresh_limits(settings):
    settings.BASRA_PHRASE_SECONDS = 3
    cache.clear()
    yield
    cache.clear()


@pytest_asyncio.fixture
async def table(make_player, open_socket, known_decks):
    """A 2-player match being played: alice's and bob's sockets and an anonymous spectator's,
    each past its first state."""
    alice, bob = await db(make_player)("alice"), await db(make_player)("bob")
    match = await db(seated_match)([alice.user, bob.user])
    sockets = {
        "alice": await open_socket(table_path(match.pk), alice.cookie),
        "bob": await open_socket(table_path(match.pk), bob.cookie),
        "watcher": await open_socket(table_path(match.pk)),
    }
    for comm in sockets.values():
        assert (await comm.receive_json_from())["type"] == "state"
    return match, sockets


@pytest.mark.asyncio
async def test_a_phrase_reaches_everyone_at_the_table(table):
    match, sockets = table
    before = await log_size(match.pk)
    await sockets["bob"].send_json_to({"type": "phrase", "id": "good_luck"})
    for comm in sockets.values():
        assert await comm.receive_json_from() == {"type": "phrase", "seat": 1, "id": "good_luck"}
    await sockets["alice"].send_json_to({"type": "phrase", "id": "clap"})  # an emoji
    for comm in sockets.values():
        assert await comm.receive_json_from() == {"type": "phrase", "seat": 0, "id": "clap"}
    # Not a move: nothing is written to the match's log.
    assert await log_size(match.pk) == before


@pytest.mark.asyncio
async def test_one_phrase_every_few_seconds_per_player(table, settings):
    match, sockets = table
    await sockets["alice"].send_json_to({"type": "phrase", "id": "hello"})
    for comm in sockets.values():
        assert (await comm.receive_json_from())["id"] == "hello"
    await sockets["alice"].send_json_to({"type": "phrase", "id": "oops"})
    await expect_error(sockets["alice"], "phrase_too_soon")
    # Nothing reached the others. Barrier: alice's sync is handled once her refused phrase's
    # handling has returned, so a broadcast of it would already be in every socket's channel;
    # bob's phrase, sent after, is broadcast after it, and each channel delivers in order: it
    # must be everyone's next frame.
    await synced(sockets["alice"])
    # The limit is per player: bob may speak meanwhile.
    await sockets["bob"].send_json_to({"type": "phrase", "id": "thanks"})
    for comm in sockets.values():
        assert (await comm.receive_json_from())["id"] == "thanks"


@pytest.mark.asyncio
async def test_a_forged_phrase_is_refused_and_nothing_sent(table):
    match, sockets = table
    for forged in ("<script>", "hello ", "HELLO", "free text"):
        await sockets["alice"].send_json_to({"type": "phrase", "id": forged})
        await expect_error(sockets["alice"], "bad_phrase")
    for bad in (None, 7, ["hello"]):
        await sockets["alice"].send_json_to({"type": "phrase", "id": bad})
        await expect_error(sockets["alice"], "bad_message")
    # A refused phrase does not count against the limit. And nothing was sent: alice's socket
    # handles her frames in order, so this phrase is broadcast after anything the refused ones
    # could have broadcast, and each channel delivers in order: it is the others' next frame.
    await sockets["alice"].send_json_to({"type": "phrase", "id": "hello"})
    for name in ("bob", "watcher"):
        assert (await sockets[name].receive_json_from())["id"] == "hello"


@pytest.mark.asyncio
async def test_spectators_cannot_send(table, make_player, open_socket):
    match, sockets = table
    await sockets["watcher"].send_json_to({"type": "phrase", "id": "hello"})
    await expect_error(sockets["watcher"], "login_required")
    carol = await db(make_player)("carol")  # logged in, but no seat here
    comm = await open_socket(table_path(match.pk), carol.cookie)
    assert (await comm.receive_json_from())["you"] is None
    await comm.send_json_to({"type": "phrase", "id": "hello"})
    await expect_error(comm, "not_seated")
    # Nothing sent to the players. Barrier: each refusing socket's sync is handled once its
    # phrase's handling has returned (a broadcast of it would be in every channel by then);
    # then a broadcast sent after must be the players' next frame (channels deliver in order).
    await synced(sockets["watcher"])
    await synced(comm)
    await table_barrier(match.pk, [sockets["alice"], sockets["bob"]])


def test_every_phrase_is_translated_to_arabic():
    with translation.override("ar"):
        texts = phrases.texts()["phrases"]
    with translation.override("en"):
        english = phrases.texts()["phrases"]
    assert list(texts) == list(phrases.PHRASES)
    assert all(texts[key] != english[key] for key in texts)
    assert phrases.is_phrase("fire") and not phrases.is_phrase("hello!") and not phrases.is_phrase(1)


def test_the_table_pages_new_labels_are_in_arabic():
    arabic = served_catalogue("ar")
    keys = ("allRounds", "countPoints", "connLost", "connLostCards", "connLostWatch", "loggedOut",
            "logIn", "logInToPlay", "sideNumber", "yourSeat", "partnerSeat", "opponentSeat",
            "partner", "scoreClosed", "waitTurn", "phraseWait")
    english = [script_label("static/games/table/labels.js", key) for key in keys]
    assert all(arabic.get(msgid, msgid) != msgid for msgid in english), arabic
