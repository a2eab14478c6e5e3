"""The account pages in Arabic on a 360-pixel phone (issue 39): right to left, the site's words,
nothing scrolling sideways; the closing of an account through its page. (French is added with
its catalogue.)"""

from __future__ import annotations

import json
import re
import uuid

import pytest
from playwright.sync_api import expect

from tests.e2e.pages import (
    OUTSIDE as PAST_THE_EDGE, PASSWORD, SECOND_GROUP, broken_words, screenshot, sign_up, signed_in,
)

pytestmark = [pytest.mark.e2e, pytest.mark.xdist_group(SECOND_GROUP)]

PHONE_360 = {"viewport": {"width": 360, "height": 740}, "device_scale_factor": 2,
             "is_mobile": True, "has_touch": True}

SIGNED_OUT = ["/accounts/login/", "/accounts/signup/", "/accounts/password/reset/", "/help/", "/privacy/"]
SIGNED_IN = ["/accounts/email/", "/accounts/password/change/", "/accounts/close/",
             "/accounts/3rdparty/", "/accounts/logout/"]

#: The page's width against the screen's, and the first elements sticking out of it.
OUTSIDE = """() => { const w = document.documentElement.clientWidth, out = [];
  document.querySelectorAll('body *').forEach((el) => { const r = el.getBoundingClientRect();
    if (r.width && (r.right > w + 0.5 || r.left < -0.5)) out.push(el.tagName + '.' + el.className); });
  return {scroll: document.documentElement.scrollWidth, width: w, outside: out.slice(0, 5)}; }"""


def check(page, path: str, wrong: dict) -> None:
    page.goto(path)
    page.wait_for_load_state("load")
    expect(page.locator("html")).to_have_attribute("dir", "rtl")
    heading = page.locator("main h1").first.inner_text()
    if re.search(r"[A-Za-z]", heading) or not heading.strip():
        wrong[path] = f"heading {heading!r}"
    found = page.evaluate(OUTSIDE)
    if found["scroll"] > found["width"] or found["outside"]:
        wrong[path] = found
    screenshot(page, f"account{path.replace('/', '-')}ar-360")


def test_the_account_pages_in_arabic_at_360_pixels(new_page):
    page = new_page(locale="ar", **PHONE_360)
    wrong: dict = {}
    for path in SIGNED_OUT:
        check(page, path, wrong)
    sign_up(page, f"ar_{uuid.uuid4().hex[:6]}")
    for path in SIGNED_IN:
        check(page, path, wrong)
    assert not wrong, wrong


def test_closing_an_account_through_its_page(new_page):
    name = f"bye_{uuid.uuid4().hex[:6]}"
    page = new_page(locale="en", **PHONE_360)
    sign_up(page, name)
    page.goto("/accounts/close/")
    expect(page.locator("main")).to_contain_text("A match you are playing is resigned")
    page.fill('input[name="password"]', "not-my-password")
    page.get_by_role("button", name="Close my account").click()
    expect(page.locator(".errorlist")).to_contain_text("That is not your password.")
    expect(page.locator(".whoami")).to_have_text(name)
    page.fill('input[name="password"]', PASSWORD)
    page.get_by_role("button", name="Close my account").click()
    expect(page.locator(".messages")).to_contain_text("Your account is closed.")
    expect(page.locator(".whoami")).to_have_count(0)
    page.goto(f"/players/{name}/")
    expect(page.locator("h1")).to_have_text("Closed account")


@pytest.mark.parametrize("lang", ["fr", "ar", "en"])
def test_the_profile_s_table_headers_wrap_between_words_at_360_px(browser, site_url, seed, lang):
    """A player's profile at 360 px, its recent match won against a short name, its result
    long (won by resignation, the rating's change): each table header ("Adversaires",
    "Résultat") wraps between its words only, never inside one ("Adversaire / s"), and the
    page does not scroll sideways."""
    tag = uuid.uuid4().hex[:4]
    winner = f"w{tag}"
    table = json.loads(seed("rated", 2, 61, winner, f"l{tag}"))
    context = signed_in(browser, site_url, table["sessions"][0], lang, **PHONE_360)
    try:
        page = context.new_page()
        page.goto(f"/players/{winner}/")
        expect(page.locator("html")).to_have_attribute("lang", lang)
        expect(page.locator(".recent-matches th").first).to_be_visible()
        screenshot(page, f"profile-headers-{lang}-360", full_page=True)
        assert broken_words(page, "main th") == []
        found = page.evaluate(PAST_THE_EDGE)
        assert found["scroll"] <= found["width"], found
    finally:
        context.close()

