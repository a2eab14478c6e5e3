"""The moderators' actions (``games.moderation.actions``): each logged with its reason and its
moderator, the player told, an open report closed and its reporters told; chat sanctions
answered to the chat (``for_apps.chat_refusal``); only staff, always with a reason."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.moderation import actions, reports, sanctions
from games.moderation.errors import ModerationError
from games.moderation.for_apps import chat_refusal
from games.moderation.models import Message, ModLog, Report

pytestmark = pytest.mark.django_db


def test_a_warning_tells_the_player_and_is_logged(people):
    ali, mod = people["ali"], people["mod"]
    entry = actions.warn(moderator=mod, user=ali, reason="Mind your words")
    assert (entry.action, entry.moderator, entry.target, entry.reason) == ("warn", mod, ali, "Mind your words")
    note = Message.objects.get(user=ali)
    assert (note.kind, note.data, note.read) == ("warning", {"reason": "Mind your words"}, False)


def test_an_action_closes_the_open_report_and_tells_its_reporters(people):
    ali, bea, cem, mod = people["ali"], people["bea"], people["cem"], people["mod"]
    reports.file_report(reporter=bea, username="ali", reason="spam")
    reports.file_report(reporter=cem, username="ali", reason="insult")
    entry = actions.chat_ban(moderator=mod, user=ali, reason="spam and abuse")
    report = Report.objects.get()
    assert (report.status, report.closed_by, report.outcome) == ("closed", mod, "chat_ban")
    assert entry.details["report"] == report.pk
    told = sorted(Message.objects.filter(kind="report_outcome").values_list("user__username", flat=True))
    assert told == ["bea", "cem"]


def test_closing_a_report_without_action_tells_nobody(people):
    reports.file_report(reporter=people["bea"], username="ali", reason="username")
    actions.resolve(moderator=people["mod"], user=people["ali"], reason="The name is fine")
    assert Report.objects.get().outcome == "resolve"
    assert not Message.objects.exists()
    with pytest.raises(ModerationError) as caught:  # nothing left to resolve
        actions.resolve(moderator=people["mod"], user=people["ali"], reason="again")
    assert caught.value.code == "mod_bad_action"


def test_a_chat_timeout_lasts_15_minutes_by_default(people):
    ali, mod = people["ali"], people["mod"]
    now = timezone.now()
    assert chat_refusal(ali) is None
    entry = actions.chat_timeout(moderator=mod, user=ali, reason="flooding", timeout_reason="spam", now=now)
    assert entry.details == {"minutes": 15, "timeout_reason": "spam"}
    assert chat_refusal(ali) == "chat_timeout"
    assert sanctions.chat_refusal(ali.pk, now + timedelta(minutes=14, seconds=59)) == "chat_timeout"
    assert sanctions.chat_refusal(ali.pk, now + timedelta(minutes=15)) is None


@pytest.mark.parametrize("timeout_reason, minutes, code", [
    ("rudeness", 15, "mod_bad_action"), ("insult", 0, "mod_bad_minutes"), ("insult", -5, "mod_bad_minutes"),
    ("insult", 1441, "mod_bad_minutes"), ("insult", "15", "mod_bad_minutes"), ("insult", True, "mod_bad_minutes"),
])
def test_a_chat_timeout_needs_a_listed_reason_and_a_length(people, timeout_reason, minutes, code):
    with pytest.raises(ModerationError) as caught:
        actions.chat_timeout(moderator=people["mod"], user=people["ali"], reason="r",
                             timeout_reason=timeout_reason, minutes=minutes)
    assert caught.value.code == code
    assert not ModLog.objects.exists()


def test_a_chat_ban_outranks_a_timeout_until_lifted(people):
    ali, mod = people["ali"], people["mod"]
    actions.chat_timeout(moderator=mod, user=ali, reason="r", timeout_reason="shaming")
    actions.chat_ban(moderator=mod, user=ali, reason="again and again")
    assert chat_refusal(ali) == "chat_banned"
    actions.lift(moderator=mod, user=ali, kind="chat_ban", reason="served")
    assert chat_refusal(ali) == "chat_timeout"
    with pytest.raises(ModerationError) as caught:
        actions.lift(moderator=mod, user=ali, kind="chat_ban", reason="twice")
    assert caught.value.code == "mod_nothing_to_lift"
    assert list(ModLog.objects.values_list("action", flat=True)) == ["lift", "chat_ban", "chat_timeout"]


def test_only_staff_act(people):
    with pytest.raises(ModerationError) as caught:
        actions.warn(moderator=people["bea"], user=people["ali"], reason="I say so")
    assert caught.value.code == "mod_not_staff"
    assert not Message.objects.exists()


@pytest.mark.parametrize("reason", ["", "   ", "x" * 501, "nul\x00"])
def test_every_action_needs_a_reason(people, reason):
    with pytest.raises(ModerationError) as caught:
        actions.ranked_ban(moderator=people["mod"], user=people["ali"], reason=reason)
    assert caught.value.code == "mod_reason_required"
    assert not ModLog.objects.exists()


def test_closing_an_account_closes_it_once(people):
    ali, mod = people["ali"], people["mod"]
    actions.close(moderator=mod, user=ali, reason="multiple accounts")
    ali.refresh_from_db()
    assert not ali.is_active
    assert ModLog.objects.get().action == "close"
    with pytest.raises(ModerationError) as caught:
        actions.close(moderator=mod, user=ali, reason="again")
    assert caught.value.code == "mod_already_closed"
