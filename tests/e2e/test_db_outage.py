"""The table page when the server's database cannot answer (issue 36, docs/protocol.md
"error": ``unavailable``): it says so, gives the hand back, and asks for the table again in a
moment rather than at once (which would only meet the same outage). The socket is answered by
the test (``FakeTable``); the page's clock is Playwright's, moved on by the test."""

from datetime import datetime, timedelta, timezone

import pytest
from playwright.sync_api import expect

from tests.e2e.test_table_alive import open_table

pytestmark = pytest.mark.e2e

TEXT = "Connection trouble on the server: nothing was done. Trying again in a moment…"


def test_unavailable_is_shown_and_the_table_asked_for_again_in_a_moment(new_page, request):
    fake = open_table(new_page, request, fake_clock=True)
    page = fake.page
    page.clock.pause_at(datetime.now(timezone.utc) + timedelta(seconds=1))
    card = page.locator("#hand button.card[data-card='4D']")
    card.click()
    fake.wait_sent(lambda m: m.get("type") == "play")
    before = len(fake.sent)

    fake.send({"type": "error", "code": "unavailable", "message": TEXT})

    expect(page.locator("#table-error")).to_have_text(TEXT)
    expect(card).to_have_attribute("aria-disabled", "false")  # nothing was played: again
    # Not at once: a frame the page sends now comes before any sync it would have sent.
    page.evaluate("Basra.table.socket.send({type: 'marker'})")
    fake.wait_sent(lambda m: m.get("type") == "marker")
    assert [m["type"] for m in fake.sent[before:]] == ["marker"]
    # In a moment (2 to 3 s), once.
    page.clock.run_for(3500)
    fake.wait_sent(lambda m: m.get("type") == "sync" and m in fake.sent[before:])
    assert [m["type"] for m in fake.sent[before:]] == ["marker", "sync"]
