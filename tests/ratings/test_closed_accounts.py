"""A closed account (``accounts.closing``: ``is_active`` false) leaves the ladder
(games/ratings/ladder.py)."""

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import timezone

from accounts.closing import close_account
from games.ratings.ladder import ladder
from games.ratings.models import PlayerRating

pytestmark = pytest.mark.django_db


def test_a_closed_account_leaves_the_ladder(client):
    now = timezone.now()
    people = [get_user_model().objects.create_user(username=n, password=None) for n in ("top", "next")]
    for i, user in enumerate(people):
        PlayerRating.objects.create(user=user, pool="1v1", rating=2000 - i, deviation=60, matches=5,
                                    last_rated_at=now - timedelta(days=1))
    assert [r.user.username for r in ladder("1v1", "established")] == ["top", "next"]
    close_account(people[0], by=people[0], reason="owner")
    assert [r.user.username for r in ladder("1v1", "established")] == ["next"]
    html = client.get(reverse("ladder", args=["1v1"])).content.decode()
    assert "/players/top/" not in html and "/players/next/" in html
