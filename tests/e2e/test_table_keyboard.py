"""The live table by keyboard and screen reader (issue 22; static/games/table/keys.js and
table/speak.js): a whole match to 11 against the computer played with the keyboard alone (Tab
into the hand, the arrow keys, Enter), the hand's accessibility tree naming every card as a
button in words, the polite live region telling each play and the turn, focus kept in the hand
across the states, and the single-key shortcuts that read the table and can be turned off.

The match is played from its first card (no seeded position): the issue asks for a whole match
by keyboard, and the computer's shortened delay (conftest ``SITE_ENV``) keeps it to one round
of 48 plays, about 25 s here.
"""

import re

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.pages import (
    MY_TURN_OR_END,
    SECOND_GROUP,
    play_the_computer,
    root,
    screenshot,
    signed_up,
    wait_until,
)


pytestmark = [pytest.mark.e2e, pytest.mark.xdist_group(SECOND_GROUP)]

#: 2 players, a target of 11: one round (two if it ties), 24 plays of mine a round.
MAX_MY_PLAYS = 24 * 4
RANKS = {"A": "ace", "2": "two", "3": "three", "4": "four", "5": "five", "6": "six", "7": "seven",
         "8": "eight", "9": "nine", "10": "ten", "J": "jack", "Q": "queen", "K": "king"}
