"""Playing the computer in the browser: "Play the computer" from the lobby, a match to 11
against the greedy bot (which the table clock plays after its short delay) played to its end,
the bot badge and the countdown; then a second table resigned through the confirmation dialog;
a table waiting for its player, paused, listed so in the lobby with its link back.

The match's first 32 plays are made through the site's own actions (``tests/e2e/seed.py``):
the page plays the round's last two deals, which is where the match ends.
"""

import json
import re
import uuid

import pytest
from playwright.sync_api import expect

from tests.e2e.pages import (
    MY_TURN_OR_END,
    SECOND_GROUP,
    open_lobby,
    play_the_computer,
    root,
    screenshot,
    signed_in,
    signed_up,
    wait_until,
)


pytestmark = [pytest.mark.e2e, pytest.mark.xdist_group(SECOND_GROUP)]

#: 2 players: 48 plays a round, half of them the human's; a target of 11 almost always ends in
#: one round (a 26-26 split with no basra needs another).
MAX_MY_PLAYS = 24 * 6
#: Plays of the first round left to the page once the table is seeded: its last two deals.
LEFT = 16


def test_a_whole_match_against_the_greedy_bot(request, new_page, seed):
    page = new_page()
    signed_up(request, page, "hana")
    match_id = play_the_computer(page, clock="60")
    table = root(page)
    expect(table).to_have_attribute("data-status", "playing")  # it starts at once
    expect(table).to_have_attribute("data-you", "0")
    bot_box = page.locator('.seat-box[data-seat="1"]')
    expect(bot_box).to_have_attribute("data-bot", "greedy")
    expect(bot_box.locator(".bot-badge")).to_be_visible()
    expect(bot_box.locator(".name")).to_have_text("Greedy")
    # The score boxes say whose side is whose; a computer is its badge and level there.
    expect(page.locator('.side[data-side="0"] .side-label')).to_have_text("You")
    expect(page.locator('.side[data-side="1"] .side-label')).to_have_text("Opponent")
    expect(page.locator('.side[data-side="1"] .side-member.bot .bot-badge')).to_be_visible()
    expect(page.locator('.side[data-side="1"] .side-member.bot')).to_have_text(
        "Greedy", use_inner_text=True)
    expect(page.locator("#table-meta")).to_contain_text("60 s per play")

    # On to the last two deals, then the page plays on to the end of the match.
    seq = seed("play", match_id, LEFT).split("seq=")[1].strip()
    page.reload()
    expect(page.locator("#live-status")).to_have_attribute("data-state", "live")
    wait_until(page, f"() => Number(document.getElementById('table').dataset.seq) >= {seq}")
    my_plays = bot_plays = 0
    counted_down = False
    while True:
        assert my_plays < MAX_MY_PLAYS
        # The bot plays by itself after its delay: wait for my turn or the end.
        wait_until(page, MY_TURN_OR_END, timeout=20_000)
        if table.get_attribute("data-finished") == "true":
            break
        if not counted_down:
            clock = page.locator("#my-clock")
            expect(clock).to_be_visible()
            seconds = int(re.match(r"(\d+)", clock.inner_text()).group(1))
            assert 0 < seconds <= 60
            counted_down = True
            screenshot(page, "computer-table")
        last = page.locator("#last-play")
        if last.is_visible() and last.locator(".cut-name").first.inner_text() == "Greedy":
            bot_plays += 1
        # The round's score covers the floor through the pause; a card pressed then only shows
        # the floor again (table_board.js): wait for it to go, as a player does.
        expect(table).not_to_have_attribute("data-score-over", "1")
        before = table.get_attribute("data-seq")
        page.locator("#hand button.card:not([disabled])").first.click()
        expect(table).not_to_have_attribute("data-seq", before)
        my_plays += 1
    # Half the plays left were mine; the computer's came between them, by themselves: each turn
    # of mine showed its card (but the first of a new round, if a 26-26 tie needed one).
    assert my_plays >= LEFT // 2 and bot_plays >= my_plays - 1
    banner = page.locator("#result-banner")
    expect(banner).to_be_visible()
    expect(banner).to_have_attribute("data-reason", "target")
    scores = [int(s) for s in page.locator(".side .side-score").all_inner_texts()]
    assert max(scores) >= 11
    expect(page.locator("#resign-button")).to_be_hidden()
    screenshot(page, "computer-result")


def test_resign_against_the_computer_after_confirming(request, new_page):
    page = new_page()
    signed_up(request, page, "rami")
    play_the_computer(page, clock="none")
    expect(root(page)).to_have_attribute("data-status", "playing")
    expect(page.locator("#my-clock")).to_be_hidden()
    resign = page.locator("#resign-button")
    expect(resign).to_be_visible()
    # Cancelling changes nothing.
    resign.click()
    dialog = page.locator("#confirm-dialog")
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text("Resign this match?")
    page.click("#confirm-cancel")
    expect(dialog).to_be_hidden()
    expect(root(page)).to_have_attribute("data-finished", "false")
    # Confirming resigns: the computer wins.
    resign.click()
    page.click("#confirm-yes")
    expect(root(page)).to_have_attribute("data-finished", "true")
    banner = page.locator("#result-banner")
    expect(banner).to_have_attribute("data-reason", "resign")
    expect(banner).to_contain_text("You lost.")
    expect(banner.locator(".result-reason")).to_have_text("You resigned.")
    # Someone watching is told who resigned and who won.
    watcher = new_page()
    watcher.goto(page.url)
    watching = watcher.locator("#result-banner")
    # Each name isolated (U+2068 … U+2069), so that a name mixing Arabic and Latin keeps apart
    # from the words and numbers around it.
    expect(watching.locator(".result-title")).to_have_text("Match over · \u2068Greedy\u2069 wins")
    expect(watching.locator(".result-reason")).to_have_text("\u2068rami\u2069 resigned.")


def test_a_table_waiting_for_its_player_is_paused_in_the_lobby_and_its_link_resumes_it(
    browser, site_url, seed
):
    name = f"away_{uuid.uuid4().hex[:6]}"
    seeded = json.loads(seed("paused", name))
    match_id = seeded["match"]
    # Anyone watching meanwhile is told whom the table waits for.
    watcher = browser.new_context(base_url=site_url, viewport={"width": 360, "height": 740})
    try:
        watching = watcher.new_page()
        watching.goto(f"/table/{match_id}/")
        expect(watching.locator("#live-status")).to_have_attribute("data-state", "live")
        expect(watching.locator('#notices .notice[data-notice="paused"]')).to_have_text(
            f"Paused: waiting for \u2068{name}\u2069 to come back.")
    finally:
        watcher.close()
    context = signed_in(browser, site_url, seeded["session"], viewport={"width": 360, "height": 740})
    try:
        page = context.new_page()
        open_lobby(page)
        row = page.locator(f'#your-matches .match-row[data-match-id="{match_id}"]')
        expect(row.locator(".chip-paused")).to_have_text("Paused")
        expect(row.locator(".chip.turn")).to_have_count(0)
        screenshot(page, "computer-paused-lobby")
        row.locator("a.match-link").click()
        page.wait_for_url(re.compile(rf"/table/{match_id}/$"))
        expect(page.locator("#live-status")).to_have_attribute("data-state", "live")
        expect(root(page)).to_have_attribute("data-status", "playing")
        # Opening the table brought the player back: the lobby lists whose turn it is again.
        open_lobby(page)
        row = page.locator(f'#your-matches .match-row[data-match-id="{match_id}"]')
        expect(row.locator(".chip.turn")).to_be_visible()
        expect(row.locator(".chip-paused")).to_have_count(0)
    finally:
        context.close()
