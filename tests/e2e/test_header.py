"""The site header on a phone: the navigation folds behind a Menu button (templates/base.html,
static/site.js); one tap, or Tab and Enter, opens it with every item inside the screen. The
people are made by seed.py (``signed_up``): signing up is test_account_entry's subject."""

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.pages import SECOND_GROUP, signed_up


pytestmark = [pytest.mark.e2e, pytest.mark.xdist_group(SECOND_GROUP)]

PHONES = [{"width": 360, "height": 640}, {"width": 390, "height": 844}]
MENU = {"en": "Menu", "ar": "القائمة", "fr": "Menu"}


def _items(page: Page):
    """Every link and control of the header's navigation a signed-in user sees."""
    return page.locator(
        "#site-nav a:visible, #site-nav button:visible, #site-nav select:visible"
    )


def _inside_the_screen(page: Page) -> None:
    size = page.viewport_size
    items = _items(page)
    # Lobby, How to play, Ladder, Profile, My matches, Play now, Tournaments, Friends,
    # Notifications, the name, Log out and the language list.
    assert items.count() == 12
    for index in range(items.count()):
        box = items.nth(index).bounding_box()
        assert box is not None and box["width"] > 0
        assert 0 <= box["x"] and box["x"] + box["width"] <= size["width"], index
        assert 0 <= box["y"] and box["y"] + box["height"] <= size["height"], index
    assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]


@pytest.mark.parametrize("viewport", PHONES, ids=["360x640", "390x844"])
@pytest.mark.parametrize("locale", ["en", "ar", "fr"])
def test_one_tap_opens_a_menu_with_every_header_item_on_the_screen(new_page, request, viewport,
                                                                 locale):
    page = new_page(viewport=viewport, locale=locale)
    signed_up(request, page, f"menu{locale}{viewport['width']}")
    page.goto("/")
    toggle = page.get_by_role("button", name=MENU[locale])
    expect(toggle).to_have_attribute("aria-expanded", "false")
    expect(page.locator("#site-nav")).to_be_hidden()
    toggle.click()
    expect(toggle).to_have_attribute("aria-expanded", "true")
    expect(page.locator("#site-nav")).to_be_visible()
    _inside_the_screen(page)
    # Each link leads somewhere from the open menu: the tournaments, once off the screen.
    page.locator("#site-nav a.nav-tournaments").click()
    page.wait_for_url("**/tournaments/**")


@pytest.mark.parametrize("locale", ["en", "ar", "fr"])
def test_the_menu_opens_and_closes_by_keyboard(new_page, request, locale):
    page = new_page(viewport={"width": 360, "height": 640}, locale=locale)
    signed_up(request, page, f"menukeys{locale}")
    page.goto("/")
    toggle = page.get_by_role("button", name=MENU[locale])
    # From the brand (focused by hand: after the load the page's focus may be anywhere), the
    # next stop in the tab order is the menu button.
    expect(toggle).to_be_visible()  # shown by site.js: until then the tab order skips it
    page.locator(".site-header .brand").focus()
    page.keyboard.press("Tab")
    expect(toggle).to_be_focused()
    page.keyboard.press("Enter")
    expect(toggle).to_have_attribute("aria-expanded", "true")
    page.keyboard.press("Tab")
    expect(page.locator("#site-nav .nav-links a").first).to_be_focused()
    _inside_the_screen(page)
    page.keyboard.press("Escape")
    expect(toggle).to_have_attribute("aria-expanded", "false")
    expect(toggle).to_be_focused()
    expect(page.locator("#site-nav")).to_be_hidden()


def test_on_a_wide_screen_there_is_no_menu_button(new_page):
    page = new_page(viewport={"width": 1280, "height": 800})
    page.goto("/rules/")
    expect(page.locator(".nav-toggle")).to_be_hidden()
    expect(page.locator("#site-nav a.nav-tournaments")).to_be_visible()


def _gap(page: Page, first: str, second: str) -> float:
    """The horizontal space between two header items (px), whichever side each is on."""
    a, b = page.locator(first).bounding_box(), page.locator(second).bounding_box()
    return max(b["x"] - (a["x"] + a["width"]), a["x"] - (b["x"] + b["width"]))


@pytest.mark.parametrize("locale", ["en", "ar", "fr"])
def test_on_a_wide_screen_the_account_links_stand_apart(new_page, request, locale):
    """"Log in" and "Sign up", the name and "Log out": as far apart as the other links, so that
    "Omarعمر_Mix Log out" or "Log in Sign up" does not read as one."""
    page = new_page(viewport={"width": 1280, "height": 800}, locale=locale)
    page.goto("/rules/")
    nav_gap = _gap(page, "#site-nav .nav-play", "#site-nav .nav-tournaments")
    out = "#site-nav [data-account-out]"
    assert _gap(page, f"{out} a >> nth=0", f"{out} a >> nth=1") >= nav_gap - 1
    signed_up(request, page, f"omar_header_{locale}")
    page.reload()
    assert _gap(page, "#site-nav .whoami", "#site-nav [data-account-in] button") >= nav_gap - 1
