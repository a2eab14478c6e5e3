"""Tokens: hashed, shown once, scoped, revocable, never from an address, never logged."""

from __future__ import annotations

import logging
from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from games.api import tokens
from games.api.models import SCOPES, AccessToken
from tests.api.helpers import account, bearer, call, error_code

pytestmark = pytest.mark.django_db


def test_only_the_hash_is_stored():
    user, token = account("alice")
    row = AccessToken.objects.get(user=user)
    assert row.digest == tokens.digest(token) != token
    stored = [str(v) for v in AccessToken.objects.values_list().get()]
    assert not any(token in value for value in stored)
    assert token.startswith(tokens.PREFIX) and len(token) > 40


def test_a_live_token_reads_the_account_and_its_last_use_is_kept():
    user, token = account("alice")
    answer = call("get", "/api/account", token)
    assert answer.status_code == 200
    assert answer.json()["username"] == "alice"
    assert AccessToken.objects.get(user=user).last_used_at is not None


@pytest.mark.parametrize("header", [None, "Bearer nope", "Basic abc", "Bearer "])
def test_no_or_a_bad_token_is_unauthorized(header):
    account("alice")
    headers = {"Authorization": header} if header else {}
    answer = Client().get("/api/account", headers=headers)
    assert answer.status_code == 401
    assert error_code(answer) == "unauthorized"


def test_a_revoked_token_is_refused():
    user, token = account("alice")
    assert tokens.revoke(user, AccessToken.objects.get(user=user).pk)
    assert call("get", "/api/account", token).status_code == 401


def test_an_expired_token_is_refused():
    user, token = account("alice")
    AccessToken.objects.filter(user=user).update(expires_at=timezone.now() - timedelta(seconds=1))
    assert call("get", "/api/account", token).status_code == 401


def test_a_closed_account_s_token_is_refused():
    user, token = account("alice")
    user.is_active = False
    user.save()
    assert call("get", "/api/account", token).status_code == 401


def test_a_token_without_the_scope_is_refused_and_nothing_made():
    _user, token = account("alice", "follow:read")
    answer = call("post", "/api/challenge/ai", token, {"level": "greedy"})
    assert answer.status_code == 403
    assert error_code(answer) == "missing_scope"
    from games.core.for_apps import Match

    assert not Match.objects.exists()


@pytest.mark.parametrize("name", ["token", "access_token"])
def test_a_token_in_the_address_is_refused_and_never_logged(name, caplog):
    _user, token = account("alice")
    with caplog.at_level(logging.DEBUG):
        answer = Client().get(f"/api/account?{name}={token}")
        also = Client().get(f"/api/user/alice?{name}={token}", headers=bearer(token))
    assert answer.status_code == also.status_code == 400
    assert error_code(answer) == "token_in_query"
    for record in caplog.records:
        assert token not in record.getMessage()


def test_a_token_in_the_header_is_never_logged(caplog):
    _user, token = account("alice", "follow:read")
    with caplog.at_level(logging.DEBUG):
        call("get", "/api/account", token)
        call("post", "/api/challenge/ai", token)  # refused: missing_scope, logged as a 403
        call("get", "/api/account", token + "x")  # refused: unauthorized
    assert caplog.records  # the refusals were logged, without the token
    for record in caplog.records:
        assert token not in record.getMessage()


def test_create_token_prints_one_working_token_with_every_scope_or_those_named():
    account("alice")
    out = StringIO()
    call_command("create_token", "alice", stdout=out)
    lines = out.getvalue().splitlines()
    assert len(lines) == 1
    assert call("get", "/api/account", lines[0]).status_code == 200
    assert AccessToken.objects.get(digest=tokens.digest(lines[0])).scopes == list(SCOPES)
    out = StringIO()
    call_command("create_token", "alice", "--scope", "bot:play", stdout=out)
    assert AccessToken.objects.get(digest=tokens.digest(out.getvalue().strip())).scopes == ["bot:play"]


def test_the_settings_page_creates_shows_once_lists_and_revokes():
    user, _token = account("alice")
    client = Client()
    client.force_login(user)
    made = client.post("/account/api-tokens/", {"description": "my bot", "scopes": ["bot:play", "challenge:read"]})
    assert made.status_code == 200
    new = made.context["new_token"]
    assert new and new in made.content.decode()
    assert call("get", "/api/account", new).status_code == 200
    listed = client.get("/account/api-tokens/").content.decode()
    assert new not in listed  # shown once
    assert "my bot" in listed and "challenge:read" in listed and "bot:play" in listed
    row = AccessToken.objects.get(digest=tokens.digest(new))
    assert row.scopes == ["challenge:read", "bot:play"]
    client.post(f"/account/api-tokens/{row.pk}/revoke/")
    assert call("get", "/api/account", new).status_code == 401


def test_nobody_revokes_another_s_token():
    alice, token = account("alice")
    bob, _ = account("bob")
    client = Client()
    client.force_login(bob)
    client.post(f"/account/api-tokens/{AccessToken.objects.get(user=alice).pk}/revoke/")
    assert call("get", "/api/account", token).status_code == 200


def test_the_settings_page_needs_a_log_in_and_csrf():
    assert Client().get("/account/api-tokens/").status_code == 302
    user, _ = account("alice")
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    assert client.post("/account/api-tokens/", {"scopes": ["bot:play"]}).status_code == 403


def test_one_s_own_profile_links_to_the_tokens_page_and_nobody_else_s():
    alice, _ = account("alice")
    bob, _ = account("bob")
    client = Client()
    client.force_login(alice)
    assert "/account/api-tokens/" in client.get("/players/alice/").content.decode()
    assert "/account/api-tokens/" not in client.get("/players/bob/").content.decode()


def test_the_settings_page_links_to_the_tokens_page_for_a_signed_in_player():
    """The tokens page is found where a player looks for it: among the settings page's "More
    settings" (the ``settings.links`` slot), which ``/settings/`` leads to."""
    alice, _ = account("alice")
    client = Client()
    client.force_login(alice)
    assert client.get("/settings/", follow=True).redirect_chain == [("/settings/profile/", 302)]
    page = client.get("/settings/profile/").content.decode()
    assert 'class="api-settings-link"><a href="/account/api-tokens/">API tokens</a>' in page


def test_the_scopes_are_labelled_in_the_reader_s_language():
    """The form's scope labels are those of each request's language (French's no-break space
    before the colon included), not of the language active when the server started."""
    user, _token = account("amira")
    client = Client()
    client.force_login(user)
    english = client.get("/account/api-tokens/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "bot:play: Play as a bot account (Bot API)" in english
    french = client.get("/account/api-tokens/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "bot:play\u00a0: Jouer comme compte bot (API Bot)" in french
