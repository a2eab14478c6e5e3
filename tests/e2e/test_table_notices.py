"""The table page's notices, resign button and round summary, drawn from states the test writes.

The page is a real table page (signed up, table created through the lobby), but its socket is
answered by the test instead of the server (Playwright's ``route_web_socket``), so each state
(a partner taken over by the computer, a resign offer, a round without leftover cards...) is
there at once, without playing a match up to it. The states follow docs/protocol.md ("state").
"""

import pytest
from playwright.sync_api import expect

from tests.e2e.pages import FakeTable, at_a_new_table, root

pytestmark = pytest.mark.e2e


@pytest.fixture
def table(new_page, request):
    page = new_page()
    fake = FakeTable(page)
    # One server for the module: each test has a person of its own.
    at_a_new_table(request, page, "u" + str(abs(hash(request.node.name)) % 10**8))
    expect(root(page)).to_have_attribute("data-seq", "100")
    return fake


def test_resign_offer_follows_the_partner(table):
    page = table.page
    resign = page.locator("#resign-button")
    notices = page.locator("#notices")
    dialog_text = page.locator("#confirm-text")
    # No offer yet: the dialog says a click is only an offer.
    resign.click()
    expect(dialog_text).to_have_text("Offer to resign? Your side resigns when your partner agrees.")
    page.click("#confirm-cancel")
    # alice offered: the button waits for dina.
    table.push(lambda s: s["seats"][0].update(resign_offer=True))
    expect(resign).to_be_disabled()
    expect(notices.locator('[data-notice="resign-offer"]')).to_have_text(
        "You offered to resign; waiting for your partner.")
    # ... and said over the table at once, where the player looks.
    expect(page.locator("#table-error.notice")).to_have_text("You offered to resign; waiting for your partner.")
    # dina is taken over by the computer: the server would take alice's resignation at once.
    table.push(lambda s: s["seats"][2].update(bot="greedy", absent=True))
    expect(resign).to_be_enabled()
    expect(notices.locator('[data-notice="resign-offer"]')).to_contain_text("resign again")
    resign.click()
    expect(dialog_text).to_contain_text("The match ends at once")
    page.click("#confirm-yes")
    table.wait_sent({"type": "resign"})


def test_partner_offer_says_resigning_ends_the_match(table):
    page = table.page
    table.push(lambda s: s["seats"][2].update(resign_offer=True))
    expect(page.locator('#notices [data-notice="resign-offer"]')).to_have_text(
        "Your partner offers to resign. Resign too to end the match.")
    page.click("#resign-button")
    expect(page.locator("#confirm-text")).to_have_text(
        "Your partner has offered to resign. Resign now? The match ends at once and your side loses.")


def test_a_replaced_player_is_not_asked_to_resign(table):
    page = table.page
    notices = page.locator("#notices .notice")

    def replaced(state):
        state["seats"][0].update(bot="greedy", absent=True)
        state["seats"][2].update(resign_offer=True)
        state["seats"][1].update(resign_offer=True)

    table.push(lambda s: s["seats"][2].update(resign_offer=True))
    expect(notices).to_have_text(["Your partner offers to resign. Resign too to end the match."])
    table.push(replaced)
    # Only what is true now: alice's seat is the computer's, and omar's offer; no stale notice.
    expect(notices).to_have_text([
        "You were away too long: the computer plays your seat for the rest of this match.",
        "\u2068omar\u2069 offers to resign.",  # the name isolated (B.isolate)
    ])
    expect(page.locator("#resign-button")).to_be_hidden()


def test_the_away_notice_says_how_to_come_back(table):
    page = table.page
    notice = page.locator('#notices [data-notice="absent"]')
    # Marked away while connected (timeouts): only a play brings alice back.
    table.push(lambda s: s["seats"][0].update(absent=True))
    expect(notice).to_have_text("You were counted as away. Play a card to come back.")
    # The socket drops and opens again: connecting is what brings her back.
    table.sockets[-1].close()
    expect(notice).to_have_text("You were counted as away; you are back now that you are connected.")
    table.push(lambda s: s["seats"][0].update(absent=False))
    expect(notice).to_have_count(0)


def test_a_timeout_is_told_until_the_next_own_play(table):
    page = table.page
    notice = page.locator('#notices [data-notice="timeout"]')
    last = page.locator("#last-play .timed-out")

    def played(seat, card, timeout):
        def change(state):
            state["round"]["last_play"] = {"seat": seat, "card": card, "taken": [], "basra": None,
                                           "timeout": timeout, "bot": None}
            state["round"]["turn"] = (seat + 1) % 4
        return change

    table.push(played(0, "10H", True))
    expect(notice).to_have_text("Your time ran out: ten of hearts was played for you.")
    expect(last).to_have_text("(time ran out)")
    # omar's time runs out too: his play is marked, alice's notice stays.
    table.push(played(1, "5C", True))
    expect(notice).to_have_count(1)
    expect(last).to_have_text("(time ran out)")
    table.push(played(2, "7S", False))
    expect(last).to_have_count(0)
    expect(notice).to_have_count(1)
    # alice's own play ends it.
    table.push(played(0, "4D", False))
    expect(notice).to_have_count(0)
