"""Reports and moderation in the browser (issue 40): a victim reports a cheater from the
cheater's profile, the report reaches the staff's queue, whose pages hold at 360 px and right
to left; a ranked ban takes a player off the ladder; closing the cheater for cheating gives the
victim their points back, shown on their rating history, and tells them at once."""

from __future__ import annotations

import json
import re
import uuid

import pytest
from playwright.sync_api import expect

from tests.e2e.pages import OUTSIDE, SECOND_GROUP, signed_in

pytestmark = [pytest.mark.e2e, pytest.mark.xdist_group(SECOND_GROUP)]


def act(page, action: str, reason: str) -> None:
    """Take ``action`` on the player's page; the close actions have their own form, which asks
    for confirmation first (static/site.js), accepted here."""
    form = "close" if action.startswith("close") else "act"
    page.select_option(f"#{form}-action", action)
    page.fill(f"#{form}-reason", reason)
    if form == "close":
        page.once("dialog", lambda dialog: dialog.accept())
    page.click(f"#moderation-{form} button[type=submit]")
    expect(page.locator("ul.messages")).to_contain_text("Done")


def test_a_report_reaches_the_queue_and_a_close_for_cheating_refunds_the_victim(browser, site_url, seed):
    tag = uuid.uuid4().hex[:6]
    sessions = json.loads(seed("moderation", tag))
    victim = signed_in(browser, site_url, sessions["victim"]).new_page()
    mod_context = signed_in(browser, site_url, sessions["mod"])
    mod = mod_context.new_page()

    # The report, from the cheater's profile.
    victim.goto(f"/players/cheat_{tag}/")
    victim.get_by_role("link", name="Report this player").click()
    victim.check('input[name="reason"][value="cheat"]')
    victim.fill("#report-text", "Every play was the engine's first choice.")
    victim.click("#report-form button[type=submit]")
    expect(victim).to_have_url(re.compile(rf"/players/cheat_{tag}/$"))
    expect(victim.locator("body")).to_contain_text("Thank you: the moderators will read your report.")

    # In the staff's queue, and on the cheater's page there, at 360 px and in Arabic.
    mod.goto("/moderation/")
    mod.get_by_role("link", name=f"cheat_{tag}").click()
    expect(mod.locator(".moderation-entries")).to_contain_text("Every play was the engine's first choice.")
    expect(mod.locator("#ratings-title")).to_be_visible()
    for lang in ("en", "ar"):
        narrow = signed_in(browser, site_url, sessions["mod"], lang=lang,
                           viewport={"width": 360, "height": 740}).new_page()
        narrow.goto(f"/moderation/players/cheat_{tag}/")
        expect(narrow.locator("#moderation-act")).to_be_visible()
        if lang == "ar":
            expect(narrow.locator("html")).to_have_attribute("dir", "rtl")
        layout = narrow.evaluate(OUTSIDE)
        assert layout["scroll"] <= layout["width"], layout
        narrow.context.close()

    # A ranked ban takes the booster off the ladder.
    mod.goto(f"/ladder/1v1/?q=boost_{tag}")
    expect(mod.locator("main")).to_contain_text(f"boost_{tag}")
    mod.goto(f"/moderation/players/boost_{tag}/")
    act(mod, "ranked_ban", "Lost on purpose, twice")
    mod.goto(f"/ladder/1v1/?q=boost_{tag}")
    expect(mod.locator("main")).not_to_contain_text(f"boost_{tag}")

    # Closing the cheater for cheating: the victim is told at once, and their history shows the
    # points given back and the match marked.
    # The victim holds a phone sideways: the moderators' message is a short bar right below the
    # site's header, which hides by itself.
    victim.set_viewport_size({"width": 844, "height": 390})
    victim.goto(f"/players/victim_{tag}/matches/")
    expect(victim.locator(".rating-refunds")).to_have_count(0)
    mod.goto(f"/moderation/players/cheat_{tag}/")
    expect(mod.locator("#moderation-act fieldset")).to_be_hidden()  # the timeout's fields: not this action's
    mod.select_option("#act-action", "chat_timeout")
    expect(mod.locator("#moderation-act fieldset")).to_be_visible()
    act(mod, "close_cheat", "Engine use, confirmed")
    expect(mod.locator("ul.messages")).to_contain_text(re.compile(r"1 victim got \d+ rating points back"))
    notice = victim.locator(".moderation-notice")
    expect(notice).to_contain_text("You have a message from the moderators.")
    box, header = notice.bounding_box(), victim.locator(".site-header").bounding_box()
    assert box["y"] >= header["y"] + header["height"] - 1 and box["height"] <= 48, (box, header)
    expect(notice).to_be_hidden(timeout=15000)
    victim.reload()
    expect(victim.locator(".rating-refunds")).to_contain_text(re.compile(r"\+\d+"))
    expect(victim.locator(".rating-refunds")).to_contain_text("closed for cheating")
    expect(victim.locator(".cheat-mark").first).to_be_visible()
    mod.goto("/moderation/log/")
    expect(mod.locator(".moderation-log")).to_contain_text("Closed for cheating")
    expect(mod.locator(".moderation-log")).to_contain_text("Ranked ban")


#: What is topmost at the centre of the header's Menu button, and the button itself.
AT_MENU = """() => {
  const button = document.querySelector(".nav-toggle");
  const box = button.getBoundingClientRect();
  const top = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
  return {menu: !!top && button.contains(top), top: top ? top.outerHTML.slice(0, 120) : null};
}"""


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_the_moderators_notice_bar_never_covers_the_header_on_a_phone(browser, site_url, seed, lang):
    tag = uuid.uuid4().hex[:6]
    session = json.loads(seed("warned", tag))["warned"]
    context = signed_in(browser, site_url, session, lang=lang, viewport={"width": 360, "height": 640})
    page = context.new_page()
    page.goto("/rules/")
    notice = page.locator(".moderation-notice")
    expect(notice).to_be_visible()
    menu = page.locator(".nav-toggle")
    expect(menu).to_be_visible()
    seen = page.evaluate(AT_MENU)
    assert seen["menu"], seen
    # Below the header, not over it: the header's bottom edge is above the bar's top.
    header = page.locator(".site-header").bounding_box()
    box = notice.bounding_box()
    assert box["y"] >= header["y"] + header["height"] - 1, (box, header)
    menu.click(timeout=2000)
    expect(menu).to_have_attribute("aria-expanded", "true")
    expect(page.locator("#site-nav")).to_be_visible()
    context.close()
