"""The whole table in view (issue 22): at each phone, tablet and desktop viewport, in portrait
and landscape, for two and four players, in English and Arabic, the hand, the floor, every seat,
the scores and the player's actions lie inside the viewport and none overlaps another.

Each test loads a seeded table (``tests/e2e/seed.py table``: opened, a few plays made, a
signed-in session per seat set as the browser's cookie: no match is played here) and turns the
one page through every viewport, as a phone rotated and a window resized mid-play would. With
``E2E_SCREENSHOTS``, a screenshot of each layout is kept for a person to look at
(``tests/e2e/pages.py``, ``screenshot``).

Zoom: Chromium's page zoom at 200% gives a page half the window's size in CSS pixels (the
window's 1280×800 become a 640×400 layout viewport; ``devicePixelRatio`` doubles, which changes
only how sharply it is drawn), so a 640×400 viewport is the 1280×800 desktop zoomed to 200%, and
960×540 the 1920×1080 one (``ZOOMED``; WCAG 2.2, 1.4.4 "Resize Text" and 1.4.10 "Reflow"). Each
page is also checked there. The largest floor, 14 cards, is a table of its own
(``tests/e2e/seed.py floor``: its first round dealt from a deck arranged so that ten plays take
nothing).

A phone zoomed to 200% is a tiny page: a 390×844 phone's 195×422 in portrait, 422×195 held
sideways (``PHONES_ZOOMED``). There the actions fold into one "Actions" menu (games.css, "Tiny
screens"): the test asks for its button in view instead of Resign, then opens it and asks for
Resign in view, its confirmation asked, and nothing played. The readable minimum of a hand's
card, 40 CSS px on a phone, is 30 CSS px there: a CSS px is drawn twice as large at 200%, so the
card is 60 px of an unzoomed page, half as large again as the unzoomed minimum.
"""

import copy
import json
import re
import uuid
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.e2e.pages import (
    PLAYING,
    SECOND_GROUP,
    FakeTable,
    at_a_new_table,
    resize,
    screenshot,
    seat,
    settled,
    signed_in,
    socket_state_drawn,
    wait_until,
)

pytestmark = [pytest.mark.e2e, pytest.mark.xdist_group(SECOND_GROUP)]

ROOT = Path(__file__).resolve().parents[2]

#: The issue's viewports: phones in portrait and landscape, a tablet, two desktops.
VIEWPORTS = [(360, 640), (390, 844), (844, 390), (768, 1024), (1280, 800), (1920, 1080)]

#: The two desktops zoomed to 200% (the module's docstring, "Zoom").
ZOOMED = [(640, 400), (960, 540)]

#: Phones (390×844 and 844×390) zoomed to 200% (the module's docstring).
PHONES_ZOOMED = [(422, 195), (195, 422)]

#: What must be in view, each one box (a seat is each ``.seat-box`` of the board).
PARTS = {"hand": "#hand", "floor": "#floor", "scores": "#scoreboard", "resign": "#resign-button"}

#: The same on a tiny screen, where Resign is in the actions' menu.
TINY_PARTS = {**{k: v for k, v in PARTS.items() if k != "resign"}, "actions": "#actions-button"}


def tiny(width: int, height: int) -> bool:
    """A viewport of games.css's "Tiny screens" (under 260 CSS px on a side)."""
    return min(width, height) <= 260

#: What must be in view and apart from the rest when it is shown: the last play (under the
#: floor, hidden before the first play).
SHOWN_PARTS = {"last play": "#last-play"}

MEASURE = """(parts) => {
  const box = (el) => { const r = el.getBoundingClientRect();
    return {x: r.left, y: r.top, right: r.right, bottom: r.bottom, w: r.width, h: r.height}; };
  const out = {};
  for (const [name, sel] of Object.entries(parts)) {
    const el = document.querySelector(sel);
    if (el && el.getClientRects().length) out[name] = box(el);
  }
  document.querySelectorAll('#board .seat-box').forEach((el, k) => { out['seat' + k] = box(el); });
  // A seat's name wider than its seat: a one-line name centred across the seat's (and the
  // board's) edge. Its letters are cut by the board, not by the ellipsis.
  out.wide = Array.from(document.querySelectorAll('#board .seat-box')).filter((el) => {
    const name = el.querySelector('.seat-name'), r = el.getBoundingClientRect();
    if (!name || !name.getClientRects().length) return false;
    const n = name.getBoundingClientRect();
    return n.left < r.left - 0.5 || n.right > r.right + 0.5;
  }).map((el) => el.querySelector('.seat-name').textContent);
  const floor = document.querySelector('#floor');
  const past = (c) => { const r = c.getBoundingClientRect(), f = floor.getBoundingClientRect();
    return Math.max(f.top - r.top, r.bottom - f.bottom, f.left - r.left, r.right - f.right); };
  const spilling = floor ? Array.from(floor.querySelectorAll('.card')).filter((c) => past(c) > 0.5) : [];
  out.spilt = spilling.length;
  out.spill = spilling.length ? Math.max(...spilling.map(past)) : 0;
  const card = document.querySelector('#hand .card');
  out.card = card ? box(card) : null;
  out.view = {w: document.documentElement.clientWidth, h: window.innerHeight,
              scrollW: document.documentElement.scrollWidth};
  return out;
}"""


def overlap(a, b) -> bool:
    return a["x"] < b["right"] - 0.5 and b["x"] < a["right"] - 0.5 and a["y"] < b["bottom"] - 0.5 and b["y"] < a["bottom"] - 0.5


