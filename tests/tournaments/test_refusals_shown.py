"""A refused organiser action (a non-organiser's remove, start or cancel, the organiser's
forfeit on their own pairing, a removal without its confirmation) changes nothing, and the
event page it leads back to says why. Nothing changed, so the page keeps its version (its ETag):
its answer to the browser's revalidation must still carry the message, not a 304 (the copy it
had, with no message); and the page's own refresh (``tournaments/live.js``) must not take the
message before the page it is meant for is loaded."""

from __future__ import annotations

import pytest
from django.contrib.messages import constants
from django.test import Client
from django.urls import reverse

from games.tournaments import services
from games.tournaments.models import Entrant, Tournament
from tests.tournaments.helpers import client_for, edit_post, enter, event, live_games, users

pytestmark = pytest.mark.django_db


def refused_then_shown(client: Client, t: Tournament, address: str, data: dict, said: str) -> None:
    """``client`` has the event page (and its ETag); the post to ``address`` is refused; the
    page's own refresh comes before the redirect is followed, then the browser asks for the
    page again with its ETag: it is built, with the refusal as an error message."""
    page = reverse("tournament", args=[t.pk])
    tag = client.get(page)["ETag"]
    response = client.post(address, data)
    assert response.status_code == 302 and response["Location"] == page
    assert client.get(page, headers={"X-Requested-With": "fetch"}).status_code == 200
    again = client.get(page, headers={"If-None-Match": tag})
    assert again.status_code == 200
    shown = [(m.level, m.message) for m in again.context["messages"]]
    assert shown == [(constants.ERROR, said)], shown
    assert client.get(page).context["messages"].__len__() == 0  # shown once


@pytest.fixture
def upcoming():
    org, outsider, *ps = users("org", "outsider", "p1", "p2")
    t = event(org, "round_robin")
    enter(t, ps)
    return t, org, outsider


@pytest.mark.parametrize("action", ["tournament_start", "tournament_cancel"])
def test_an_outsiders_start_or_cancel_is_refused_with_its_message(upcoming, action):
    t, org, outsider = upcoming
    refused_then_shown(client_for(outsider), t, reverse(action, args=[t.pk]), {"confirmed": "yes"},
                       "Only the organiser, an arbiter or staff may do this.")
    assert Tournament.objects.get(pk=t.pk).status == Tournament.Status.UPCOMING


def test_an_outsiders_removal_and_an_unconfirmed_one_are_refused_with_their_message(upcoming):
    t, org, outsider = upcoming
    entrant = t.entrants.first()
    address = reverse("tournament_remove_entrant", args=[t.pk, entrant.pk])
    refused_then_shown(client_for(outsider), t, address, {"confirmed": "yes"}, "Only the organiser, an arbiter or staff may do this.")
    refused_then_shown(client_for(org), t, address, {}, "Removing an entrant needs your confirmation: "
                       "nothing was changed. Confirm it when you are asked.")
    assert Entrant.objects.get(pk=entrant.pk).status == entrant.status


def test_the_organisers_forfeit_on_their_own_pairing_is_refused_with_its_message():
    org, other = users("org", "p1")
    t = event(org, "round_robin")
    enter(t, [org, other])
    services.start(user=org, tournament_id=t.pk)
    (game,) = live_games(t)
    refused_then_shown(client_for(org), t, reverse("tournament_forfeit", args=[t.pk, game.pairing.pk]),
                       {"winner": game.pairing.b_id, "confirmed": "yes"},
                       "You play in this pairing: a result of your own is decided by an arbiter (or staff), not by you.")
    assert live_games(t)


def test_the_event_forms_zones_are_geographic_iana_names_and_utc():
    """The zones offered are places (and UTC): not "Factory", "localtime", ``posixrules``,
    ``Etc/GMT+3``, ``US/Eastern`` or ``Egypt``."""
    from games.tournaments.forms import TournamentForm

    offered = [value for value, _ in TournamentForm().fields["time_zone"].choices]
    assert "UTC" in offered and "Africa/Cairo" in offered and "America/Argentina/Buenos_Aires" in offered
    for other in ("Factory", "localtime", "posixrules", "Etc/GMT+3", "US/Eastern", "Egypt", "GMT"):
        assert other not in offered, other
    assert all(z == "UTC" or z.split("/")[0] in {"Africa", "America", "Antarctica", "Arctic", "Asia",
                                                 "Atlantic", "Australia", "Europe", "Indian", "Pacific"}
               for z in offered)


def test_the_logs_moved_start_is_written_in_the_readers_zone_like_the_pages_times():
    """A moved start reads as the page's times do, in the reader's zone, not "starts at
    2026-12-04T18:00:00+00:00 → 2026-12-05T19:30:00+00:00"."""
    from datetime import datetime
    from zoneinfo import ZoneInfo

    from django.utils import formats, timezone

    from games.tournaments import zones

    org, reader = users("org", "reader")
    t = event(org, "round_robin", starts_in=60 * 24 * 3)
    before = t.starts_at.replace(second=0, microsecond=0)
    after = datetime(2099, 12, 5, 17, 30, tzinfo=ZoneInfo(t.time_zone))
    assert client_for(org).post(reverse("tournament_edit", args=[t.pk]), edit_post(
        t, starts_at=after.strftime("%Y-%m-%dT%H:%M"))).status_code == 302
    client = client_for(reader)
    client.cookies[zones.COOKIE] = "Africa/Cairo"
    log = client.get(reverse("tournament", args=[t.pk])).content.decode().split("audit")[-1]
    cairo = ZoneInfo("Africa/Cairo")
    written = [formats.date_format(timezone.localtime(v, cairo), "SHORT_DATETIME_FORMAT") for v in (before, after)]
    assert f"<bdi>{written[0]}</bdi> → <bdi>{written[1]}</bdi>" in log
    assert "2099-12-05T" not in log and "+00:00" not in log


def test_the_zones_are_named_in_the_readers_language():
    """The form's select and the event page name a zone as CLDR does in the reader's language,
    not by its IANA name; the value sent stays the IANA name."""
    (org,) = users("zone_reader")
    client = client_for(org)
    form = client.get(reverse("tournament_create"), HTTP_ACCEPT_LANGUAGE="ar").content.decode()
    assert '<option value="Africa/Cairo">توقيت مصر</option>' in form
    assert ">Africa/Cairo<" not in form
    english = client.get(reverse("tournament_create"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert '<option value="Africa/Cairo">Egypt Time</option>' in english



@pytest.mark.parametrize("language", ["en", "ar"])
def test_no_two_zones_of_the_form_read_the_same(language):
    from games.tournaments import zones

    labels = [text for _zone, text in zones.choices(language)]
    assert len(labels) == len(set(labels)) == len(zones.names())


def test_the_zones_sort_as_the_reader_expects_and_list_each_place_once():
    """French: "heure : Égypte" among the E (UCA), not after "Zimbabwe"; the old alias
    America/Virgin is not offered beside America/St_Thomas, yet an event keeping it is known."""
    from games.tournaments import zones

    labels = [text for _zone, text in zones.choices("fr")]
    egypt = next(i for i, text in enumerate(labels) if "Égypte" in text)
    assert labels[egypt - 1] < "heure : F" and labels.index("heure : Zimbabwe") > egypt
    assert sum("Îles Vierges des États-Unis" in text for text in labels) == 1
    assert "America/Virgin" not in zones.names() and "America/St_Thomas" in zones.names()
    assert zones.known("America/Virgin") and zones.canonical("America/Virgin") == "America/St_Thomas"
