"""Account pages in Arabic (right to left) and in French, from the committed locale/ar and
locale/fr catalogues; the header's language list offers every language in its own name."""

import re

import pytest
from django.core import mail
from django.urls import reverse

#: What a reader of each language sees: the page's direction and words.
WORDS = {
    "ar": {"dir": "rtl", "joined": "تاريخ الانضمام", "recent": "آخر المباريات",
           "log_in": "تسجيل الدخول", "brand": ">باصرة<", "reserved": "هذا الاسم محجوز",
           "subject": "[باصرة] ", "hello": "تحية من باصرة!", "have_one": "لديك حساب بالفعل؟",
           "too_short": "كلمة المرور هذه قصيرة جدًا"},
    "fr": {"dir": "ltr", "joined": "Inscrit depuis", "recent": "Parties récentes",
           "log_in": "Se connecter", "brand": ">Basra<", "reserved": "Ce nom est réservé",
           "subject": "[Basra] ", "hello": "Bonjour de la part de Basra\u202f!",
           "have_one": "Vous avez déjà un compte\u202f?", "too_short": "Ce mot de passe est trop court"},
}
LANGUAGES = sorted(WORDS)


def asked(language: str) -> dict:
    return {"HTTP_ACCEPT_LANGUAGE": language}


@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
def test_profile_page_in_the_readers_language(client, player, language):
    words = WORDS[language]
    html = client.get(reverse("profile", args=["amira"]), **asked(language)).content.decode()
    assert f'<html lang="{language}" dir="{words["dir"]}">' in html
    assert words["joined"] in html  # "Joined"
    assert words["recent"] in html  # "Recent matches"
    assert words["log_in"] in html  # "Log in", from templates/base.html


@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
def test_allauth_pages_keep_the_site_header(client, language):
    html = client.get(reverse("account_signup"), **asked(language)).content.decode()
    assert f'dir="{WORDS[language]["dir"]}"' in html
    assert 'class="site-header"' in html
    assert WORDS[language]["brand"] in html  # the brand link, "Basra"
    assert WORDS[language]["have_one"] in html  # "Already have an account?"


@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
def test_reserved_name_error_in_the_readers_language(client, settings, language):
    settings.ACCOUNT_EMAIL_VERIFICATION = "optional"
    form = {"username": "admin", "email": "a@example.com", "password1": "seven-of-diamonds-77", "password2": "seven-of-diamonds-77"}
    html = client.post(reverse("account_signup"), form, **asked(language)).content.decode()
    assert WORDS[language]["reserved"] in html


@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
def test_every_password_error_in_the_readers_language(client, language):
    """Django's validators' words, the too-short one's included (Django 5.2 changed its msgid,
    which Django's Arabic catalogue lacks: the site's catalogue has it)."""
    form = {"username": "short_pw", "email": "s@example.com", "password1": "123", "password2": "123"}
    html = client.post(reverse("account_signup"), form, **asked(language)).content.decode()
    assert WORDS[language]["too_short"] in html
    assert "too short" not in html and "too common" not in html and "entirely numeric" not in html


@pytest.mark.django_db
def test_the_arabic_password_errors_write_the_tanwin_as_the_site_does(client):
    """Django's validators' errors (too short, too common, entirely numeric, too similar) beside
    the site's words write the tanwin before the alif ("جدًا"), never after it ("جداً")."""
    pages = []
    for username, password in [("short_pw", "123"), ("signup_user1", "signup_user1")]:
        form = {"username": username, "email": "s@example.com", "password1": password,
                "password2": password}
        pages.append(client.post(reverse("account_signup"), form, **asked("ar")).content.decode())
    html = "".join(pages)
    for error in ["قصيرة جدًا", "شائعة جدًا", "تتكون من أرقام فقط", "مشابهة جدًا"]:
        assert error in html
    assert "\u0627\u064b" not in html


@pytest.mark.django_db
def test_the_arabic_password_mismatch_error_hides_no_bidi_control(client):
    form = {"username": "two_pw", "email": "t@example.com", "password1": "seven-of-diamonds-77",
            "password2": "seven-of-diamonds-78"}
    html = client.post(reverse("account_signup"), form, **asked("ar")).content.decode()
    assert "يجب عليك كتابة كلمة المرور نفسها في كل مرة." in html
    assert not re.search("[\u202a-\u202e\u2066-\u2069]", html)


@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
def test_password_reset_mail_in_the_readers_language(client, player, language):
    client.post(reverse("account_reset_password"), {"email": player.email}, **asked(language))
    (message,) = mail.outbox
    assert message.subject.startswith(WORDS[language]["subject"])
    assert WORDS[language]["hello"] in message.body


@pytest.mark.django_db
def test_the_arabic_mail_to_an_unknown_address_has_no_stray_latin_letters(client):
    """allauth's mail to an address no account has: Arabic words, and Latin letters only in
    the addresses (the unknown address, the sign-up link, the site's domain)."""
    client.post(reverse("account_reset_password"), {"email": "nobody@example.com"}, **asked("ar"))
    (message,) = mail.outbox
    assert "nobody@example.com" in message.body
    words = re.sub(r"\S+@\S+|https?://\S+|^\S+\.\S+$", "", message.body, flags=re.MULTILINE)
    assert re.findall(r"[A-Za-z]+", words) == []
    assert not re.match(r"\s*O\b", message.body.split("\n\n", 1)[1])


@pytest.mark.django_db
def test_the_arabic_log_in_box_is_labelled_with_what_it_takes(client):
    """A name or an address, not "تسجيل الدخول" (the page's title and button)."""
    html = client.get(reverse("account_login"), **asked("ar")).content.decode()
    (label,) = re.findall(r'<label for="id_login">(.*?)</label>', html, re.S)
    assert label.strip() == "اسم المستخدم أو البريد الإلكتروني:"


@pytest.mark.django_db
def test_the_language_list_offers_french_in_its_own_name(client):
    html = client.get(reverse("account_login"), **asked("ar")).content.decode()
    assert re.search(r"<option value=\"fr\">\s*français\s*</option>", html)
    assert re.search(r"<option value=\"ar\" selected>\s*العربيّة", html)


@pytest.mark.django_db
def test_choosing_french_in_the_list_shows_the_pages_in_french(client):
    client.post(reverse("set_language"), {"language": "fr", "next": "/"})
    html = client.get(reverse("account_login")).content.decode()
    assert '<html lang="fr" dir="ltr">' in html
    assert "Se connecter" in html  # "Log in"
    assert re.search(r"<option value=\"fr\" selected>\s*français", html)
