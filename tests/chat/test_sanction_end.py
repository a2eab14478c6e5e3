"""A chat timeout's refusal and the history's note say until when (the site's time format)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone, translation
from django.utils.formats import date_format

from games.chat import frames, services
from games.chat.errors import ChatError
from games.moderation import actions
from tests.core.helpers import seated_match

pytestmark = pytest.mark.django_db


def test_a_timed_out_player_is_told_until_when(players4, django_user_model):
    alice, bob = players4[0].user, players4[1].user
    mod = django_user_model.objects.create_user(username="mod_t", email="m@example.com", is_staff=True)
    match = seated_match([alice, bob])
    now = timezone.now()
    actions.chat_timeout(moderator=mod, user=alice, reason="rude", minutes=20, now=now)
    end = timezone.localtime(now + timedelta(minutes=20))
    with pytest.raises(ChatError) as caught:
        services.post_line(user=alice, match_id=match.pk, seat=0, room="player", text="hi")
    assert caught.value.code == "chat_timeout"
    with translation.override("en"):
        message = caught.value.message
    assert f"until {date_format(end, 'TIME_FORMAT')}" in message, message
    with translation.override("ar"):
        assert date_format(end, "TIME_FORMAT") in caught.value.message
    [answer] = frames.on_history(user=alice, match_id=match.pk, seat=0, message={})
    assert answer["sanction"] == "chat_timeout"
    assert answer["sanction_until"] == (now + timedelta(minutes=20)).isoformat()
    [other] = frames.on_history(user=bob, match_id=match.pk, seat=1, message={})
    assert other["sanction_until"] is None
