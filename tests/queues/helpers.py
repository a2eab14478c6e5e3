"""Users and ratings for the queue tests."""

from __future__ import annotations

from django.contrib.auth import get_user_model

from games.ratings.models import PlayerRating


def users(*names: str) -> list:
    """Users named ``names`` (no password: nobody logs in)."""
    model = get_user_model()
    return [model.objects.create_user(username=n, email=f"{n}@example.com", password=None) for n in names]


def rate(user, pool: str, rating: float) -> None:
    """Give ``user`` ``rating`` in ``pool`` (``"1v1"`` or ``"partnership"``)."""
    PlayerRating.objects.update_or_create(user=user, pool=pool, defaults={"rating": rating})
