"""A person who left a rated table, as the others read it (issue 35): at
two the opponent is told over the table, with the Claim button in the first screen; at four the
leaver's partner is told the match no longer counts for their rating, the resign dialog says
resigning changes nothing for it, and the result names why they were not rated.

Each table is seeded through the site's actions (``tests/e2e/seed.py left``): every person
played a card of the first deal, then the last seat's person was marked absent as the clock
marks one whose page was closed.
"""

import json
import uuid

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.pages import screenshot, signed_in, socket_state_drawn


pytestmark = pytest.mark.e2e


def open_seat(browser, site_url, table: dict, seat: int, lang: str, width: int, height: int):
    """A context signed in as ``seat`` of ``table`` in ``lang`` and its page on the live table."""
    context = signed_in(browser, site_url, table["sessions"][seat], lang,
                        viewport={"width": width, "height": height}, device_scale_factor=1)
    page = context.new_page()
    page.goto(f"/table/{table['match']}/")
    expect(page.locator("html")).to_have_attribute("lang", lang)
    expect(page.locator("#live-status")).to_have_attribute("data-state", "live")
    expect(page.locator("#hand .card").first).to_be_visible()
    socket_state_drawn(page)
    return context, page


def no_sideways_scroll(page: Page) -> None:
    assert page.evaluate("() => document.documentElement.scrollWidth") <= page.viewport_size["width"]


@pytest.mark.parametrize("lang,width,height", [("en", 360, 640), ("ar", 360, 640), ("ar", 390, 844), ("en", 844, 390)])
def test_an_opponent_who_left_is_told_over_the_table(browser, site_url, seed, lang, width, height):
    """On a 640 px phone the notice and its Claim button are in the first screen, not under
    the board and the hand with only a small "Away" tag in view; claiming (after the same "are
    you sure?") wins the match."""
    tag = uuid.uuid4().hex[:5]
    table = json.loads(seed("left", 2, f"karim_{tag}", f"Sara.سارة_{tag}"))
    context, page = open_seat(browser, site_url, table, 0, lang, width, height)
    try:
        notice = page.locator('[data-notice="opponent-left"]')
        claim = page.locator("#claim-button")
        expect(notice).to_contain_text(f"Sara.سارة_{tag}")
        if lang == "en":
            expect(notice).to_contain_text("has left the match. You may claim the win, or wait.")
        # In view as the page opens, where it puts the play area (table_fit.js), with no scroll
        # of the player's (Playwright's check scrolls nothing).
        expect(notice).to_be_in_viewport(ratio=1)
        expect(claim).to_be_in_viewport(ratio=1)
        no_sideways_scroll(page)
        screenshot(page, f"opponent-left-{lang}-{width}x{height}", full_page=False)
        claim.click()
        if lang == "en":
            expect(page.locator("#confirm-text")).to_have_text("Your opponent has left. Claim the win now?")
        page.click("#confirm-yes")
        banner = page.locator("#result-banner")
        expect(banner).to_be_visible()
        expect(banner).to_have_class("result-banner won")
        expect(notice).to_have_count(0)
    finally:
        context.close()


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_a_partner_who_left_no_longer_counts_for_the_rating(browser, site_url, seed, lang):
    """A leaver's partner is told the match no longer counts for him (``partner_left``), the
    resign dialog says resigning changes nothing for his rating, and the result names the
    reason in his row (not "1500? –"); an opponent is told the leaver is rated as having
    lost."""
    tag = uuid.uuid4().hex[:5]
    names = [f"nadia_{tag}", f"Ahmed_{tag}", f"karim_{tag}", f"سارة_{tag}"]
    table = json.loads(seed("left", 4, *names))  # seat 3 left; seat 1 is her partner
    partner_context, page = open_seat(browser, site_url, table, 1, lang, 360, 640)
    opponent_context, opponent = open_seat(browser, site_url, table, 0, lang, 360, 640)
    counts = {"en": "This match no longer counts for your rating.",
              "ar": "لم تعد هذه المباراة تُحتسب في تصنيفك."}[lang]
    try:
        notice = page.locator('#notices [data-notice="replaced"]')
        expect(notice).to_contain_text(counts)
        no_sideways_scroll(page)
        told = opponent.locator('#notices [data-notice="replaced"]')
        expect(told).to_contain_text({"en": "rated as having lost; you are rated by the result as usual.",
                                      "ar": "كأنه خسر"}[lang])
        expect(told).not_to_contain_text(counts)
        no_sideways_scroll(opponent)
        screenshot(notice, f"partner-left-notice-{lang}-360x640")

        page.click("#resign-button")
        expect(page.locator("#confirm-text")).to_contain_text(
            {"en": "Resigning changes nothing for your rating.",
             "ar": "لا يغيّر الانسحاب شيئًا في تصنيفك."}[lang])
        page.click("#confirm-yes")
        entry = page.locator('#result-banner #result-ratings .rating-entry[data-seat="1"]')
        expect(entry).to_contain_text({"en": "not rated: partner left",
                                       "ar": "غير محتسب: غادر الشريك"}[lang])
        expect(entry.locator(".rating-change")).to_have_count(0)
        no_sideways_scroll(page)
        screenshot(page.locator("#result-banner"), f"partner-left-result-{lang}-360x640")
    finally:
        partner_context.close()
        opponent_context.close()


def test_a_seat_taken_over_in_play_is_said_over_the_screen(browser, site_url, seed):
    """On a phone in play the page is scrolled to the table and the notices' box above it is
    out of view, so the takeover is also said over the screen when it happens, to the partner in
    the first screen at 360×640."""
    tag = uuid.uuid4().hex[:5]
    names = [f"nadia_{tag}", f"Ahmed_{tag}", f"karim_{tag}", f"سارة_{tag}"]
    table = json.loads(seed("played", 4, *names))
    context, page = open_seat(browser, site_url, table, 1, "en", 360, 640)
    try:
        seed("leave", table["match"], 4)  # seat 3, the partner's, left while the page was open
        said = page.locator("#table-error")
        expect(said).to_contain_text("This match no longer counts for your rating.", timeout=30_000)
        expect(said).to_be_in_viewport()
        no_sideways_scroll(page)
    finally:
        context.close()
