"""The tournament pages on a phone (issue 24): the events list, the event page of a running Swiss with its
standings, rounds and the organiser's controls, its crosstable and an entrant's card, and the
organiser's page of an upcoming event and its settings form, at 360×640 in portrait and
landscape, in English and in Arabic (right to left): the page never scrolls sideways
(``document.scrollingElement.scrollWidth <= innerWidth``) and every main control lies inside
the viewport's width. A wide table (standings, crosstable) scrolls inside its own box.

The events are seeded through the tournaments' services (``tests/e2e/seed.py tournament``: no
event is played through the pages); the organiser's session is set as the browser's cookie. With ``E2E_SCREENSHOTS``, a screenshot of
each page is kept (``tests/e2e/pages.py``, ``screenshot``).
"""

import base64
import json
import uuid

import pytest
from playwright.sync_api import expect

from tests.e2e.pages import SECOND_GROUP, broken_words, resize, screenshot, signed_in, tasks_done

pytestmark = [pytest.mark.e2e, pytest.mark.xdist_group(SECOND_GROUP)]

VIEWPORTS = [(360, 640), (640, 360)]

#: The controls each page must show inside the viewport's width (a CSS selector each; every
#: element it matches is measured). Pages: a name, its address from the seeded ids.
PAGES = {
    "list": ("/tournaments/", ["h1", "#new-tournament", ".table-scroll"]),
    "event": ("/tournaments/{swiss}/", [
        "h1", "#event-status", ".standings .table-scroll", "#crosstable-link", ".organiser button",
        "#arbiter-form input", "#add-arbiter-button", ".organiser-result select",
        ".organiser-result button", ".withdraw-entrant button", ".table-link",
    ]),
    "bracket": ("/tournaments/{knockout}/", ["h1", ".bracket-round", ".bracket-pairing"]),
    "crosstable": ("/tournaments/{swiss}/crosstable/", ["h1", ".table-scroll", "#exports a"]),
    "entrant": ("/tournaments/{swiss}/entrant/{entrant}/", ["h1", ".table-scroll"]),
    "organiser": ("/tournaments/{upcoming}/", [
        "h1", "#start-button", "#edit-link", "#cancel-button", "#arbiter-form input",
        "#add-arbiter-button", ".remove-entrant button", "#seed-form summary",
    ]),
    "edit": ("/tournaments/{upcoming}/edit/", ["h1", "main input", "main select", "main button[type=submit]"]),
}

MEASURE = """(selectors) => {
  const out = {view: innerWidth, scroll: document.scrollingElement.scrollWidth, outside: [], missing: []};
  for (const sel of selectors) {
    const found = [...document.querySelectorAll(sel)].filter((el) => el.getClientRects().length);
    if (!found.length) out.missing.push(sel);
    for (const el of found) {
      const r = el.getBoundingClientRect();
      if (r.left < -0.5 || r.right > innerWidth + 0.5) {
        out.outside.push(`${sel} [${Math.round(r.left)}, ${Math.round(r.right)}]`);
      }
    }
  }
  return out;
}"""


@pytest.fixture
def seeded(seed) -> dict:
    return json.loads(seed("tournament", uuid.uuid4().hex[:5]))


def test_the_tournament_pages_fit_a_phone(browser, site_url, seeded):
    """One seeding for both languages (it plays a round: the slow part of this test)."""
    host = site_url.split("//")[1].split(":")[0]
    failures = []
    for lang in ("en", "ar"):
        context = browser.new_context(base_url=site_url, viewport={"width": 360, "height": 640},
                                      device_scale_factor=1)
        try:
            context.add_cookies([
                {"name": "sessionid", "value": seeded["session"], "domain": host, "path": "/"},
                {"name": "django_language", "value": lang, "domain": host, "path": "/"},
            ])
            page = context.new_page()
            for name, (address, selectors) in PAGES.items():
                page.set_viewport_size({"width": 360, "height": 640})
                page.goto(address.format(**seeded))
                expect(page.locator("html")).to_have_attribute("dir", "rtl" if lang == "ar" else "ltr")
                for width, height in VIEWPORTS:
                    resize(page, width, height)
                    found = page.evaluate(MEASURE, selectors)
                    screenshot(page, f"{name}-{lang}-{width}x{height}")
                    where = f"{name} {lang} {width}x{height}"
                    if found["scroll"] > found["view"]:
                        failures.append(f"{where}: scrolls sideways ({found['scroll']} > {found['view']})")
                    failures += [f"{where}: {sel} not shown" for sel in found["missing"]]
                    failures += [f"{where}: outside the viewport: {box}" for box in found["outside"]]
        finally:
            context.close()
    assert not failures, "\n".join(failures)


