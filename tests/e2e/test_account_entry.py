"""Entering the site (issue 39): sign up, confirm by the e-mail's link, logged in; log in with
Google (the test's own, tests/e2e/fake_provider.py), choosing a name, logged in."""

from __future__ import annotations

import os
import re
import time
import uuid
from urllib.parse import urlparse

import pytest
from playwright.sync_api import expect

from tests.e2e.fake_provider import FakeGoogle
from tests.e2e.pages import PASSWORD, fill_sign_up

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def fake_google():
    google = FakeGoogle(os.environ["BASRA_GOOGLE_CLIENT_ID"]).start()
    yield google
    google.stop()


@pytest.fixture(scope="module")
def site_env(fake_google) -> dict[str, str]:
    """Confirmation by e-mail on (the shared server has it off), and Google at ``fake_google``."""
    return {"ACCOUNT_EMAIL_VERIFICATION": "mandatory",
            "DJANGO_SETTINGS_MODULE": "tests.e2e.provider_settings",
            "BASRA_TEST_PROVIDER_URL": fake_google.url}


def mailed_link(site, email: str) -> str:
    """The confirmation link of the e-mail to ``email``, as the server printed it (no
    ``EMAIL_HOST``: the console backend, flushed after each message), once it is there."""
    deadline = time.monotonic() + 30
    pattern = re.compile(r"To: " + re.escape(email) + r".*?(http://[^\s]+/accounts/confirm-email/[^\s/]+/)", re.S)
    while time.monotonic() < deadline:
        found = pattern.search(site.log.read_text(errors="replace"))
        if found:
            return found.group(1)
        time.sleep(0.1)  # polling the server's output for the e-mail, not waiting a fixed time
    raise AssertionError(f"no confirmation e-mail to {email}")


def test_sign_up_confirm_and_be_logged_in(new_page, site):
    name = f"conf_{uuid.uuid4().hex[:6]}"
    page = new_page(locale="en")
    fill_sign_up(page, name)
    expect(page.locator("h1")).to_have_text("Check your email")
    expect(page.locator(".whoami")).to_have_count(0)
    link = mailed_link(site, f"{name}@example.com")
    page.goto(urlparse(link).path)  # the e-mail names BASRA_SITE_DOMAIN, not this server's port
    expect(page.locator("h1")).to_have_text("Confirm your email")
    page.get_by_role("button", name="Confirm").click()
    expect(page.locator(".whoami")).to_have_text(name)
    expect(page.locator(".messages")).to_contain_text("is confirmed")


def test_the_link_on_another_device_confirms_and_asks_to_log_in(new_page, site):
    name = f"other_{uuid.uuid4().hex[:6]}"
    page = new_page(locale="en")
    fill_sign_up(page, name)
    expect(page.locator("h1")).to_have_text("Check your email")
    link = mailed_link(site, f"{name}@example.com")
    phone = new_page(locale="en")
    phone.goto(urlparse(link).path)
    phone.get_by_role("button", name="Confirm").click()
    expect(phone.locator("h1")).to_have_text("Log in")
    expect(phone.locator(".messages")).to_contain_text("not the one you signed up in")
    phone.fill('input[name="login"]', name)
    phone.fill('input[name="password"]', PASSWORD)
    phone.press('input[name="password"]', "Enter")
    expect(phone.locator(".whoami")).to_have_text(name)


def test_log_in_with_google_choose_a_name_and_be_logged_in(new_page, fake_google):
    name = f"goo_{uuid.uuid4().hex[:6]}"
    fake_google.profile = {"sub": f"g-{name}", "email": f"{name}@gmail.example",
                           "email_verified": True, "name": "Layla Hassan"}
    page = new_page(locale="en", viewport={"width": 360, "height": 740})
    page.goto("/accounts/login/")
    page.get_by_role("link", name="Google").click()
    expect(page.locator("h1")).to_have_text("Log in with Google")
    page.get_by_role("button", name="Continue").click()
    expect(page.locator("h1")).to_have_text("Choose your name")
    expect(page.locator('input[name="email"]')).to_have_value(f"{name}@gmail.example")
    page.fill('input[name="username"]', "admin")
    page.press('input[name="username"]', "Enter")
    expect(page.locator(".errorlist")).to_contain_text("This name is reserved.")
    page.fill('input[name="username"]', name)
    page.press('input[name="username"]', "Enter")
    expect(page.locator(".whoami")).to_have_text(name)
