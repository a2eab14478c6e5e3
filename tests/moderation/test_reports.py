"""Filing reports (``games.moderation.reports``): merged per reported player, each reporter's
entry with its match and chat line, rate-limited, and every bad input refused with nothing
stored."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.core.for_apps import Match
from games.moderation import reports
from games.moderation.errors import ModerationError
from games.moderation.models import Report, ReportEntry
from games.people.models import Block
from tests.ratings.helpers import lose, rated_match

pytestmark = pytest.mark.django_db


def refused(code, **kwargs):
    with pytest.raises(ModerationError) as caught:
        reports.file_report(**kwargs)
    assert caught.value.code == code
    return caught.value


def test_reports_of_one_player_are_merged_into_one_open_report(people):
    ali, bea, cem = people["ali"], people["bea"], people["cem"]
    first = reports.file_report(reporter=bea, username="ali", reason="cheat", text="engine moves")
    second = reports.file_report(reporter=cem, username="ali", reason="stall")
    third = reports.file_report(reporter=bea, username="ali", reason="boost")
    assert first.report_id == second.report_id == third.report_id
    report = Report.objects.get()
    assert report.reported == ali and report.status == Report.Status.OPEN
    assert sorted(report.entries.values_list("reporter__username", "reason")) == [
        ("bea", "boost"), ("bea", "cheat"), ("cem", "stall"),
    ]
    queue = reports.open_queue()
    assert [(item["report"].pk, item["reporters"]) for item in queue] == [(report.pk, 2)]


def test_a_closed_report_leaves_room_for_a_new_one(people):
    first = reports.file_report(reporter=people["bea"], username="ali", reason="spam")
    Report.objects.filter(pk=first.report_id).update(status=Report.Status.CLOSED)
    again = reports.file_report(reporter=people["bea"], username="ali", reason="spam")
    assert again.report_id != first.report_id


def test_the_match_and_the_line_are_attached_and_the_line_s_text_kept(people, chat_lines):
    ali, bea = people["ali"], people["bea"]
    match = rated_match([ali, bea], rated=False)
    line = chat_lines.say(ali, "you are an idiot", match_id=match.pk)
    entry = reports.file_report(
        reporter=bea, username="ali", reason="insult", match_id=str(match.pk), line_id=str(line["id"]),
    )
    chat_lines.lines.clear()  # the line goes; the evidence stays
    entry.refresh_from_db()
    assert (entry.match_id, entry.line_id, entry.line_room, entry.line_text) == (
        match.pk, line["id"], "player", "you are an idiot",
    )


def test_a_line_alone_brings_its_match(people, chat_lines):
    ali, bea = people["ali"], people["bea"]
    match = rated_match([ali, bea], rated=False)
    line = chat_lines.say(ali, "spam spam", match_id=match.pk)
    entry = reports.file_report(reporter=bea, username="ali", reason="spam", line_id=line["id"])
    assert entry.match_id == match.pk


def test_a_report_of_insults_blocks_the_reported_player_for_the_reporter(people):
    reports.file_report(reporter=people["bea"], username="ali", reason="insult")
    assert Block.objects.filter(blocker=people["bea"], blocked=people["ali"]).exists()
    reports.file_report(reporter=people["cem"], username="ali", reason="spam")
    assert not Block.objects.filter(blocker=people["cem"]).exists()


def test_a_report_of_oneself_is_refused(people):
    refused("report_self", reporter=people["ali"], username="ali", reason="cheat")
    assert not Report.objects.exists()


def test_a_report_of_a_closed_account_is_refused(people):
    people["ali"].is_active = False
    people["ali"].save()
    error = refused("report_closed_account", reporter=people["bea"], username="ali", reason="cheat")
    assert "closed" in error.message
    assert not Report.objects.exists()


def test_the_same_report_twice_is_refused(people):
    reports.file_report(reporter=people["bea"], username="ali", reason="cheat")
    refused("report_twice", reporter=people["bea"], username="ali", reason="cheat", text="again")
    assert ReportEntry.objects.count() == 1


def test_a_flood_of_reports_is_cut_per_hour_and_per_day(people, django_user_model):
    targets = [django_user_model.objects.create_user(username=f"t{i}", password=None) for i in range(25)]
    now = timezone.now()
    for target in targets[: reports.PER_HOUR]:
        reports.file_report(reporter=people["bea"], username=target.username, reason="spam", now=now)
    refused("report_rate_limited", reporter=people["bea"], username=targets[-1].username, reason="spam", now=now)
    assert ReportEntry.objects.count() == reports.PER_HOUR
    # An hour later the hourly limit is free again, the daily one still counts.
    later = now + timedelta(hours=1, minutes=1)
    filed = reports.PER_HOUR
    for target in targets[reports.PER_HOUR:]:
        if filed == reports.PER_DAY:
            break
        reports.file_report(reporter=people["bea"], username=target.username, reason="spam",
                            now=later + timedelta(hours=filed))
        filed += 1
    refused("report_rate_limited", reporter=people["bea"], username=targets[-1].username,
            reason="spam", now=later + timedelta(hours=filed - 1))
    # Others may still report.
    reports.file_report(reporter=people["cem"], username="t0", reason="spam", now=now)


@pytest.mark.parametrize("line_id", ["999", "-1", "abc", "1e3", "0"])
def test_a_forged_line_id_is_refused(people, chat_lines, line_id):
    refused("report_bad_line", reporter=people["bea"], username="ali", reason="insult", line_id=line_id)
    assert not ReportEntry.objects.exists()
    assert not Block.objects.exists()


def test_a_line_of_someone_else_or_of_another_match_is_refused(people, chat_lines):
    ali, bea, cem = people["ali"], people["bea"], people["cem"]
    match = rated_match([ali, bea], rated=False)
    theirs = chat_lines.say(cem, "not ali's", match_id=match.pk)
    refused("report_bad_line", reporter=bea, username="ali", reason="insult", line_id=theirs["id"])
    mine = chat_lines.say(ali, "ali's, elsewhere", match_id=match.pk + 100)
    refused("report_bad_line", reporter=bea, username="ali", reason="insult",
            line_id=mine["id"], match_id=match.pk)


def test_a_line_without_a_chat_installed_is_refused(people):
    refused("report_bad_line", reporter=people["bea"], username="ali", reason="insult", line_id=1)


def test_a_match_the_player_did_not_play_is_refused(people):
    bea, cem = people["bea"], people["cem"]
    theirs = rated_match([bea, cem], rated=False)
    lose(theirs, bea)
    refused("report_bad_match", reporter=bea, username="ali", reason="cheat", match_id=theirs.pk)
    refused("report_bad_match", reporter=bea, username="ali", reason="cheat", match_id="x")


@pytest.mark.parametrize("text", ["x" * 1001, "nul\x00here", "bidi \u202e override", "bell\x07"])
def test_bad_text_is_refused(people, text):
    refused("report_bad_text", reporter=people["bea"], username="ali", reason="other", text=text)
    assert not Report.objects.exists()


@pytest.mark.parametrize("reason", ["", "lying", None])
def test_a_reason_not_listed_is_refused(people, reason):
    refused("report_bad_reason", reporter=people["bea"], username="ali", reason=reason)


def test_an_unknown_name_is_refused(people):
    refused("report_no_such_player", reporter=people["bea"], username="nobody", reason="cheat")
    refused("report_no_such_player", reporter=people["bea"], username="a\x00li", reason="cheat")


def test_a_line_the_reporter_could_not_read_is_refused_and_not_quoted(people, chat_lines):
    ali, bea, cem = people["ali"], people["bea"], people["cem"]
    match = rated_match([ali, bea], rated=False)
    players_line = chat_lines.say(ali, "players only", match_id=match.pk)
    spectators_line = chat_lines.say(ali, "for the spectators", match_id=match.pk, room="spectator")
    refused("report_bad_line", reporter=cem, username="ali", reason="insult", line_id=players_line["id"])
    client = Client()
    client.force_login(cem)
    url = reverse("moderation:report", kwargs={"username": "ali"})
    page = client.get(f"{url}?line={players_line['id']}").content.decode()
    assert "players only" not in page
    entry = reports.file_report(reporter=cem, username="ali", reason="spam", line_id=spectators_line["id"])
    assert entry.line_text == "for the spectators"
    Match.objects.filter(pk=match.pk).update(watchers=Match.Watchers.NOBODY)
    refused("report_bad_line", reporter=cem, username="ali", reason="spam", line_id=spectators_line["id"])
    assert reports.file_report(reporter=bea, username="ali", reason="insult", line_id=players_line["id"])
