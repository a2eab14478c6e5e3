"""The "How to play" page in the browser, in Arabic on a phone: reached from the navigation,
right to left, RULES.md's examples drawn as the table's cards."""

import pytest
from playwright.sync_api import expect

from tests.e2e.pages import SECOND_GROUP, screenshot


pytestmark = [pytest.mark.e2e, pytest.mark.xdist_group(SECOND_GROUP)]


def test_the_rules_page_in_arabic_draws_the_examples_right_to_left(new_page):
    page = new_page(viewport={"width": 390, "height": 844}, locale="ar")
    page.goto("/")
    expect(page.locator("#lobby-rules")).to_have_text("جديد على الباصرة؟ اقرأ طريقة اللعب.")
    page.get_by_role("button", name="القائمة").click()  # the phone's menu
    page.locator(".site-nav").get_by_role("link", name="طريقة اللعب").click()
    page.wait_for_url("**/rules/")
    expect(page.locator("html")).to_have_attribute("dir", "rtl")
    expect(page.locator("h1")).to_have_text("طريقة لعب الباصرة")

    examples = page.locator(".rules-example")
    expect(examples).to_have_count(13)
    # The first example: 5♥ K♠ 5♣ on the floor, 5♦ played, 5♥ and 5♣ taken; drawn with the
    # table's card CSS (games.css): real size, red hearts, the corners kept left to right.
    first = examples.nth(0)
    codes = first.locator(".card").evaluate_all("cards => cards.map(c => c.dataset.card)")
    assert codes == ["5H", "KS", "5C", "5D", "5H", "5C"]
    heart = first.locator('.card[data-card="5H"]').first
    expect(heart).to_have_attribute("aria-label", "خمسة كوبة")
    style = heart.evaluate(
        "c => { const s = getComputedStyle(c); const r = c.getBoundingClientRect();"
        " return {color: s.color, direction: s.direction, width: r.width, height: r.height}; }"
    )
    assert style["color"] == "rgb(200, 16, 46)"  # --card-red
    assert style["direction"] == "ltr"
    assert 40 <= style["width"] <= 80 and style["height"] > style["width"]
    king = first.locator('.card[data-card="KS"] .face')
    expect(king).to_be_visible()

    # Right to left: the floor comes first, on the right; the card played after it, to its left.
    steps = first.locator(".rules-step")
    floor_box, played_box = steps.nth(0).bounding_box(), steps.nth(1).bounding_box()
    assert floor_box["x"] > played_box["x"]

    # The verdicts, in Arabic, from the engine.
    expect(examples.nth(1).locator(".chip")).to_have_text("باصرة!")
    expect(examples.nth(8).locator(".chip")).to_have_text("باصرة ولد!")
    expect(examples.nth(5)).to_contain_text("لا شيء: تبقى الورقة على الأرض.")

    # A note that is only a sum reads left to right, isolated from the Arabic around it (not
    # mirrored into ".3 + 3 = 4 + 2 = 5 + 1 = 6"); an Arabic note stays right to left.
    sum_note = examples.nth(3).locator(".rules-note")
    expect(sum_note).to_have_text("6 = 1 + 5 = 2 + 4 = 3 + 3.")
    assert sum_note.evaluate("n => getComputedStyle(n).direction") == "ltr"
    assert examples.nth(5).locator(".rules-note").evaluate(
        "n => getComputedStyle(n).direction") == "rtl"

    # Nothing wider than the phone.
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    screenshot(page, "rules-ar-phone")
