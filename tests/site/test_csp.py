"""The Content-Security-Policy (``script-src 'self'``) is sent with every page, and no template
has an inline script or event handler that it would block."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.test import Client

ROOT = Path(__file__).resolve().parents[2]
HANDLER = re.compile(r"""<[^>]*\son[a-z]+\s*=\s*["']""", re.IGNORECASE)
#: A script element without ``src`` that is not a JSON data block (``type="application/json"``,
#: what ``json_script`` writes: data the policy does not run, read by the site's own files).
INLINE_SCRIPT = re.compile(r"<script(?![^>]*\b(?:src=|type=\"application/json\"))[^>]*>", re.IGNORECASE)


@pytest.mark.django_db
@pytest.mark.parametrize("address", ["/", "/rules/", "/accounts/login/", "/ladder/1v1/"])
def test_every_page_carries_the_policy(address):
    policy = Client().get(address)["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "default-src 'self'" in policy
    assert "unsafe-inline" not in policy.split("script-src")[1].split(";")[0]


def test_no_template_has_an_inline_script_or_handler():
    found = []
    for path in sorted((ROOT / "templates").rglob("*.html")):
        text = path.read_text()
        found += [f"{path.relative_to(ROOT)}: {m.group(0)[:80]}" for m in HANDLER.finditer(text)]
        found += [f"{path.relative_to(ROOT)}: {m.group(0)[:80]}"
                  for m in INLINE_SCRIPT.finditer(text)]
    assert found == []
