"""The site in French on a 360-pixel phone (issue 39, "French"): the table of a four-player match
(its players' long names), the rules page and the account pages read in French, the scripts'
words from the French catalogue, and no page scrolls sideways. The players are seeded
(``seed.py``), their browsers given a session cookie and Django's language cookie."""

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.pages import OUTSIDE, SECOND_GROUP, root, screenshot, signed_in

pytestmark = [pytest.mark.e2e, pytest.mark.xdist_group(SECOND_GROUP)]

PHONE_360 = {"viewport": {"width": 360, "height": 640}, "device_scale_factor": 2,
             "is_mobile": True, "has_touch": True}

#: The password pages' heading, whatever allauth or the site words it.
PASSWORD_WORDS = re.compile("mot de passe", re.IGNORECASE)


def wide(page) -> dict:
    """What sticks out of the screen's width, or ``{}`` when nothing does."""
    found = page.evaluate(OUTSIDE)
    return found if found["scroll"] > found["width"] or found["outside"] else {}


def test_the_table_the_rules_and_the_account_pages_read_in_french_at_360_px(
        browser, site_url, seeded, new_page):
    table = seeded(4)
    context = signed_in(browser, site_url, table["sessions"][0], "fr", **PHONE_360)
    context.set_default_timeout(15_000)
    too_wide = {}
    try:
        page = context.new_page()
        page.goto(f"/table/{table['match']}/")
        expect(page.locator("html")).to_have_attribute("lang", "fr")
        expect(root(page)).to_have_attribute("data-status", "playing")
        expect(page.locator("#live-status")).to_have_attribute("data-state", "live")
        # The page's words (the template) and the scripts' (the /jsi18n/ catalogue).
        expect(page.locator("#sound-button")).to_have_text("Son")
        expect(page.locator("#stock-info")).to_have_text(re.compile(r"^Talon\u00a0: \d+$"))
        expect(page.locator("#live-status")).to_have_text("En direct")
        # A name and its client seed, joined by the script: French's space before the colon.
        expect(page.locator('#fair-client-seeds li[data-seat="0"]')).to_have_text(
            re.compile(r"^\S.*\u00a0: \S"))
        too_wide["table"] = wide(page)
        screenshot(page, "table-4p-fr-360x640", full_page=False)

        page.goto("/rules/")
        expect(page.locator("h1")).to_have_text("Comment jouer à la Basra")
        expect(page.locator(".rules-example").nth(1).locator(".chip")).to_have_text("Basra\u202f!")
        expect(page.locator(".rules-example").nth(5)).to_contain_text(
            "Rien\u00a0: la carte reste sur le tapis.")
        too_wide["rules"] = wide(page)

        name = page.locator(".whoami").text_content().strip()  # in the folded menu
        for shot, path, words in (("profile", f"/players/{name}/", "Inscrit depuis"),
                                  ("email", "/accounts/email/", "Adresses e-mail"),
                                  # a seeded player has no password yet: the page sets one
                                  ("password", "/accounts/password/change/", PASSWORD_WORDS)):
            page.goto(path)
            expect(page.locator("main")).to_contain_text(words)
            too_wide[path] = wide(page)
            screenshot(page, f"account-{shot}-fr-360x640", full_page=False)
    finally:
        context.close()

    # Signed out: the log-in, the sign-up and the password reset.
    visitor = new_page(locale="fr", **PHONE_360)
    for path, heading in (("/accounts/login/", "Se connecter"), ("/accounts/signup/", "S'inscrire"),
                          ("/accounts/password/reset/", PASSWORD_WORDS)):
        visitor.goto(path)
        expect(visitor.locator("html")).to_have_attribute("lang", "fr")
        expect(visitor.locator("main h1")).to_contain_text(heading)
        too_wide[path] = wide(visitor)
    assert {path: found for path, found in too_wide.items() if found} == {}
