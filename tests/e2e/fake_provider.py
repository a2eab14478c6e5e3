"""A Google of the browser tests' own: an HTTP server in the test process that the site's server
(``tests/e2e/provider_settings.py``) sends the browser to and asks for tokens.

- ``GET /authorize?redirect_uri=…&state=…``: the person agreed at once; the browser goes back
  to ``redirect_uri`` with a code and the state;
- ``POST /token``: an access token and an id_token of :attr:`FakeGoogle.profile`'s claims
  (allauth reads an id_token it fetched itself without checking its signature: OpenID Connect
  Core 1.0, 3.1.3.7).
"""

from __future__ import annotations

import json
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlencode, urlparse

import jwt


class FakeGoogle:
    """Start with :meth:`start`, stop with :meth:`stop`; ``url`` is its address and ``profile``
    the claims its next id_token carries (``sub``, ``email``, ``email_verified``, ``name``)."""

    def __init__(self, client_id: str):
        self.client_id = client_id
        self.profile: dict = {}
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):
                query = parse_qs(urlparse(self.path).query)
                back = query["redirect_uri"][0] + "?" + urlencode(
                    {"code": uuid.uuid4().hex, "state": query["state"][0]})
                self.send_response(302)
                self.send_header("Location", back)
                self.end_headers()

            def do_POST(self):
                self.rfile.read(int(self.headers.get("Content-Length", 0)))
                now = int(time.time())
                token = jwt.encode(
                    {"iss": "https://accounts.google.com", "aud": fake.client_id, "iat": now,
                     "exp": now + 600, **fake.profile},
                    "fake-google-signs-nothing-that-is-checked", algorithm="HS256")
                body = json.dumps({"access_token": uuid.uuid4().hex, "expires_in": 3600,
                                   "id_token": token}).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"

    def start(self) -> FakeGoogle:
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()
