"""The four-player seat picker names the sides (static/games/table/sides.js): whose side each
seat is on, and to a seated player their seat, their partner's and the opponents'."""

import pytest
from playwright.sync_api import expect

from tests.e2e.pages import SECOND_GROUP, create_table, signed_up


pytestmark = [pytest.mark.e2e, pytest.mark.xdist_group(SECOND_GROUP)]


def chip(page, seat: int):
    return page.locator(f'#waiting .seat-chip[data-seat="{seat}"]')


def test_the_seat_picker_shows_the_partner_seat_and_the_sides(request, new_page):
    alice = new_page(viewport={"width": 390, "height": 844})
    signed_up(request, alice, "sidesalice")
    match_id = create_table(alice, players=4, target=101)
    expect(chip(alice, 0).locator(".seat-side")).to_have_text("Your seat · Side 1")
    expect(chip(alice, 2).locator(".seat-side")).to_have_text("Your partner's seat · Side 1")
    for seat in (1, 3):
        expect(chip(alice, seat).locator(".seat-side")).to_have_text("Opponents' seat · Side 2")
    # The player's side is marked by a class with its own border, besides the words.
    for seat in (0, 2):
        assert "your-side" in chip(alice, seat).get_attribute("class")
    assert "your-side" not in chip(alice, 1).get_attribute("class")
    assert alice.evaluate("document.documentElement.scrollWidth") <= 390

    # Someone not seated, in Arabic, sees each seat's side beside its "Sit here".
    bob = new_page(viewport={"width": 360, "height": 740}, locale="ar")
    signed_up(request, bob, "sidesbob")
    bob.goto(f"/table/{match_id}/")
    expect(chip(bob, 2).locator(".seat-side")).to_have_text("الفريق 1")
    expect(chip(bob, 1).locator(".seat-side")).to_have_text("الفريق 2")
    expect(chip(bob, 2).locator("form.seat-pick button")).to_be_visible()
    assert bob.evaluate("document.documentElement.scrollWidth") <= 360
