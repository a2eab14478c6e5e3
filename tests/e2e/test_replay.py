"""The replay viewer in the browser (issue 12): a match against the computer is resigned, the
result banner's "Watch the replay" opens it; the keys step through it (←/→, j/k, ↑/↓, Home/End);
a share link opens at its play; an imported record opens in the same viewer; 390 px and Arabic.
"""

import json
import random
import re

import pytest
from playwright.sync_api import Page, expect

from games import engine
from tests.e2e.test_table import open_lobby, play_one, root, screenshot, sign_up

pytestmark = pytest.mark.e2e


def viewer(page: Page):
    return page.locator("#replay")


def at(page: Page, ply: int) -> None:
    expect(viewer(page)).to_have_attribute("data-ply", str(ply))


def engine_record(seed: int = 5) -> dict:
    """A two-round record played by the engine with random cards (target 31)."""
    rng = random.Random(seed)
    match = engine.Match(engine.Rules(target=31), dealer=0)
    while not match.over:
        deck = engine.full_deck()
        rng.shuffle(deck)
        match.start_round(deck)
        while not match.round.over:
            match.play(rng.choice(match.round.legal_plays()))
    return match.to_record(["amal", "bot:strong"])


def test_step_through_a_replay_with_the_keys_and_open_a_share_link(new_page):
    page = new_page()
    sign_up(page, "nadia")
    open_lobby(page)
    form = page.locator("#computer-form")
    form.locator('input[name="computer-players"][value="2"]').check()
    form.locator('input[name="computer-move_seconds"][value="none"]').check()
    page.click("#play-computer-button")
    page.wait_for_url(re.compile(r"/table/\d+/$"))
    match_id = int(re.search(r"/table/(\d+)/$", page.url).group(1))
    expect(root(page)).to_have_attribute("data-status", "playing")
    assert page.request.get(f"/match/{match_id}/replay/").status == 404
    for _ in range(3):  # three plays of mine, the computer's between them
        expect(root(page)).to_have_attribute("data-my-turn", "true")
        play_one(page)
    page.click("#resign-button")
    page.click("#confirm-yes")
    link = page.locator("#replay-link")
    expect(link).to_have_attribute("href", f"/match/{match_id}/replay/")
    link.click()
    page.wait_for_url(f"**/match/{match_id}/replay/")
    expect(viewer(page)).to_have_attribute("data-ready", "true")
    at(page, 0)
    hands = page.locator(".open-hand")
    expect(hands).to_have_count(2)
    assert all(len(h.get_attribute("data-hand").split()) == 4 for h in hands.all())
    expect(page.locator("#stock .card")).to_have_count(40)

    page.keyboard.press("ArrowRight")
    at(page, 1)
    page.keyboard.press("k")
    at(page, 2)
    played = page.locator("#last-play").get_attribute("data-card")
    page.keyboard.press("j")
    at(page, 1)
    page.keyboard.press("ArrowLeft")
    at(page, 0)
    page.keyboard.press("End")
    last = int(viewer(page).get_attribute("data-ply"))
    assert last >= 5
    page.keyboard.press("Home")
    at(page, 0)
    page.keyboard.press("ArrowDown")  # the end of round 1 (the resignation's round: its last play)
    expect(viewer(page)).to_have_attribute("data-round", "1")
    page.keyboard.press("ArrowUp")
    at(page, 0)
    screenshot(page, "replay-start")

    # The share link of play 2 opens at play 2, in another browser, logged out.
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    at(page, 2)
    share = page.locator("#share-link").input_value()
    assert share.endswith(f"/match/{match_id}/replay/?ply=2")
    other = new_page()
    other.goto(share)
    at(other, 2)
    expect(other.locator("#last-play")).to_have_attribute("data-card", played)


def test_an_imported_record_in_the_viewer_at_390_px_in_arabic(new_page):
    record = engine_record()
    page = new_page(viewport={"width": 390, "height": 844}, locale="ar")
    page.goto("/replay/import/")
    page.fill('textarea[name="text"]', json.dumps(record))
    page.click('#import-form button[type="submit"]')
    page.wait_for_url(re.compile(r"/replay/[A-Za-z0-9_-]{22}/$"))
    expect(page.locator("html")).to_have_attribute("dir", "rtl")
    expect(viewer(page)).to_have_attribute("data-ready", "true")
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0
    # Round 2 starts one position after round 1's 48 plays.
    page.keyboard.press("ArrowDown")
    at(page, 48)
    page.keyboard.press("ArrowDown")
    at(page, 97)
    page.keyboard.press("ArrowUp")
    at(page, 49)
    expect(viewer(page)).to_have_attribute("data-round", "2")
    # Autoplay moves on by itself.
    page.select_option("#speed", "400")
    page.click("#autoplay")
    expect(viewer(page)).to_have_attribute("data-ply", "51", timeout=5000)
    page.click("#autoplay")
    screenshot(page, "replay-imported-ar-390")

    # A broken record: refused with the engine's words, nothing stored.
    record["rounds"][1]["plays"][16] = record["rounds"][1]["plays"][0]
    page.goto("/replay/import/")
    page.fill('textarea[name="text"]', json.dumps(record))
    page.click('#import-form button[type="submit"]')
    expect(page.locator("#import-errors")).to_contain_text("round 2, play 17")
