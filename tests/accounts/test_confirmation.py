"""The confirmation link: it logs the player in in the browser that signed up; elsewhere it
confirms and the log-in page says why it did not log in; a link used twice, expired, unknown or
for an address another account confirmed is refused with words and changes nothing."""

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.contrib.messages import get_messages
from django.test import Client
from django.urls import reverse

from tests.accounts.helpers import PASSWORD, confirmation_link, sign_up


@pytest.fixture(autouse=True)
def _mandatory(settings):
    settings.ACCOUNT_EMAIL_VERIFICATION = "mandatory"


def texts(response) -> list[str]:
    return [str(m) for m in get_messages(response.wsgi_request)]


@pytest.mark.django_db
def test_the_link_in_the_browser_that_signed_up_logs_the_player_in(client):
    response = sign_up(client, "nour", "nour@example.com")
    assert response.status_code == 302 and response["Location"] == reverse("account_email_verification_sent")
    assert "_auth_user_id" not in client.session
    link = confirmation_link("nour@example.com")
    page = client.get(link)
    assert "Confirm your email" in page.content.decode()
    response = client.post(link)
    assert response.status_code == 302 and response["Location"] == "/"
    user = get_user_model().objects.get(username="nour")
    assert client.session["_auth_user_id"] == str(user.pk)
    assert EmailAddress.objects.get(user=user).verified
    assert any("nour@example.com" in t and "confirmed" in t for t in texts(response))


@pytest.mark.django_db
def test_the_link_in_another_browser_confirms_and_offers_the_log_in(client):
    sign_up(client, "nour", "nour@example.com")
    link = confirmation_link("nour@example.com")
    other = Client()
    response = other.post(link)
    assert response.status_code == 302 and response["Location"] == reverse("account_login")
    assert "_auth_user_id" not in other.session
    assert EmailAddress.objects.get(email="nour@example.com").verified
    said = " ".join(texts(response))
    assert "is confirmed" in said and "not the one you signed up in" in said
    # and the log-in it offers works
    response = other.post(reverse("account_login"), {"login": "nour", "password": PASSWORD})
    assert response.status_code == 302
    assert "_auth_user_id" in other.session


@pytest.mark.django_db
def test_the_link_used_twice_logs_nobody_in_the_second_time(client):
    sign_up(client, "nour", "nour@example.com")
    link = confirmation_link("nour@example.com")
    client.post(link)
    stranger = Client()
    html = stranger.get(link).content.decode()
    assert "This link has expired, was already used, or is not a confirmation link." in html
    assert stranger.post(link).status_code == 404
    assert "_auth_user_id" not in stranger.session


@pytest.mark.django_db
@pytest.mark.parametrize("key", ["not-a-key", "MQ:1tXXXX:abcdefghijklmnopqrstuvwxyz0"])
def test_an_unknown_or_forged_link_says_so_and_changes_nothing(client, key):
    sign_up(client, "nour", "nour@example.com")
    response = client.get(reverse("account_confirm_email", args=[key]))
    html = response.content.decode()
    assert "This link has expired, was already used, or is not a confirmation link." in html
    response = client.post(reverse("account_confirm_email", args=[key]))
    assert response.status_code == 404
    assert not EmailAddress.objects.get(email="nour@example.com").verified


@pytest.mark.django_db
def test_an_expired_link_says_so_and_changes_nothing(client, settings):
    sign_up(client, "nour", "nour@example.com")
    link = confirmation_link("nour@example.com")
    settings.ACCOUNT_EMAIL_CONFIRMATION_EXPIRE_DAYS = -1
    html = client.get(link).content.decode()
    assert "This link has expired, was already used, or is not a confirmation link." in html
    assert not EmailAddress.objects.get(email="nour@example.com").verified
    assert "_auth_user_id" not in client.session


@pytest.mark.django_db
def test_a_link_for_another_account_logs_the_visitor_out_and_not_in(client, player):
    """Opened while logged in as another player: allauth logs that player out (the link is not
    theirs) and confirms the address; nobody is logged in to the link's account."""
    sign_up(Client(), "nour", "nour@example.com")
    link = confirmation_link("nour@example.com")
    client.force_login(player)
    response = client.post(link)
    assert "_auth_user_id" not in client.session
    assert response.status_code == 302
    assert EmailAddress.objects.get(email="nour@example.com").verified


@pytest.mark.django_db
def test_a_link_for_an_address_another_account_confirmed_is_refused(client, player):
    """amira confirmed amira@example.com; a second account's unconfirmed row of the same
    address cannot be confirmed."""
    other = get_user_model().objects.create_user("zaid", password=PASSWORD)
    row = EmailAddress.objects.create(user=other, email="amira@example.com", verified=False)
    from allauth.account.models import EmailConfirmationHMAC
    key = EmailConfirmationHMAC(row).key
    html = client.get(reverse("account_confirm_email", args=[key])).content.decode()
    assert "is already confirmed by another account" in html
    assert not EmailAddress.objects.get(pk=row.pk).verified
