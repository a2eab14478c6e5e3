"""A match called off by a player, seen by a spectator after one of its players closed their
account: the result names who called it off, the closed account's seat reads "Closed account"
(the name never shown), in English at 360 px and in Arabic (right to left) at 390 px, without a
sideways scroll. The table is seeded (``seed.py table``); the abort and the closing go through
the pages."""

from __future__ import annotations

import json
import uuid

import pytest
from playwright.sync_api import expect

from tests.e2e.pages import signed_in

pytestmark = pytest.mark.e2e


def test_the_table_names_who_called_it_off_and_not_a_closed_account(browser, site_url, seed, new_page):
    tag = uuid.uuid4().hex[:5]
    gone, caller = f"nadia_{tag}", f"karim_{tag}"
    table = json.loads(seed("table", "2", "0", gone, caller))
    url = f"/table/{table['match']}/"
    contexts = [signed_in(browser, site_url, s, viewport={"width": 360, "height": 740})
                for s in table["sessions"]]
    try:
        player = contexts[1].new_page()
        player.goto(url)
        player.click("#abort-button")
        player.click("#confirm-yes")
        expect(player.locator("#result-banner")).to_have_attribute("data-reason", "abort")
        closing = contexts[0].new_page()
        closing.goto("/accounts/close/")
        closing.fill('input[name="name"]', gone)
        closing.click(".close-form button[type=submit]")
        closing.wait_for_url("**/")
        for lang, width, closed, by in (("en", 360, "Closed account", "Aborted by"),
                                        ("ar", 390, "حساب مغلق", "ألغاها")):
            page = new_page(viewport={"width": width, "height": 800})
            if lang == "ar":
                page.context.add_cookies([{"name": "django_language", "value": "ar", "url": site_url}])
            page.goto(url)
            title = page.locator("#result-banner .result-title")
            expect(title).to_contain_text(by)
            expect(title).to_contain_text(f"\u2068{caller}\u2069")
            expect(page.locator('.seat-box[data-seat="0"] .name')).to_have_text(closed)
            assert gone not in page.locator("body").inner_text()
            assert page.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0
            expect(page.locator("html")).to_have_attribute("dir", "rtl" if lang == "ar" else "ltr")
    finally:
        for context in contexts:
            context.close()
