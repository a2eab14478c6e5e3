"""A chat timeout's refusal and the history's note say until when (the site's time format)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone, translation
from django.utils.formats import date_format

from games.chat import frames, services
from games.chat.errors import ChatError, until_text
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
    # The time alone, or with its date when the timeout ends after midnight (a run at 23:50).
    written = "TIME_FORMAT" if end.date() == timezone.localtime(now).date() else "SHORT_DATETIME_FORMAT"
    with pytest.raises(ChatError) as caught:
        services.post_line(user=alice, match_id=match.pk, seat=0, room="player", text="hi")
    assert caught.value.code == "chat_timeout"
    with translation.override("en"):
        message = caught.value.message
    assert f"until {date_format(end, written)}" in message, message
    with translation.override("ar"):
        assert date_format(end, written) in caught.value.message
    [answer] = frames.on_history(user=alice, match_id=match.pk, seat=0, message={})
    assert answer["sanction"] == "chat_timeout"
    assert answer["sanction_until"] == (now + timedelta(minutes=20)).isoformat()
    [other] = frames.on_history(user=bob, match_id=match.pk, seat=1, message={})
    assert other["sanction_until"] is None


def test_until_is_a_time_today_and_a_date_and_time_after_today():
    now = timezone.make_aware(timezone.datetime(2026, 12, 6, 23, 50))
    with translation.override("en"):
        assert until_text(now + timedelta(minutes=5), now=now) == "23:55"
        later = until_text(now + timedelta(minutes=20), now=now)
    assert later == date_format(now + timedelta(minutes=20), "SHORT_DATETIME_FORMAT")
    assert "00:10" in later and later != "00:10"
