"""The lobby and watching as people see them (issues 10 and 12), in Chromium.

Your matches first (whose turn, one click back in), the matches to watch with their spectator
count, the open tables with their age and sides; the seat picker of a four-seat table; a table
nobody may watch; the confirm before leaving a running match by a link; an abandoned open table
leaving the lobby. The site here closes open tables after 4 s without a socket (the module's
server is started with ``BASRA_OPEN_TABLE_ABANDON_SECONDS=4``: ``site_env``).
"""

import re

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.pages import join_from_lobby, open_lobby, root, signed_up


pytestmark = pytest.mark.e2e

ABANDON_SECONDS = "4"


@pytest.fixture(scope="module")
def site_env():
    """This module's server closes abandoned open tables after 4 s (a server shared with any
    module asking the same: ``conftest.Sites``)."""
    return {"BASRA_OPEN_TABLE_ABANDON_SECONDS": ABANDON_SECONDS}


def create(page: Page, *, players: int = 2, target: int = 11, watchers: str = "everyone") -> int:
    open_lobby(page)
    page.check(f'input[name="players"][value="{players}"]')
    page.fill('input[name="target"]', str(target))
    page.check(f'input[name="watchers"][value="{watchers}"]')
    page.click("#create-table-button")
    page.wait_for_url(re.compile(r"/table/\d+/$"))
    expect(root(page)).to_have_attribute("data-status", "open")
    return int(re.search(r"/table/(\d+)/$", page.url).group(1))


def test_your_matches_matches_to_watch_and_leaving_asks_first(request, new_page):
    alice, bob, carol = new_page(), new_page(), new_page()
    for page, name in ((alice, "alma"), (bob, "badr"), (carol, "caro")):
        signed_up(request, page, name)
    match_id = create(alice)
    open_lobby(bob)
    row = bob.locator(f'.table-row[data-match-id="{match_id}"]')
    expect(row.locator(".age")).to_have_text("created just now")
    expect(row.locator(".creator")).to_have_attribute("data-online", "1")
    join_from_lobby(bob, match_id)
    expect(root(alice)).to_have_attribute("data-status", "playing")

    # carol finds the match among the matches to watch, and watches it: no hand is hers.
    open_lobby(carol)
    live = carol.locator(f'#live-matches .match-row[data-match-id="{match_id}"]')
    expect(live).to_contain_text("alma")
    expect(live).to_contain_text("badr")
    expect(live.locator(".score")).to_have_text("0 – 0")
    # Its chips keep their own height beside the taller "Watch" button (they were stretched to
    # it, tall ovals with their words at the top).
    # (Both measured at once, once shown: the list is drawn again as the lobby's socket tells
    # of tables.)
    expect(live.locator(".chip.watchers")).to_be_visible()
    chip, button = live.evaluate("""(row) => [".chip.watchers", "a.button"].map(
        (selector) => row.querySelector(selector).getBoundingClientRect().height)""")
    assert chip < 0.8 * button, (chip, button)
    live.locator(f'a[href="/table/{match_id}/"]').click()
    expect(root(carol)).to_have_attribute("data-you", "")
    expect(carol.locator("#hand button.card")).to_have_count(0)
    # The players see one spectator.
    expect(alice.locator("#watcher-count")).to_have_attribute("data-count", "1")
    expect(alice.locator("#watcher-count")).to_have_text("1 watching")

    # alice leaves through the site's own link: asked first; "cancel" keeps her at the table.
    questions = []

    def answer(dialog, accept):
        questions.append(dialog.message)
        dialog.accept() if accept else dialog.dismiss()

    alice.once("dialog", lambda dialog: answer(dialog, False))
    alice.click("a.back-link")
    assert questions and "Leave this table" in questions[0]
    assert alice.url.endswith(f"/table/{match_id}/")
    alice.once("dialog", lambda dialog: answer(dialog, True))
    alice.click("a.back-link")
    alice.wait_for_url(re.compile(r"/$"))
    assert len(questions) == 2
    # Her lobby lists her match first, with whose turn it is, one click back in.
    mine = alice.locator(f'#your-matches .match-row[data-match-id="{match_id}"]')
    expect(mine.locator(".turn")).to_have_text(re.compile(r"^(Your turn|badr to play)$"))
    headings = alice.locator(".lobby-section h2").all_inner_texts()
    assert headings[:3] == ["Your matches", "Matches to watch", "Open tables"]
    mine.locator(".match-link").click()
    alice.wait_for_url(f"**/table/{match_id}/")
    expect(root(alice)).to_have_attribute("data-you", "0")
    # The header's log-out asks too: it would leave a running match.
    alice.once("dialog", lambda dialog: answer(dialog, False))
    alice.click("form[action*='logout'] button")
    assert len(questions) == 3 and "Leave this table" in questions[2]
    assert alice.url.endswith(f"/table/{match_id}/")
    expect(alice.locator(".site-header .whoami")).to_be_visible()
    # A language switch comes back to the table: nothing to ask (and a "cancel" would leave
    # the menu naming a language the page is not in).
    alice.select_option(".site-header select[name=language]", "ar")
    expect(alice.locator("html")).to_have_attribute("lang", "ar")
    assert alice.url.endswith(f"/table/{match_id}/") and len(questions) == 3
    expect(root(alice)).to_have_attribute("data-you", "0")
    alice.select_option(".site-header select[name=language]", "en")
    expect(alice.locator("html")).to_have_attribute("lang", "en")
    # A spectator leaves without a question.
    carol.on("dialog", lambda dialog: pytest.fail("a spectator was asked: " + dialog.message))
    carol.click("a.back-link")
    carol.wait_for_url(re.compile(r"/$"))


