"""Fixtures of the ratings tests."""

import pytest
from django.utils import translation


@pytest.fixture(autouse=True)
def _english():
    """Messages in English whatever language an earlier test's request left active."""
    with translation.override("en"):
        yield
