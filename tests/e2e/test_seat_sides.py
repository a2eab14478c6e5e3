"""The four-player seat picker names the sides (static/games/table/sides.js): whose side each
seat is on, and to a seated player their seat, their partner's and the opponents'; a picker
only where there is a seat to choose, and then no "Join" beside it (static/games/table/waiting.js)."""

import json
import re
import uuid

import pytest
from playwright.sync_api import expect

from tests.e2e.pages import SECOND_GROUP, create_table, root, signed_up, socket_state_drawn


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
    # An empty seat is said as a seat, never as a partner's name ("alice & Empty seat"), each
    # name isolated (U+2068 … U+2069) from the words around it.
    sides = alice.locator("#waiting-sides .side-line")
    expect(sides).to_have_text(["Side 1: \u2068sidesalice\u2069 and an empty seat",
                                "Side 2: two empty seats"])
    assert alice.evaluate("document.documentElement.scrollWidth") <= 390

    # Someone not seated, in Arabic, sees each seat's side beside its "Sit here".
    bob = new_page(viewport={"width": 360, "height": 740}, locale="ar")
    signed_up(request, bob, "sidesbob")
    bob.goto(f"/table/{match_id}/")
    expect(chip(bob, 2).locator(".seat-side")).to_have_text("الفريق 1")
    expect(chip(bob, 1).locator(".seat-side")).to_have_text("الفريق 2")
    expect(chip(bob, 2).locator("form.seat-pick button")).to_be_visible()
    assert bob.evaluate("document.documentElement.scrollWidth") <= 360


def test_one_free_seat_is_offered_once(request, new_page, seed):
    """With one seat to take there is no choice to make: only "Join" offers it (not "Sit here"
    on its chip beside "Join"), at two seats and at four alike."""
    tag = uuid.uuid4().hex[:6]
    two = json.loads(seed("open", 2, f"onea_{tag}"))
    four = json.loads(seed("open", 4, f"oneb_{tag}", f"onec_{tag}", f"oned_{tag}"))
    visitor = new_page(viewport={"width": 360, "height": 740})
    signed_up(request, visitor, f"onev_{tag}")
    visitor.goto(f"/table/{four['match']}/")
    expect(visitor.locator("#live-status")).to_have_attribute("data-state", "live")
    expect(chip(visitor, 3)).to_have_class(re.compile(r"\bempty\b"))
    expect(visitor.locator("#waiting button")).to_have_count(1)
    expect(visitor.locator("#waiting form.seat-pick")).to_have_count(0)

    visitor.goto(f"/table/{two['match']}/")
    expect(visitor.locator("#live-status")).to_have_attribute("data-state", "live")
    expect(chip(visitor, 1)).to_have_class(re.compile(r"\bempty\b"))
    expect(visitor.locator("#waiting button")).to_have_count(1)
    expect(visitor.locator("#waiting form.seat-pick")).to_have_count(0)
    visitor.click("#join-button")
    expect(root(visitor)).to_have_attribute("data-you", "1")
    expect(root(visitor)).to_have_attribute("data-status", "playing")


def test_two_seats_to_take_are_offered_by_their_own_buttons_alone(request, new_page, seed):
    """At a waiting table for four with an empty seat and a computer's, both of which a person
    may take, a visitor had "Sit here", "Take this seat" and "Join" below them: two ways to
    take a seat, and "Join" said not which. Each seat to take has its own button, and no
    "Join"; the client seed box stays, and the seat's button sends the seed typed there."""
    tag = uuid.uuid4().hex[:6]
    table = json.loads(seed("open_computer", f"twoa_{tag}", f"twob_{tag}"))
    visitor = new_page(viewport={"width": 360, "height": 740})
    signed_up(request, visitor, f"twov_{tag}")
    visitor.goto(f"/table/{table['match']}/")
    expect(visitor.locator("#live-status")).to_have_attribute("data-state", "live")
    expect(chip(visitor, 2)).to_have_class(re.compile(r"\bempty\b"))
    expect(chip(visitor, 3)).to_have_class(re.compile(r"\bbot\b"))
    expect(chip(visitor, 2).locator("form.seat-pick button")).to_have_text("Sit here")
    expect(chip(visitor, 3).locator("form.seat-pick button")).to_have_text("Take this seat")
    expect(visitor.locator("#waiting button")).to_have_count(2)
    expect(visitor.locator("#join-button")).to_have_count(0)
    socket_state_drawn(visitor)  # its redraw would replace the box while it is typed in
    visitor.fill("#client-seed", f"my-own-seed-{tag}")
    # The computer's seat: seat 2 stays empty, the table waits, the seed box shows the seat's.
    chip(visitor, 3).locator("form.seat-pick button").click()
    expect(root(visitor)).to_have_attribute("data-you", "3")
    expect(visitor.locator("#client-seed")).to_have_value(f"my-own-seed-{tag}")