#: How dark (255 less the mean of red, green and blue, over the middle half of the box's height)
#: the column of pixels just inside each edge of a screenshot is (``base64`` PNG): ``[left, right]``.
EDGE_SHADES = """async (png) => {
  const img = new Image();
  img.src = "data:image/png;base64," + png;
  await img.decode();
  const canvas = document.createElement("canvas");
  canvas.width = img.width; canvas.height = img.height;
  const g = canvas.getContext("2d");
  g.drawImage(img, 0, 0);
  const shade = (x) => {
    const d = g.getImageData(x, Math.floor(img.height / 4), 1, Math.floor(img.height / 2)).data;
    let sum = 0;
    for (let i = 0; i < d.length; i += 4) sum += 255 - (d[i] + d[i + 1] + d[i + 2]) / 3;
    return sum / (d.length / 4);
  };
  return [shade(1), shade(img.width - 2)];
}"""


def test_a_table_wider_than_the_phone_shows_a_shadow_where_more_of_it_lies(browser, site_url, seeded):
    """The Arabic crosstable at 360 px hid its points past the left edge, with no scrollbar
    drawn: the edge with more table beyond it is shaded, the edge it starts at is not, and
    scrolled to its end the other way round."""
    context = signed_in(browser, site_url, seeded["session"], "ar",
                        viewport={"width": 360, "height": 640}, device_scale_factor=1)
    try:
        page = context.new_page()
        page.goto(f"/tournaments/{seeded['swiss']}/crosstable/")
        box = page.locator("#crosstable").locator("xpath=..")
        assert box.evaluate("(el) => el.scrollWidth > el.clientWidth + 40")
        # Right to left: the table starts at the right edge; the rest lies to the left.
        left, right = page.evaluate(EDGE_SHADES, base64.b64encode(box.screenshot()).decode())
        assert left > right + 15, (left, right)
        box.evaluate("(el) => { el.scrollLeft = -el.scrollWidth; }")
        left, right = page.evaluate(EDGE_SHADES, base64.b64encode(box.screenshot()).decode())
        assert right > left + 15, (left, right)
    finally:
        context.close()


#: The events list's headers, names, formats, entrants and starts: their words are never broken
#: across lines. An organiser's name may break (one long word must, on a phone).
EVENT_WORDS = "table.events :is(th, td:not(:last-child))"


def test_the_events_list_s_headers_and_formats_wrap_only_between_words(browser, site_url, seeded):
    """At 640 px the Arabic list broke a heading inside a word (the site's ``overflow-wrap:
    anywhere`` let the table's columns shrink below a word), and an event's format; at 360 px
    the French one an event's name ("Aren/a"): a heading, a name, a format, a count and a start
    wrap between their words only, at a phone's widths and a phone held sideways, in Arabic,
    English and French, and the page still never scrolls sideways (a wide table scrolls in its
    own box)."""
    failures = []
    for lang in ("en", "ar", "fr"):
        context = signed_in(browser, site_url, seeded["session"], lang,
                            viewport={"width": 360, "height": 640}, device_scale_factor=1)
        try:
            page = context.new_page()
            page.goto("/tournaments/")
            expect(page.locator("html")).to_have_attribute("lang", lang)
            expect(page.locator(f'table.events tr[data-tournament-id="{seeded["upcoming"]}"]')).to_have_count(1)
            for width in (360, 390, 640):
                resize(page, width, 640)
                screenshot(page, f"list-headers-{lang}-{width}", full_page=False)
                broken = broken_words(page, EVENT_WORDS)
                if broken:
                    failures.append(f"{lang} {width}px: words broken across lines: {broken}")
                scroll = page.evaluate("() => document.scrollingElement.scrollWidth - innerWidth")
                if scroll > 0:
                    failures.append(f"{lang} {width}px: the page scrolls sideways by {scroll} px")
        finally:
            context.close()
    assert not failures, "\n".join(failures)


