"""Every account page in the site's layout and words, in Arabic too; the help and contact page
(``BASRA_CONTACT_EMAIL``, the rules, the fair shuffle, the privacy page)."""

import re

import pytest
from django.urls import reverse

from tests.accounts.helpers import confirmation_link, sign_up

pytestmark = pytest.mark.django_db

SIGNED_OUT = ["account_login", "account_signup", "account_reset_password",
              "account_reset_password_done", "account_email_verification_sent", "help", "privacy"]
SIGNED_IN = ["account_email", "account_change_password", "account_close", "account_logout",
             "socialaccount_connections"]


def heading(html: str) -> str:
    found = re.search(r"<h1[^>]*>(.*?)</h1>", html, re.S)
    assert found, html[:500]
    return re.sub(r"<[^>]+>", "", found.group(1)).strip()


def in_arabic(client):
    client.cookies["django_language"] = "ar"
    return client


@pytest.mark.parametrize("name", SIGNED_OUT)
def test_signed_out_pages_in_the_site_layout_and_in_arabic(client, name):
    html = client.get(reverse(name)).content.decode()
    assert 'class="site-header"' in html and 'class="site-footer"' in html
    english = heading(html)
    arabic_html = in_arabic(client).get(reverse(name)).content.decode()
    assert 'dir="rtl"' in arabic_html
    arabic = heading(arabic_html)
    assert arabic != english and not re.search(r"[A-Za-z]", arabic), (english, arabic)


@pytest.mark.parametrize("name", SIGNED_IN)
def test_signed_in_pages_in_arabic(client, player, name):
    client.force_login(player)
    arabic = heading(in_arabic(client).get(reverse(name)).content.decode())
    assert not re.search(r"[A-Za-z]", arabic), arabic


def test_the_confirmation_page_in_arabic(client):
    sign_up(client, "nour", "nour@example.com")
    html = in_arabic(client).get(confirmation_link("nour@example.com")).content.decode()
    assert "أكّد بريدك الإلكتروني" in html and "<bdi>nour@example.com</bdi>" in html


def test_the_help_page_gives_the_address_and_the_links(client, settings):
    settings.BASRA_CONTACT_EMAIL = "help@basra.example"
    html = client.get(reverse("help")).content.decode()
    assert '<a href="mailto:help@basra.example">help@basra.example</a>' in html
    for url in (reverse("rules"), reverse("privacy"), reverse("account_reset_password")):
        assert f'href="{url}"' in html
    assert 'id="fair-shuffle"' in html


def test_without_an_address_the_help_page_says_so(client, settings):
    settings.BASRA_CONTACT_EMAIL = ""
    html = client.get(reverse("help")).content.decode()
    assert "mailto:" not in html and "This site has no contact address yet." in html


def test_the_log_in_form_says_stay_logged_in(client):
    html = client.get(reverse("account_login")).content.decode()
    assert "Stay logged in on this device" in html and "Remember Me" not in html
