"""Who is online (games/core/state/online.py): a signed-in user with a socket open in any server
process; each process writes its changes in its server beat, one row per user and process,
refreshed every 30 s; a dead process's rows stop counting."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from django.utils import timezone

from games.core.models import Online
from games.core.sockets.beats import ServerBeat
from games.core.state import online

pytestmark = [pytest.mark.django_db]


def test_a_process_writes_who_came_and_went_and_its_refresh_keeps_them(make_player):
    alice, bob = make_player("alice").user, make_player("bob").user
    online.opened(alice.pk)
    online.opened(alice.pk)  # two tabs
    online.opened(bob.pk)
    online.write(*online.take_changes())
    assert online.online_users({alice.pk, bob.pk}) == {alice.pk, bob.pk}
    online.closed(alice.pk)
    online.closed(bob.pk)
    came, went = online.take_changes()
    assert (came, went) == (frozenset(), frozenset({bob.pk}))
    online.write(came, went)
    assert online.online_users({alice.pk, bob.pk}) == {alice.pk}
    # A dead process's row stops counting, and the next refresh deletes it.
    later = timezone.now() + online.stale_after() * 2
    Online.objects.create(user=bob, process="dead", seen_at=timezone.now())
    online.refresh(later)
    assert online.online_users({alice.pk, bob.pk}, later) == {alice.pk}
    assert not Online.objects.filter(process="dead").exists()
    online.closed(alice.pk)
    online.write(*online.take_changes())


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_signed_in_socket_makes_its_user_online_until_it_closes(make_player, open_socket):
    db = database_sync_to_async
    alice = await db(make_player)("alice")
    online.take_changes()  # what earlier tests left
    comm = await open_socket("/ws/me/", alice.cookie)
    assert (await comm.receive_json_from())["type"] == "pending"
    await ServerBeat._online(0.0)  # the server's beat
    assert await db(online.online_users)({alice.user.pk}) == {alice.user.pk}
    anonymous = await open_socket("/ws/lobby/")
    await anonymous.receive_json_from()
    await comm.disconnect()
    await ServerBeat._online(0.0)
    assert await db(online.online_users)({alice.user.pk}) == set()
