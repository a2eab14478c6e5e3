"""Ratings before and after in a rated match's record (RULES.md "Game record"; issue 12): the
ratings app fills them through the core's ``games.core.signals.record_headers``."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from games.core.state import records
from games.ratings.models import RatedMatch
from games.ratings.rating import void_match
from tests.ratings.helpers import lose, rated_match, seat_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def users(django_user_model):
    return [django_user_model.objects.create_user(name, password="pw-12345678")
            for name in ("amal", "badr", "chadi", "dina")]


def headers_of(match) -> dict:
    response = Client().get(reverse("match_record", kwargs={"match_id": match.pk}))
    assert response.status_code == 200
    return response.json()["headers"]


def test_a_rated_match_record_carries_the_ratings_before_and_after(users):
    match = lose(rated_match(users[:2]), users[1])
    rated = RatedMatch.objects.get(match=match)
    headers = headers_of(match)
    by_seat = {s["seat"]: s for s in rated.seats}
    assert headers["rated"] is True
    assert headers["ratings_before"] == [by_seat[0]["before"], by_seat[1]["before"]] == [1500, 1500]
    assert headers["ratings_after"] == [by_seat[0]["after"], by_seat[1]["after"]]
    winner, loser = seat_of(match, users[0]), seat_of(match, users[1])
    assert headers["ratings_after"][winner] > 1500 > headers["ratings_after"][loser]


def test_a_partnership_record_has_one_rating_per_seat(users):
    match = lose(rated_match(users), users[1])
    headers = records.match_record(match)["headers"]
    assert len(headers["ratings_before"]) == len(headers["ratings_after"]) == 4
    assert all(isinstance(r, float | int) for r in headers["ratings_after"])


def test_no_ratings_headers_for_a_casual_or_voided_match(users, admin_user):
    casual = lose(rated_match(users[:2], rated=False), users[1])
    assert "ratings_before" not in headers_of(casual)
    rated = lose(rated_match(users[2:]), users[3])
    assert "ratings_after" in headers_of(rated)
    void_match(rated.pk, by=admin_user)
    assert "ratings_after" not in headers_of(rated)
