"""With DEBUG off, behind the README's proxy: a request the proxy marks ``X-Forwarded-Proto:
https`` is secure (HSTS sent, links built as https://), plain http is redirected to https
unless ``BASRA_SSL_REDIRECT=0``, and ``manage.py check --deploy`` leaves only the two warnings
README explains (W005, W021).

Run in processes of their own with the production settings (the suite's are DEBUG's).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SECRET = "production-like-" + "k9Qx" * 12

#: Three requests through Django's test client, the site's settings read from the environment.
REQUESTS = """
import json, django
django.setup()
from django.test import Client
from django.test.utils import setup_test_environment
setup_test_environment()
c = Client()
plain = c.post("/i18n/setlang/", {"language": "en", "next": "/rules/"})
proxied = c.post("/i18n/setlang/", {"language": "en", "next": "/rules/"},
                 headers={"x-forwarded-proto": "https", "host": "testserver"})
absolute = proxied.wsgi_request.build_absolute_uri("/table/1/")
print(json.dumps({
    "plain": [plain.status_code, plain.get("Location"), plain.get("Strict-Transport-Security")],
    "proxied": [proxied.status_code, proxied.get("Strict-Transport-Security"), absolute],
}))
"""


def production(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if k not in {"DEBUG", "DJANGO_SETTINGS_MODULE", "REDIS_URL", "DATABASE_URL"}}
    return env | {"DEBUG": "0", "SECRET_KEY": SECRET, "ALLOWED_HOSTS": "testserver",
                  "DJANGO_SETTINGS_MODULE": "basra_site.settings"} | extra


def requests_with(**extra: str) -> dict:
    done = subprocess.run([sys.executable, "-c", REQUESTS], cwd=ROOT, env=production(**extra),
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_behind_the_proxy_requests_are_secure_and_plain_http_is_redirected():
    seen = requests_with()
    status, location, hsts = seen["plain"]
    assert status == 301 and location == "https://testserver/i18n/setlang/" and hsts is None
    status, hsts, absolute = seen["proxied"]
    assert status == 302
    assert hsts == "max-age=31536000"
    assert absolute == "https://testserver/table/1/"


def test_the_redirect_can_be_turned_off_for_plain_http_runs():
    status, location, _hsts = requests_with(BASRA_SSL_REDIRECT="0")["plain"]
    assert status == 302 and location == "/rules/"


def test_the_deploy_check_leaves_only_the_explained_warnings():
    done = subprocess.run([sys.executable, "manage.py", "check", "--deploy"], cwd=ROOT,
                          env=production(), capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    warned = sorted({word.strip("():") for word in done.stderr.split()
                     if word.startswith("(security.")})
    assert warned == ["security.W005", "security.W021"], done.stderr
