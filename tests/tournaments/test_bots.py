"""Bot accounts never play tournaments meant for people (docs/api.md "Bot accounts"): refused
with ``tournament_bot``, nothing changed; people register as before."""

from __future__ import annotations

import pytest

from games.api.models import BotAccount
from games.tournaments import services
from games.tournaments.models import Entrant
from tests.tournaments.helpers import event, refused, users

pytestmark = pytest.mark.django_db


def test_a_bot_may_not_register_alone():
    org, robo, a = users("org", "robo", "a")
    BotAccount.objects.create(user=robo)
    t = event(org, "swiss", swiss_rounds=3)
    refused("tournament_bot", t, services.register, user=robo, tournament_id=t.pk)
    assert services.register(user=a, tournament_id=t.pk).status == Entrant.Status.ACTIVE


def test_a_bot_may_not_be_invited_nor_invite_nor_accept_as_a_partner():
    org, robo, a, b = users("org", "robo", "a", "b")
    t = event(org, "round_robin", players=4)
    invite = services.register(user=a, tournament_id=t.pk, partner=robo)
    BotAccount.objects.create(user=robo)
    refused("tournament_bot", t, services.accept_partner, user=robo, entrant_id=invite.pk)
    refused("tournament_bot", t, services.register, user=b, tournament_id=t.pk, partner=robo)
    refused("tournament_bot", t, services.register, user=robo, tournament_id=t.pk, partner=b)
    services.decline_partner(user=robo, entrant_id=invite.pk)
    again = services.register(user=a, tournament_id=t.pk, partner=b)
    assert services.accept_partner(user=b, entrant_id=again.pk).status == Entrant.Status.ACTIVE