def problems(boxes: dict, players: int, parts: dict = PARTS) -> list[str]:
    view = boxes["view"]
    out = []
    names = [n for n in boxes if n not in ("view", "card", "spilt", "spill", "wide")]
    seats = [n for n in names if n.startswith("seat")]
    if len(seats) != players - 1 and len(seats) != players:
        out.append(f"{len(seats)} seats shown for {players} players")
    for part in parts:
        if part not in boxes:
            out.append(f"{part} not shown")
    for n in names:
        b = boxes[n]
        if b["x"] < -0.5 or b["y"] < -0.5 or b["right"] > view["w"] + 0.5 or b["bottom"] > view["h"] + 0.5:
            out.append(f"{n} outside the viewport: {b}")
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            if overlap(boxes[a], boxes[b]):
                out.append(f"{a} overlaps {b}")
    if boxes.get("wide"):
        out.append(f"names wider than their seats: {boxes['wide']}")
    if boxes["spilt"]:
        out.append(f"{boxes['spilt']} floor cards outside the floor, by up to {boxes['spill']:.1f} px")
    if view["scrollW"] > view["w"] + 1:
        out.append(f"the page scrolls sideways ({view['scrollW']} > {view['w']})")
    return out


def open_table(browser, site_url, table: dict, lang: str, fake_clock: bool = False):
    """A context signed in as seat 0 of ``table`` in ``lang``, and its page on the live table;
    with ``fake_clock`` the page's clock is Playwright's (``page.clock``), which the test can hold
    still."""
    context = signed_in(browser, site_url, table["sessions"][0], lang,
                        viewport={"width": 390, "height": 844}, device_scale_factor=1)
    page = context.new_page()
    if fake_clock:
        page.clock.install()
    page.goto(f"/table/{table['match']}/")
    expect(page.locator("#live-status")).to_have_attribute("data-state", "live")
    # The state the socket's first answer brings is drawn: no redraw is still to come that
    # would undo what a test writes into the page.
    socket_state_drawn(page)
    expect(page.locator("#hand .card").first).to_be_visible()
    return context, page


def to_play(table: dict) -> dict:
    """``table`` as :func:`open_table` opens it for the seat whose turn it is."""
    return {**table, "sessions": table["sessions"][table["turn"]:]}


def failures_at(page, viewports, players: int, name: str) -> list[str]:
    """What is wrong (:func:`problems`, cards too small on a phone) at each of ``viewports``,
    turned to one after another; a picture of each as ``<name>-WxH`` (:func:`screenshot`)."""
    failures = []
    for width, height in viewports:
        page.set_viewport_size({"width": width, "height": height})
        # The layout follows the new size over a few frames (table_fit.js fits the floor after
        # the resize): measured again until it is right or 5 s have passed, as expect() waits,
        # so that a loaded machine's slower frames are not a failure.
        parts = TINY_PARTS if tiny(width, height) else PARTS
        readable = 30 if tiny(width, height) else 40
        for _ in range(25):
            page.wait_for_timeout(200)
            boxes = page.evaluate(MEASURE, {**parts, **SHOWN_PARTS})
            found = problems(boxes, players, parts)
            if boxes["card"] and width <= 844 and min(boxes["card"]["w"], boxes["card"]["h"]) < readable:
                found.append(f"cards too small to read: {boxes['card']}")
            if not found:
                break
        screenshot(page, f"{name}-{width}x{height}", full_page=False)
        if tiny(width, height) and not found:
            found = actions_menu_problems(page, name, width, height)
        failures += [f"{width}x{height}: {p}" for p in found]
    return failures


def inside(box: dict, view: dict) -> bool:
    return box["x"] >= -0.5 and box["y"] >= -0.5 and box["right"] <= view["w"] + 0.5 and box["bottom"] <= view["h"] + 0.5


def actions_menu_problems(page, name: str, width: int, height: int) -> list[str]:
    """On a tiny screen: the actions' menu opens in view with Resign in it, Resign asks its
    confirmation (the menu closed behind it), Cancel plays nothing, and Escape closes the menu."""
    out = []
    menu, resign = page.locator("#table-actions"), page.locator("#resign-button")
    expect(resign).to_be_hidden()
    held = page.locator("#hand .card").count()
    page.locator("#actions-button").click()
    expect(resign).to_be_visible()
    boxes = page.evaluate(MEASURE, {"menu": "#table-actions", "resign": "#resign-button"})
    screenshot(page, f"{name}-{width}x{height}-actions", full_page=False)
    out += [f"the actions' {part} outside the viewport: {boxes[part]}"
            for part in ("menu", "resign") if not inside(boxes[part], boxes["view"])]
    resign.click()
    expect(page.locator("#confirm-dialog")).to_be_visible()
    expect(menu).to_be_hidden()
    page.locator("#confirm-cancel").click()
    expect(page.locator("#confirm-dialog")).to_be_hidden()
    expect(page.locator("#hand .card")).to_have_count(held)
    expect(page.locator("#table")).to_have_attribute("data-status", "playing")
    page.locator("#actions-button").click()
    expect(resign).to_be_visible()
    page.keyboard.press("Escape")
    expect(resign).to_be_hidden()
    return out


@pytest.mark.parametrize("lang", ["en", "ar", "fr"])
@pytest.mark.parametrize("players", [2, 4])
def test_the_whole_table_is_in_view_at_every_viewport(browser, site_url, seeded, players, lang):
    """Seen by the seat to play, whose bar has the most in it ("More time"): seen by another
    seat, a table passed or failed by who the deal made first to play."""
    table = seeded(players)
    context, page = open_table(browser, site_url, to_play(table), lang)
    try:
        if players == 4:  # the partner, across the table, is named so: sides are not obvious
            expect(page.locator("#board .badge.partner")).to_have_count(1)
            expect(page.locator('.seat-slot[data-pos="top"] .badge.partner')).to_have_text(
                {"en": "Partner", "ar": "الشريك", "fr": "Partenaire"}[lang])
        failures = failures_at(page, VIEWPORTS + ZOOMED + PHONES_ZOOMED, players, f"table-{players}p-{lang}")
        assert not failures, "\n".join(failures)
    finally:
        context.close()


