"""Users for the people app's tests."""

from __future__ import annotations

from django.contrib.auth import get_user_model


def users(*names: str) -> list:
    """Users named ``names`` (no password: a test logs them in with ``force_login``)."""
    model = get_user_model()
    return [model.objects.create_user(username=n, email=f"{n}@example.com", password=None) for n in names]
