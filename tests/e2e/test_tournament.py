"""A tournament in the browser: an organiser creates an event through the form, two players
register on its page, the organiser starts it, and each player's table appears (pushed through
the site's notice socket, without a reload or a poll) on the event page, and as a notice on any
other page that says how long the player has to come, and opens the table the two of them sit
at."""

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.pages import signed_up, wait_until

pytestmark = pytest.mark.e2e

#: How long a pushed notice may take to show (ms): well under the 5 s and 10 s a poll would
#: take, so the test fails if the notice has to wait for one.
PUSHED = 3_000


def test_organiser_creates_an_event_two_players_register_and_get_their_table(request, new_page):
    organiser, alice, bob = new_page(), new_page(), new_page()
    signed_up(request, organiser, "organiser")
    organiser.goto("/")
    organiser.click("a.nav-tournaments")
    organiser.click("#new-tournament")
    organiser.fill('input[name="name"]', "Sunday cup")
    organiser.select_option('select[name="format"]', "round_robin")
    organiser.fill('input[name="starts_at"]', "2099-01-01T18:00")
    organiser.fill('input[name="target"]', "11")
    organiser.click("#create-tournament-button")
    organiser.wait_for_url(re.compile(r"/tournaments/\d+/$"))
    event_url = organiser.url

    for page, name in ((alice, "tala"), (bob, "tarek")):
        signed_up(request, page, name)
        page.goto(event_url)
        page.click("#register-button")
        expect(page.locator("#entrants")).to_contain_text(name)
        expect(page.locator("#withdraw-button")).to_be_visible()

    bob.goto("/")  # bob waits in the lobby: he is told wherever he is
    organiser.reload()
    organiser.click("#start-button")
    expect(organiser.locator("#event-status")).to_contain_text("Running")
    expect(organiser.locator(".table-link.live")).to_have_count(1)
    table_href = organiser.locator(".table-link.live").get_attribute("href")

    # Pushed through the site's notice socket (/ws/me/), not polled: within PUSHED, shorter than
    # any poll the pages had (10 s for the notice, 5 s for the event page). Alice's event page
    # was opened before the start: her table arrives by itself; bob, in the lobby, is told that
    # the event started and gets the site-wide notice.
    link = alice.locator("#my-tables a.my-table")
    expect(link).to_be_visible(timeout=PUSHED)
    assert link.get_attribute("href") == table_href
    notice = bob.locator("#tournament-notice a")
    expect(notice).to_be_visible(timeout=PUSHED)
    assert notice.get_attribute("href") == table_href
    expect(notice).to_contain_text("Sunday cup")
    # Beside it, how long he has to come (the absence grace, 60 s on this server) before
    # losing by default.
    expect(bob.locator("#tournament-notice .tournament-wait")).to_have_text(
        "Come within 1 minute of its opening, or you lose by default.")
    started = bob.locator('#site-notices .tournament-news[data-news="started"]')
    expect(started).to_contain_text("Sunday cup")
    # The site's short notice (static/games/notices.js): a link to the event, and a Close button.
    assert re.search(r"/tournaments/\d+/$", started.locator("a").get_attribute("href"))
    started.locator("button").click()
    expect(started).to_have_count(0)
    # A page opened later shows it at once (the notices still pending when the socket opens).
    bob.goto("/rules/")
    notice = bob.locator("#tournament-notice a")
    expect(notice).to_be_visible(timeout=PUSHED)
    assert notice.get_attribute("href") == table_href
    alice.locator("#my-tables a.my-table").click()
    alice.wait_for_url(f"**{table_href}")
    expect(alice.locator("#live-status")).to_have_attribute("data-state", "live")
    expect(alice.locator("#hand button.card")).to_have_count(4)
    notice.click()
    bob.wait_for_url(f"**{table_href}")
    expect(bob.locator("#hand button.card")).to_have_count(4)
    expect(bob.locator("#tournament-notice")).to_have_count(0)

    # The event page refreshes its live parts every few seconds: the organiser's choice in a
    # forfeit's list stays chosen (a refresh that put the list back to its first entry would
    # give the forfeit to the wrong player).
    organiser.goto(event_url)
    chooser = organiser.locator("form.organiser-result select[name=winner]").first
    second = chooser.locator("option").nth(1).get_attribute("value")
    chooser.select_option(second)
    organiser.evaluate("document.activeElement.blur()")
    # Until the page's next refresh (every 5 s) has swapped a fresh live part in.
    organiser.evaluate("window.__livePart = document.getElementById('event-live')")
    wait_until(organiser, 
        "() => document.getElementById('event-live') !== window.__livePart", timeout=20_000)
    chooser = organiser.locator("form.organiser-result select[name=winner]").first
    assert chooser.input_value() == second

    # The forfeit ends the live table, so the page asks first (a static script: no inline one
    # under the site's CSP); dismissed, nothing is sent; accepted, the forfeit is recorded.
    button = organiser.locator("form.organiser-result button").first
    asked = []
    organiser.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.dismiss()))
    button.click()
    expect(organiser.locator(".table-link.live")).to_have_count(1)
    assert asked and asked[0].startswith("This ends the table being played now")
    organiser.once("dialog", lambda dialog: dialog.accept())
    organiser.locator("form.organiser-result button").first.click()
    expect(organiser.locator(".messages")).to_contain_text("The forfeit is recorded.")
    expect(organiser.locator(".table-link.live")).to_have_count(0)
