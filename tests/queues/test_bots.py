"""Bot accounts never wait in quick pairing (docs/api.md "Bot accounts"): refused with
``queue_bot``, nothing changed; people join, invite and accept as before."""

from __future__ import annotations

import pytest

from games.api.models import BotAccount
from games.queues import services
from games.queues.errors import Code, QueueError
from games.queues.models import Entry, Invitation
from tests.queues.helpers import users

pytestmark = pytest.mark.django_db


def refused(call, **kwargs) -> None:
    before = (list(Entry.objects.values()), list(Invitation.objects.values()))
    with pytest.raises(QueueError) as error:
        call(**kwargs)
    assert error.value.code == Code.BOT and error.value.message
    assert (list(Entry.objects.values()), list(Invitation.objects.values())) == before


def test_a_bot_may_not_join_a_queue_and_a_person_still_may():
    robo, a = users("robo", "a")
    BotAccount.objects.create(user=robo)
    refused(services.join, user=robo, players=2, move_seconds=10)
    refused(services.join, user=robo, players=4, move_seconds=10)
    assert services.join(user=a, players=2, move_seconds=10).user_id == a.pk


def test_a_bot_may_not_invite_be_invited_or_accept_a_partner():
    robo, a, b = users("robo", "a", "b")
    services.invite(user=a, username="robo", move_seconds=10)
    BotAccount.objects.create(user=robo)
    refused(services.accept, user=robo, inviter="a")
    refused(services.invite, user=b, username="robo", move_seconds=10)
    refused(services.invite, user=robo, username="b", move_seconds=10)
    services.invite(user=a, username="b", move_seconds=10)
    entry = services.accept(user=b, inviter="a")
    assert {entry.user_id, entry.partner_id} == {a.pk, b.pk}
