"""What an action answers on a merged report (``actions.ANSWERS``: a chat sanction the insults
and spam, a ranked ban boosting and cheating, the others every entry), only those reporters
told; no moderator acts on their own account; the close actions need the confirmation; the
page says what a close for cheating gave back; the refusals of a timeout's length and of an
action on a closed account."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.moderation import actions, reports
from games.moderation.errors import ModerationError
from games.moderation.models import Message, ModLog, Report, ReportEntry, Sanction
from games.ratings.models import PlayerRating
from tests.moderation.helpers import users
from tests.ratings.helpers import lose, rated_match

pytestmark = pytest.mark.django_db


def logged_in(user):
    client = Client()
    client.force_login(user)
    return client


def told_of_report():
    return sorted(Message.objects.filter(kind="report_outcome").values_list("user__username", flat=True))


def test_a_chat_timeout_closes_only_the_insults_and_the_report_stays_open(people):
    ali, bea, cem, mod = people["ali"], people["bea"], people["cem"], people["mod"]
    reports.file_report(reporter=bea, username="ali", reason="insult")
    reports.file_report(reporter=cem, username="ali", reason="cheat")
    entry = actions.chat_timeout(moderator=mod, user=ali, reason="rude", timeout_reason="insult")
    report = Report.objects.get()
    assert report.status == "open" and entry.details["report"] == report.pk
    assert dict(ReportEntry.objects.values_list("reason", "outcome")) == {"insult": "chat_timeout", "cheat": ""}
    assert told_of_report() == ["bea"]
    staff = logged_in(mod)
    assert reverse("moderation:player", kwargs={"username": "ali"}) in staff.get(reverse("moderation:queue")).content.decode()

    actions.ranked_ban(moderator=mod, user=ali, reason="engine")
    report.refresh_from_db()
    assert (report.status, report.outcome) == ("closed", "ranked_ban")
    assert told_of_report() == ["bea", "cem"]
    page = staff.get(reverse("moderation:player", kwargs={"username": "ali"})).content.decode()
    assert "→ Ranked ban" in page and "ranked_ban<" not in page and "→ ranked_ban" not in page


def test_a_warning_closes_every_entry(people):
    ali, bea, cem, mod = people["ali"], people["bea"], people["cem"], people["mod"]
    reports.file_report(reporter=bea, username="ali", reason="spam")
    reports.file_report(reporter=cem, username="ali", reason="boost")
    actions.warn(moderator=mod, user=ali, reason="last warning")
    assert Report.objects.get().status == "closed"
    assert told_of_report() == ["bea", "cem"]


def test_a_moderator_cannot_act_on_themself(people):
    mod = people["mod"]
    other = users("mod2", staff=("mod2",))[0]
    reports.file_report(reporter=people["bea"], username="mod", reason="cheat")
    with pytest.raises(ModerationError) as caught:
        actions.ranked_ban(moderator=mod, user=mod, reason="mine")
    assert caught.value.code == "mod_self"
    assert not Sanction.objects.exists() and Report.objects.get().status == "open"
    client = logged_in(mod)
    assert reverse("moderation:player", kwargs={"username": "mod"}) not in client.get(reverse("moderation:queue")).content.decode()
    own = client.get(reverse("moderation:player", kwargs={"username": "mod"})).content.decode()
    assert 'id="moderation-own"' in own and 'id="moderation-act"' not in own
    page = client.post(reverse("moderation:act", kwargs={"username": "mod"}),
                       {"action": "ranked_ban", "reason": "x"}, follow=True).content.decode()
    assert "You cannot act on your own account" in page and not Sanction.objects.exists()
    assert reverse("moderation:player", kwargs={"username": "mod"}) in logged_in(other).get(
        reverse("moderation:queue")).content.decode()


def test_closing_needs_the_confirmation(people):
    ali = people["ali"]
    client = logged_in(people["mod"])
    page = client.get(reverse("moderation:player", kwargs={"username": "ali"})).content.decode()
    assert 'id="moderation-close"' in page and "data-confirm=" in page and 'name="confirmed"' in page
    act = reverse("moderation:act", kwargs={"username": "ali"})
    refused = client.post(act, {"action": "close", "reason": "alt"}, follow=True).content.decode()
    assert "confirm it first" in refused
    ali.refresh_from_db()
    assert ali.is_active and not ModLog.objects.exists()
    client.post(act, {"action": "close", "reason": "alt", "confirmed": "yes"})
    ali.refresh_from_db()
    assert not ali.is_active


def test_the_page_says_what_a_close_for_cheating_gave_back(people):
    ali, bea, cem, mod = people["ali"], people["bea"], people["cem"], people["mod"]
    client = logged_in(mod)
    lose(rated_match([ali, cem]), cem)  # cem is provisional: nothing for him
    page = client.post(reverse("moderation:act", kwargs={"username": "ali"}),
                       {"action": "close_cheat", "reason": "engine", "confirmed": "yes"}, follow=True).content.decode()
    assert "No rating points were given back" in page and "provisional" in page and "5 days" in page

    PlayerRating.objects.create(user=bea, pool="1v1", rating=1600.0, deviation=60.0, matches=30,
                                top=1650.0, last_rated_at=timezone.now())
    lose(rated_match([cem, bea]), bea)
    page = client.post(reverse("moderation:act", kwargs={"username": "cem"}),
                       {"action": "close_cheat", "reason": "engine", "confirmed": "yes"}, follow=True).content.decode()
    points = ModLog.objects.get(target=cem).details["refunds"][0]["points"]
    assert f"1 victim got {points} rating points back in all." in page


def test_a_timeout_of_no_minutes_is_refused_and_the_log_shows_the_length(people):
    client = logged_in(people["mod"])
    act = reverse("moderation:act", kwargs={"username": "ali"})
    for minutes in ("0", "-3"):
        page = client.post(act, {"action": "chat_timeout", "reason": "r", "timeout_reason": "spam",
                                 "minutes": minutes}, follow=True).content.decode()
        assert "A chat timeout lasts from 1 to 1440 minutes" in page
    assert not Sanction.objects.exists()
    client.post(act, {"action": "chat_timeout", "reason": "r", "timeout_reason": "spam", "minutes": "30"})
    assert "(30 minutes)" in client.get(reverse("moderation:log")).content.decode()


def test_only_a_lift_is_taken_on_a_closed_account(people):
    ali, mod = people["ali"], people["mod"]
    actions.chat_ban(moderator=mod, user=ali, reason="abuse")
    ali.is_active = False
    ali.save()
    for act in (actions.warn, actions.chat_ban, actions.ranked_ban):
        with pytest.raises(ModerationError) as caught:
            act(moderator=mod, user=ali, reason="too late")
        assert caught.value.code == "mod_already_closed"
    actions.lift(moderator=mod, user=ali, kind="chat_ban", reason="closed anyway")
    assert list(ModLog.objects.values_list("action", flat=True)) == ["lift", "chat_ban"]


def test_the_action_form_marks_each_action_s_fields_and_the_report_form_is_styled(people):
    page = logged_in(people["mod"]).get(reverse("moderation:player", kwargs={"username": "ali"})).content.decode()
    assert 'data-for-action="chat_timeout"' in page and 'data-for-action="lift"' in page
    assert "moderation/act.js" in page and "games/games.css" in page
    form = logged_in(people["bea"]).get(reverse("moderation:report", kwargs={"username": "ali"})).content.decode()
    assert 'class="button primary">Send the report' in form and "games/games.css" in form


def test_reporting_a_closed_account_says_so_before_the_form(people):
    people["ali"].is_active = False
    people["ali"].save()
    page = logged_in(people["bea"]).get(reverse("moderation:report", kwargs={"username": "ali"}))
    text = page.content.decode()
    assert "This account is closed" in text and 'id="report-form"' not in text
