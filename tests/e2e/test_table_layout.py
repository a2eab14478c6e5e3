"""The whole table in view (issue 22): at each phone, tablet and desktop viewport, in portrait
and landscape, for two and four players, in English and Arabic, the hand, the floor, every seat,
the scores and the player's actions lie inside the viewport and none overlaps another.

Each test loads a seeded table (``tests/e2e/seed.py table``: opened, a few plays made, a
signed-in session per seat set as the browser's cookie: no match is played here) and turns the
one page through every viewport, as a phone rotated and a window resized mid-play would. A
screenshot of each layout is kept under ``test-artifacts/layout/`` for a person to look at.
"""

import json
import uuid
from pathlib import Path

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "test-artifacts" / "layout"

#: The issue's viewports: phones in portrait and landscape, a tablet, two desktops.
VIEWPORTS = [(360, 640), (390, 844), (844, 390), (768, 1024), (1280, 800), (1920, 1080)]

#: What must be in view, each one box (a seat is each ``.seat-box`` of the board).
PARTS = {"hand": "#hand", "floor": "#floor", "scores": "#scoreboard", "resign": "#resign-button"}

MEASURE = """(parts) => {
  const box = (el) => { const r = el.getBoundingClientRect();
    return {x: r.left, y: r.top, right: r.right, bottom: r.bottom, w: r.width, h: r.height}; };
  const out = {};
  for (const [name, sel] of Object.entries(parts)) {
    const el = document.querySelector(sel);
    if (el && el.getClientRects().length) out[name] = box(el);
  }
  document.querySelectorAll('#board .seat-box').forEach((el, k) => { out['seat' + k] = box(el); });
  const card = document.querySelector('#hand .card');
  out.card = card ? box(card) : null;
  out.view = {w: document.documentElement.clientWidth, h: window.innerHeight,
              scrollW: document.documentElement.scrollWidth};
  return out;
}"""


def overlap(a, b) -> bool:
    return a["x"] < b["right"] - 0.5 and b["x"] < a["right"] - 0.5 and a["y"] < b["bottom"] - 0.5 and b["y"] < a["bottom"] - 0.5


def problems(boxes: dict, players: int) -> list[str]:
    view = boxes["view"]
    out = []
    names = [n for n in boxes if n not in ("view", "card")]
    seats = [n for n in names if n.startswith("seat")]
    if len(seats) != players - 1 and len(seats) != players:
        out.append(f"{len(seats)} seats shown for {players} players")
    for part in PARTS:
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
    if view["scrollW"] > view["w"] + 1:
        out.append(f"the page scrolls sideways ({view['scrollW']} > {view['w']})")
    return out


@pytest.fixture
def seeded(seed):
    def make(players: int):
        tag = uuid.uuid4().hex[:5]
        names = [f"abdelrahman_{tag}", f"سارة_{tag}", f"m_{tag}", f"Zeinab_ElShenawy_{tag}"][:players]
        return json.loads(seed("table", players, 3 if players == 2 else 5, *names))
    return make


@pytest.mark.parametrize("lang", ["en", "ar"])
@pytest.mark.parametrize("players", [2, 4])
def test_the_whole_table_is_in_view_at_every_viewport(browser, site_url, seeded, players, lang):
    table = seeded(players)
    context = browser.new_context(base_url=site_url, viewport={"width": 390, "height": 844},
                                  device_scale_factor=1)
    try:
        host = site_url.split("//")[1].split(":")[0]
        context.add_cookies([
            {"name": "sessionid", "value": table["sessions"][0], "domain": host, "path": "/"},
            {"name": "django_language", "value": lang, "domain": host, "path": "/"},
        ])
        page = context.new_page()
        page.goto(f"/table/{table['match']}/")
        expect(page.locator("#live-status")).to_have_attribute("data-state", "live")
        expect(page.locator("#hand .card").first).to_be_visible()
        SHOTS.mkdir(parents=True, exist_ok=True)
        failures = []
        for width, height in VIEWPORTS:
            page.set_viewport_size({"width": width, "height": height})
            page.wait_for_timeout(150)  # a frame for the layout to follow the new size
            boxes = page.evaluate(MEASURE, PARTS)
            page.screenshot(path=str(SHOTS / f"table-{players}p-{lang}-{width}x{height}.png"))
            found = problems(boxes, players)
            if boxes["card"] and width <= 844 and min(boxes["card"]["w"], boxes["card"]["h"]) < 40:
                found.append(f"cards too small to read: {boxes['card']}")
            failures += [f"{width}x{height}: {p}" for p in found]
        assert not failures, "\n".join(failures)
    finally:
        context.close()