#: Each card of the last play (the card played and those it took) whose left edge is not inside
#: the last play's box: a card cut off, not a card overlapped by the next (whose left edge, with
#: its rank, still shows).
LAST_PLAY_CUT = """() => { const box = document.getElementById('last-play').getBoundingClientRect();
  const cut = [];
  const shown = Array.from(document.querySelectorAll('#last-play .card')).filter((c) => c.getClientRects().length);
  const more = document.querySelector('#last-play .taken-more');
  shown.forEach((c) => { const r = c.getBoundingClientRect();
    if (r.left < box.left - 0.5 || r.left + 4 > box.right + 0.5 || r.right > box.right + 0.5 && c === shown[shown.length - 1])
      cut.push(c.dataset.card + ' at ' + Math.round(r.left) + '..' + Math.round(r.right)); });
  if (more) { const r = more.getBoundingClientRect();
    if (r.left < box.left - 0.5 || r.right > box.right + 0.5) cut.push(more.textContent + ' cut'); }
  return {cards: shown.length + (more ? Number(more.textContent.slice(1)) : 0), cut: cut,
          box: [Math.round(box.left), Math.round(box.right)]}; }"""


@pytest.mark.parametrize(("players", "lang"), [(2, "en"), (4, "ar")])
def test_a_floor_of_fourteen_cards_is_in_view_at_every_viewport(browser, site_url, seeded,
                                                                 players, lang):
    """The floor of 14 cards at every size; then the Seven of Diamonds takes it all, and the
    last play of 15 cards shows each of them (none cut off) on the smallest screens."""
    table = seeded(players, "floor")
    context, page = open_table(browser, site_url, to_play(table), lang)
    try:
        expect(page.locator("#floor .card")).to_have_count(14)
        failures = failures_at(page, VIEWPORTS + ZOOMED + PHONES_ZOOMED, players, f"floor14-{players}p-{lang}")
        assert not failures, "\n".join(failures)
        page.locator('#hand .card[data-card="7D"]').click()
        expect(page.locator("#last-play .card")).to_have_count(15)
        cut = {}
        for width, height in [(360, 640)] + PHONES_ZOOMED:
            page.set_viewport_size({"width": width, "height": height})
            wait_until(page, f"() => document.documentElement.clientWidth === {width}")
            page.wait_for_timeout(300)
            found = page.evaluate(LAST_PLAY_CUT)
            if found["cut"] or found["cards"] != 15:
                cut[f"{width}x{height}"] = found
            screenshot(page, f"sweep15-{players}p-{lang}-{width}x{height}", full_page=False)
        assert not cut, cut
    finally:
        context.close()


def test_a_long_name_in_the_last_play_never_pushes_a_seat_off_the_board(browser, site_url, seeded):
    """The last play's line is cut short, not the board widened, and the names cut at their
    own ends: a longest name (24 letters, the
    sign-up's limit) who took three cards made the centre's column as wide as that line, and
    the seat on the right went past the board's edge at 640×400 in Arabic (seen in a full run,
    by who the deal made play last)."""
    table = seeded(4)
    context, page = open_table(browser, site_url, to_play(table), "ar")
    try:
        page.set_viewport_size({"width": 640, "height": 400})
        expect(page.locator("#last-play")).to_be_visible()
        # The line table_board.js's renderLastPlay draws for such a play (the seed's players
        # and plays vary from run to run): the name, the card played, "took" and three cards.
        page.evaluate("""() => {
            const labels = document.querySelectorAll('#last-play .last-label');
            document.querySelector('#last-play .cut-name').textContent = 'Zeinab_ElShenawy_Abdelra';
            labels[1].textContent = 'وأخذ';
            const card = document.querySelector('#last-play .card');
            let taken = document.querySelector('#last-play .taken');
            if (!taken) {
                taken = document.createElement('span');
                taken.className = 'taken';
                labels[1].after(taken);
            }
            taken.replaceChildren(...[0, 1, 2].map(() => card.cloneNode(true)));
        }""")
        found = []
        for _ in range(10):  # the layout settles over a few frames
            page.wait_for_timeout(200)
            boxes = page.evaluate(MEASURE, {**PARTS, **SHOWN_PARTS, "board": "#board"})
            board = boxes.pop("board")
            found = problems(boxes, 4)
            found += [f"{name} outside the board: {box}" for name, box in boxes.items()
                      if name.startswith("seat") and not inside(
                          {**box, "x": box["x"] - board["x"], "y": box["y"] - board["y"],
                           "right": box["right"] - board["x"], "bottom": box["bottom"] - board["y"]},
                          {"w": board["w"], "h": board["h"]})]
            if not found:
                break
        screenshot(page, "last-play-long-name-4p-ar-640x400", full_page=False)
        assert not found, "\n".join(found)
        # Cut at its own end, its start shown, on an Arabic page: the last play's name and the
        # scoreboard's (the whole line's cut took a Latin name's start: "…y_Abdelra").
        # The last play's name may instead show whole, its line taking two where the floor
        # leaves the centre the height (table/fit.js).
        two_lines = page.locator("#last-play").evaluate("n => n.classList.contains('two-lines')")
        for name, whole_allowed in ((page.locator("#last-play .cut-name"), two_lines),
                                    (page.locator(".side-member", has_text="abdelrahman_"), False)):
            direction, cut = name.evaluate("n => [getComputedStyle(n).direction, n.scrollWidth > n.clientWidth]")
            assert direction == "ltr" and (cut or whole_allowed), (direction, cut, whole_allowed)
        # An Arabic name reads right to left: each name takes its own direction, not the
        # page's nor always Latin's.
        arabic_first = page.locator(".side-member", has_text="سارة_")
        assert arabic_first.evaluate("n => getComputedStyle(n).direction") == "rtl"
    finally:
        context.close()


