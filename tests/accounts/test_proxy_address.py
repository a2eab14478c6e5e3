"""allauth's per-address limits behind the README's proxy (issue 36): every request comes from
the proxy's address, and the proxy overwrites X-Forwarded-For with the visitor's. With
``BASRA_TRUSTED_PROXY_COUNT`` = 1 (which sets ``ALLAUTH_TRUSTED_PROXY_COUNT``, tests/site/
test_proxy.py) each visitor has their own sign-up allowance; with 0 the header is a client's
word, ignored, and everyone behind the proxy shares one."""

import pytest
from django.test import Client
from django.urls import reverse

#: The proxy's own address: every request reaches the site from it.
PROXY = "127.0.0.1"


def sign_up(forwarded_for: str, name: str) -> int:
    """A sign-up by a visitor at ``forwarded_for`` through the proxy: the response's status."""
    client = Client(REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR=forwarded_for)
    return client.post(reverse("account_signup"), {
        "username": name, "email": f"{name}@example.com",
        "password1": "seven-of-diamonds-77", "password2": "seven-of-diamonds-77",
    }).status_code


@pytest.fixture(autouse=True)
def _one_sign_up_a_minute(settings):
    settings.ACCOUNT_EMAIL_VERIFICATION = "optional"
    settings.ACCOUNT_RATE_LIMITS = {"signup": "1/m/ip"}


def trust(settings, count: int) -> None:
    # What basra_site/settings.py derives from the environment's BASRA_TRUSTED_PROXY_COUNT.
    settings.BASRA_TRUSTED_PROXY_COUNT = settings.ALLAUTH_TRUSTED_PROXY_COUNT = count


@pytest.mark.django_db
def test_behind_the_trusted_proxy_each_visitor_has_their_own_sign_up_allowance(settings):
    trust(settings, 1)
    assert sign_up("203.0.113.5", "karim") == 302
    assert sign_up("198.51.100.7", "mona") == 302
    assert sign_up("203.0.113.5", "karim2") == 429  # karim's address has had its one


@pytest.mark.django_db
def test_with_no_proxy_trusted_a_forwarded_for_header_changes_nothing(settings):
    trust(settings, 0)
    assert sign_up("203.0.113.5", "karim") == 302
    # Another header, the same peer: the same allowance, spent.
    assert sign_up("198.51.100.7", "mona") == 429