def test_an_entrant_is_told_live_what_the_organiser_changed(browser, site_url, seeded):
    """The organiser moves the upcoming event's start on its settings form; a player entered
    in it, on another page of the site, gets the notice (``tournaments/notify.js``) naming the
    setting that changed and the new start as the pages write it, without a reload; the same
    player's open page of the event reads itself again, so it shows the new settings."""
    host = site_url.split("//")[1].split(":")[0]
    contexts = []

    def page_of(session: str):
        context = browser.new_context(base_url=site_url, viewport={"width": 360, "height": 640},
                                      timezone_id="UTC")
        context.add_cookies([{"name": "sessionid", "value": session, "domain": host, "path": "/"}])
        contexts.append(context)
        return context.new_page()

    try:
        player, organiser = page_of(seeded["player_session"]), page_of(seeded["session"])
        player.goto("/rules/")
        expect(player.locator("#site-notices")).to_have_attribute("data-live", "true")
        on_event = page_of(seeded["player_session"])  # the same player, on the event's page
        on_event.goto(f"/tournaments/{seeded['upcoming']}/")
        expect(on_event.locator("#site-notices")).to_have_attribute("data-live", "true")
        organiser.goto(f"/tournaments/{seeded['upcoming']}/edit/")
        organiser.fill('input[name="starts_at"]', "2099-01-01T18:00")
        organiser.click("#edit-tournament-button")
        expect(organiser.locator("#event-start")).to_contain_text("2099")
        notice = player.locator('#site-notices .tournament-news[data-news="edited"]')
        expect(notice).to_contain_text("changed starts at")
        expect(notice).to_contain_text("It starts at 1 Jan 2099, 18:00.")  # as the page writes it
        # The page behind the notice is read again: it shows the new start.
        expect(on_event.locator("#event-start")).to_have_text("1 Jan 2099, 18:00")
        assert notice.locator("a").get_attribute("href") == f"/tournaments/{seeded['upcoming']}/"
    finally:
        for context in contexts:
            context.close()


def test_the_organiser_s_controls_change_live_when_the_event_starts(browser, site_url, seeded):
    """An organiser's open page of an upcoming event (Start now, Change the settings, Cancel the
    event, the seeds and each entrant's Remove) shows, without a reload, what applies once the
    event has started elsewhere (the organiser's other page here): Pause, and Withdraw for
    each entrant; Start now, the settings, the cancel button, the seeds and Remove are gone."""
    contexts = [signed_in(browser, site_url, seeded["session"], "en",
                          viewport={"width": 360, "height": 640}) for _ in range(2)]
    try:
        watching, starting = (context.new_page() for context in contexts)
        event = f"/tournaments/{seeded['upcoming']}/"
        watching.goto(event)
        gone = ["#start-button", "#edit-link", "#cancel-button", "#seed-form", ".remove-entrant"]
        for selector in gone:
            expect(watching.locator(selector).first).to_be_attached()
        starting.goto(event)
        starting.click("#start-button")
        expect(starting.locator("#event-status")).to_contain_text("Running")

        expect(watching.locator("#event-status")).to_contain_text("Running")
        for selector in gone:
            expect(watching.locator(selector)).to_have_count(0)
        organiser = watching.locator("#event-organiser")
        expect(organiser.locator(f'form[action="{event}pause/"] button')).to_be_visible()
        expect(watching.locator("#entrants .withdraw-entrant")).to_have_count(3)
        assert watching.evaluate("() => document.documentElement.scrollWidth") <= 360
    finally:
        for context in contexts:
            context.close()


