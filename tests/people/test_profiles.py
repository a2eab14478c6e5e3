"""Profiles of their own (games/people/profiles.py, the settings page): the bio is plain text
of 400 characters, never markup; a country shows its flag; an avatar of the shipped set; the
preferred language is kept and applied at log-in; bad input is refused and nothing is saved."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.contrib.staticfiles import finders
from django.test import Client
from django.urls import reverse

from games.people import profiles
from games.people.models import Profile
from tests.people.helpers import users

pytestmark = [pytest.mark.django_db]


def client_of(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def post(client, **fields):
    data = {"bio": "", "country": "", "avatar": "", "language": "", "challenges": "everyone",
            "online": "everyone", "notify_rated": "on", "notify_tournament": "on"} | fields
    return client.post(reverse("people_settings"), data)


@pytest.mark.parametrize("bio, code", [
    ("x" * 100_000, "bio_too_long"),
    ("x" * 401, "bio_too_long"),
    ("<script>alert(1)</script>", "bio_markup"),
    ("hi <b>there</b>", "bio_markup"),
    ("abc\u202edcba", "bio_bidi"),
    ("abc\u2066x\u2069", "bio_bidi"),
    ("a\x07b", "bio_control"),
])
def test_a_bad_bio_is_refused_with_its_reason(bio, code):
    with pytest.raises(Exception) as info:
        profiles.clean_bio(bio)
    assert info.value.code == code


def test_a_bad_bio_post_saves_nothing_and_says_why():
    (a,) = users("a")
    client = client_of(a)
    for bio in ("x" * 100_000, "<img src=x onerror=alert(1)>", "a\u202eb", "a\x00b"):
        response = post(client, bio=bio, country="EG")
        assert response.status_code == 400
        assert not Profile.objects.filter(user=a).exists()
        assert b"errorlist" in response.content


def test_a_good_profile_is_saved_and_shown_as_text():
    a, b = users("a", "b")
    bio = "Player from Cairo. 1 < 2 and a > b.\nسلام"
    response = post(client_of(a), bio=bio, country="EG", avatar="moon", challenges="friends", online="nobody")
    assert response.status_code == 302
    profile = Profile.objects.get(user=a)
    assert (profile.bio, profile.country, profile.avatar, profile.challenges, profile.online) == (
        bio, "EG", "moon", "friends", "nobody")
    page = client_of(b).get(reverse("profile", args=["a"])).content.decode()
    assert "1 &lt; 2 and a &gt; b.<br>سلام" in page
    assert profiles.flag("EG") in page and "people/avatars/moon.svg" in page


def test_unknown_choices_are_refused():
    (a,) = users("a")
    client = client_of(a)
    for fields in ({"country": "XX"}, {"avatar": "../../etc/passwd"}, {"language": "de"},
                   {"challenges": "enemies"}):
        assert post(client, **fields).status_code == 400
    assert not Profile.objects.exists()


def test_every_avatar_is_shipped_and_every_country_has_a_flag():
    for name in profiles.AVATARS:
        assert finders.find(f"people/avatars/{name}.svg"), name
    codes = [code for code, _name in profiles.countries("ar")]
    assert "EG" in codes and "SA" in codes and "EU" not in codes and len(codes) > 240
    assert profiles.flag("EG") == "\U0001F1EA\U0001F1EC"


def test_the_preferred_language_is_applied_at_log_in():
    (a,) = users("a")
    a.set_password("pw-long-enough-1")
    a.save()
    from allauth.account.models import EmailAddress

    EmailAddress.objects.create(user=a, email=a.email, verified=True, primary=True)
    post(client_of(a), language="ar")
    fresh = Client()
    response = fresh.post(reverse("account_login"), {"login": "a", "password": "pw-long-enough-1"})
    assert response.status_code == 302
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == "ar"
    assert 'lang="ar"' in fresh.get(reverse("lobby")).content.decode()


def test_the_header_s_language_choice_is_kept_on_the_account():
    (a,) = users("a")
    client = client_of(a)
    client.post(reverse("set_language"), {"language": "ar", "next": "/"})
    assert Profile.objects.get(user=a).language == "ar"
    client.post(reverse("set_language"), {"language": "xx", "next": "/"})  # not a language: kept
    assert Profile.objects.get(user=a).language == "ar"
    Client().post(reverse("set_language"), {"language": "en", "next": "/"})  # anonymous: nothing
    assert Profile.objects.count() == 1


def test_the_countries_sort_as_the_reader_expects():
    names = [name for _code, name in profiles.countries("fr")]
    assert names.index("Danemark") < names.index("Égypte") < names.index("Espagne") < names.index("France")
    assert names[-1] == "Zimbabwe"


def test_a_bio_keeps_at_most_one_blank_line_in_a_row():
    assert profiles.clean_bio("a  \r\n\r\n\r\n\n\n\nb\n \n \nc\n\n") == "a\n\nb\n\nc"
    assert profiles.clean_bio("a\n\nb\nc") == "a\n\nb\nc"