def test_a_table_opened_or_reloaded_on_a_zoomed_phone_is_in_view(browser, site_url, seeded):
    """A table opened mid-match on a phone zoomed in (mobile emulation, never resized) shows
    the whole table, and so it does after a reload: not the header with the hand below the
    screen, nor the browser's restored scroll of before, below the scores."""
    table = to_play(seeded(4))
    failures = []
    for width, height in PHONES_ZOOMED + [(240, 427)]:
        context = signed_in(browser, site_url, table["sessions"][0], "en",
                            viewport={"width": width, "height": height},
                            is_mobile=True, has_touch=True, device_scale_factor=2)
        try:
            page = context.new_page()
            page.goto(f"/table/{table['match']}/")
            expect(page.locator("#hand .card").first).to_be_visible()
            for moment in ("opened", "reloaded"):
                if moment == "reloaded":
                    page.evaluate("() => window.scrollTo(0, document.body.scrollHeight)")
                    page.reload()
                    expect(page.locator("#hand .card").first).to_be_visible()
                found = []
                for _ in range(10):  # the layout settles over a few frames
                    page.wait_for_timeout(200)
                    found = problems(page.evaluate(MEASURE, {**TINY_PARTS, **SHOWN_PARTS}), 4, TINY_PARTS)
                    if not found:
                        break
                failures += [f"{width}x{height} {moment}: {p}" for p in found]
        finally:
            context.close()
    assert not failures, "\n".join(failures)


PLACE = """() => ({y: window.scrollY, top: document.getElementById('play-area').getBoundingClientRect().top})"""


def test_a_phone_turned_or_zoomed_mid_play_brings_the_table_back_into_view(browser, site_url, seeded):
    """A phone (mobile emulation, where a turn changes no scroll by itself) turned between its
    layouts, and between two short ones (844×390 to 195×422, no media query changes), each time
    after the player had scrolled away: the play area is brought back, to the screen's top on a
    short screen, with the page at its top on a tall one. A change of height alone (the address
    bar) leaves the player's scroll as it was."""
    table = seeded(2)
    context = signed_in(browser, site_url, table["sessions"][0],
                        viewport={"width": 390, "height": 844}, device_scale_factor=3,
                        is_mobile=True, has_touch=True)
    page = context.new_page()
    try:
        page.goto(f"/table/{table['match']}/")
        expect(page.locator("#hand .card").first).to_be_visible()
        for width, height in [(844, 390), (195, 422), (422, 195), (390, 844), (195, 422)]:
            page.evaluate("window.scrollTo({top: document.body.scrollHeight, behavior: 'instant'})")
            page.set_viewport_size({"width": width, "height": height})
            if tiny(width, height) or height < 560:
                wait_until(page, "() => Math.abs(document.getElementById('play-area').getBoundingClientRect().top) < 1")
            else:
                wait_until(page, "() => window.scrollY === 0")
        page.evaluate("window.scrollTo({top: 40, behavior: 'instant'})")
        resize(page, 195, 380)
        assert page.evaluate(PLACE)["y"] == 40
    finally:
        context.close()


def test_a_turn_brings_a_table_scrolled_away_back_into_view(browser, site_url, seeded):
    """A phone held sideways (mobile emulation) whose page was scrolled down past the table
    while the other player was to play: when the turn comes the play area is brought back to
    the screen's top, the floor and the hand in view to play."""
    table = seeded(2)
    phone = dict(viewport={"width": 640, "height": 360}, device_scale_factor=2, is_mobile=True, has_touch=True)
    waiting = signed_in(browser, site_url, table["sessions"][1 - table["turn"]], **phone)
    playing = signed_in(browser, site_url, table["sessions"][table["turn"]], **phone)
    try:
        me, other = waiting.new_page(), playing.new_page()
        for page in (me, other):
            page.goto(f"/table/{table['match']}/")
            expect(page.locator("#live-status")).to_have_attribute("data-state", "live")
        expect(me.locator("#table")).to_have_attribute("data-my-turn", "false")
        me.evaluate("window.scrollTo({top: document.body.scrollHeight, behavior: 'instant'})")
        wait_until(me, "() => document.getElementById('play-area').getBoundingClientRect().top < -100")
        other.locator("#hand .card").first.tap()
        expect(me.locator("#table")).to_have_attribute("data-my-turn", "true")
        wait_until(me, "() => Math.abs(document.getElementById('play-area').getBoundingClientRect().top) < 1")
    finally:
        waiting.close()
        playing.close()


#: The room (px) under the hand's lowest card, to the viewport's bottom edge, once the play area
#: is at the screen's top (where the page is brought in play on a short screen, table/fit.js).
HAND_ROOM = """() => {
  if (Math.abs(document.getElementById('play-area').getBoundingClientRect().top) >= 1) return null;
  const cards = [...document.querySelectorAll('#hand .card')].map((c) => c.getBoundingClientRect().bottom);
  return cards.length ? innerHeight - Math.max(...cards) : null;
}"""


@pytest.mark.parametrize(("players", "lang"), [(2, "en"), (4, "ar")])
def test_a_phone_held_sideways_leaves_room_under_the_hand(browser, site_url, seeded, players, lang):
    """At 740×360 (a phone held sideways) the hand's cards ended exactly on the screen's bottom
    edge: nothing hidden, but they read as cut. They keep a few px from it."""
    table = seeded(players)
    context = signed_in(browser, site_url, table["sessions"][table["turn"]], lang,
                        viewport={"width": 740, "height": 360}, device_scale_factor=2,
                        is_mobile=True, has_touch=True)
    try:
        page = context.new_page()
        page.goto(f"/table/{table['match']}/")
        expect(page.locator("#live-status")).to_have_attribute("data-state", "live")
        socket_state_drawn(page)
        expect(page.locator("#hand .card").first).to_be_visible()
        wait_until(page, f"() => ({HAND_ROOM})() !== null")
        settled(page)
        screenshot(page, f"hand-room-{players}p-{lang}-740x360", full_page=False)
        room = page.evaluate(HAND_ROOM)
        assert room is not None and room >= 4, f"{room} px under the hand"
        boxes = page.evaluate(MEASURE, {**PARTS, **SHOWN_PARTS})
        assert not problems(boxes, players), problems(boxes, players)
    finally:
        context.close()


