"""The table's chat as people use it (games/chat/): two players at a table of two talk both ways
on phones (one page in Arabic, right to left, portrait and landscape), a line's markup and link
shown as text with a Report link; at a running table of
four the seats have no free chat, and a line sent all the same is refused in the panel; on a
faked socket, a sanction shown at the panel's opening and the unread count of the shown room."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.pages import OUTSIDE, TABLE_STORE, open_table, resize, signed_in, socket_state_drawn

pytestmark = pytest.mark.e2e

PHONE = {"viewport": {"width": 360, "height": 740}}
LINE = "salam <b>ya</b> https://x.example"


def at_table(browser, site_url, session, match_id, contexts, lang=None):
    context = signed_in(browser, site_url, session, lang, **PHONE)
    contexts.append(context)
    page = context.new_page()
    page.goto(f"/table/{match_id}/")
    expect(page.locator("#live-status")).to_have_attribute("data-state", "live")
    socket_state_drawn(page)  # a line sent from now on reaches this page live
    expect(page.locator("#chat-panel")).to_have_attribute("data-rooms", "player")
    return page


def test_chat_both_ways_at_two_and_refused_between_partners_at_four(browser, site_url, seeded):
    contexts = []
    try:
        two = seeded(2)
        first = at_table(browser, site_url, two["sessions"][0], two["match"], contexts)
        second = at_table(browser, site_url, two["sessions"][1], two["match"], contexts, "ar")  # RTL
        first.click("#chat-panel > summary")  # folded on a phone
        first.fill("#chat-text", LINE)
        first.press("#chat-text", "Enter")
        expect(first.locator("#chat-lines .chat-text")).to_have_text([LINE])
        expect(second.locator("#chat-unread")).to_be_visible()
        second.click("#chat-panel > summary")
        expect(second.locator("#chat-lines .chat-text")).to_have_text([LINE])
        assert second.locator("#chat-lines b, #chat-lines a[href^='https']").count() == 0
        report = second.locator("#chat-lines .chat-report")
        line_id = second.locator(".chat-line").first.get_attribute("data-id")
        expect(report).to_have_attribute(
            "href", re.compile(rf"/players/abdelrahman_\w+/report/\?match={two['match']}&line={line_id}$"))
        assert first.locator("#chat-lines .chat-report").count() == 0  # not one's own line
        second.fill("#chat-text", "مرحبا، بالتوفيق")
        second.press("#chat-text", "Enter")
        expect(first.locator("#chat-lines .chat-text")).to_have_text([LINE, "مرحبا، بالتوفيق"])
        assert second.evaluate("document.documentElement.dir") == "rtl"
        for width, height in ((360, 740), (740, 360)):  # portrait, then landscape
            resize(second, width, height)
            layout = second.evaluate(OUTSIDE)
            assert layout["scroll"] <= layout["width"], layout

        four = seeded(4)
        partner = at_table(browser, site_url, four["sessions"][0], four["match"], contexts)
        partner.click("#chat-panel > summary")
        expect(partner.locator("#chat-note")).to_be_visible()
        expect(partner.locator("#chat-form")).to_be_hidden()
        partner.evaluate(f"async () => (await {TABLE_STORE}).send("
                         "{type: 'chat', room: 'player', text: 'I hold the seven of diamonds'})")
        expect(partner.locator("#chat-panel")).to_have_attribute("data-refused", "chat_not_allowed")
        expect(partner.locator("#chat-error")).to_be_visible()
        expect(partner.locator("#table-error")).to_be_hidden()
    finally:
        for context in contexts:
            context.close()



def _line(number: int, room: str) -> dict:
    return {"type": "chat", "line": {"id": number, "room": room, "username": "omar", "text": f"line {number}",
                                     "created": "2026-11-29T12:31:00+00:00", "report": "/players/omar/report/"}}


def test_a_sanction_shown_on_opening_and_unread_counts_the_shown_room(new_page, request):
    fake = open_table(new_page, request, **PHONE)  # a phone: the panel starts folded
    page = fake.page
    fake.push(lambda state: state["match"].update(status="finished"))  # both rooms readable
    fake.wait_sent({"type": "chat_history"})
    fake.send({"type": "chat_lines", "lines": [], "on": True, "sanction": "chat_timeout"})
    expect(page.locator("#chat-panel")).to_have_attribute("data-sanction", "chat_timeout")
    expect(page.locator("#chat-panel")).to_have_attribute("data-rooms", "player spectator")
    fake.send(_line(1, "spectator"))  # not the room the panel shows
    fake.send(_line(2, "player"))
    page.click("#chat-panel > summary")
    expect(page.locator("#chat-note")).to_contain_text("moderator")
    expect(page.locator("#chat-lines .chat-text")).to_have_text(["line 2"])
    fake.send(_line(3, "spectator"))
    fake.send(_line(4, "player"))
    page.click("#chat-panel > summary")  # folded again: what comes now is unread
    fake.send(_line(5, "spectator"))
    fake.send(_line(6, "player"))
    expect(page.locator("#chat-unread")).to_have_text(re.compile(r"\b1\b"))
    page.click("#chat-panel > summary")
    expect(page.locator("#chat-lines .chat-text")).to_have_text(["line 2", "line 4", "line 6"])


def test_a_chat_timeout_s_note_says_until_when(new_page, request):
    """The note at the table says until when the timeout runs, as the site writes a time (the
    24-hour clock, UTC), not only "for a while"."""
    from datetime import datetime, timedelta, timezone

    fake = open_table(new_page, request, **PHONE)
    page = fake.page
    fake.push(lambda state: state["match"].update(status="finished"))
    fake.wait_sent({"type": "chat_history"})
    now = datetime.now(timezone.utc)
    # Today, as a timeout the site gives mostly ends (one ending tomorrow shows its date too).
    end = min(now + timedelta(minutes=30), now.replace(hour=23, minute=59)).replace(
        second=0, microsecond=0)
    fake.send({"type": "chat_lines", "lines": [], "on": True, "sanction": "chat_timeout",
               "sanction_until": end.isoformat()})
    page.click("#chat-panel > summary")
    expect(page.locator("#chat-note")).to_contain_text(f"You may not chat until {end:%H:%M}")
    expect(page.locator("#chat-note")).to_contain_text("a moderator timed your chat out")
