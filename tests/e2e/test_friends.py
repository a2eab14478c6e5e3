"""Playing with friends, as people see it: a private table joined by its invite link, a
challenge from a profile seen and answered live wherever the other player is, and a rematch
both players ask for (and one that ends when a player leaves).

Real daphne, real sockets: the challenge travels over the notice socket /ws/me/ every page of a
signed-in player opens; the rematch over the table sockets.
"""

import re

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.pages import open_lobby, root, signed_up, wait_until


pytestmark = pytest.mark.e2e

TABLE = re.compile(r"/table/(\d+)/$")


def table_id(page: Page) -> int:
    return int(TABLE.search(page.url).group(1))


def notices_live(page: Page) -> None:
    expect(page.locator("#site-notices")).to_have_attribute("data-live", "true")


def test_a_private_table_is_joined_only_with_its_invite_link(request, new_page):
    alice, bob = new_page(), new_page()
    signed_up(request, alice, "pria")
    signed_up(request, bob, "prib")
    open_lobby(alice)
    alice.check('input[name="private"]')
    alice.click("#create-table-button")
    alice.wait_for_url(TABLE)
    match_id = table_id(alice)
    link = alice.locator("#invite-url").input_value()
    assert f"/table/{match_id}/invite/" in link

    open_lobby(bob)  # not listed in the lobby
    expect(bob.locator(f'.table-row[data-match-id="{match_id}"]')).to_have_count(0)
    # The page by its number is not there for bob: no join to offer and refuse after the click.
    assert bob.goto(f"/table/{match_id}/").status == 404
    expect(bob.locator("#join-button")).to_have_count(0)

    bob.goto(link)  # the invite link shows the table with a join that works
    expect(root(bob)).to_have_attribute("data-status", "open")
    bob.click("#join-button")
    expect(root(bob)).to_have_attribute("data-status", "playing")
    expect(root(alice)).to_have_attribute("data-status", "playing")


def challenge(page: Page, username: str) -> None:
    page.goto(f"/players/{username}/")
    page.click("#challenge-open")
    page.check('input[name="challenge-mode"][value="casual"]')
    page.check('input[name="challenge-move_seconds"][value="none"]')
    page.fill('input[name="challenge-target"]', "11")
    page.click("#challenge-send")
    expect(page.locator(".challenge-notice.sent")).to_be_visible()


def test_a_challenge_is_seen_live_and_both_go_to_the_table_then_rematch(request, new_page):
    alice, bob = new_page(), new_page()
    signed_up(request, alice, "cha")
    signed_up(request, bob, "chb")
    open_lobby(bob)  # bob waits in the lobby
    notices_live(bob)

    # Declined first: alice is told at once.
    challenge(alice, "chb")
    notice = bob.locator(".challenge-notice.received")
    expect(notice).to_contain_text("cha")
    notice.locator(".challenge-decline").click()
    expect(notice).to_have_count(0)
    expect(alice.locator("#site-notices")).to_contain_text("declined")

    # Then accepted: both browsers go to the new table, which has started.
    challenge(alice, "chb")
    bob.locator(".challenge-notice.received .challenge-accept").click()
    bob.wait_for_url(TABLE)
    alice.wait_for_url(TABLE)
    assert table_id(alice) == table_id(bob)
    first = table_id(alice)
    for page in (alice, bob):
        expect(root(page)).to_have_attribute("data-status", "playing")

    # Alice resigns; both ask for a rematch; both browsers go to the new table.
    alice.click("#resign-button")
    alice.click("#confirm-yes")
    for page in (alice, bob):
        expect(root(page)).to_have_attribute("data-finished", "true")
    alice.click("#rematch-button")
    expect(alice.locator("#rematch")).to_have_attribute("data-state", "asked")
    expect(bob.locator("#rematch")).to_have_attribute("data-state", "offered")
    expect(bob.locator("#rematch")).to_contain_text("cha")
    bob.click("#rematch-button")
    for page in (alice, bob):
        page.wait_for_url(re.compile(rf"/table/(?!{first}/)\d+/$"))
        expect(root(page)).to_have_attribute("data-status", "playing")
    assert table_id(alice) == table_id(bob) != first

    # A rematch ends when a player leaves the finished table.
    bob.click("#resign-button")
    bob.click("#confirm-yes")
    expect(root(alice)).to_have_attribute("data-finished", "true")
    expect(root(bob)).to_have_attribute("data-finished", "true")
    bob.click("#rematch-button")
    expect(alice.locator("#rematch")).to_have_attribute("data-state", "offered")
    alice.goto("/")
    expect(bob.locator("#rematch")).to_have_attribute("data-state", "gone")
    expect(bob.locator("#rematch-button")).to_have_count(0)