#: The round's score and the result: inside the screen's width, every cell of its tables
#: inside the box (not cut at its edge), and the page not scrolling sideways.
SCORE_FITS = """() => {
  const w = document.documentElement.clientWidth, box = document.getElementById('breakdown');
  if (!box || box.hidden) return 'no breakdown shown';
  const b = box.getBoundingClientRect();
  if (b.left < -0.5 || b.right > w + 0.5) return 'the breakdown is outside the screen: ' + b.left + '-' + b.right;
  const cut = Array.from(box.querySelectorAll('th, td')).filter((c) => {
    const r = c.getBoundingClientRect(); return r.left < b.left - 0.5 || r.right > b.right + 0.5; });
  if (cut.length) return cut.length + ' cells cut at the edge, first: ' + cut[0].textContent;
  if (document.documentElement.scrollWidth > w + 1) return 'the page scrolls sideways: ' + document.documentElement.scrollWidth;
  const title = document.getElementById('breakdown-title').getBoundingClientRect();
  const hit = document.elementFromPoint(title.left + title.width / 2, title.top + title.height / 2);
  if (!hit || !box.contains(hit)) return 'the breakdown is covered by ' + (hit ? hit.className : 'nothing');
  return '';
}"""


def test_the_rounds_score_and_the_result_fit_a_phone_zoomed_to_200(browser, site_url, seeded, seed):
    """At the round's end the score over the table, and at the match's end the result, fit a
    195×422 screen in Arabic (the longest labels) and a 240×427 one (a 360×640 phone at 150%):
    every column of the round's score shown, and the finished page no wider than the screen."""
    table = seeded(2)
    seed("play", table["match"], 2)  # a card left in each hand
    context, page = open_table(browser, site_url, table, "ar", fake_clock=True)
    other_context, other = open_table(browser, site_url, {**table, "sessions": table["sessions"][1:]}, "ar",
                                      fake_clock=True)
    try:
        for each in (page, other):
            each.set_viewport_size({"width": 195, "height": 422})
        for play in range(2):
            wait_until(page, "() => document.getElementById('table').dataset.pending !== 'true'")
            mover = page if page.locator("#table").get_attribute("data-my-turn") == "true" else other
            expect(mover.locator("#table")).to_have_attribute("data-my-turn", "true")
            seq = mover.locator("#table").get_attribute("data-seq")
            if play == 1:
                # The pages' clocks stand still from the round's last play: the round's score
                # stays over the table (score.js closes it after the round's pause, 1 s on the
                # test servers) for as long as the checks take on a loaded machine.
                for each in (page, other):
                    each.clock.pause_at(datetime.now(timezone.utc) + timedelta(seconds=1))
            mover.locator("#hand button.card").first.click()
            for each in (page, other):
                expect(each.locator("#table")).not_to_have_attribute("data-seq", seq)
        for each in (page, other):
            expect(each.locator("#breakdown")).to_be_visible()
            each.locator("#breakdown-title").scroll_into_view_if_needed()
            screenshot(each, "round-score-ar-195x422", full_page=False)
            assert each.evaluate(SCORE_FITS) == ""
        screenshot(page, "round-score-ar-195x422", full_page=False)
        for each in (page, other):
            each.clock.resume()
        page.locator("#breakdown-close").click()
        page.locator("#actions-button").click()
        page.locator("#resign-button").click()
        page.locator("#confirm-yes").click()
        expect(page.locator("#result-banner")).to_be_visible()
        for width, height in [(390, 844), (195, 422), (240, 427)]:
            page.set_viewport_size({"width": width, "height": height})
            expect(page.locator("#breakdown")).to_be_visible()
            wait_until(page, f"() => document.documentElement.clientWidth === {width}")
            page.locator("#breakdown-title").scroll_into_view_if_needed()
            assert page.evaluate(SCORE_FITS) == "", (width, height)
            # Each side headed by its names, on a tiny screen by its label (four names in a
            # 195 px column would wrap letter by letter).
            head = page.locator("#breakdown thead th").first
            shown, hidden = ("label", "names") if width <= 260 else ("names", "label")
            expect(head.locator(f".score-side-{shown}")).to_be_visible()
            expect(head.locator(f".score-side-{hidden}")).to_be_hidden()
            screenshot(page, f"finished-ar-{width}x{height}")
    finally:
        context.close()
        other_context.close()



#: The site's notices ("basra:notice" on document, as static/games/notices.js passes on what its
#: socket brings): a friend's rated match and an event's end, each a notice in the site's box.
TWO_NOTICES = """() => {
  const notice = (kind, payload) => document.dispatchEvent(new CustomEvent("basra:notice", {detail: {kind, payload}}));
  notice("friend_rated", {friend: "nour", url: "/"});
  notice("tournament_news", {news: "finished", event: "Cairo Cup", event_url: "/tournaments/"});
}"""

