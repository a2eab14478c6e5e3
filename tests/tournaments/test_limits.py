"""What one organiser may create (issue 23, item 8): a description of bounded length, at most
``UPCOMING_MAX`` upcoming events; and the event page's refresh, answered 304 while nothing on it
changed."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from games.tournaments import services
from games.tournaments.errors import TournamentError
from games.tournaments.models import DESCRIPTION_MAX, Tournament
from games.tournaments.registration import UPCOMING_MAX
from tests.tournaments.helpers import enter, event, live_games, users

pytestmark = pytest.mark.django_db


def test_an_organiser_has_at_most_so_many_upcoming_events():
    org, other = users("org", "other")
    for _ in range(UPCOMING_MAX):
        event(org, "swiss", swiss_rounds=3)
    with pytest.raises(TournamentError) as error:
        event(org, "swiss", swiss_rounds=3)
    assert error.value.code == "too_many_events"
    assert Tournament.objects.filter(organiser=org).count() == UPCOMING_MAX
    event(other, "swiss", swiss_rounds=3)  # another organiser's own count
    # One that starts frees a place.
    first = Tournament.objects.filter(organiser=org).first()
    enter(first, users("a", "b"))
    services.start(user=org, tournament_id=first.pk)
    event(org, "swiss", swiss_rounds=3)


def test_a_description_is_bounded():
    (org,) = users("org")
    with pytest.raises(TournamentError) as error:
        event(org, "swiss", swiss_rounds=3, description="x" * (DESCRIPTION_MAX + 1))
    assert error.value.code == "bad_settings"
    assert event(org, "swiss", swiss_rounds=3, description="x" * DESCRIPTION_MAX)


def test_the_event_page_answers_304_while_nothing_on_it_changed():
    org, a, b, c = users("org", "a", "b", "c")
    t = event(org, "round_robin")
    url = reverse("tournament", kwargs={"tournament_id": t.pk})
    viewer = Client()
    first = viewer.get(url)
    tag = first["ETag"]
    again = viewer.get(url, HTTP_IF_NONE_MATCH=tag)
    assert again.status_code == 304 and again.content == b""
    # A new entrant changes the page.
    enter(t, [a, b])
    changed = viewer.get(url, HTTP_IF_NONE_MATCH=tag)
    assert changed.status_code == 200 and changed["ETag"] != tag
    tag = changed["ETag"]
    # Each viewer's page is their own (their buttons): another's version differs.
    other = Client()
    other.force_login(c)
    assert other.get(url)["ETag"] != tag
    # The start, then a result, change it.
    services.start(user=org, tournament_id=t.pk)
    started = viewer.get(url, HTTP_IF_NONE_MATCH=tag)
    assert started.status_code == 200
    tag = started["ETag"]
    from games.core import actions

    match = live_games(t)[0].match
    seat = match.seats.first()
    actions.resign(user=seat.user, match_id=match.pk)
    assert viewer.get(url, HTTP_IF_NONE_MATCH=tag).status_code == 200
    assert viewer.get(url, HTTP_IF_NONE_MATCH="\"other\"").status_code == 200
    assert Client().get(reverse("tournament", kwargs={"tournament_id": 10**6})).status_code == 404