def test_each_confirmation_asks_once_and_a_double_click_posts_once(browser, site_url, seeded):
    """The organiser's Remove and Cancel the event (upcoming) and Record a forfeit on a live
    pairing (running) ask one question per click (``static/site.js`` is the one handler of
    ``data-confirm``); dismissed, nothing is sent; a double click on an accepted forfeit asks
    once and sends one post."""
    host = site_url.split("//")[1].split(":")[0]
    context = browser.new_context(base_url=site_url, viewport={"width": 360, "height": 640})
    context.add_cookies([{"name": "sessionid", "value": seeded["session"], "domain": host, "path": "/"}])
    try:
        page = context.new_page()
        asked, posts, answer = [], [], {"accept": False}
        page.on("dialog", lambda d: (asked.append(d.message), d.accept() if answer["accept"] else d.dismiss()))
        page.on("request", lambda r: posts.append(r.url) if r.method == "POST" else None)
        page.goto(f"/tournaments/{seeded['upcoming']}/")
        page.wait_for_load_state()
        for button in (page.locator(".remove-entrant button").first, page.locator("#cancel-button")):
            asked.clear()
            button.click()
            tasks_done(page)  # a second dialog of the click would have come before this returns
            assert len(asked) == 1, asked
        assert posts == []

        page.goto(f"/tournaments/{seeded['swiss']}/")
        page.wait_for_load_state()
        pairing = page.locator("li.pairing").filter(has=page.locator(".table-link.live")).filter(
            has=page.locator("form.organiser-result")).filter(has_not_text="organiser_").first
        action = pairing.locator("form.organiser-result").get_attribute("action")
        asked.clear()
        answer["accept"] = True
        # A winner chosen, then two clicks before the page has left (a quick double click), in
        # one task: the page's refresh (tournaments/live.js) cannot swap the form in between.
        page.evaluate("""(action) => {
          const form = document.querySelector(`form[action="${action}"]`);
          form.elements.winner.selectedIndex = 1;
          form.querySelector("button").click();
          form.querySelector("button").click();
        }""", action)
        assert len(asked) == 1, asked
        expect(page.locator(".messages")).to_contain_text("The forfeit is recorded.")
        assert len([url for url in posts if "/forfeit" in url]) == 1, posts
    finally:
        context.close()


#: The organiser's cancel button against a primary button drawn on the same page, and the room
#: between each of the organiser's buttons and the next one on its line.
DANGER_APART = """() => {
  const primary = document.createElement('a');
  primary.className = 'button primary';
  primary.textContent = 'x';
  document.querySelector('main').append(primary);
  const cancel = document.querySelector('#cancel-button'), pick = (el) => {
    const s = getComputedStyle(el);
    return {background: s.backgroundColor, color: s.color, border: s.borderInlineStartColor};
  };
  const buttons = [...document.querySelectorAll('.organiser > .button, .organiser > form > .button')]
    .map((el) => el.getBoundingClientRect());
  const gaps = [];
  for (let i = 1; i < buttons.length; i++) {
    const a = buttons[i - 1], b = buttons[i];
    gaps.push(Math.abs(a.top - b.top) < 2 ? Math.max(b.left - a.right, a.left - b.right) : b.top - a.bottom);
  }
  const found = {cancel: pick(cancel), primary: pick(primary), gaps};
  primary.remove();
  return found;
}"""


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_the_cancel_button_is_outlined_apart_from_a_primary_one_and_from_its_neighbours(
    browser, site_url, seeded, lang
):
    """The organiser's "Cancel the event" is red on white in a red frame, where a primary button
    ("Register") is filled with the red: it is not mistaken for a harmless one; and none of the
    organiser's buttons touches the next, in a row or on the next line."""
    host = site_url.split("//")[1].split(":")[0]
    context = browser.new_context(base_url=site_url, viewport={"width": 360, "height": 640})
    context.add_cookies([
        {"name": "sessionid", "value": seeded["session"], "domain": host, "path": "/"},
        {"name": "django_language", "value": lang, "domain": host, "path": "/"},
    ])
    try:
        page = context.new_page()
        page.goto(f"/tournaments/{seeded['upcoming']}/")
        expect(page.locator("#cancel-button")).to_be_visible()
        for width, height in VIEWPORTS:
            resize(page, width, height)
            found = page.evaluate(DANGER_APART)
            cancel, primary = found["cancel"], found["primary"]
            assert cancel["background"] == "rgb(255, 255, 255)", found
            assert cancel["background"] != primary["background"], found
            assert cancel["color"] == cancel["border"] == primary["background"], found
            assert len(found["gaps"]) >= 2 and min(found["gaps"]) >= 6, found
    finally:
        context.close()


