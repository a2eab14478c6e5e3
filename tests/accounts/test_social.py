"""Social log-in (Google, Facebook, Apple through allauth's providers, on only when their keys
are set: basra_site/settings.py ``social_providers``): the name is chosen at the first log-in
under the sign-up's rules; a provider's error, a missing e-mail and an address already
registered are handled with words, nothing stored wrong. The providers' endpoints are answered
by tests/accounts/social.py."""

import pytest
from allauth.account.models import EmailAddress
from allauth.socialaccount.models import SocialAccount
from django.contrib.auth import get_user_model
from django.core import mail
from django.urls import reverse

from basra_site.settings import social_providers
from tests.accounts.social import (
    apple_routes,
    facebook_routes,
    google_routes,
    log_in_with,
    provider_answers,
)

pytestmark = pytest.mark.django_db

GOOGLE_PROFILE = {"sub": "g-1001", "email": "layla@gmail.example", "email_verified": True,
                  "name": "Layla Hassan", "given_name": "Layla"}


def choose_name(client, username, email=GOOGLE_PROFILE["email"]):
    """The first log-in's form as the page fills it: the provider's address in its box."""
    return client.post(reverse("socialaccount_signup"), {"username": username, "email": email})


def users_named(name):
    return list(get_user_model().objects.filter(username=name))


def test_each_provider_is_on_only_with_all_its_keys():
    assert social_providers({}) == {}
    assert set(social_providers({"BASRA_GOOGLE_CLIENT_ID": "id", "BASRA_GOOGLE_SECRET": "s"})) == {"google"}
    assert social_providers({"BASRA_GOOGLE_CLIENT_ID": "id", "BASRA_GOOGLE_SECRET": " "}) == {}
    assert set(social_providers({"BASRA_FACEBOOK_APP_ID": "a", "BASRA_FACEBOOK_SECRET": "s"})) == {"facebook"}
    apple = {"BASRA_APPLE_CLIENT_ID": "c", "BASRA_APPLE_KEY_ID": "k", "BASRA_APPLE_TEAM_ID": "t",
             "BASRA_APPLE_PRIVATE_KEY": "-----BEGIN PRIVATE KEY-----\\nabc\\n-----END PRIVATE KEY-----"}
    assert social_providers({**apple, "BASRA_APPLE_TEAM_ID": ""}) == {}
    app = social_providers(apple)["apple"]["APPS"][0]
    assert (app["client_id"], app["secret"], app["key"]) == ("c", "k", "t")
    assert app["settings"]["certificate_key"].count("\n") == 2  # "\n" in the variable: new lines


def test_the_log_in_page_offers_the_providers_that_are_on(client):
    html = client.get(reverse("account_login")).content.decode()
    for name in ("Google", "Facebook", "Apple"):
        assert name in html
    assert "Or continue with" in html


def test_a_google_log_in_asks_for_a_name_then_creates_the_account_logged_in(client):
    with provider_answers(google_routes(GOOGLE_PROFILE)) as asked:
        response = log_in_with(client, "google")
    assert asked == ["https://oauth2.googleapis.com/token"]
    assert response.status_code == 302 and response["Location"] == reverse("socialaccount_signup")
    html = client.get(reverse("socialaccount_signup")).content.decode()
    assert "Choose your name" in html and 'maxlength="24"' in html
    response = choose_name(client, "layla")
    assert response.status_code == 302
    (user,) = users_named("layla")
    assert client.session["_auth_user_id"] == str(user.pk)
    assert SocialAccount.objects.get(user=user).uid == "g-1001"
    assert EmailAddress.objects.get(user=user).verified  # Google said it is
    assert not user.has_usable_password()
    # the second time, no question: logged in at once
    client.logout()
    with provider_answers(google_routes(GOOGLE_PROFILE)):
        response = log_in_with(client, "google")
    assert response.status_code == 302 and response["Location"] == "/"
    assert client.session["_auth_user_id"] == str(user.pk)


@pytest.mark.parametrize(("name", "says"), [
    ("admin", "This name is reserved."),
    ("аmira", "looks too much like a player"),  # a Cyrillic а
    ("AMIRA", "A user with that username already exists."),
    ("a" * 25, "at most 24 characters"),
])
def test_the_name_follows_the_sign_up_rules(client, player, name, says):
    with provider_answers(google_routes(GOOGLE_PROFILE)):
        log_in_with(client, "google")
    response = choose_name(client, name)
    assert response.status_code == 200
    assert says in response.content.decode()
    assert not SocialAccount.objects.exists()
    assert get_user_model().objects.count() == 1  # amira alone


