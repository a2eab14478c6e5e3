"""Closing an account (accounts/closing.py, the owner's page accounts/views.py ``close``): the
password confirms it; the name stays taken and reserved; sessions and tokens end; the profile
says "Closed account"; nobody can challenge it; a wrong password or a second closing changes
nothing."""

import pytest
from allauth.account.models import EmailAddress
from allauth.socialaccount.models import SocialAccount, SocialApp, SocialToken
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from accounts.closing import AlreadyClosed, account_closed, account_closing, close_account
from accounts.models import Closure
from tests.accounts.helpers import sign_up

pytestmark = pytest.mark.django_db


def logged_in(user, password) -> Client:
    client = Client()
    assert client.login(username=user.username, password=password)
    return client


def test_the_page_says_what_happens_before_asking_the_password(client, player):
    client.force_login(player)
    html = client.get(reverse("account_close")).content.decode()
    assert "A match you are playing is resigned: your side loses it." in html
    assert "You are withdrawn from your tournaments" in html
    assert "Your name stays reserved" in html
    assert 'type="password"' in html and 'name="password"' in html


def test_the_page_needs_a_log_in(client):
    response = client.get(reverse("account_close"))
    assert response.status_code == 302 and reverse("account_login") in response["Location"]


def test_a_wrong_password_changes_nothing(client, player):
    client.force_login(player)
    response = client.post(reverse("account_close"), {"password": "not-it"})
    assert response.status_code == 400
    assert "That is not your password. Your account stays open." in response.content.decode()
    player.refresh_from_db()
    assert player.is_active and player.has_usable_password()
    assert not Closure.objects.exists()
    assert "_auth_user_id" in client.session


def test_without_csrf_the_closing_is_refused(player, password):
    client = Client(enforce_csrf_checks=True)
    client.force_login(player)
    assert client.post(reverse("account_close"), {"password": password}).status_code == 403
    player.refresh_from_db()
    assert player.is_active


def test_the_owner_closes_with_the_password_and_every_session_ends(client, player, password):
    elsewhere = logged_in(player, password)
    client.force_login(player)
    response = client.post(reverse("account_close"), {"password": password})
    assert response.status_code == 302 and response["Location"] == reverse("lobby")
    player.refresh_from_db()
    assert not player.is_active and not player.has_usable_password()
    closure = Closure.objects.get(user=player)
    assert closure.by == player and closure.reason == "owner"
    assert "_auth_user_id" not in client.session
    # the other browser's session no longer logs anyone in
    response = elsewhere.get(reverse("account_close"))
    assert response.status_code == 302 and not response.wsgi_request.user.is_authenticated
    # the row stays: the name is kept
    assert get_user_model().objects.filter(username="amira").count() == 1


def test_a_closed_account_cannot_log_in(player, password):
    close_account(player, by=player, reason="owner")
    response = Client().post(reverse("account_login"), {"login": "amira", "password": password})
    assert "_auth_user_id" not in response.wsgi_request.session


def test_the_name_stays_reserved_with_its_look_alikes(client, player):
    close_account(player, by=player, reason="owner")
    for name in ("amira", "AMIRA", "аmira"):  # the last with a Cyrillic а
        response = sign_up(client, name, f"x{len(name)}{name.isascii()}@example.com")
        assert response.status_code == 200, name
        assert get_user_model().objects.filter(username=name).exclude(pk=player.pk).count() == 0


def test_the_profile_says_closed_account(client, player):
    close_account(player, by=player, reason="owner")
    response = client.get(reverse("profile", args=["amira"]))
    assert response.status_code == 410
    html = response.content.decode()
    assert "Closed account" in html and "profile.sections" not in html


def test_a_moderator_closes_with_a_reason_and_a_second_closing_is_refused(player, admin_user):
    close_account(player, by=admin_user, reason="cheating")
    closure = Closure.objects.get(user=player)
    assert (closure.by, closure.reason) == (admin_user, "cheating")
    received = []
    account_closing.connect(lambda **kw: received.append(kw), weak=False, dispatch_uid="t.closing")
    try:
        with pytest.raises(AlreadyClosed):
            close_account(player, by=admin_user, reason="again")
    finally:
        account_closing.disconnect(dispatch_uid="t.closing")
    assert received == [] and Closure.objects.count() == 1


def test_the_signals_carry_who_and_why_and_closed_follows_the_commit(player, django_capture_on_commit_callbacks):
    seen = []
    account_closing.connect(lambda sender, user, **kw: seen.append(("closing", user.is_active, kw["by"], kw["reason"])),
                            weak=False, dispatch_uid="t.a")
    account_closed.connect(lambda sender, user, **kw: seen.append(("closed", user.is_active)),
                           weak=False, dispatch_uid="t.b")
    try:
        with django_capture_on_commit_callbacks(execute=True):
            close_account(player, by=player, reason="owner")
    finally:
        account_closing.disconnect(dispatch_uid="t.a")
        account_closed.disconnect(dispatch_uid="t.b")
    assert seen == [("closing", True, player, "owner"), ("closed", False)]


def test_a_receiver_that_refuses_leaves_the_account_open(player):
    def refuse(**kwargs):
        raise RuntimeError("not now")

    account_closing.connect(refuse, weak=False, dispatch_uid="t.refuse")
    try:
        with pytest.raises(RuntimeError):
            close_account(player, by=player, reason="owner")
    finally:
        account_closing.disconnect(dispatch_uid="t.refuse")
    player.refresh_from_db()
    assert player.is_active and player.has_usable_password() and not Closure.objects.exists()


def test_tokens_end_confirmations_and_social_tokens(player):
    from allauth.account.models import EmailConfirmation

    row = EmailAddress.objects.create(user=player, email="second@example.com")
    EmailConfirmation.create(row)
    app = SocialApp.objects.create(provider="google", name="g", client_id="id", secret="s")
    account = SocialAccount.objects.create(user=player, provider="google", uid="123")
    SocialToken.objects.create(app=app, account=account, token="tok")
    close_account(player, by=player, reason="owner")
    assert not EmailConfirmation.objects.filter(email_address__user=player).exists()
    assert not SocialToken.objects.filter(account__user=player).exists()


def test_an_account_without_a_password_confirms_with_its_name(client, player):
    player.set_unusable_password()
    player.save()
    client.force_login(player)
    html = client.get(reverse("account_close")).content.decode()
    assert 'name="name"' in html and 'name="password"' not in html
    assert client.post(reverse("account_close"), {"name": "Amira"}).status_code == 400
    player.refresh_from_db()
    assert player.is_active
    assert client.post(reverse("account_close"), {"name": "amira"}).status_code == 302
    player.refresh_from_db()
    assert not player.is_active


def test_a_password_reset_cannot_reopen_a_closed_account(client, player):
    from django.core import mail

    close_account(player, by=player, reason="owner")
    response = client.post(reverse("account_reset_password"), {"email": player.email})
    assert response.status_code == 302  # the same answer as for any address
    assert not any("/accounts/password/reset/key/" in m.body for m in mail.outbox)


def test_an_empty_form_says_the_password_is_needed(client, player):
    client.force_login(player)
    response = client.post(reverse("account_close"), {})
    assert response.status_code == 400 and "This field is required." in response.content.decode()
    player.refresh_from_db()
    assert player.is_active
