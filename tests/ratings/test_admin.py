"""Voiding a rated match from the admin."""

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from games.ratings.models import PlayerRating, RatedMatch
from tests.ratings.helpers import lose, rated_match

pytestmark = pytest.mark.django_db


def void(client, *records):
    return client.post(
        reverse("admin:ratings_ratedmatch_changelist"),
        {"action": "void", "_selected_action": [r.pk for r in records]},
        follow=True,
    )


def test_staff_void_a_rated_match_then_are_told_it_is_void_already(client):
    users = get_user_model().objects
    alice, bob = (users.create_user(username=n, password=None) for n in ("alice", "bob"))
    staff = users.create_superuser(username="root", email="r@example.com", password="x-long-pw-1")
    match = lose(rated_match([alice, bob]), bob)
    record = RatedMatch.objects.get(match=match)
    client.force_login(staff)
    page = void(client, record).content.decode()
    assert "1 rated match voided." in page
    assert PlayerRating.objects.get(user=alice).rating == 1500.0
    again = void(client, record).content.decode()
    assert f"Match {match.pk} is void already" in again
    assert PlayerRating.objects.get(user=alice).matches == 0


def test_a_player_cannot_void(client):
    users = get_user_model().objects
    alice, bob = (users.create_user(username=n, password=None) for n in ("alice", "bob"))
    match = lose(rated_match([alice, bob]), bob)
    client.force_login(alice)
    void(client, RatedMatch.objects.get(match=match))
    assert RatedMatch.objects.get(match=match).voided_at is None
    assert PlayerRating.objects.get(user=alice).matches == 1