def test_the_challenger_can_cancel_and_the_other_sees_it_go(request, new_page):
    alice, bob = new_page(), new_page()
    signed_up(request, alice, "cca")
    signed_up(request, bob, "ccb")
    bob.goto("/ladder/")  # any page of the site
    notices_live(bob)
    challenge(alice, "ccb")
    expect(bob.locator(".challenge-notice.received")).to_be_visible()
    alice.locator(".challenge-notice.sent .challenge-cancel").click()
    expect(bob.locator(".challenge-notice.received")).to_have_count(0)
    expect(bob.locator("#site-notices")).to_contain_text("cancelled")


def test_the_invite_link_has_a_copy_button_and_a_share_button_where_the_browser_shares(request, new_page):
    alice = new_page(permissions=["clipboard-read", "clipboard-write"])
    signed_up(request, alice, "pric")
    open_lobby(alice)
    alice.check('input[name="private"]')
    alice.click("#create-table-button")
    alice.wait_for_url(TABLE)
    link = alice.locator("#invite-url").input_value()
    # This Chromium has no navigator.share: no Share button.
    assert alice.evaluate("typeof navigator.share") == "undefined"
    expect(alice.locator("#invite-share")).to_be_hidden()
    alice.click("#invite-copy")
    expect(alice.locator("#invite-status")).to_have_text("Copied")
    assert alice.evaluate("navigator.clipboard.readText()") == link

    # A browser with the Web Share API (stood in for before the page's scripts run) shows the
    # button, and the sheet gets the invite link.
    carol = new_page(locale="ar")
    carol.add_init_script(
        "navigator.share = (data) => { window.shared = data; return Promise.resolve(); };"
    )
    signed_up(request, carol, "prie")
    open_lobby(carol)
    carol.check('input[name="private"]')
    carol.click("#create-table-button")
    carol.wait_for_url(TABLE)
    share = carol.get_by_role("button", name="مشاركة")
    expect(share).to_be_visible()
    share.click()
    wait_until(carol, "window.shared !== undefined")
    assert carol.evaluate("window.shared.url") == carol.locator("#invite-url").input_value()


def test_a_refused_challenge_keeps_the_form_open_with_the_choices_and_the_error_by_the_target(request, new_page):
    """Issue 35: a rated challenge to 11 points came back as a banner at the top of the page,
    the form closed and reset to Casual and 101. Now, on a 390 px phone, the form stays open
    with the choices made, and the refusal sits beside the target, in view."""
    import uuid

    tag = uuid.uuid4().hex[:5]
    alice = new_page(viewport={"width": 390, "height": 844})
    signed_up(request, alice, f"chal_{tag}")
    bob = new_page()
    signed_up(request, bob, f"chbo_{tag}")
    alice.goto(f"/players/chbo_{tag}/")
    alice.click("#challenge-open")
    alice.check('input[name="challenge-mode"][value="rated"]')
    alice.check('input[name="challenge-move_seconds"][value="10"]')
    alice.fill('input[name="challenge-target"]', "11")
    alice.click("#challenge-send")
    expect(alice).to_have_url(re.compile(rf"/players/chbo_{tag}/"))
    form = alice.locator("#challenge-form")
    expect(form).to_be_visible()
    expect(alice.locator('input[name="challenge-mode"][value="rated"]')).to_be_checked()
    expect(alice.locator('input[name="challenge-move_seconds"][value="10"]')).to_be_checked()
    expect(alice.locator('input[name="challenge-target"]')).to_have_value("11")
    target = form.locator(".field", has=alice.locator('input[name="challenge-target"]'))
    error = target.locator(".errorlist")
    expect(error).to_contain_text("A rated table plays to at least 61 points")
    expect(error).to_be_in_viewport()
    # Beside the target, not in a banner over the page.
    expect(alice.locator(".messages")).to_have_count(0)
    assert alice.evaluate("() => document.documentElement.scrollWidth") <= 390
    # The same in Arabic on a 360 px phone, sent again from the form as it came back.
    alice.context.add_cookies([{"name": "django_language", "value": "ar", "url": alice.url}])
    alice.set_viewport_size({"width": 360, "height": 740})
    alice.click("#challenge-send")
    expect(alice.locator("html")).to_have_attribute("dir", "rtl")
    expect(target.locator(".errorlist")).to_contain_text("61")
    expect(target.locator(".errorlist")).to_be_in_viewport()
    expect(alice.locator('input[name="challenge-mode"][value="rated"]')).to_be_checked()
    assert alice.evaluate("() => document.documentElement.scrollWidth") <= 360
