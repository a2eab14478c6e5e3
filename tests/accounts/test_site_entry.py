"""What a new player met first (issue 10): e-mail-like names, sign-up that tells who is
registered, a huge log-in, and e-mails from "example.com"."""

import pytest
from django.contrib.auth import get_user_model
from django.contrib.sites.models import Site
from django.core import mail
from django.urls import reverse

from accounts.site import sync_site

SIGNUP = {
    "username": "karim",
    "email": "karim@example.com",
    "password1": "seven-of-diamonds-77",
    "password2": "seven-of-diamonds-77",
}


@pytest.mark.django_db
@pytest.mark.parametrize("name", ["karim@example.com", "karim@home", "@karim"])
def test_signup_refuses_a_name_that_looks_like_an_email(client, name):
    response = client.post(reverse("account_signup"), {**SIGNUP, "username": name})
    assert response.status_code == 200
    assert "it would look like an e-mail address" in response.content.decode()
    assert not get_user_model().objects.filter(username=name).exists()


@pytest.mark.django_db
def test_a_full_width_look_alike_of_a_taken_name_is_taken(client, django_user_model):
    """"ａｌｉｃｅ" (full-width letters) beside "alice" is refused as taken: Unicode's
    compatibility form (NFKC) of the name is the name, and the two read alike."""
    django_user_model.objects.create_user("alice", password="seven-of-diamonds-77")
    response = client.post(reverse("account_signup"), {**SIGNUP, "username": "ａｌｉｃｅ"})
    assert response.status_code == 200
    assert not django_user_model.objects.filter(username="ａｌｉｃｅ").exists()
    assert django_user_model.objects.count() == 1


@pytest.mark.django_db
def test_signup_refuses_an_email_like_name_in_arabic(client):
    response = client.post(
        reverse("account_signup"), {**SIGNUP, "username": "karim@example.com"},
        HTTP_ACCEPT_LANGUAGE="ar",
    )
    assert "لا يمكن أن يحتوي الاسم على @" in response.content.decode()


@pytest.mark.django_db
def test_signup_with_a_registered_email_looks_like_any_other(client, player):
    """The default settings: a taken address is not a form error (which would tell anyone who
    is registered); the answer is the same as for a new address, and the owner gets an e-mail."""
    fresh = client.post(reverse("account_signup"), SIGNUP)
    client.logout()
    taken = client.post(
        reverse("account_signup"), {**SIGNUP, "username": "karim2", "email": player.email}
    )
    assert taken.status_code == fresh.status_code == 302
    assert taken["Location"] == fresh["Location"]
    assert not get_user_model().objects.filter(username="karim2").exists()
    to_owner = [message for message in mail.outbox if message.to == [player.email]]
    assert len(to_owner) == 1


@pytest.mark.django_db
def test_a_100000_character_login_is_a_form_error(client, player):
    response = client.post(reverse("account_login"), {"login": "a" * 100_000, "password": "x"})
    assert response.status_code == 200
    assert "at most 254 characters" in response.content.decode()
    response = client.post(
        reverse("account_login"), {"login": "a" * 100_000 + "@example.com", "password": "x"}
    )
    assert response.status_code == 200


@pytest.mark.django_db
def test_emails_name_the_site_from_settings(client, settings):
    settings.BASRA_SITE_NAME = "Basra Club"
    settings.BASRA_SITE_DOMAIN = "basra.test"
    client.post(reverse("account_signup"), SIGNUP)
    (message,) = mail.outbox
    assert "basra.test" in message.body
    assert "Hello from Basra Club!" in message.body
    assert "Thank you for playing Basra Club." in message.body
    assert "example.com" not in message.body
    assert message.subject.startswith("[Basra Club] ")


@pytest.mark.django_db
def test_migrate_feeds_the_site_row_from_settings(settings):
    settings.BASRA_SITE_NAME = "Basra Club"
    settings.BASRA_SITE_DOMAIN = "basra.test"
    sync_site()
    site = Site.objects.get_current()
    assert (site.name, site.domain) == ("Basra Club", "basra.test")


@pytest.mark.django_db
def test_the_site_row_is_not_example_com_after_migrate():
    assert Site.objects.get_current().domain != "example.com"
