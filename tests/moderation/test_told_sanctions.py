"""What a sanctioned player is told, the same everywhere: a chat timeout (with its end), a
chat ban and a ranked ban are messages from the moderators like a warning (listed at
``/moderation/messages/``, the header's notice while unread), and the notifications page
points to those messages."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.formats import date_format

from games.moderation import actions, told

pytestmark = pytest.mark.django_db


def logged_in(user):
    client = Client()
    client.force_login(user)
    return client


def inbox(user, lang="en"):
    return logged_in(user).get(reverse("moderation:messages"), HTTP_ACCEPT_LANGUAGE=lang).content.decode()


def test_a_chat_timeout_is_listed_with_its_end(people):
    now = timezone.now()
    actions.chat_timeout(moderator=people["mod"], user=people["ali"], reason="rude", minutes=30, now=now)
    assert told.pending(people["ali"])
    end = date_format(timezone.localtime(now + timedelta(minutes=30)), "TIME_FORMAT")
    page = inbox(people["ali"])
    assert "A moderator timed your chat out until" in page and end in page, page
    assert "<bdi>rude</bdi>" in page
    with translation.override("fr"):
        french = inbox(people["ali"], "fr")
    assert "discussion" in french and end in french


def test_a_chat_ban_and_a_ranked_ban_are_listed(people):
    actions.chat_ban(moderator=people["mod"], user=people["ali"], reason="spam")
    actions.ranked_ban(moderator=people["mod"], user=people["ali"], reason="boosting")
    assert told.pending(people["ali"])[0][1]["unread"] == 2
    page = inbox(people["ali"])
    assert "A moderator took your chat away." in page
    assert "A moderator barred you from rated play." in page
    # With the moderator's reason, as a warning is.
    assert "The moderator's reason: <bdi>spam</bdi>" in page
    assert "The moderator's reason: <bdi>boosting</bdi>" in page


def test_the_notifications_page_points_to_the_moderators_messages(people):
    empty = logged_in(people["bea"]).get(reverse("people_notifications")).content.decode()
    assert "No notices." in empty and reverse("moderation:messages") not in empty.split("<main>")[1]
    actions.warn(moderator=people["mod"], user=people["ali"], reason="be kind")
    page = logged_in(people["ali"]).get(reverse("people_notifications")).content.decode()
    main = page.split("<main>")[1]
    assert "No notices." not in main
    assert "You have a message from the moderators." in main and reverse("moderation:messages") in main
