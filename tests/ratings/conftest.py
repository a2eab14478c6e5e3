"""Fixtures of the ratings tests."""

from __future__ import annotations

import pytest


@pytest.fixture
def users(django_user_model):
    return [
        django_user_model.objects.create_user(username=name, password=None)
        for name in ("alice", "bob", "carol", "dave")
    ]