#: The organiser's arbiters box (``#arbiters``) as drawn: its frame, its inner edges (inside the
#: border and padding), and where its label, field, button and each arbiter's name and Remove lie.
ARBITERS_BOX = """() => {
  const box = document.querySelector('#arbiters'), style = getComputedStyle(box);
  const r = box.getBoundingClientRect(), px = (v) => parseFloat(v);
  const rect = (el) => {
    if (!el) return null;
    const q = el.getBoundingClientRect();
    return {left: q.left, right: q.right, height: q.height};
  };
  const input = document.querySelector('#arbiter-form input[name="username"]');
  return {
    view: innerWidth, scroll: document.scrollingElement.scrollWidth,
    border: `${style.borderTopStyle} ${px(style.borderTopWidth)}`, radius: px(style.borderTopLeftRadius),
    background: style.backgroundColor,
    inner: {left: r.left + px(style.borderLeftWidth) + px(style.paddingLeft),
            right: r.right - px(style.borderRightWidth) - px(style.paddingRight)},
    bullets: getComputedStyle(document.querySelector('.arbiter-list')).listStyleType,
    label: rect(document.querySelector('#arbiter-form label')),
    input: {...rect(input), font: px(getComputedStyle(input).fontSize)},
    button: rect(document.querySelector('#add-arbiter-button')),
    rows: [...document.querySelectorAll('.arbiter-list li')].map((li) => ({
      name: rect(li.querySelector('bdi')), remove: rect(li.querySelector('.remove-arbiter button'))})),
  };
}"""


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_the_arbiters_box_is_drawn_as_a_box_of_the_page(browser, site_url, seed, lang):
    """The organiser's arbiters box on a phone held upright (360 and 390 px), in English and in
    Arabic: a framed white panel, as the site draws its boxes; its arbiters listed without
    bullets, each name at the line's start and its Remove at the end (mirrored right to left);
    the name's field as tall as the button beside it, in 16 px type (a phone's browser zooms into
    a smaller field); nothing outside the box or the screen."""
    seeded = json.loads(seed("arbiters", uuid.uuid4().hex[:5]))
    context = signed_in(browser, site_url, seeded["session"], lang,
                        viewport={"width": 360, "height": 640})
    try:
        page = context.new_page()
        page.goto(f"/tournaments/{seeded['event']}/")
        expect(page.locator(".arbiter-list li")).to_have_count(2)
        start, end = ("right", "left") if lang == "ar" else ("left", "right")
        for width, height in [(360, 640), (390, 844)]:
            resize(page, width, height)
            found = page.evaluate(ARBITERS_BOX)
            screenshot(page.locator("#arbiters"), f"arbiters-{lang}-{width}x{height}")
            inner = found["inner"]
            assert found["scroll"] <= found["view"], found
            assert found["border"] == "solid 1" and found["radius"] > 0, found
            assert found["background"] == "rgb(255, 255, 255)", found
            assert found["bullets"] == "none", found
            assert found["input"]["font"] >= 16, found
            assert abs(found["input"]["height"] - found["button"]["height"]) <= 1, found
            inside = [found["label"], found["input"], found["button"]]
            for row in found["rows"]:
                inside += [row["name"], row["remove"]]
                assert abs(row["name"][start] - inner[start]) <= 1, row
                assert abs(row["remove"][end] - inner[end]) <= 1, row
            assert abs(found["label"][start] - inner[start]) <= 1, found
            for rect in inside:
                assert inner["left"] - 0.5 <= rect["left"] and rect["right"] <= inner["right"] + 0.5, found
            assert 0 <= inner["left"] and inner["right"] <= found["view"], found
    finally:
        context.close()


#: Each player's name in the page's sideways-scrolling tables and whether it is drawn on one
#: line: ``[[name, lines], ...]``.
NAME_LINES = """() => [...document.querySelectorAll('.table-scroll bdi')]
  .map((b) => [b.textContent, new Set([...b.getClientRects()].map((r) => Math.round(r.top))).size])"""


def test_a_name_in_a_table_is_never_split_inside_a_word(browser, site_url, seeded):
    """Standings, start list and crosstable at 360 px in Arabic: a long name keeps its line
    (the table scrolls), never "سمير_الم / صري"."""
    context = signed_in(browser, site_url, seeded["session"], "ar",
                        viewport={"width": 360, "height": 640}, device_scale_factor=1)
    try:
        page = context.new_page()
        split = []
        for address in ("/tournaments/{swiss}/", "/tournaments/{swiss}/crosstable/"):
            page.goto(address.format(**seeded))
            names = page.evaluate(NAME_LINES)
            assert any("Zeinab_ElShenawy" in name for name, _ in names), names
            split += [name for name, lines in names if lines > 1]
        assert split == []
    finally:
        context.close()
