"""What the ratings app publishes for the other apps (games/ratings/for_apps.py): a player's
rating in the pool of a table's size, a new player's without one."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from games.ratings import for_apps
from games.ratings.models import PlayerRating

pytestmark = pytest.mark.django_db


def test_ratings_are_read_in_the_pool_of_the_tables_size_and_a_newcomer_has_the_new_rating():
    a, b = (get_user_model().objects.create_user(username=n, password=None) for n in ("a", "b"))
    PlayerRating.objects.create(user=a, pool="1v1", rating=1720.5)
    PlayerRating.objects.create(user=a, pool="partnership", rating=1410.0)
    assert for_apps.ratings_of([a.pk, b.pk], 2) == {a.pk: 1720.5}
    assert for_apps.ratings_of([a.pk, b.pk], 4) == {a.pk: 1410.0}
    assert for_apps.rating_of(b.pk, 2) == for_apps.NEW_RATING == 1500.0
    with pytest.raises(ValueError):
        for_apps.rating_of(a.pk, 3)
