"""Fixtures of the core's pages' tests: users with a password, as the pages' log-in needs."""

from __future__ import annotations

import pytest


@pytest.fixture
def make_user(django_user_model):
    def make(username):
        return django_user_model.objects.create_user(
            username=username, email=f"{username}@example.com", password="pw-Basra-123"
        )
    return make


@pytest.fixture
def alice(make_user):
    return make_user("alice")