SUITS = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
SUIT_SYMBOLS = {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"}

#: Everything the live region is given, in order, kept by the page (a MutationObserver), so a
#: test can say what was announced and what was not, however fast the announcements follow.
RECORD_SPEECH = """() => {
  window.said = [];
  new MutationObserver(() => window.said.push(document.getElementById("table-speech").textContent))
    .observe(document.getElementById("table-speech"), {childList: true, subtree: true});
}"""


def words(code: str) -> str:
    """The English name of a card code ("10H" -> "ten of hearts"), as the replay says it."""
    return f"{RANKS[code[:-1]]} of {SUITS[code[-1]]}"


def focused_card(page: Page) -> str | None:
    """The code of the hand's card that has the focus, or None."""
    return page.evaluate("""() => {
      const a = document.activeElement;
      return a && a.closest("#hand") && a.dataset.card ? a.dataset.card : null;
    }""")


def tab_into_the_hand(page: Page) -> None:
    """Press Tab until a card of the hand has the focus (the hand is one tab stop)."""
    for _ in range(80):
        page.keyboard.press("Tab")
        if focused_card(page):
            return
    raise AssertionError("Tab never reached the hand")


def test_a_whole_match_by_keyboard_alone(request, new_page):
    page = new_page()
    signed_up(request, page, "kbd_nour")
    play_the_computer(page, clock="none")
    table = root(page)
    expect(table).to_have_attribute("data-status", "playing")
    page.evaluate(RECORD_SPEECH)
    wait_until(page, MY_TURN_OR_END)

    # Every card of the hand is a button named in words, its suit drawn as a symbol too (not
    # by colour alone), and a target of at least 24 px.
    cards = page.locator("#hand button.card").evaluate_all("bs => bs.map(b => b.dataset.card)")
    assert len(cards) == 4
    tree = page.locator("#hand").aria_snapshot()
    for code in cards:
        assert f'button "{words(code)}"' in tree
        card = page.locator(f'#hand button.card[data-card="{code}"]')
        expect(card.locator(".corner.top .suit")).to_have_text(SUIT_SYMBOLS[code[-1]])
        box = card.bounding_box()
        assert box["width"] >= 24 and box["height"] >= 24

    # The hand is one tab stop; the arrow keys go from card to card, Home and End to the ends.
    tab_into_the_hand(page)
    assert focused_card(page) == cards[0]
    assert page.locator("#hand button.card[tabindex='0']").count() == 1
    page.keyboard.press("ArrowRight")
    assert focused_card(page) == cards[1]
    page.keyboard.press("End")
    assert focused_card(page) == cards[-1]
    page.keyboard.press("Home")
    assert focused_card(page) == cards[0]

    my_plays = 0
    while True:
        assert my_plays < MAX_MY_PLAYS
        # The computer plays after its delay; the focus stays in the hand meanwhile.
        wait_until(page, MY_TURN_OR_END, timeout=20_000)
        if table.get_attribute("data-finished") == "true":
            break
        code = focused_card(page)
        assert code is not None, "the focus left the hand"
        # The round's score covers the floor through the pause; Enter then only shows the floor
        # again (table_board.js): wait for it to go, as a player does.
        expect(table).not_to_have_attribute("data-score-over", "1")
        before = table.get_attribute("data-seq")
        page.keyboard.press("Enter")
        expect(table).not_to_have_attribute("data-seq", before)
        my_plays += 1
        if my_plays == 1:
            # The play is told, then (after the computer's card) my turn. The computer's play
            # may already have replaced it in the live region, so the record is read.
            wait_until(page, "text => window.said.some(s => s.includes(text))",
                       arg=f"You played {words(code)}")
            wait_until(page, MY_TURN_OR_END, timeout=20_000)
            expect(page.locator("#table-speech")).to_contain_text("Your turn")
            assert focused_card(page) not in (None, code)  # on to the next card

    assert my_plays >= 24
    expect(page.locator("#result-banner")).to_have_attribute("data-reason", "target")
    scores = [int(s) for s in page.locator(".side .side-score").all_inner_texts()]
    assert max(scores) >= 11
    said = page.evaluate("window.said")
    assert any(re.match(r"Greedy played .+\.", text) for text in said)
    # Each deal after the first is told ("Your cards: …"), and the round's end with its points.
    assert sum(text.startswith("Your cards: ") or " Your cards: " in text for text in said) >= 5
    assert any(re.search(r"Round 1 over\. You: \d+ points\. Opponent: \d+ points\.", text)
               for text in said)
    # The hand is gone with the match: the focus went on to the result, not to the page.
    assert page.evaluate("document.activeElement.id") == "result-banner"
    screenshot(page, "keyboard-result")


def test_the_reading_keys_speak_and_can_be_turned_off(request, new_page):
    page = new_page()
    signed_up(request, page, "kbd_sami")
    play_the_computer(page, clock="none")
    page.evaluate(RECORD_SPEECH)
    wait_until(page, MY_TURN_OR_END)
    speech = page.locator("#table-speech")
    tab_into_the_hand(page)
    floor = page.locator("#floor .card").evaluate_all("cs => cs.map(c => c.dataset.card)")
    page.keyboard.press("f")
    expect(speech).to_have_text(
        "Floor: " + ", ".join(words(code) for code in floor) + "." if floor else "The floor is empty")
    page.keyboard.press("h")
    expect(speech).to_contain_text("You: 4 in hand. Greedy: ")
    page.keyboard.press("s")
    expect(speech).to_have_text("You: 0 points. Opponent: 0 points. The match is played to 11.")
    page.keyboard.press("t")
    expect(speech).to_have_text("Round 1 · Your turn")

    # The help names the keys; its checkbox turns the single keys off, in this browser.
    page.locator("#keys-help > summary").click()
    expect(page.locator("#keys-help .keys-panel")).to_contain_text("F: read the floor")
    # Escape closes it, back on its summary, and it opens again from there.
    page.keyboard.press("Escape")
    expect(page.locator("#keys-help .keys-panel")).to_be_hidden()
    assert page.evaluate("document.activeElement.matches('#keys-help > summary')")
    page.keyboard.press("Enter")
    expect(page.locator("#keys-help .keys-panel")).to_be_visible()
    page.locator("#shortcuts-on").uncheck()
    page.reload()
    expect(page.locator("#live-status")).to_have_attribute("data-state", "live")
    expect(page.locator("#shortcuts-on")).not_to_be_checked()
    page.evaluate(RECORD_SPEECH)
    wait_until(page, MY_TURN_OR_END)
    tab_into_the_hand(page)
    code = focused_card(page)
    page.keyboard.press("f")
    page.keyboard.press("Enter")  # a play, told after the "f" would have been
    expect(speech).to_contain_text(f"You played {words(code)}")
    said = page.evaluate("window.said")
    assert said and not any(text.startswith("Floor") or "floor is empty" in text for text in said)


AR_RANKS = {"A": "آس", "2": "اثنان", "3": "ثلاثة", "4": "أربعة", "5": "خمسة", "6": "ستة", "7": "سبعة",
            "8": "ثمانية", "9": "تسعة", "10": "عشرة", "J": "ولد", "Q": "بنت", "K": "شايب"}
AR_SUITS = {"C": "سباتي", "D": "ديناري", "H": "كوبة", "S": "بستوني"}


def test_in_arabic_on_a_phone_the_cards_are_named_and_the_arrows_follow_the_reading(request, new_page):
    page = new_page(viewport={"width": 360, "height": 740}, locale="ar")
    signed_up(request, page, "kbd_huda")
    play_the_computer(page, clock="none")
    wait_until(page, MY_TURN_OR_END)
    cards = page.locator("#hand button.card").evaluate_all("bs => bs.map(b => b.dataset.card)")
    tree = page.locator("#hand").aria_snapshot()
    for code in cards:
        assert f'button "{AR_RANKS[code[:-1]]} {AR_SUITS[code[-1]]}"' in tree
    # Right to left, the left arrow goes on to the next card (the one drawn to the left).
    tab_into_the_hand(page)
    assert focused_card(page) == cards[0]
    page.keyboard.press("ArrowLeft")
    assert focused_card(page) == cards[1]
    page.keyboard.press("ArrowRight")
    assert focused_card(page) == cards[0]
    page.keyboard.press("s")
    expect(page.locator("#table-speech")).to_contain_text("المباراة حتى 11 نقطة.")
    # The keys' help opens over the table, inside the phone's width.
    page.locator("#keys-help > summary").click()
    panel = page.locator("#keys-help .keys-panel").bounding_box()
    assert 0 <= panel["x"] and panel["x"] + panel["width"] <= 360
    assert page.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0
    screenshot(page, "keyboard-keys-help-ar")
    # Every control of the table (its keys' help open) is a target of 24 px or more each way.
    small = page.evaluate("""() => Array.from(document.querySelectorAll(
        '#table button, #table summary, #table input, #table a'))
      .filter(e => e.getClientRects().length)
      .map(e => [e.id || e.className, e.getBoundingClientRect()])
      .filter(([, r]) => r.width < 24 || r.height < 24).map(([name]) => name)""")
    assert small == []


def test_more_time_at_a_casual_table_with_a_clock(request, new_page):
    page = new_page()
    signed_up(request, page, "kbd_rana")
    play_the_computer(page, clock="60")
    wait_until(page, MY_TURN_OR_END)
    button = page.locator("#more-time-button")
    expect(button).to_be_visible()
    button.focus()
    page.keyboard.press("Enter")
    expect(page.locator("#table-speech")).to_have_text("You have 60 more seconds.")
    # The clock shows the time asked for: more than one time per play is left now.
    expect(page.locator("#my-clock")).to_have_text(re.compile(r"^(6[1-9]|[7-9]\d|1[01]\d|120) s"))
    # Asked again at once: refused, said why, nothing changed, the focus still on the button.
    seq = root(page).get_attribute("data-seq")
    page.keyboard.press("Enter")
    expect(page.locator("#table-error")).to_contain_text("You already have more time")
    assert page.evaluate("document.activeElement.id") == "more-time-button"
    expect(root(page)).to_have_attribute("data-seq", seq)
    screenshot(page, "keyboard-more-time")
