"""Players among players, as people see it (games/people/): two players follow each other, one
sees the other online in the lobby's friends and challenges them with a tap, and the challenge
is accepted (one tap sends it with the lobby's defaults); once blocked, a challenge never reaches the one who blocked, while another
player's does. Seeded players with a session cookie (``seed.py players``), not sign-ups."""

from __future__ import annotations

import json
import re
import uuid

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.pages import signed_in

pytestmark = pytest.mark.e2e

TABLE = re.compile(r"/table/(\d+)/$")


def notices_live(page: Page) -> None:
    expect(page.locator("#site-notices")).to_have_attribute("data-live", "true")


def follow(page: Page, username: str) -> None:
    page.goto(f"/players/{username}/")
    page.click("#people-follow")
    expect(page.locator("#people-unfollow")).to_be_visible()


def friend_shown(page: Page, username: str) -> None:
    """Load the lobby until ``username`` is among the friends online: their presence is
    written by the server's next beat (within a second), so the page is asked again until it
    is (each load a full round trip; no fixed wait)."""
    row = page.locator(f'#friends-online [data-friend="{username}"]')
    for _ in range(400):
        page.goto("/")
        if row.count():
            break
    expect(row).to_be_visible()


def send_challenge(page: Page) -> None:
    """On a profile opened at ``#challenge`` (the lobby's "Other settings"): a casual match to 11."""
    expect(page.locator("#challenge-form")).to_be_visible()
    page.check('input[name="challenge-mode"][value="casual"]')
    page.check('input[name="challenge-move_seconds"][value="none"]')
    page.fill('input[name="challenge-target"]', "11")
    page.click("#challenge-send")
    expect(page.locator(".challenge-notice.sent")).to_be_visible()


def test_a_friend_online_is_challenged_from_the_lobby_and_a_block_keeps_challenges_away(browser, site_url, seed):
    tag = uuid.uuid4().hex[:5]
    a, b, c = f"amira_{tag}", f"bassem_{tag}", f"camilia_{tag}"
    sessions = json.loads(seed("players", a, b, c))["sessions"]
    ctx = [signed_in(browser, site_url, s, viewport={"width": 360, "height": 740}) for s in sessions]
    amira, bassem, camilia = (context.new_page() for context in ctx)
    try:
        follow(amira, b)
        follow(bassem, a)
        bassem.goto("/")
        notices_live(bassem)
        friend_shown(amira, b)
        # The row, its Challenge and "Other settings", fits the 360 px phone.
        assert amira.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0
        # One tap sends it with the lobby's defaults, back in the lobby.
        amira.locator(f'#friends-online [data-friend="{b}"] .people-challenge').click()
        expect(amira.locator(".challenge-notice.sent")).to_be_visible()
        assert amira.url.rstrip("/") == site_url.rstrip("/")
        bassem.locator(".challenge-notice.received .challenge-accept").click()
        bassem.wait_for_url(TABLE)
        amira.wait_for_url(TABLE)
        assert amira.url == bassem.url

        # bassem blocks amira: her challenge is sent as any (she sees it waiting) but never
        # reaches him; camilia's, sent after hers, does, and it is the only one he sees.
        bassem.goto(f"/players/{a}/")
        bassem.click("#people-block")
        expect(bassem.locator("#people-unblock")).to_be_visible()
        bassem.goto("/")
        notices_live(bassem)
        amira.goto(f"/players/{b}/#challenge")
        send_challenge(amira)
        camilia.goto(f"/players/{b}/#challenge")
        send_challenge(camilia)
        received = bassem.locator(".challenge-notice.received")
        expect(received).to_have_count(1)
        expect(received).to_contain_text(c)
        # Nor is it offered when his pages open again.
        bassem.reload()
        notices_live(bassem)
        expect(received).to_have_count(1)
        expect(received).to_contain_text(c)
        # And amira no longer sees him online.
        amira.goto("/")
        expect(amira.locator(f'#friends-online [data-friend="{b}"]')).to_have_count(0)
    finally:
        for context in ctx:
            context.close()


#: A button's look: its colour, its corners, and whether it is a finger's height (40 px).
BUTTON_LOOK = """b => { const s = getComputedStyle(b);
  return [s.backgroundColor, s.borderRadius, b.getBoundingClientRect().height >= 40]; }"""
#: The site's button (css/site.css ``.button``): the felt's green, round corners.
SITE_BUTTON = ["rgb(11, 107, 58)", "8px", True]


@pytest.mark.parametrize("width, height", [(360, 740), (740, 360)])
def test_the_people_pages_fit_a_phone_in_arabic(browser, site_url, seed, width, height):
    tag = uuid.uuid4().hex[:5]
    a, b = f"سارة_{tag}", f"Zeinab_ElShenawy_{tag}"
    sessions = json.loads(seed("players", a, b))["sessions"]
    context = signed_in(browser, site_url, sessions[0], lang="ar", viewport={"width": width, "height": height})
    try:
        page = context.new_page()
        follow(page, b)
        # The profile's buttons and the queues' are the site's, as in the lobby (they were the
        # browser's grey ones where the page did not load the lobby's sheet).
        assert page.locator("#people-block").evaluate(BUTTON_LOOK) == SITE_BUTTON
        page.goto("/play/")
        assert page.locator(".queues-button").first.evaluate(BUTTON_LOOK) == SITE_BUTTON
        for path in ("/settings/profile/", "/friends/", "/notifications/", f"/players/{b}/", "/"):
            page.goto(path)
            expect(page.locator("html")).to_have_attribute("dir", "rtl")
            overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
            assert overflow <= 0, (path, overflow)
        page.goto("/settings/profile/")
        page.fill('textarea[name="bio"]', "<b>x</b>")
        page.click("#people-save")
        expect(page.locator(".errorlist")).to_be_visible()
        assert page.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0
        # A long Arabic word with no space wraps inside the card, neither edge cut off.
        page.fill('textarea[name="bio"]', "مرحبا" * 40)
        page.click("#people-save")
        page.goto(f"/players/{a}/")
        bio = page.locator(".people-bio")
        expect(bio).to_be_visible()
        fits = bio.evaluate("""el => { const r = el.getBoundingClientRect();
            return r.left >= 0 && r.right <= window.innerWidth && el.scrollWidth <= el.clientWidth; }""")
        assert fits
    finally:
        context.close()
