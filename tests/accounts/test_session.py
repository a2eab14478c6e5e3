"""Log in and out, change a forgotten or known password, all through allauth's pages."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client
from django.urls import reverse

NEW_PASSWORD = "ace-of-spades-takes-all"
#: The change-password page's refusal of the current password as the new one, per language.
SAME_PASSWORD = {
    "en": "The new password must differ from the current one.",
    "ar": "يجب أن تختلف كلمة المرور الجديدة عن كلمة المرور الحالية.",
    "fr": "Le nouveau mot de passe doit différer du mot de passe actuel.",
}


def csrf_client() -> Client:
    """A client that, like a browser, must send the CSRF token it was given."""
    client = Client(enforce_csrf_checks=True)
    client.get(reverse("account_login"))
    return client


@pytest.mark.django_db
@pytest.mark.parametrize("login", ["amira", "amira@example.com"])
def test_log_in_with_username_or_email(player, password, login):
    client = csrf_client()
    response = client.post(
        reverse("account_login"),
        {"login": login, "password": password, "csrfmiddlewaretoken": client.cookies["csrftoken"].value},
    )
    assert response.status_code == 302
    assert client.session["_auth_user_id"] == str(player.pk)


@pytest.mark.django_db
def test_log_in_with_wrong_password_fails(client, player):
    response = client.post(reverse("account_login"), {"login": "amira", "password": "wrong"})
    assert response.status_code == 200
    assert "_auth_user_id" not in client.session


@pytest.mark.django_db
def test_log_out_is_a_post_with_csrf(player):
    client = csrf_client()
    client.force_login(player)

    # GET only shows the confirmation form: a link or an <img> cannot log anyone out.
    page = client.get(reverse("account_logout"))
    assert page.status_code == 200
    assert client.session["_auth_user_id"] == str(player.pk)

    # A cross-site POST without the token is refused.
    assert client.post(reverse("account_logout")).status_code == 403
    assert client.session["_auth_user_id"] == str(player.pk)

    token = client.cookies["csrftoken"].value
    response = client.post(reverse("account_logout"), {"csrfmiddlewaretoken": token})
    assert response.status_code == 302
    assert "_auth_user_id" not in client.session


@pytest.mark.django_db
def test_password_change(client, player, password):
    client.force_login(player)
    page = client.get(reverse("account_change_password"))
    assert page.status_code == 200
    assert 'class="site-header"' in page.content.decode()

    response = client.post(
        reverse("account_change_password"),
        {"oldpassword": password, "password1": NEW_PASSWORD, "password2": NEW_PASSWORD},
    )
    assert response.status_code == 302
    player.refresh_from_db()
    assert player.check_password(NEW_PASSWORD)
    # Still signed in after the change (the session hash was updated).
    assert client.session["_auth_user_id"] == str(player.pk)


@pytest.mark.django_db
def test_password_change_needs_the_old_password(client, player, password):
    client.force_login(player)
    response = client.post(
        reverse("account_change_password"),
        {"oldpassword": "not-it", "password1": NEW_PASSWORD, "password2": NEW_PASSWORD},
    )
    assert response.status_code == 200
    player.refresh_from_db()
    assert player.check_password(password)


@pytest.mark.django_db
@pytest.mark.parametrize("language", SAME_PASSWORD)
def test_password_change_refuses_the_current_password(client, player, password, language):
    client.force_login(player)
    client.cookies["django_language"] = language
    stored = player.password
    response = client.post(
        reverse("account_change_password"),
        {"oldpassword": password, "password1": password, "password2": password},
    )
    assert response.status_code == 200
    assert SAME_PASSWORD[language] in response.content.decode()
    player.refresh_from_db()
    # Not even hashed again with a new salt: nothing changed.
    assert player.password == stored


@pytest.mark.django_db
def test_password_change_requires_login(client):
    response = client.get(reverse("account_change_password"))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("account_login"))


@pytest.mark.django_db
def test_password_reset_by_email(client, player):
    response = client.post(reverse("account_reset_password"), {"email": "amira@example.com"})
    assert response.status_code == 302
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["amira@example.com"]
    assert message.subject.startswith("[Basra] ")
    assert "Hello from Basra!" in message.body

    link = re.search(r"https?://testserver(/accounts/password/reset/key/\S+/)", message.body)
    assert link, message.body
    # allauth moves the key into the session and redirects to a key-less URL.
    form_page = client.get(link.group(1), follow=True)
    assert form_page.status_code == 200
    assert 'name="password1"' in form_page.content.decode()
    assert "Save the new password" in form_page.content.decode()
    form_url = form_page.redirect_chain[-1][0]

    done = client.post(form_url, {"password1": NEW_PASSWORD, "password2": NEW_PASSWORD})
    assert done.status_code == 302
    player.refresh_from_db()
    assert player.check_password(NEW_PASSWORD)

    # The link works once only.
    again = client.get(link.group(1), follow=True)
    assert 'name="password1"' not in again.content.decode()


@pytest.mark.django_db
def test_an_account_without_a_password_sets_its_first_one(client, player):
    player.set_unusable_password()
    player.save()
    client.force_login(player)
    page = client.get(reverse("account_set_password")).content.decode()
    assert 'name="password1"' in page and "Save the password" in page
    assert "csrfmiddlewaretoken" in page
    done = client.post(reverse("account_set_password"), {"password1": NEW_PASSWORD, "password2": NEW_PASSWORD})
    assert done.status_code == 302
    player.refresh_from_db()
    assert player.check_password(NEW_PASSWORD)


@pytest.mark.django_db
def test_password_reset_for_unknown_address_sends_no_reset_link(client, player, password):
    client.post(reverse("account_reset_password"), {"email": "nobody@example.com"})
    assert all("/password/reset/key/" not in m.body for m in mail.outbox)
    assert get_user_model().objects.get(pk=player.pk).check_password(password)
