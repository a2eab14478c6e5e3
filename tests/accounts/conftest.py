"""Fixtures of the accounts tests."""

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache

PASSWORD = "felt-table-4-kings"


@pytest.fixture(autouse=True)
def _fresh_rate_limits():
    """allauth counts sign-ups and log-ins per IP in the cache; start each test from zero."""
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def password():
    """The password of `player`."""
    return PASSWORD


@pytest.fixture
def player(db):
    """An active player "amira" with the password `PASSWORD` and a primary e-mail address."""
    from allauth.account.models import EmailAddress

    user = get_user_model().objects.create_user(
        username="amira", email="amira@example.com", password=PASSWORD
    )
    EmailAddress.objects.create(user=user, email=user.email, primary=True, verified=True)
    return user