def test_four_players_choose_their_seat_and_see_the_sides(request, new_page):
    dana, emad = new_page(), new_page()
    signed_up(request, dana, "dana")
    signed_up(request, emad, "emad")
    match_id = create(dana, players=4, target=101)
    # Each name isolated (U+2068 … U+2069) from the text around it (table_state.js, sideNames).
    expect(dana.locator('#waiting-sides .side-line[data-side="0"]')).to_have_text(
        "Side 1: \u2068dana\u2069 and an empty seat")
    emad.goto(f"/table/{match_id}/")
    expect(emad.locator("#live-status")).to_have_attribute("data-state", "live")
    # Every empty seat has its own button; emad chooses to partner dana, opposite her.
    expect(emad.locator("#waiting form.seat-pick")).to_have_count(3)
    emad.locator('#waiting .seat-chip[data-seat="2"] form.seat-pick button').click()
    expect(root(emad)).to_have_attribute("data-you", "2")
    expect(dana.locator('#waiting-sides .side-line[data-side="0"]')).to_have_text(
        "Side 1: \u2068dana\u2069 & \u2068emad\u2069")
    expect(dana.locator('#waiting-sides .side-line[data-side="1"]')).to_have_text(
        "Side 2: two empty seats")
    open_lobby(emad)
    row = emad.locator(f'.table-row[data-match-id="{match_id}"]')
    expect(row.locator('.side-line[data-side="0"]')).to_have_text("Side 1: dana & emad")

    # Against the computer, three computer seats never read the same.
    dana.goto("/")
    form = dana.locator("#computer-form")
    form.locator('input[name="computer-players"][value="4"]').check()
    dana.click("#play-computer-button")
    dana.wait_for_url(re.compile(r"/table/\d+/$"))
    expect(root(dana)).to_have_attribute("data-status", "playing")
    names = [dana.locator(f'.seat-box[data-seat="{seat}"] .name').get_attribute("title")
             for seat in (1, 2, 3)]
    assert names == ["Greedy 1", "Greedy 2", "Greedy 3"]


def test_a_table_nobody_may_watch_and_an_abandoned_table(request, new_page):
    fadi, gala, hadi = new_page(), new_page(), new_page()
    for page, name in ((fadi, "fadi"), (gala, "gala"), (hadi, "hadi")):
        signed_up(request, page, name)
    match_id = create(fadi, watchers="nobody")
    open_lobby(gala)
    join_from_lobby(gala, match_id)
    expect(root(fadi)).to_have_attribute("data-status", "playing")
    # hadi may not watch it: the page says why, and the lobby does not offer it.
    response = hadi.goto(f"/table/{match_id}/")
    assert response.status == 403
    expect(hadi.locator(".refused-reason")).to_have_text(
        "The players of this table do not allow anyone to watch it.")
    open_lobby(hadi)
    expect(hadi.locator(f'#live-matches .match-row[data-match-id="{match_id}"]')).to_have_count(0)

    # An open table whose creator went away leaves the lobby by itself.
    lone = new_page()
    signed_up(request, lone, "iman")
    abandoned = create(lone)
    row = hadi.locator(f'.table-row[data-match-id="{abandoned}"]')
    expect(row).to_have_count(1)
    lone.context.close()
    expect(row).to_have_count(0, timeout=40_000)
    assert hadi.goto(f"/table/{abandoned}/").status == 404


@pytest.mark.parametrize("locale", ["en", "ar", "fr"])
def test_a_phone_has_play_the_computer_in_its_first_screen(request, new_page, locale):
    """On a 390×844 phone "Play the computer" started 1,739 px down the lobby, under the whole
    "Create a table" form. There both forms are folded to their headings, in the first screen;
    a tap opens one, which still creates its table; one sent back with errors stays open.
    Wider, both are open."""
    page = new_page(viewport={"width": 390, "height": 844}, locale=locale)
    signed_up(request, page, f"fold_{locale}")
    page.goto("/")
    expect(page.locator("#live-status")).to_have_attribute("data-state", "live")
    for title in ("#create-title", "#computer-title"):
        expect(page.locator(title)).to_be_in_viewport()
    expect(page.locator("#computer-form")).to_be_hidden()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    # A form the server sends back with its errors stays open.
    page.locator("#computer-title").click()
    page.locator("#computer-form").evaluate("(form) => { form.noValidate = true; }")
    page.fill('input[name="computer-target"]', "5")
    page.click("#play-computer-button")
    expect(page.locator("#computer-form .errorlist")).to_be_visible()
    expect(page.locator("#create-table-button")).to_be_hidden()
    page.locator("#create-title").click()
    expect(page.locator("#create-table-button")).to_be_visible()
    page.check('input[name="players"][value="2"]')
    page.fill('input[name="target"]', "11")
    page.click("#create-table-button")
    page.wait_for_url(re.compile(r"/table/\d+/$"))
    expect(root(page)).to_have_attribute("data-status", "open")

    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto("/")
    expect(page.locator("#live-status")).to_have_attribute("data-state", "live")
    expect(page.locator("#create-table-button")).to_be_visible()
    expect(page.locator("#play-computer-button")).to_be_visible()