def test_an_address_already_registered_is_not_taken_over(client, player):
    """Google gives amira's address: no account is made, amira's is neither logged in to nor
    connected, and the page says only "check your email" (allauth's enumeration prevention, as
    at sign-up: nobody learns the address is registered); amira is told by e-mail."""
    with provider_answers(google_routes({**GOOGLE_PROFILE, "email": player.email})):
        response = log_in_with(client, "google")
    assert response["Location"] == reverse("socialaccount_signup")
    response = choose_name(client, "layla", email=player.email)
    assert response.status_code == 302
    assert "Check your email" in client.get(response["Location"]).content.decode()
    assert "_auth_user_id" not in client.session
    assert not SocialAccount.objects.exists()
    assert list(get_user_model().objects.values_list("username", flat=True)) == ["amira"]
    assert [m.to for m in mail.outbox] == [[player.email]]


def test_a_provider_error_logs_nobody_in_and_says_so(client):
    with provider_answers({"https://oauth2.googleapis.com/token": (400, {"error": "invalid_grant"})}):
        response = log_in_with(client, "google")
    html = response.content.decode()
    assert "Log-in failed" in html and "nothing was saved" in html
    assert "_auth_user_id" not in client.session and not SocialAccount.objects.exists()


def test_a_refusal_at_the_provider_is_a_cancelled_log_in(client):
    with provider_answers({}):
        response = log_in_with(client, "google", error="access_denied")
    assert response.status_code in (200, 302)
    if response.status_code == 302:
        response = client.get(response["Location"])
    assert "Log-in cancelled" in response.content.decode()
    assert not SocialAccount.objects.exists()


def test_a_state_that_is_not_ours_is_refused(client):
    with provider_answers(google_routes(GOOGLE_PROFILE)):
        client.post(reverse("google_login"))
        response = client.get(reverse("google_callback"), {"code": "c", "state": "forged"})
    assert "Log-in failed" in response.content.decode()
    assert not SocialAccount.objects.exists()


def test_facebook_without_an_email_asks_for_one_and_confirms_it(client):
    with provider_answers(facebook_routes({"id": "f-77", "name": "Omar"})):
        response = log_in_with(client, "facebook")
    assert response["Location"] == reverse("socialaccount_signup")
    response = choose_name(client, "omar", email="")
    assert response.status_code == 200 and "This field is required." in response.content.decode()
    assert users_named("omar") == []
    response = choose_name(client, "omar", email="omar@example.com")
    assert response.status_code == 302 and response["Location"] == reverse("account_email_verification_sent")
    (user,) = users_named("omar")
    assert not EmailAddress.objects.get(user=user).verified
    assert any("omar@example.com" in m.to for m in mail.outbox)
    assert "_auth_user_id" not in client.session  # mandatory confirmation first


def test_an_apple_log_in_checks_apples_signature_and_creates_the_account(client):
    claims = {"sub": "apple-42", "email": "rana@privaterelay.example", "email_verified": "true"}
    with provider_answers(apple_routes(claims)) as asked:
        response = log_in_with(client, "apple")
    assert "https://appleid.apple.com/auth/keys" in asked
    assert response["Location"] == reverse("socialaccount_signup")
    assert choose_name(client, "rana", email=claims["email"]).status_code == 302
    (user,) = users_named("rana")
    assert SocialAccount.objects.get(user=user, provider="apple").uid == "apple-42"
    assert client.session["_auth_user_id"] == str(user.pk)


def test_an_apple_token_signed_by_another_key_is_refused(client):
    from cryptography.hazmat.primitives.asymmetric import rsa

    from tests.accounts import social

    routes = apple_routes({"sub": "apple-42", "email": "rana@privaterelay.example"})
    forged = social.id_token({"sub": "apple-42"}, issuer="https://appleid.apple.com",
                             audience="org.example.basra",
                             key=rsa.generate_private_key(public_exponent=65537, key_size=2048),
                             kid="test-apple-kid")
    routes[social.APPLE_TOKEN] = (200, {"access_token": "a", "id_token": forged})
    with provider_answers(routes):
        response = log_in_with(client, "apple")
    assert "Log-in failed" in response.content.decode()
    assert not SocialAccount.objects.exists()


def test_the_policy_lets_the_log_in_form_go_on_to_the_providers(client):
    """The provider's button posts here and is redirected to the provider's page: the
    Content-Security-Policy's form-action must allow it, or the browser stays on the page."""
    policy = client.get(reverse("google_login"))["Content-Security-Policy"]
    form_action = policy.split("form-action")[1].split(";")[0]
    for origin in ("https://accounts.google.com", "https://www.facebook.com", "https://appleid.apple.com"):
        assert origin in form_action
