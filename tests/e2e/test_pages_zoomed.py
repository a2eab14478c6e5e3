"""The site's pages on a phone zoomed to 200% (issue 22, "zooming to 200%"): a 390×844 phone is
then a 195×422 page. No page scrolls sideways (WCAG 2.2, 1.4.10 "Reflow"), in English and
Arabic. The table itself is ``test_table_layout.py``'s. On a 360 px phone every text field of
the site's forms has the site's field style: type a phone does not zoom into, a finger's height."""

import json
import uuid

import pytest
from playwright.sync_api import expect

from tests.e2e.pages import OUTSIDE, create_table, screenshot, signed_in, signed_up, unfold


pytestmark = pytest.mark.e2e

PAGES = ["/", "/rules/", "/tournaments/", "/ladder/", "/replays/", "/play/", "/account/api-tokens/"]

@pytest.mark.parametrize("locale", ["en", "ar", "fr"])
def test_no_page_scrolls_sideways_on_a_phone_zoomed_to_200(request, new_page, locale):
    page = new_page(viewport={"width": 195, "height": 422}, locale=locale)
    signed_up(request, page, f"zoom_{locale}")
    wide = {}
    for path in PAGES + [f"/players/zoom_{locale}/", f"/players/zoom_{locale}/matches/"]:
        page.goto(path)
        page.wait_for_load_state("load")
        unfold(page)  # the lobby's forms, folded on a phone
        found = page.evaluate(OUTSIDE)
        if found["scroll"] > found["width"]:
            wide[path] = found
    # A four-player table waiting for players: its title, the longest, stays in its box.
    create_table(page, players=4, target=101)
    expect(page.locator("#waiting")).to_be_visible()
    found = page.evaluate(OUTSIDE)
    if found["scroll"] > found["width"] or found["outside"]:
        wide["waiting"] = found
    screenshot(page, f"waiting-4p-{locale}-195x422")
    assert not wide, wide


#: The replay's plays (of the rounds shown) whose card's name is cut off by its button's edge.
CARDS_CUT = """() => Array.from(document.querySelectorAll('details[open] .move .move-card')).filter((card) => {
  const r = card.getBoundingClientRect(), b = card.closest('.move').getBoundingClientRect();
  return r.left < b.left - 0.5 || r.right > b.right + 0.5 || r.bottom > b.bottom + 0.5;
}).map((card) => card.closest('.move').textContent).slice(0, 3)"""


@pytest.mark.parametrize("locale", ["en", "ar", "fr"])
def test_a_finished_four_player_match_does_not_scroll_sideways_on_a_zoomed_phone(
        browser, site_url, seed, locale):
    """An abandoned four-player match, opened afterwards on a phone at 200% (mobile emulation:
    a page wider than the screen widens the layout viewport), fits the screen in English and in
    Arabic: the last round's score over the board, whose sides are headed by two names each,
    scrolls inside itself rather than widen the board's grid column. Its replay's plays show
    their cards whatever the names' length."""
    tag = uuid.uuid4().hex[:5]
    names = [f"abdelrahman_{tag}", f"سارة_{tag}", f"m_{tag}", f"Zeinab_ElShenawy_{tag}"]
    table = json.loads(seed("abandoned", 4, *names))
    context = signed_in(browser, site_url, table["sessions"][0], locale,
                        viewport={"width": 195, "height": 422},
                        is_mobile=True, has_touch=True, device_scale_factor=2)
    wide = {}
    try:
        page = context.new_page()
        page.goto(f"/table/{table['match']}/")
        expect(page.locator("#breakdown")).to_be_visible()
        expect(page.locator("#result-banner")).to_be_visible()
        for name, path in (("table", f"/table/{table['match']}/"),
                           ("replay", f"/match/{table['match']}/replay/"),
                           # the match in its players' histories, at 195 px and a phone's 360
                           ("profile", f"/players/{names[0]}/"),
                           ("history", f"/players/{names[0]}/matches/"),
                           ("history-360", f"/players/{names[0]}/matches/")):
            if name == "history-360":
                page.set_viewport_size({"width": 360, "height": 640})
            if path != page.url.removeprefix(site_url):
                page.goto(path)
                page.wait_for_load_state("load")
            found = page.evaluate(OUTSIDE)
            if name == "replay":  # each play's card in sight, not cut off with a long name
                found["cut"] = page.evaluate(CARDS_CUT)
            if found["scroll"] > found["width"] or found.get("cut"):
                wide[path] = found
            if page.locator("#board").count():
                page.locator("#board").scroll_into_view_if_needed()
            screenshot(page, f"finished-4p-{name}-{locale}-195x422", full_page=False)
    finally:
        context.close()
    assert not wide, wide


#: Every text field shown on the page (a text-like ``<input>`` or a ``<textarea>``) whose type is
#: under 16 px (iOS zooms into it on focus) or whose box is under 40 px tall:
#: ``[name or id, font size, height]`` each.
SMALL_FIELDS = """() => Array.from(document.querySelectorAll('input, textarea')).filter((field) =>
    field.tagName === 'TEXTAREA' || ['text', 'search', 'email', 'password', 'url', 'tel', 'number',
      'date', 'datetime-local', 'time'].includes(field.type)).filter((field) => field.getClientRects().length)
  .map((field) => [field.name || field.id, parseFloat(getComputedStyle(field).fontSize),
                   field.getBoundingClientRect().height])
  .filter(([, size, height]) => size < 16 || height < 40)"""

#: Pages with text fields, and a field each that must be among them (a selector).
FORM_PAGES = {
    "/tournaments/new/": ['input[name="name"]', 'input[name="starts_at"]', 'input[name="registration_closes"]'],
    "/play/": ['input[name="username"]'],
    "/ladder/": ['input[type="search"][name="q"]'],
    "/": ['input[name="target"]'],
    "/replay/import/": ["textarea"],
    "/settings/profile/": [],
    "/account/api-tokens/": [],
}


@pytest.mark.parametrize("locale", ["en", "ar"])
def test_every_text_field_has_the_site_s_size_on_a_phone(request, new_page, locale):
    """On a 360 px phone, in English and in Arabic, every text field of the site's forms (the
    tournament form's name and times, the partner's name on /play/, the ladder's search, the
    lobby's, the replay import's, the settings', a player's match history's filters) has type of
    16 px at least and is 40 px tall at least."""
    page = new_page(viewport={"width": 360, "height": 640}, locale=locale)
    name = f"fields_{locale}_{uuid.uuid4().hex[:5]}"
    signed_up(request, page, name)
    small = {}
    for path, wanted in [*FORM_PAGES.items(), (f"/players/{name}/matches/", ['input[name="opponent"]'])]:
        page.goto(path)
        page.wait_for_load_state("load")
        unfold(page)  # the lobby's forms, folded on a phone
        for selector in wanted:
            expect(page.locator(selector).first).to_be_visible()
        found = page.evaluate(SMALL_FIELDS)
        if found:
            small[path] = found
    assert not small, small