#: The result banner's box and each notice's on the screen, and where they cross:
#: ``[notice text, overlap width, overlap height]`` for each notice that crosses the banner.
NOTICES_OVER_RESULT = """() => {
  const banner = document.getElementById('result-banner').getBoundingClientRect();
  return Array.from(document.querySelectorAll('.site-notice')).map((notice) => {
    const r = notice.getBoundingClientRect();
    return [notice.textContent, Math.min(r.right, banner.right) - Math.max(r.left, banner.left),
            Math.min(r.bottom, banner.bottom) - Math.max(r.top, banner.top)];
  }).filter(([, width, height]) => width > 0 && height > 0);
}"""


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_notices_never_cover_the_result_of_a_phone_held_sideways(browser, site_url, seed, lang):
    """At a finished match on a 740×360 phone held sideways, the site's notices (a friend's
    match, an event's end) stay clear of the result, a banner taller than the screen, wherever
    the page is scrolled, and are still shown, inside the screen's width."""
    tag = uuid.uuid4().hex[:5]
    table = json.loads(seed("rated", 2, 61, f"amira_{tag}", f"omar_{tag}"))
    context = signed_in(browser, site_url, table["sessions"][0], lang,
                        viewport={"width": 740, "height": 360}, device_scale_factor=1)
    try:
        page = context.new_page()
        page.goto(f"/table/{table['match']}/")
        banner = page.locator("#result-banner")
        expect(banner).to_be_visible()
        page.evaluate(TWO_NOTICES)
        notices = page.locator(".site-notice")
        expect(notices).to_have_count(2)
        for where in ("start", "end"):  # the banner's top, then its bottom, at the screen's edge
            banner.evaluate(f"b => b.scrollIntoView({{block: '{where}'}})")
            settled(page)
            assert page.evaluate(NOTICES_OVER_RESULT) == [], where
        for notice in notices.all():
            expect(notice).to_be_visible()
            box = notice.bounding_box()
            assert box["x"] >= 0 and box["x"] + box["width"] <= 740, box
        notices.first.scroll_into_view_if_needed()
        screenshot(page, f"result-and-notices-{lang}-740x360", full_page=False)
    finally:
        context.close()


#: Each side's head of the round's score, as drawn: how many lines its words take (text boxes
#: whose tops lie within half a line of each other share one), and the parts cut short (wider
#: inside than their box) or outside the side's column.
HEAD_NAMES = """() => Array.from(document.querySelectorAll('#breakdown thead th[scope="col"]')).map((th) => {
  const box = th.querySelector('.score-side-names'), cell = th.getBoundingClientRect();
  const tops = [], outside = [];
  const walker = document.createTreeWalker(box, NodeFilter.SHOW_TEXT);
  for (let node; (node = walker.nextNode());) {
    const range = document.createRange();
    range.selectNodeContents(node);
    for (const r of range.getClientRects()) {
      if (!r.width) continue;
      tops.push(r.top);
      if (r.left < cell.left - 0.5 || r.right > cell.right + 0.5) outside.push(node.textContent);
    }
  }
  const half = parseFloat(getComputedStyle(box).fontSize) / 2;
  const lines = tops.sort((a, b) => a - b).filter((top, k) => k === 0 || top - tops[k - 1] > half).length;
  const cut = Array.from(box.querySelectorAll('*')).filter((e) => e.clientWidth && e.scrollWidth > e.clientWidth + 0.5)
    .map((e) => e.textContent);
  return {names: box.textContent, lines, cut, outside};
})"""


def finished(seats: list) -> callable:
    """A change to ``tests/e2e/test_table_notices.py``'s state: a match over after its first
    round, its seats ``seats`` (its round's score stays over the table)."""
    def change(state):
        players = len(seats)
        state["match"].update(status="finished", players=players)
        state["match"]["rules"]["players"] = players
        state["seats"] = seats
        state["round"].update(over=True, turn=None, hand=[], hand_sizes=[0] * players)
        state["round_results"] = [{
            "number": 1, "cards": [30, 22], "majority": [30, 0], "basras": [10, 20],
            "jack_basras": [0, 20], "card_points": [0, 0], "total": [40, 40],
            "leftover": {"side": 0, "cards": ["5H"]}}]
        state["scores"] = [40, 40]
        state["result"] = {"winner": 0, "scores": [40, 40], "reason": "resign"}
    return change


@pytest.mark.parametrize("lang", ["en", "ar", "fr"])
def test_the_score_heads_wrap_between_whole_names_and_show_the_computer_whole(new_page, request, lang):
    """At 360 and 390 px the round's score headed a side "Amira / & / Omar", a word a line, and
    a computer's side "Compute…". Partners' names now wrap only between the names, the "&" kept
    with one; a computer seat is its badge and level, whole, even with three of them at four;
    nothing sticks out of its column. The socket is answered by the test (test_table_notices'
    FakeTable), each table drawn on the one page as a state of the protocol."""
    page = new_page(viewport={"width": 360, "height": 800}, locale=lang)
    fake = FakeTable(page)
    persons = [seat(0, "Amira"), seat(1, "Khaled"), seat(2, "Omar"), seat(3, "Nour")]
    finished(persons)(fake.state)
    at_a_new_table(request, page, f"heads_{lang}_{uuid.uuid4().hex[:5]}")
    expect(page.locator("#table")).to_have_attribute("data-seq", str(fake.state["seq"]))
    tables = {
        "partners": persons,
        "the computer": [seat(0, "Amira"), seat(1, None, bot="greedy")],
        "three computers": [seat(0, "Amira"), seat(1, None, bot="greedy"),
                            seat(2, None, bot="strong"), seat(3, None, bot="random")],
    }
    wrong = []
    for name, seats in tables.items():
        if name != "partners":
            fake.push(finished(seats))
        expect(page.locator("#breakdown")).to_be_visible()
        for width in (360, 390):
            page.set_viewport_size({"width": width, "height": 800})
            wait_until(page, f"() => document.documentElement.clientWidth === {width}")
            for head in page.evaluate(HEAD_NAMES):
                # A side's words on as many lines as it has names at most (a computer's may
                # wrap between its own words when three share the table).
                most = 99 if name == "three computers" else len(seats) // 2
                if head["lines"] > most or head["cut"] or head["outside"]:
                    wrong.append((name, width, head))
            screenshot(page.locator("#breakdown"),
                       f"score-heads-{name.replace(' ', '-')}-{lang}-{width}")
    assert not wrong, wrong


