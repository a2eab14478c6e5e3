"""The API's tests: the cache (the rate limits' counts) emptied before each."""

import pytest
from django.core.cache import cache


@pytest.fixture(autouse=True)
def _fresh_limits():
    cache.clear()
    yield
