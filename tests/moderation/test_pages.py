"""The moderation pages (``games.moderation.views``): the report form (from a profile, from a
chat line's link), the staff's queue, player page, actions and log, the messages page; staff
only where it must be, CSRF on every form."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from games.moderation.models import Message, ModLog, Report, ReportEntry

pytestmark = pytest.mark.django_db


def logged_in(user, csrf=False):
    client = Client(enforce_csrf_checks=csrf)
    client.force_login(user)
    return client


def report_url(name="ali", **query):
    url = reverse("moderation:report", kwargs={"username": name})
    return url + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


def test_the_profile_links_to_the_report_form_and_staff_to_their_page(people):
    page = logged_in(people["bea"]).get(reverse("profile", kwargs={"username": "ali"})).content.decode()
    assert report_url() in page
    assert reverse("moderation:player", kwargs={"username": "ali"}) not in page
    own = logged_in(people["ali"]).get(reverse("profile", kwargs={"username": "ali"})).content.decode()
    assert report_url() not in own
    staff = logged_in(people["mod"]).get(reverse("profile", kwargs={"username": "ali"})).content.decode()
    assert reverse("moderation:player", kwargs={"username": "ali"}) in staff


def test_a_report_filed_from_the_form_reaches_the_queue(people, chat_lines):
    from tests.ratings.helpers import rated_match

    match = rated_match([people["ali"], people["bea"]], rated=False)
    line = chat_lines.say(people["ali"], "<b>rude</b> words", match_id=match.pk)
    client = logged_in(people["bea"])
    form = client.get(report_url(line=line["id"]))
    assert form.status_code == 200
    assert "&lt;b&gt;rude&lt;/b&gt; words" in form.content.decode()
    done = client.post(report_url(), {"reason": "insult", "text": "see the line", "line": line["id"]})
    assert done.status_code == 302 and done["Location"] == reverse("profile", kwargs={"username": "ali"})
    entry = ReportEntry.objects.get()
    assert (entry.reason, entry.line_text) == ("insult", "<b>rude</b> words")
    queue = logged_in(people["mod"]).get(reverse("moderation:queue")).content.decode()
    assert reverse("moderation:player", kwargs={"username": "ali"}) in queue
    detail = logged_in(people["mod"]).get(reverse("moderation:player", kwargs={"username": "ali"}))
    assert "&lt;b&gt;rude&lt;/b&gt; words" in detail.content.decode()


def test_refusals_are_shown_on_the_form_and_nothing_is_stored(people):
    client = logged_in(people["ali"])
    page = client.post(report_url(), {"reason": "cheat"})
    assert page.status_code == 400 and "You cannot report yourself." in page.content.decode()
    forged = logged_in(people["bea"]).get(report_url(line="12345"))
    assert forged.status_code == 400
    assert not Report.objects.exists()


def test_a_closed_account_cannot_be_reported_from_the_form(people):
    people["ali"].is_active = False
    people["ali"].save()
    page = logged_in(people["bea"]).post(report_url(), {"reason": "cheat"})
    assert page.status_code == 400 and "This account is closed" in page.content.decode()


def test_the_report_form_needs_a_login(people):
    page = Client().get(report_url())
    assert page.status_code == 302 and reverse("account_login") in page["Location"]


@pytest.mark.parametrize("name, args", [
    ("moderation:queue", {}), ("moderation:log", {}), ("moderation:player", {"username": "ali"}),
])
def test_staff_pages_refuse_players_and_send_visitors_to_log_in(people, name, args):
    url = reverse(name, kwargs=args)
    assert logged_in(people["bea"]).get(url).status_code == 403
    assert Client().get(url).status_code == 302
    assert logged_in(people["mod"]).get(url).status_code == 200


def test_a_player_cannot_act(people):
    url = reverse("moderation:act", kwargs={"username": "ali"})
    assert logged_in(people["bea"]).post(url, {"action": "warn", "reason": "x"}).status_code == 403
    assert not ModLog.objects.exists()


def test_csrf_guards_every_form(people):
    bea = logged_in(people["bea"], csrf=True)
    assert bea.post(report_url(), {"reason": "cheat"}).status_code == 403
    mod = logged_in(people["mod"], csrf=True)
    act = reverse("moderation:act", kwargs={"username": "ali"})
    assert mod.post(act, {"action": "warn", "reason": "x"}).status_code == 403
    assert not ReportEntry.objects.exists() and not ModLog.objects.exists()
    # Each form carries its token.
    assert "csrfmiddlewaretoken" in bea.get(report_url()).content.decode()
    assert "csrfmiddlewaretoken" in mod.get(reverse("moderation:player", kwargs={"username": "ali"})).content.decode()


def test_staff_act_from_the_player_page_and_the_log_lists_it(people):
    mod = logged_in(people["mod"])
    act = reverse("moderation:act", kwargs={"username": "ali"})
    back = mod.post(act, {"action": "chat_timeout", "reason": "flood", "timeout_reason": "spam", "minutes": "15"})
    assert back.status_code == 302
    assert mod.post(act, {"action": "warn", "reason": ""}).status_code == 302  # refused: no reason
    assert mod.post(act, {"action": "explode", "reason": "x"}).status_code == 302  # refused: no such action
    assert list(ModLog.objects.values_list("action", flat=True)) == ["chat_timeout"]
    log = mod.get(reverse("moderation:log")).content.decode()
    assert "Chat timeout" in log and "flood" in log


def test_the_player_reads_the_moderators_messages(people):
    mod = logged_in(people["mod"])
    mod.post(reverse("moderation:act", kwargs={"username": "ali"}), {"action": "warn", "reason": "Be kind"})
    page = logged_in(people["ali"]).get(reverse("moderation:messages")).content.decode()
    assert "Be kind" in page
    assert not Message.objects.filter(read=False).exists()


@pytest.mark.parametrize("query", [{"match": "abc"}, {"match": "99999"}, {"line": "x"}, {"match": "-3", "line": "1"}])
def test_a_forged_address_is_refused_on_the_form(people, chat_lines, query):
    page = logged_in(people["bea"]).get(report_url(**query))
    assert page.status_code == 400
    assert "nothing was sent" in page.content.decode()


def test_the_form_names_the_match_reported(people):
    from tests.ratings.helpers import rated_match

    match = rated_match([people["ali"], people["bea"]], rated=False)
    page = logged_in(people["bea"]).get(report_url(match=match.pk)).content.decode()
    assert reverse("table", kwargs={"match_id": match.pk}) in page


def test_staff_see_the_queue_in_the_header_with_its_count(people):
    from games.moderation import reports

    reports.file_report(reporter=people["bea"], username="ali", reason="spam")
    staff = logged_in(people["mod"]).get(reverse("lobby")).content.decode()
    assert f'href="{reverse("moderation:queue")}"' in staff and 'class="moderation-open"' in staff
    player = logged_in(people["bea"]).get(reverse("lobby")).content.decode()
    assert f'href="{reverse("moderation:queue")}"' not in player


def test_an_unread_message_waits_for_the_next_page(people):
    from games.moderation import actions, told

    assert told.pending(people["ali"]) == []
    actions.warn(moderator=people["mod"], user=people["ali"], reason="Be kind")
    assert told.pending(people["ali"]) == [
        ("mod_message", {"unread": 1, "url": reverse("moderation:messages")}),
    ]
    told.read_all(people["ali"].pk)
    assert told.pending(people["ali"]) == []



def test_the_report_form_does_not_cut_a_long_text_but_says_the_limit(people):
    """A browser cuts a pasted text at a textarea's ``maxlength`` without a word: the form has
    none, says the limit, and the server refuses a longer text (below)."""
    page = logged_in(people["bea"]).get(report_url()).content.decode()
    textarea = page[page.index("<textarea"):page.index("</textarea>")]
    assert "maxlength" not in textarea
    assert "At most 1000 characters." in page


@pytest.mark.parametrize("text", ["x" * 1001, "word " * 300, "\u0627" * 1200])
def test_a_report_s_text_over_the_limit_is_refused_with_the_limit_and_nothing_stored(people, text):
    page = logged_in(people["bea"]).post(report_url(), {"reason": "cheat", "text": text})
    body = page.content.decode()
    assert page.status_code == 400, page.status_code
    assert "at most 1000 characters" in body
    assert not Report.objects.exists() and not ReportEntry.objects.exists()
    # The text comes back whole, for the reporter to shorten.
    assert text.strip() in body


def test_a_new_line_counts_as_one_character_as_the_browser_counts_it(people):
    text = "a\r\n" * 499 + "a"  # 998 characters in the textarea, 1496 with CR LF
    done = logged_in(people["bea"]).post(report_url(), {"reason": "cheat", "text": text})
    assert done.status_code == 302
    assert ReportEntry.objects.get().text == "a\n" * 499 + "a"
