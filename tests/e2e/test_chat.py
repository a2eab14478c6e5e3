"""The table's chat as people use it (games/chat/): two players at a table of two talk both ways
on phones (one page in Arabic, right to left, portrait and landscape), a line's markup and link
shown as text with a Report link; at a running table of
four the seats have no free chat, and a line sent all the same is refused in the panel; on a
faked socket, a sanction shown at the panel's opening, the unread count of the shown room, and
the room's lines asked for once a connection of the socket."""

from __future__ import annotations

import json
import re
import uuid

import pytest
from playwright.sync_api import expect

from tests.e2e.pages import (
    OUTSIDE,
    TABLE_STORE,
    FakeTable,
    open_table,
    resize,
    root,
    signed_in,
    socket_state_drawn,
    with_session,
)

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


#: A frame the page sends after everything it sent so far: what a state or a redraw made it send
#: has been sent before it.
MARKER = {"type": "marker"}


def _asked(frames: list[dict]) -> int:
    return sum(1 for frame in frames if frame == {"type": "chat_history"})


def test_the_rooms_lines_are_asked_for_once_a_connection(new_page, seed, site_url):
    """The page asks for the chat's lines once each time its socket opens: once on a load whose
    chat script comes after the socket opened (a slow network) and before the table's first
    state, not again at a redraw of that state, and once more after a reconnection."""
    # No service worker: the chat script's request must reach the route below.
    page = new_page(service_workers="block", **PHONE)
    held = []
    page.route(re.compile(r"/static/chat/table_chat\b[^/]*\.js$"), lambda route: held.append(route))
    fake = FakeTable(page)
    fake.held = True
    table = json.loads(seed("created", 2, 11, f"chat_{uuid.uuid4().hex[:8]}"))
    with_session(page.context, site_url, table["session"])
    # Not to the load: the page's load waits for the chat script, held until the socket is open.
    page.goto(f"/table/{table['match']}/", wait_until="commit")
    fake.wait_sent({"type": "sync"})  # the socket is open; its state is held back
    for _ in range(100):  # the script's request reaches the route while Playwright waits
        if held:
            break
        page.wait_for_timeout(50)
    held[0].continue_()
    expect(page.locator("#chat-panel")).to_have_attribute("data-rooms", "player")
    fake.answer_held()
    expect(root(page)).to_have_attribute("data-seq", str(fake.state["seq"]))
    # A redraw of the same state (the round's score put away, an app's part given) asks nothing.
    page.evaluate(f"{TABLE_STORE}.then((store) => {{ store.refresh(); store.send({json.dumps(MARKER)}); }})")
    fake.wait_sent(MARKER)
    assert _asked(fake.sent) == 1, fake.sent

    before = len(fake.sent)
    fake.sockets[-1].close()  # the page opens a new socket and asks for the table again
    fake.wait_sent(lambda frame: frame == {"type": "chat_history"} and frame in fake.sent[before:])
    page.evaluate(f"{TABLE_STORE}.then((store) => store.send({json.dumps(MARKER)}))")
    fake.wait_sent(lambda frame: frame == MARKER and frame in fake.sent[before:])
    assert _asked(fake.sent[before:]) == 1, fake.sent[before:]