#: The last play's name, as drawn and as wide as it would be whole (px), and the taken cards
#: still shown (not folded into "+N").
LAST_NAME = """() => { const n = document.querySelector('#last-play .cut-name');
  const taken = Array.from(document.querySelectorAll('#last-play .taken .card'))
    .filter((c) => c.getClientRects().length);
  return {shown: n.clientWidth, whole: n.scrollWidth, taken: taken.length}; }"""

#: A cut name shows at least this much of itself (px: four or five letters and the ellipsis).
NAME_SHOWN = 30


@pytest.mark.parametrize("lang", ["fr", "ar"])
def test_a_short_name_in_the_last_play_gives_way_after_the_taken_cards(new_page, request, lang):
    """At four players on a 360 px phone the last play's line has the least room, and the
    name gave way first: "N… a joué" told nobody who played. Now the cards it took overlap
    more, then fold into "+N", before a short name is cut; only with all of them folded is it
    cut, still showing its first letters (table/fit.js). A long name is cut (test above)."""
    page = new_page(viewport={"width": 360, "height": 640}, locale=lang)
    state = copy.deepcopy(PLAYING)
    state["seats"][3]["username"] = "Nourhan"
    state["round"]["last_play"] = {"seat": 3, "card": "7D", "basra": None,
                                   "taken": ["10D", "8H", "4H", "2C", "KS", "9C"]}
    fake = FakeTable(page, state)
    at_a_new_table(request, page, f"lastname_{lang}_{uuid.uuid4().hex[:5]}")
    expect(page.locator("#last-play .cut-name")).to_have_text("Nourhan")
    found = {}
    for width, height in [(360, 640), (390, 844), (640, 360)]:
        resize(page, width, height)
        name, cards = page.evaluate(LAST_NAME), page.evaluate(LAST_PLAY_CUT)
        cut = name["shown"] + 1 < name["whole"]
        if (cut and name["taken"]) or name["shown"] < NAME_SHOWN or cards["cut"] or cards["cards"] != 7:
            found[f"{width}x{height}"] = {"name": name, "cards": cards}
        screenshot(page, f"last-play-name-4p-{lang}-{width}x{height}", full_page=False)
    assert not found, found
    # A card that took nothing, and one that took one card: with the centre's room the line
    # takes two lines, and the name, "took nothing" and the card taken all show.
    fake.push(lambda s: s["round"].update(
        last_play={"seat": 3, "card": "KS", "basra": None, "taken": []}, turn=0))
    resize(page, 360, 640)
    name = page.evaluate(LAST_NAME)
    assert name["shown"] + 1 >= name["whole"], name
    nothing = page.locator("#last-play .took-nothing")
    expect(nothing).not_to_have_class(re.compile(r"\bvisually-hidden\b"))
    expect(nothing).to_be_visible()
    expect(page.locator("#last-play")).to_have_class(re.compile(r"\btwo-lines\b"))
    screenshot(page, f"last-play-nothing-4p-{lang}-360x640", full_page=False)
    # One card taken: it shows, and so does the name.
    fake.push(lambda s: s["round"].update(
        last_play={"seat": 3, "card": "5S", "basra": None, "taken": ["5H"]}, turn=0))
    expect(page.locator("#last-play .taken .card")).to_have_count(1)
    resize(page, 390, 844)
    resize(page, 360, 640)
    name, cards = page.evaluate(LAST_NAME), page.evaluate(LAST_PLAY_CUT)
    assert name["shown"] + 1 >= name["whole"] and name["taken"] == 1, name
    assert cards["cards"] == 2 and not cards["cut"], cards


#: Each computer's name of ``names`` (a selector), in its ``box`` (a selector of an ancestor):
#: its text, and whether each of its digits (the seat's number) is drawn: not hidden, inside
#: every box up to ``box`` that clips it, and clear of the "…" of a box cut short.
BOT_DIGITS = """([names, box]) => Array.from(document.querySelectorAll(names)).map((name) => {
  const stop = name.closest(box).parentElement;
  const clips = [];
  for (let e = name; e && e !== stop; e = e.parentElement) {
    const style = getComputedStyle(e);
    if (style.overflowX !== 'visible') clips.push(e);
  }
  const walker = document.createTreeWalker(name, NodeFilter.SHOW_TEXT);
  const digits = [];
  for (let text = walker.nextNode(); text; text = walker.nextNode()) {
    for (let k = 0; k < text.data.length; k++) {
      if (!/[0-9\\u0660-\\u0669]/.test(text.data[k])) continue;
      const range = document.createRange();
      range.setStart(text, k);
      range.setEnd(text, k + 1);
      const r = range.getBoundingClientRect();
      const shown = r.width > 0 && clips.every((e) => {
        const b = e.getBoundingClientRect();
        if (r.left < b.left - 0.5 || r.right > b.right + 0.5) return false;
        if (e.scrollWidth <= e.clientWidth + 0.5 || getComputedStyle(e).textOverflow !== 'ellipsis') return true;
        const ellipsis = parseFloat(getComputedStyle(e).fontSize);  // the "…" and a letter's room
        return getComputedStyle(e).direction === 'rtl' ? r.left >= b.left + ellipsis : r.right <= b.right - ellipsis;
      });
      digits.push(shown);
    }
  }
  return {text: name.textContent, title: name.title, digits};
})"""
#: The computer seats' names on the board, and in the score boxes over it.
SEAT_NAMES = ["#board .seat-box.bot .seat-name .name", ".seat-box"]
SCORE_NAMES = ["#scoreboard .side-member.bot", ".side"]


