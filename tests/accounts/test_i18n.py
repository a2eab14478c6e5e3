"""Account pages in Arabic (right to left), from the committed locale/ar catalogue."""

import pytest
from django.core import mail
from django.urls import reverse

AR = {"HTTP_ACCEPT_LANGUAGE": "ar"}


@pytest.mark.django_db
def test_profile_page_in_arabic_is_right_to_left(client, player):
    html = client.get(reverse("profile", args=["amira"]), **AR).content.decode()
    assert '<html lang="ar" dir="rtl">' in html
    assert "تاريخ الانضمام" in html  # "Joined"
    assert "آخر المباريات" in html  # "Recent matches"
    assert "تسجيل الدخول" in html  # "Log in", from templates/base.html


@pytest.mark.django_db
def test_allauth_pages_in_arabic_keep_the_site_header(client):
    html = client.get(reverse("account_signup"), **AR).content.decode()
    assert 'dir="rtl"' in html
    assert 'class="site-header"' in html
    assert ">باصرة<" in html  # the brand link, "Basra"


@pytest.mark.django_db
def test_reserved_name_error_in_arabic(client, settings):
    settings.ACCOUNT_EMAIL_VERIFICATION = "optional"
    form = {"username": "admin", "email": "a@example.com", "password1": "seven-of-diamonds-77", "password2": "seven-of-diamonds-77"}
    html = client.post(reverse("account_signup"), form, **AR).content.decode()
    assert "هذا الاسم محجوز" in html


@pytest.mark.django_db
def test_password_reset_mail_in_arabic(client, player):
    client.post(reverse("account_reset_password"), {"email": player.email}, **AR)
    (message,) = mail.outbox
    assert message.subject.startswith("[باصرة] ")
    assert "تحية من باصرة!" in message.body
