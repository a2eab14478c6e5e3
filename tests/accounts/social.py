"""The providers' endpoints answered by the tests: allauth's social log-in speaks to Google,
Facebook and Apple through ``requests`` sessions (``SocialAccountAdapter.get_requests_session``),
and the installed allauth ships no helpers to fake them, so :func:`provider_answers` patches
``requests.Session.request`` (every ``get`` and ``post`` goes through it) with answers by URL.

:func:`log_in_with` runs the browser's part of the flow through Django's test client: the POST
that starts the log-in (the provider's authorize URL, with its ``state``), then the provider's
return to the callback with a ``code``.
"""

from __future__ import annotations

import contextlib
import json
import time
import uuid
from collections.abc import Iterator
from unittest import mock
from urllib.parse import parse_qs, urlparse

import jwt
import requests
from allauth.socialaccount.providers.facebook.constants import GRAPH_API_URL
from cryptography.hazmat.primitives.asymmetric import rsa
from django.conf import settings
from django.urls import reverse

GOOGLE_TOKEN = "https://oauth2.googleapis.com/token"
APPLE_TOKEN = "https://appleid.apple.com/auth/token"
APPLE_KEYS = "https://appleid.apple.com/auth/keys"

#: Apple signs its id_token; the tests' Apple signs with this key and publishes it at APPLE_KEYS.
_APPLE_KEY = rsa.generate_private_key(public_exponent=65537, key_size=2048)
_APPLE_KID = "test-apple-kid"


def answer(status: int, body: dict) -> requests.Response:
    response = requests.Response()
    response.status_code = status
    response._content = json.dumps(body).encode()
    response.headers["content-type"] = "application/json"
    response.encoding = "utf-8"
    return response


@contextlib.contextmanager
def provider_answers(routes: dict[str, tuple[int, dict]]) -> Iterator[list[str]]:
    """Answer each request whose URL starts with a key of ``routes`` with its ``(status,
    JSON body)``; any other URL fails the test (nothing reaches the network). Yields the URLs
    asked, in order."""
    asked: list[str] = []

    def request(self, method, url, *args, **kwargs):
        asked.append(url)
        for prefix, (status, body) in routes.items():
            if url.startswith(prefix):
                return answer(status, body)
        raise AssertionError(f"unexpected request to {url}")

    with mock.patch.object(requests.Session, "request", request):
        yield asked


def id_token(claims: dict, *, issuer: str, audience: str, key=None, kid: str | None = None) -> str:
    """An OpenID id_token of ``claims`` (``sub``, ``email``, ``email_verified``...), signed with
    ``key`` (RS256) or, unsigned-checked as allauth reads Google's token it fetched itself, HS256."""
    now = int(time.time())
    payload = {"iss": issuer, "aud": audience, "iat": now, "exp": now + 600,
               "jti": uuid.uuid4().hex, **claims}
    if key is None:
        return jwt.encode(payload, "not-checked-by-allauth-as-it-fetched-it-itself", algorithm="HS256", headers={"kid": "k"})
    return jwt.encode(payload, key, algorithm="RS256", headers={"kid": kid})


def google_routes(claims: dict) -> dict:
    """Google's token endpoint answering an access token and an id_token of ``claims``."""
    token = id_token(claims, issuer="https://accounts.google.com",
                     audience=settings.SOCIALACCOUNT_PROVIDERS["google"]["APPS"][0]["client_id"])
    return {GOOGLE_TOKEN: (200, {"access_token": "g-access", "expires_in": 3600, "id_token": token})}


def facebook_routes(profile: dict) -> dict:
    """Facebook's token endpoint and its Graph API ``/me`` answering ``profile``."""
    return {
        f"{GRAPH_API_URL}/oauth/access_token": (200, {"access_token": "f-access", "expires_in": 3600}),
        f"{GRAPH_API_URL}/me": (200, profile),
    }


def apple_routes(claims: dict) -> dict:
    """Apple's token endpoint (an id_token signed with the tests' key) and its public keys."""
    public = json.loads(jwt.algorithms.RSAAlgorithm.to_jwk(_APPLE_KEY.public_key()))
    token = id_token(claims, issuer="https://appleid.apple.com",
                     audience=settings.SOCIALACCOUNT_PROVIDERS["apple"]["APPS"][0]["client_id"],
                     key=_APPLE_KEY, kid=_APPLE_KID)
    return {
        APPLE_TOKEN: (200, {"access_token": "a-access", "expires_in": 3600, "id_token": token}),
        APPLE_KEYS: (200, {"keys": [{**public, "kid": _APPLE_KID, "alg": "RS256", "use": "sig"}]}),
    }


def log_in_with(client, provider: str, **callback: str):
    """Start ``provider``'s log-in (the POST of the log-in page's button), then come back to the
    callback as the provider sends the browser back: ``code`` and ``state`` (``callback``
    replaces them, e.g. ``error="access_denied"``). Returns the callback's response."""
    start = client.post(reverse(f"{provider}_login"))
    assert start.status_code == 302, start
    state = parse_qs(urlparse(start["Location"]).query)["state"][0]
    params = {"code": "the-code", "state": state, **callback}
    if provider == "apple":  # Apple posts to the callback, which sends the browser on
        back = client.post(reverse("apple_callback"), params)
        return client.get(back["Location"])
    return client.get(reverse(f"{provider}_callback"), params)