@pytest.mark.parametrize("lang", ["en", "ar", "fr"])
def test_a_computer_keeps_its_number_on_its_seat_and_in_the_scores_when_its_name_is_cut(
        new_page, request, lang):
    """At four against the computer on a phone, a computer's name cut short loses its level,
    never its number ("Gre… 3"): the number is what tells the seats apart, and what matches a
    seat to the turn line's "Greedy 3" (table/kit.js, botNameParts), on the seats and, where
    they name the sides, in the score boxes."""
    page = new_page(viewport={"width": 360, "height": 640}, locale=lang)
    state = copy.deepcopy(PLAYING)
    state["seats"] = [seat(0, "alice")] + [seat(k, None, bot="greedy") for k in (1, 2, 3)]
    FakeTable(page, state)
    at_a_new_table(request, page, f"botseats_{lang}_{uuid.uuid4().hex[:5]}")
    expect(page.locator("#board .seat-box.bot")).to_have_count(3)
    wrong = {}
    for width, height in [(360, 640), (390, 844), (640, 360), (195, 422), (422, 195)]:
        resize(page, width, height)
        # Tiny, the score boxes show their sides' labels, not their names (games.css).
        places = {"seats": SEAT_NAMES, **({} if tiny(width, height) else {"scores": SCORE_NAMES})}
        for place, names in places.items():
            found = page.evaluate(BOT_DIGITS, names)
            if len(found) != 3 or not all(n["digits"] and all(n["digits"]) for n in found):
                wrong[f"{place} {width}x{height}"] = found
        screenshot(page, f"bot-seats-4p-{lang}-{width}x{height}", full_page=False)
    assert not wrong, wrong


#: Where the floor and the table's other panels start (page px from the top), the viewport's
#: height, and how far the page is scrolled.
SPECTATOR_VIEW = """() => {
  const top = (sel) => { const e = document.querySelector(sel);
    return e && e.getClientRects().length ? e.getBoundingClientRect().top + scrollY : null; };
  return {floor: top('#floor'), board: top('#board'), chances: top('#win-chances, .win-chances'),
          chat: top('#chat-panel'), tools: top('#table-tools'), height: innerHeight, scroll: scrollY};
}"""


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_a_spectator_on_a_phone_sees_the_floor_first(browser, site_url, seed, lang):
    """A spectator of a rated match being played, on a 360 × 740 phone: as for a player, the
    game comes first, the floor's top in the first screen, and the win chances, the chat and
    the tools below the table."""
    tag = uuid.uuid4().hex[:5]
    table = json.loads(seed("played", 2, f"p_{tag}", f"q_{tag}"))
    watcher = json.loads(seed("players", f"w_{tag}"))
    context = signed_in(browser, site_url, watcher["sessions"][0], lang,
                        viewport={"width": 360, "height": 740})
    try:
        page = context.new_page()
        page.goto(f"/table/{table['match']}/")
        expect(page.locator("#live-status")).to_have_attribute("data-state", "live")
        socket_state_drawn(page)
        # The floor itself, cards or not: the plays made may have swept it (a jack takes all).
        expect(page.locator("#floor")).to_be_visible()
        expect(page.locator("#win-chances, .win-chances").first).to_be_visible()
        settled(page)
        screenshot(page, f"spectator-{lang}-360x740", full_page=False)
        view = page.evaluate(SPECTATOR_VIEW)
        assert view["scroll"] == 0 and view["floor"] < view["height"], view
        for panel in ("chances", "chat", "tools"):
            assert view[panel] is not None and view[panel] > view["floor"], (panel, view)
    finally:
        context.close()


#: The centre's parts (the floor, the stock, the last play) against the centre's box, the floor's
#: cards against the floor's and their width (px), and whether the last play takes two lines.
CENTRE_FIT = """() => {
  const centre = document.querySelector('#board .centre'), floor = document.getElementById('floor');
  const within = (el, box) => { const r = el.getBoundingClientRect(), b = box.getBoundingClientRect();
    return r.top >= b.top - .5 && r.bottom <= b.bottom + .5 && r.left >= b.left - .5 && r.right <= b.right + .5; };
  const cards = Array.from(floor.querySelectorAll('.card'));
  return {parts: Array.from(centre.children).filter((p) => p.getClientRects().length && !within(p, centre)).map((p) => p.id || p.className),
          cards: cards.filter((c) => !within(c, floor)).length,
          narrowest: Math.min(...cards.map((c) => c.getBoundingClientRect().width)),
          two: document.getElementById('last-play').classList.contains('two-lines')};
}"""


@pytest.mark.parametrize("lang", ["en", "fr", "ar"])
def test_a_long_last_play_takes_two_lines_in_a_narrow_centre(new_page, request, lang):
    """At four players on a 360 px phone the centre's column is narrow: a longest name (24
    letters) who took three cards had its name cut to a few letters and the cards folded into
    "+3". Now the line takes two (who played; the card and what it took), the name whole, every
    card shown, all inside the centre, the floor's cards made smaller for it but still
    readable (table/fit.js)."""
    page = new_page(viewport={"width": 360, "height": 640}, locale=lang)
    state = copy.deepcopy(PLAYING)
    state["seats"][3]["username"] = "Zeinab_ElShenawy_Abdelra"
    state["round"]["floor"] = ["2C", "3S", "5H", "9D", "QC"]
    state["round"]["last_play"] = {"seat": 3, "card": "7D", "basra": None, "taken": ["10D", "8H", "4H"]}
    FakeTable(page, state)
    at_a_new_table(request, page, f"twolines_{lang}_{uuid.uuid4().hex[:5]}")
    expect(page.locator("#last-play .cut-name")).to_have_text("Zeinab_ElShenawy_Abdelra")
    found = {}
    for width, height in [(360, 640), (360, 740), (390, 844)]:
        resize(page, width, height)
        name, cards, centre = page.evaluate(LAST_NAME), page.evaluate(LAST_PLAY_CUT), page.evaluate(CENTRE_FIT)
        if (name["shown"] + 1 < name["whole"] or name["taken"] != 3 or cards["cards"] != 4 or cards["cut"]
                or centre["parts"] or centre["cards"] or centre["narrowest"] < 34):
            found[f"{width}x{height}"] = {"name": name, "cards": cards, "centre": centre}
        screenshot(page, f"last-play-two-lines-4p-{lang}-{width}x{height}", full_page=False)
    assert not found, found
