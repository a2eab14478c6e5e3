"""Quick-pairing queues in Chromium (issue 21): two players press "Play now" in two contexts
and land on the same table within one wave; four players in a partnership queue get one table
of four; the page at phone width, right to left; a player seated at a match is told so before
pressing, and a refused press is answered beside the button with the way back to the table.
The server's own scheduler runs the waves (``games.queues.scheduler``, started with the
server)."""

import re

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.pages import play_the_computer, root, signed_up


pytestmark = pytest.mark.e2e

TABLE_URL = re.compile(r"/table/(\d+)/$")


def play_now(page: Page, queue: str) -> None:
    page.goto("/")
    page.click("a.lobby-play-now")
    page.wait_for_url(re.compile(r"/play/$"))
    page.click(f'button[data-queue="{queue}"]')


def table_of(page: Page) -> int:
    page.wait_for_url(TABLE_URL, timeout=30_000)
    return int(TABLE_URL.search(page.url).group(1))


def test_two_players_press_play_now_and_sit_at_the_same_table(request, new_page):
    alice, bob = new_page(), new_page(viewport={"width": 360, "height": 740})
    signed_up(request, alice, "qalma")
    signed_up(request, bob, "qbadr")
    play_now(alice, "2-20")
    # alice waits: the page says so, and the count shows her.
    expect(alice.locator("#queues-waiting")).to_be_visible()
    expect(alice.locator('[data-counts="2-20"]')).to_contain_text("1 waiting")
    play_now(bob, "2-20")
    match_id = table_of(alice)
    assert table_of(bob) == match_id
    expect(root(alice)).to_have_attribute("data-status", "playing")
    expect(root(bob)).to_have_attribute("data-status", "playing")


def test_four_singles_in_a_partnership_queue_get_one_table_of_four(request, new_page):
    pages = [new_page() for _ in range(4)]
    for page, name in zip(pages, ("qfa", "qfb", "qfc", "qfd")):
        signed_up(request, page, name)
    for page in pages:
        play_now(page, "4-30")
    tables = {table_of(page) for page in pages}
    assert len(tables) == 1
    for page in pages:
        expect(root(page)).to_have_attribute("data-status", "playing")


def test_leave_the_queue_and_the_page_at_phone_width_in_arabic(request, new_page):
    page = new_page(viewport={"width": 360, "height": 740}, locale="ar")
    signed_up(request, page, "qrtl")
    page.goto("/play/")
    expect(page.locator("html")).to_have_attribute("dir", "rtl")
    page.click('button[data-queue="2-60"]')
    expect(page.locator("#queues-waiting")).to_be_visible()
    expect(page.locator('button[data-queue="2-60"]')).to_have_attribute("aria-pressed", "true")
    # Nothing wider than the phone.
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    page.click("#queues-leave")
    expect(page.locator("#queues-waiting")).to_be_hidden()
    expect(page.locator('button[data-queue="2-60"]')).to_have_attribute("aria-pressed", "false")


def test_an_invited_partner_is_told_on_any_page_and_may_close_the_notice(request, new_page):
    alice, bob = new_page(), new_page(viewport={"width": 360, "height": 740})
    signed_up(request, alice, "qinva")
    signed_up(request, bob, "qinvb")
    bob.goto("/rules/")
    expect(bob.locator("#site-notices")).to_have_attribute("data-live", "true")
    alice.goto("/play/")
    alice.fill('.queues-invite input[name="username"]', "qinvb")
    alice.click('.queues-invite button[type="submit"]')
    expect(alice.locator("#queues-invited")).to_contain_text("qinvb")
    # The site's short notice (static/games/notices.js), shown by the queues' script.
    notice = bob.locator('#site-notices .queue-notice[data-queue-notice="invite"]')
    expect(notice).to_contain_text("qinva")
    assert notice.locator("a").get_attribute("href") == "/play/"
    notice.locator("button").click()
    expect(notice).to_have_count(0)


@pytest.mark.parametrize("viewport, locale", [
    ({"width": 390, "height": 844}, "en"),
    ({"width": 360, "height": 740}, "ar"),
])
def test_play_now_while_playing_elsewhere_says_so_where_the_press_was(request, new_page, viewport, locale):
    # Issue 35: the refusal was said at the page's foot (y ~ 1184 on a 390x844 phone, out of
    # view) without the way back to the match, and the page gave no sign of that match before.

    page = new_page(viewport=viewport, locale=locale)
    signed_up(request, page, f"qseat{locale}")
    match_id = play_the_computer(page, clock="60")
    # Off the table page the seat stays hers until the absence grace (60 s) runs out.
    page.goto("/play/")
    # Before any press: the running match, with the way back to it, above the buttons.
    seated = page.locator("#queues-seated")
    expect(seated).to_be_visible()
    expect(seated).to_contain_text(str(match_id))
    assert seated.locator("a").get_attribute("href") == f"/table/{match_id}/"
    button = page.locator('button[data-queue="2-20"]')
    assert seated.bounding_box()["y"] < button.bounding_box()["y"]
    button.click()
    error = page.locator("#queues-error")
    expect(error).to_be_visible()
    # Said right under the pressed button's row, inside the phone's screen.
    box, pressed = error.bounding_box(), button.bounding_box()
    assert pressed["y"] + pressed["height"] <= box["y"] < pressed["y"] + pressed["height"] + 200
    assert 0 <= box["y"] and box["y"] + box["height"] <= viewport["height"]
    assert 0 <= box["x"] and box["x"] + box["width"] <= viewport["width"]
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    expect(page.locator("#queues-waiting")).to_be_hidden()
    link = error.locator("a")
    assert link.get_attribute("href") == f"/table/{match_id}/"
    link.click()
    page.wait_for_url(f"**/table/{match_id}/")
    expect(root(page)).to_have_attribute("data-status", "playing")
