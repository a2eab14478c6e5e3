"""The live table as players expect it (issue 10): the round's end, a table that moves and
sounds, quick phrases, and states that say themselves (connection lost, logged out, watching).

Most tests drive a real table page (its person and table made by ``seed.py``, as signing up and
the lobby would make them) whose socket is answered by the test (``FakeTable``, Playwright's
``route_web_socket``), so that each state is there at once; the states follow docs/protocol.md.
The last test talks to the real server.
"""

import copy
import json
import re
import uuid
from datetime import datetime, timedelta, timezone

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.pages import (
    PHONE,
    SECOND_GROUP,
    TABLE_STORE,
    FakeTable,
    at_a_new_table,
    open_table,
    play_the_computer,
    resize,
    root,
    screenshot,
    seat,
    settled,
    signed_in,
    signed_up,
    wait_until,
)
from tests.e2e.pages import TWO_PLAYING as PLAYING


pytestmark = [pytest.mark.e2e, pytest.mark.xdist_group(SECOND_GROUP)]

NOW = "2026-11-29T12:30:36.100000+00:00"

RESULT = {"number": 1, "cards": [30, 22], "majority": [30, 0], "basras": [10, 20],
          "jack_basras": [0, 0], "card_points": [0, 0], "total": [40, 20],
          "leftover": {"side": 0, "cards": ["5C"]}}


def opponent_played(card, taken=(), basra=None, turn=0):
    def change(state):
        r = state["round"]
        r["last_play"] = {"seat": 1, "card": card, "taken": list(taken), "basra": basra,
                          "timeout": False, "bot": None}
        r["floor"] = [c for c in r["floor"] if c not in taken] + ([] if taken else [card])
        r["hand_sizes"][1] -= 1
        r["turn"] = turn
    return change


def assert_cards_in_sight(page: Page) -> None:
    """Every card of the hand lies inside the viewport and nothing covers its middle."""
    cards = page.locator("#hand button.card")
    assert cards.count() == 4
    report = cards.evaluate_all("""bs => bs.map(b => {
        const r = b.getBoundingClientRect();
        const x = r.left + r.width / 2, y = r.top + r.height / 2;
        const hit = document.elementFromPoint(x, y);
        return {card: b.dataset.card, inside: r.top >= 0 && r.left >= 0 &&
                r.bottom <= innerHeight && r.right <= innerWidth,
                uncovered: !!hit && b.contains(hit)};
    })""")
    assert all(c["inside"] and c["uncovered"] for c in report), report


# --- the round's end ---------------------------------------------------------------------------


def four_players(state: dict) -> dict:
    state = copy.deepcopy(state)
    state["match"]["players"] = state["match"]["rules"]["players"] = 4
    state["seats"] = [seat(0, "alice"), seat(1, "omar"), seat(2, "dina"), seat(3, "rana")]
    state["round"]["hand_sizes"] = [4, 4, 4, 4]
    return state


def next_round(players: int):
    """The change of the round's last play: round 1 scored (``RESULT``), round 2 dealt."""
    def change(state):
        state["round"].update({"number": 2, "dealer": 0, "turn": 1, "floor": ["2S", "9C", "QD", "6H"],
                               "hand": ["3C", "JD", "10S", "5H"], "hand_sizes": [4] * players,
                               "stock_size": 36, "pile_sizes": [0, 0], "basras": [0, 0],
                               "last_play": None})
        state["round_results"] = [RESULT]
        state["scores"] = [40, 20]
    return change


def match_over(state):
    """The change of the match's last play: round 1 scored (``RESULT``), side 0 won."""
    state["round"].update({"over": True, "turn": None, "hand": [], "floor": [], "stock_size": 0,
                           "last_play": None})
    state["round_results"] = [RESULT]
    state["match"]["status"] = "finished"
    state["scores"] = [40, 20]
    state["result"] = {"winner": 0, "scores": [40, 20], "reason": "target"}


def boxes(page: Page) -> dict:
    return page.evaluate("""() => Object.fromEntries(["breakdown", "board", "hand"].map(id => {
        const r = document.getElementById(id).getBoundingClientRect();
        return [id, {top: r.top, bottom: r.bottom, left: r.left, right: r.right}];
    }))""")


@pytest.mark.parametrize("players", [2, 4])
def test_the_round_score_is_told_over_the_table_through_the_pause(new_page, request, players):
    state = PLAYING if players == 2 else four_players(PLAYING)
    # The page's clock stands still: the pause (BASRA_ROUND_PAUSE_SECONDS, 1 s on the test
    # servers) ends only when the test moves the clock on.
    fake = open_table(new_page, request, state=state, fake_clock=True, **PHONE)
    page = fake.page
    page.clock.pause_at(datetime.now(timezone.utc) + timedelta(seconds=1))
    fake.push(next_round(players))
    breakdown = page.locator("#breakdown")
    expect(breakdown).to_be_visible()
    expect(breakdown).to_have_class(re.compile(r"\bover-table\b"))
    expect(breakdown.locator("tr[data-row='total']")).to_contain_text("40")
    # Basras counted as the scoreboard counts them, their points beside (10 points a basra).
    expect(breakdown.locator("tr[data-row='basras'] td").first).to_have_text("1 (+10)")
    expect(breakdown.locator("tr[data-row='basras'] td").last).to_have_text("2 (+20)")
    expect(page.locator("#breakdown-close")).to_be_in_viewport()
    # Over the seats and the floor, inside the screen, and never over the new hand.
    box = boxes(page)
    assert box["breakdown"]["top"] >= box["board"]["top"] - 1
    assert box["breakdown"]["bottom"] <= min(box["board"]["bottom"], 844) + 1
    assert box["breakdown"]["bottom"] <= box["hand"]["top"] + 1
    assert_cards_in_sight(page)
    screenshot(page, f"round-end-phone-{players}")
    # Then out of the way once the pause is over; every round's score one tap away.
    page.clock.run_for(1500)
    expect(breakdown).to_be_hidden()
    page.click("#rounds-button")
    dialog = page.locator("#history-dialog")
    expect(dialog).to_be_visible()
    expect(dialog.locator("tbody tr")).to_have_count(1)
    expect(dialog.locator("tbody tr")).to_contain_text("40 (40)")


def test_the_round_score_goes_at_the_next_rounds_first_play_or_at_continue(new_page, request):
    fake = open_table(new_page, request, fake_clock=True)
    page = fake.page
    page.clock.pause_at(datetime.now(timezone.utc) + timedelta(seconds=1))
    breakdown = page.locator("#breakdown")
    fake.push(next_round(2))
    expect(breakdown).to_be_visible()
    page.click("#breakdown-close")
    expect(breakdown).to_be_hidden()
    # A state of the same round brings nothing back.
    fake.push(lambda state: state.update(now=NOW))
    expect(breakdown).to_be_hidden()

    fake.push(lambda state: state["round_results"].append(dict(RESULT, number=2)) or
              state["round"].update(number=3))
    expect(breakdown).to_be_visible()
    fake.push(opponent_played("2S", turn=0))
    expect(breakdown).to_be_hidden()


def test_the_round_score_comes_into_sight_on_a_page_scrolled_away(new_page, request):
    """A phone held sideways, its page scrolled down below the table (to the fair shuffle, say)
    when the round ends: the score is brought into sight, its head and Continue in view."""
    fake = open_table(new_page, request, fake_clock=True, viewport={"width": 844, "height": 390})
    page = fake.page
    page.clock.pause_at(datetime.now(timezone.utc) + timedelta(seconds=1))
    page.evaluate("() => window.scrollTo(0, document.documentElement.scrollHeight)")
    page.wait_for_function("() => window.scrollY > 100")
    fake.push(next_round(2))
    expect(page.locator("#breakdown")).to_be_visible()
    page.clock.run_for(100)  # a frame or two (the page's clock is held still)
    expect(page.locator("#breakdown-title")).to_be_in_viewport(ratio=1)
    expect(page.locator("#breakdown-close")).to_be_in_viewport(ratio=1)


def test_a_page_loaded_in_the_pause_shows_the_round_score_for_what_is_left_of_it(new_page, request):
    """Reloaded between rounds (the next round dealt, its first play due once the pause is
    over), the page shows the round's score till then, as the page that saw the round end
    does: a reload loses nothing of the pause."""
    now = datetime.fromisoformat(NOW)
    state = copy.deepcopy(PLAYING)
    next_round(2)(state)
    # 3 s of the pause left: the deadline is the time per play (30 s) and 3 s beyond "now".
    state.update(move_seconds=30, deadline=(now + timedelta(seconds=33)).isoformat())
    # No service worker: the page's request must reach the route below.
    fake = open_table(new_page, request, state=state, fake_clock=True, service_workers="block")
    page = fake.page
    page.clock.pause_at(datetime.now(timezone.utc) + timedelta(seconds=1))

    def embedded(route):
        # The page as the server would render it in the pause: its config holds this state
        # (the page draws it before its socket's first state).
        response = route.fetch()
        body = response.text()
        found = re.search(r'(<script id="table-config" type="application/json">)(.*?)(</script>)', body, re.S)
        config = json.loads(found.group(2))
        config["state"] = state
        route.fulfill(response=response, body=body[:found.start(2)] + json.dumps(config) + body[found.end(2):])

    page.route(re.compile(r"/table/\d+/$"), embedded)
    page.reload()
    expect(page.locator("#live-status")).to_have_attribute("data-state", "live")
    expect(page.locator("#breakdown")).to_be_visible()
    expect(page.locator("#breakdown-title")).to_have_text("Round 1 score")
    page.clock.run_for(4000)
    expect(page.locator("#breakdown")).to_be_hidden()


def test_a_tap_on_a_card_under_the_round_score_shows_the_floor_and_says_so(new_page, request):
    """The round's score covers the floor through the pause: the first tap on a card brings the
    floor back and plays nothing, and the player is told so, in view on a phone (the unplayed
    card would look like a lost click); the next tap plays."""
    fake = open_table(new_page, request, fake_clock=True, **PHONE)
    page = fake.page
    page.clock.pause_at(datetime.now(timezone.utc) + timedelta(seconds=1))
    fake.push(lambda state: next_round(2)(state) or state["round"].update(turn=0))
    expect(page.locator("#breakdown")).to_be_visible()
    # The player's turn, but the hand is held under the score: not drawn playable.
    expect(page.locator("#table")).to_have_attribute("data-my-turn", "true")
    expect(page.locator("#hand")).not_to_have_class(re.compile(r"\bactive\b"))
    expect(page.locator('#hand button.card[data-card="3C"]')).to_have_attribute("aria-disabled", "true")
    # force: Playwright waits for an aria-disabled button to be enabled; a finger does not.
    page.locator('#hand button.card[data-card="3C"]').click(force=True)
    expect(page.locator("#breakdown")).to_be_hidden()
    notice = page.locator("#table-error")
    expect(notice).to_have_text("The floor is in view again: tap your card to play it.")
    expect(notice).to_be_in_viewport()
    # Said just above the hand, where the finger is, not at the top of the screen.
    said, hand = notice.bounding_box(), page.locator("#hand").bounding_box()
    assert said["y"] + said["height"] <= hand["y"] + 1 and hand["y"] - (said["y"] + said["height"]) < 40, (said, hand)
    expect(page.locator("#hand")).to_have_class(re.compile(r"\bactive\b"))
    expect(page.locator('#hand button.card[data-card="3C"]')).to_have_attribute("aria-disabled", "false")
    assert not [m for m in fake.sent if m.get("type") == "play"]
    page.locator('#hand button.card[data-card="3C"]').click()
    assert fake.wait_sent(lambda m: m.get("type") == "play")["card"] == "3C"


def test_a_play_refused_as_stale_is_said_at_the_hand(new_page, request):
    """The table moved on before the card reached it (``stale``) and the turn is still the
    player's: the card was not played, and the player is told so just above the hand, not left
    with a tap that did nothing (another tab's play is told by its state alone: below)."""
    fake = open_table(new_page, request, fake_clock=True, **PHONE)
    page = fake.page
    page.clock.pause_at(datetime.now(timezone.utc) + timedelta(seconds=1))
    page.locator('#hand button.card[data-card="4D"]').click()
    fake.wait_sent(lambda m: m.get("type") == "play")
    fake.send({"type": "error", "code": "stale", "message": "stale"})
    # The fresh state that follows: a seat came back (no play), still alice's turn.
    fake.push(lambda state: state.update(now=NOW))
    notice = page.locator("#table-error")
    expect(notice).to_have_text("Your card was not played: the table had just changed. Tap again.")
    said, hand = notice.bounding_box(), page.locator("#hand").bounding_box()
    assert said["y"] + said["height"] <= hand["y"] + 1, (said, hand)
    # The hand is playable again, and the next tap plays.
    fake.sent.clear()
    page.locator('#hand button.card[data-card="4D"]').click()
    assert fake.wait_sent(lambda m: m.get("type") == "play")["card"] == "4D"


def test_a_tap_on_a_card_out_of_turn_says_whose_turn_it_is(new_page, request):
    """Another seat to play: a tap on a card sends nothing and says who is to play, in view on a
    phone (a tap on the dimmed hand must not look like a stuck page)."""
    fake = open_table(new_page, request, fake_clock=True, **PHONE)
    page = fake.page
    # The page's timers stand still unless the test moves them: the notice's going away below
    # is the turn's or the tap's doing, not its own time running out.
    page.clock.pause_at(datetime.now(timezone.utc) + timedelta(seconds=1))
    fake.push(lambda state: state["round"].update(turn=1))
    expect(page.locator("#table")).to_have_attribute("data-my-turn", "false")
    # force: Playwright waits for an aria-disabled button to be enabled; a finger does not.
    page.locator("#hand button.card").first.click(force=True)
    notice = page.locator("#table-error")
    expect(notice).to_have_text(re.compile(r"^Not your turn yet: \u2068.+\u2069 is to play\.$"))
    expect(notice).to_be_in_viewport()
    assert not [m for m in fake.sent if m.get("type") == "play"]
    # It covers the top of the table meanwhile: gone once the turn is the player's, and a tap
    # puts it away (it hides the scores and a seat).
    fake.push(lambda state: state["round"].update(turn=0))
    expect(page.locator("#table")).to_have_attribute("data-my-turn", "true")
    expect(notice).to_be_hidden()
    fake.push(lambda state: state["round"].update(turn=1))
    page.locator("#hand button.card").first.click(force=True)
    expect(notice).to_be_visible()
    notice.click()
    expect(notice).to_be_hidden()
    # Untouched, a notice goes after 3 s.
    page.locator("#hand button.card").first.click(force=True)
    expect(notice).to_be_visible()
    page.clock.run_for(2500)
    expect(notice).to_be_visible()
    page.clock.run_for(1000)
    expect(notice).to_be_hidden()


def test_the_second_tap_of_a_double_tap_says_nothing(new_page, request):
    """A double tap on a card: the first plays it, and the second, coming once the answer has
    made it the other seat's turn, is the same gesture: no "Not your turn yet". A tap a moment
    later is told whose turn it is."""
    fake = open_table(new_page, request, fake_clock=True, **PHONE)
    page = fake.page
    page.clock.pause_at(datetime.now(timezone.utc) + timedelta(seconds=1))
    page.locator("#hand button.card[data-card='4D']").click()
    fake.wait_sent(lambda m: m.get("type") == "play")
    fake.push(lambda state: state["round"].update(turn=1))
    expect(page.locator("#table")).to_have_attribute("data-my-turn", "false")
    notice = page.locator("#table-error")
    page.locator("#hand button.card").first.click(force=True)  # its handler has run on return
    assert not notice.is_visible()
    page.clock.run_for(1000)
    page.locator("#hand button.card").first.click(force=True)
    expect(notice).to_have_text(re.compile(r"^Not your turn yet: "))


def thirty_seconds_to_play(new_page, request, pause: int = 0, **state):
    """A table page whose clock stands still, where the turn is the page's with 30 s a play and
    its deadline ``pause`` seconds beyond them; ``state``: more of the state pushed with it."""
    fake = open_table(new_page, request, fake_clock=True)
    page = fake.page
    # The page's time stands still from here on and moves only when the test moves it, by as
    # much as it says: what is shown at each moment does not depend on how fast this machine is.
    page.clock.pause_at(datetime.now(timezone.utc) + timedelta(seconds=1))
    now = datetime(2026, 11, 29, 12, 30, 36, tzinfo=timezone.utc)
    fake.push(lambda pushed: pushed.update({
        "move_seconds": 30, "now": now.isoformat(),
        "deadline": (now + timedelta(seconds=30 + pause)).isoformat(), **state}))
    expect(page.locator("#my-clock")).to_have_text("30 s")
    return page


def test_the_first_play_of_a_round_keeps_its_full_time_during_the_pause(new_page, request):
    # The new round's deadline lies the pause (5 s) beyond the time per play (30 s).
    page = thirty_seconds_to_play(new_page, request, pause=5, round_results=[RESULT])
    page.clock.run_for(2500)
    expect(page.locator("#my-clock")).to_have_text("30 s")  # still paused
    page.clock.run_for(4500)  # 7 s in: the pause is over and 2 s of the 30 have gone
    expect(page.locator("#my-clock")).to_have_text("28 s")


def test_the_countdowns_are_written_only_when_they_change(new_page, request):
    """The clock is redrawn four times a second but its text changes once a second: the page is
    written (and laid out again) only then."""
    page = thirty_seconds_to_play(new_page, request)
    page.evaluate("""() => {
      window.clockWrites = 0;
      const observer = new MutationObserver((records) => { window.clockWrites += records.length; });
      for (const node of document.querySelectorAll("#my-clock, #board .countdown")) {
        observer.observe(node, {childList: true, characterData: true, subtree: true});
      }
    }""")
    page.clock.run_for(3000)  # twelve redraws, three changes of the text
    expect(page.locator("#my-clock")).to_have_text("27 s")
    page.clock.run_for(100)  # the observer's records are delivered
    nodes = page.locator("#my-clock, #board .countdown").count()
    # A write of new text is one record (the text replaced); every redraw writing would be 12.
    assert 1 <= page.evaluate("window.clockWrites") <= 3 * nodes


#: A clock's low-time state as the reader sees it: [marked low, its colour, its background].
LOOK = "(n) => [n.classList.contains('low'), getComputedStyle(n).color, getComputedStyle(n).backgroundColor]"


def test_every_seats_clock_shows_low_time_as_the_hands_clock_does(new_page, request):
    """Under 5 s to play, the clock on the name plate of the seat to play (each of the four, the
    reader's own too) is marked low and looks as the clock by the hand then looks, its red; at
    6 s neither is."""
    fake = open_table(new_page, request, state=four_players(PLAYING), fake_clock=True)
    page = fake.page
    page.clock.pause_at(datetime.now(timezone.utc) + timedelta(seconds=1))
    now = datetime(2026, 11, 29, 12, 30, 36, tzinfo=timezone.utc)
    mine = page.locator("#my-clock")
    hand_low = None
    for turn in (0, 1, 2, 3):
        fake.push(lambda state, turn=turn: (state["round"].update(turn=turn), state.update({
            "move_seconds": 30, "now": now.isoformat(), "deadline": (now + timedelta(seconds=30)).isoformat()})))
        plate = page.locator(f'.seat-box[data-seat="{turn}"] .countdown')
        expect(plate).to_have_text("30 s")
        page.clock.run_for(24_500)  # 5.5 s left
        expect(plate).to_have_text("6 s")
        calm = plate.evaluate(LOOK)
        assert calm[0] is False
        if turn == 0:
            expect(mine).to_have_text("6 s")
            assert mine.evaluate(LOOK)[0] is False
        page.clock.run_for(1_000)  # 4.5 s left
        expect(plate).to_have_text("5 s")
        if turn == 0:
            expect(mine).to_have_text("5 s")
            hand_low = mine.evaluate(LOOK)
            assert hand_low[0] is True
        assert plate.evaluate(LOOK) == hand_low, turn
        assert calm[1:] != hand_low[1:]


# --- moving, celebrating, sounding -------------------------------------------------------------


def test_a_play_flies_to_the_floor_and_a_basra_is_celebrated(new_page, request):
    fake = open_table(new_page, request)
    page = fake.page
    fake.state["round"]["turn"] = 1
    fake.push(opponent_played("9C"))
    # The card is on its way to the floor (a copy over the page), then lands.
    expect(root(page)).to_have_attribute("data-last-flight", "9C")
    expect(page.locator(".fly-card")).to_have_count(0)
    expect(page.locator("#floor .card[data-card='9C']")).to_be_visible()
    assert root(page).get_attribute("data-last-sound") in ("play", "turn")
    # A basra: the capture sweeps to omar's seat, and the table says "Basra!".
    fake.push(opponent_played("8D", taken=["8H"], basra="basra"))
    expect(root(page)).to_have_attribute("data-last-flight", "8H")  # the taken card, last
    celebration = page.locator("#celebration")
    expect(celebration).to_be_visible()
    expect(celebration).to_have_attribute("data-kind", "basra")
    expect(celebration).to_contain_text("Basra!")
    expect(celebration).to_contain_text("omar")
    screenshot(page, "basra")
    # alice is to move: "Basra!" stays off the floor and her hand.
    overlaps = page.evaluate("""() => {
        const c = document.getElementById("celebration").getBoundingClientRect();
        return ["floor", "hand"].filter(id => {
            const r = document.getElementById(id).getBoundingClientRect();
            return c.left < r.right && r.left < c.right && c.top < r.bottom && r.top < c.bottom;
        });
    }""")
    assert overlaps == []
    expect(celebration).to_be_hidden(timeout=5000)
    fake.push(opponent_played("JS", taken=["10D"], basra="jack_basra"))
    expect(celebration).to_have_attribute("data-kind", "jack_basra")
    expect(celebration).to_contain_text("Jack basra!")


def test_a_basra_on_the_last_play_of_a_round_is_celebrated(new_page, request):
    fake = open_table(new_page, request)
    page = fake.page

    def next_round(state):
        # omar's last card swept the floor: the state shows round 2 dealt, and round 1's
        # result counts one basra more for his side than the state before.
        state["round"].update({"number": 2, "dealer": 0, "turn": 1, "floor": ["2S", "9C", "QD", "6H"],
                               "hand": ["3C", "JD", "10S", "5H"], "last_play": None})
        state["round_results"] = [dict(RESULT, basras=[0, 10])]
    fake.push(next_round)
    celebration = page.locator("#celebration")
    expect(celebration).to_be_visible()
    expect(celebration).to_have_attribute("data-kind", "basra")
    expect(celebration).to_contain_text("omar")


def test_a_basra_that_ends_the_match_leaves_the_result_uncovered(new_page, request):
    """The match's last play a jack basra: the result and the round's score say it, and no
    "Jack basra!" comes over them (it would cover the round's score)."""
    fake = open_table(new_page, request)
    page = fake.page

    def match_over(state):
        # omar's jack took the floor with the match's last card.
        state["round"].update({"over": True, "turn": None, "hand": [], "floor": [], "hand_sizes": [0, 0],
                               "stock_size": 0, "jack_basras": [0, 1],
                               "last_play": {"seat": 1, "card": "JD", "taken": ["10D", "8H", "4H"],
                                             "basra": "jack_basra", "timeout": False, "bot": None}})
        state["round_results"] = [dict(RESULT, jack_basras=[0, 20])]
        state["match"]["status"] = "finished"
        state["scores"] = [60, 112]
        state["result"] = {"winner": 1, "scores": [60, 112], "reason": "target"}
    fake.push(match_over)
    expect(page.locator("#result-banner")).to_be_visible()
    # The play is drawn (the celebration comes in the same pass), then the box is still hidden.
    expect(page.locator('#last-play .card.played[data-card="JD"]')).to_be_attached()
    settled(page)
    assert page.locator("#celebration").get_attribute("hidden") is not None


def test_long_names_in_the_score_boxes_and_the_round_s_score_are_cut_not_broken(new_page, request):
    """At a finished four-player match on a 360 px phone in Arabic, each long name in the score
    boxes and in the round's score is one line cut at its own end ("Supercali…"), and the
    round's score fits its box: no name breaks mid-word ("Supercalifrag / istic539",
    "محمدالمصري5 / 39")."""
    state = copy.deepcopy(PLAYING)
    names = ["Supercalifragilistic539", "محمدالمصري539", "bob539", "Alexandrapetrovna539"]
    state["match"]["players"] = state["match"]["rules"]["players"] = 4
    state["seats"] = [seat(i, name) for i, name in enumerate(names)]
    state["round"]["hand_sizes"] = [4, 4, 4, 4]
    fake = open_table(new_page, request, state=state, viewport={"width": 360, "height": 640},
                      locale="ar", extra_http_headers={"Accept-Language": "ar"})
    page = fake.page
    fake.push(match_over)
    expect(page.locator("#breakdown .score-table")).to_be_visible()
    boxes = page.locator(".side .side-member, #breakdown .score-side-names .cut-name")
    expect(boxes).to_have_count(8)
    found = boxes.evaluate_all("""names => names.map(n => {
        const style = getComputedStyle(n);
        const line = parseFloat(style.lineHeight) || 1.2 * parseFloat(style.fontSize);
        return [n.textContent, n.getBoundingClientRect().height <= line * 1.5,
                n.textContent.length < 14 || n.scrollWidth > n.clientWidth];
    })""")
    assert all(one_line and cut for _, one_line, cut in found), found
    assert page.locator("#breakdown").evaluate("b => b.scrollWidth <= b.clientWidth")


def test_reduced_motion_moves_nothing_but_still_celebrates(new_page, request):
    fake = open_table(new_page, request, reduced_motion="reduce")
    page = fake.page
    fake.push(opponent_played("8D", taken=["8H"], basra="basra"))
    celebration = page.locator("#celebration")
    expect(celebration).to_be_visible()
    expect(celebration).to_have_class(re.compile(r"\bstill\b"))
    assert page.locator(".fly-card").count() == 0
    assert root(page).get_attribute("data-last-flight") is None
    assert celebration.evaluate("n => getComputedStyle(n).animationName") == "none"


def test_sound_can_be_muted_and_stays_muted(new_page, request):
    fake = open_table(new_page, request)
    page = fake.page
    fake.push(opponent_played("9C"))
    expect(root(page)).to_have_attribute("data-last-sound", re.compile("play|turn"))
    button = page.locator("#sound-button")
    expect(button).to_have_attribute("aria-pressed", "true")
    button.click()
    expect(button).to_have_attribute("aria-pressed", "false")
    page.reload()
    expect(root(page)).to_have_attribute("data-seq", str(fake.state["seq"]))
    expect(page.locator("#sound-button")).to_have_attribute("aria-pressed", "false")
    fake.push(opponent_played("2C"))
    assert root(page).get_attribute("data-last-sound") is None


NOTIFICATIONS_STUB = """
    Object.defineProperty(document, "visibilityState", {get: () => "hidden"});
    window.__notes = [];
    window.__asked = 0;
    class FakeNotification {
        constructor(title, options) { window.__notes.push({title, body: options.body}); }
        close() {}
    }
    FakeNotification.permission = "default";
    FakeNotification.requestPermission = () => {
        window.__asked += 1;
        FakeNotification.permission = "granted";
        return Promise.resolve("granted");
    };
    window.Notification = FakeNotification;
"""


def test_a_background_tab_says_it_is_your_turn(new_page, request):
    page = new_page()
    page.add_init_script(NOTIFICATIONS_STUB)
    state = copy.deepcopy(PLAYING)
    state["round"]["turn"] = 1
    fake = FakeTable(page, state)
    at_a_new_table(request, page, "u" + str(abs(hash(request.node.name)) % 10**8))
    expect(root(page)).to_have_attribute("data-seq", "100")
    # The browser is asked only on a click.
    assert page.evaluate("window.__asked") == 0
    page.click("#notify-button")
    expect(page.locator("#notify-button")).to_be_hidden()
    assert page.evaluate("window.__asked") == 1
    assert not page.title().startswith("\u25CF")
    fake.push(opponent_played("9C"))
    assert page.title().startswith("\u25CF Your turn")
    notes = page.evaluate("window.__notes")
    assert [n["title"] for n in notes] == ["Your turn"]


def test_only_a_seated_player_is_offered_turn_notifications(browser, site_url, seed):
    """A spectator was offered "Tell me when it is my turn": a spectator has no turn. At a
    seeded table a seated player still is offered it; someone watching (not logged in) is not."""
    tag = uuid.uuid4().hex[:5]
    table = json.loads(seed("table", 2, 0, f"nour_{tag}", f"omar_{tag}"))
    player = signed_in(browser, site_url, table["sessions"][0])
    watcher = browser.new_context(base_url=site_url)
    try:
        pages = []
        for context in (player, watcher):
            context.add_init_script(NOTIFICATIONS_STUB)  # the browser not asked yet
            page = context.new_page()
            page.goto(f"/table/{table['match']}/")
            expect(page.locator("#live-status")).to_have_attribute("data-state", "live")
            pages.append(page)
        seated, watching = pages
        expect(root(seated)).to_have_attribute("data-you", "0")
        expect(seated.locator("#notify-button")).to_be_visible()
        expect(root(watching)).to_have_attribute("data-you", "")
        expect(watching.locator("#hand")).to_be_hidden()
        expect(watching.locator("#notify-button")).to_be_hidden()
    finally:
        player.close()
        watcher.close()


# --- quick phrases -------------------------------------------------------------------------------


def test_quick_phrases_are_sent_shown_and_mutable(new_page, request):
    fake = open_table(new_page, request)
    page = fake.page
    page.click("#talk-button")
    menu = page.locator("#talk-menu")
    expect(menu).to_be_visible()
    menu.locator("button[data-phrase='good_luck']").click()
    assert fake.wait_sent(lambda m: m.get("type") == "phrase") == {"type": "phrase", "id": "good_luck"}
    expect(menu).to_be_hidden()
    # The server sends it to everyone: shown by the seat that said it, then gone.
    fake.send({"type": "phrase", "seat": 0, "id": "good_luck"})
    fake.send({"type": "phrase", "seat": 1, "id": "clap"})
    expect(page.locator(".seat-box[data-seat='0'] .phrase-bubble")).to_have_text("Good luck!")
    expect(page.locator(".seat-box[data-seat='1'] .phrase-bubble")).to_have_text("\N{CLAPPING HANDS SIGN}")
    screenshot(page, "phrases")
    # A new state redraws the seats: the phrase stays until its time is up.
    fake.push(opponent_played("9C"))
    expect(page.locator(".seat-box[data-seat='1'] .phrase-bubble")).to_be_visible()
    expect(page.locator(".phrase-bubble")).to_have_count(0, timeout=6000)
    # Muted, remembered in this browser.
    page.click("#phrases-mute-button")
    page.reload()
    expect(page.locator("#phrases-mute-button")).to_have_attribute("aria-pressed", "false")
    expect(page.locator("#live-status")).to_have_attribute("data-state", "live")
    fake.send({"type": "phrase", "seat": 1, "id": "hello"})
    # The page takes its socket's messages in order: once the next state is drawn, the phrase
    # before it has been taken in too (and the seats drawn again since).
    fake.push(opponent_played("2C"))
    expect(page.locator(".phrase-bubble")).to_have_count(0)


@pytest.mark.parametrize("locale", ["en", "ar"])
def test_the_phrases_menu_is_inside_a_phones_screen(new_page, request, locale):
    """At the table the menu opens over the middle of the screen: beside its button, at the
    screen's edge on a phone, never cut off on the left (English) or the right (Arabic)."""
    fake = open_table(new_page, request, viewport={"width": 390, "height": 844}, locale=locale,
                      extra_http_headers={"Accept-Language": locale})
    page = fake.page
    outside = {}
    for width, height in [(390, 844), (640, 360), (844, 390), (360, 640)]:
        page.set_viewport_size({"width": width, "height": height})
        wait_until(page, f"() => document.documentElement.clientWidth === {width}")
        page.click("#talk-button")
        menu = page.locator("#talk-menu")
        expect(menu).to_be_visible()
        box = menu.bounding_box()
        if box["x"] < 0 or box["y"] < 0 or box["x"] + box["width"] > width or box["y"] + box["height"] > height:
            outside[f"{width}x{height}"] = box
        page.keyboard.press("Escape")
        expect(menu).to_be_hidden()
    assert not outside, outside


def test_a_seats_card_backs_stay_in_their_box_in_arabic(new_page, request):
    """Held sideways in Arabic the opponent's card backs spilt over "في اليد" beside them (each
    card's inline-start margin was its left one in a right-to-left row)."""
    fake = open_table(new_page, request, viewport={"width": 844, "height": 390}, locale="ar",
                      extra_http_headers={"Accept-Language": "ar"})
    spilt = fake.page.evaluate("""() => Array.from(document.querySelectorAll('#board .backs')).flatMap((backs) => {
      const box = backs.getBoundingClientRect();
      return Array.from(backs.children).map((card) => card.getBoundingClientRect())
        .filter((r) => r.left < box.left - 0.5 || r.right > box.right + 0.5).map((r) => [r.left, r.right, box.left, box.right]);
    })""")
    assert fake.page.locator("#board .backs .card").count() >= 4
    assert not spilt, spilt


def test_a_name_mixing_arabic_and_latin_keeps_to_itself(new_page, request):
    """A seat's name is a <bdi>, and so is a name inside a sentence (the last play, whose turn
    it is): otherwise "سارةSara_98" reads "Sara_98 playedسارة"."""
    state = copy.deepcopy(PLAYING)
    state["seats"][1] = seat(1, "سارةSara_98")
    fake = open_table(new_page, request, state=state)
    page = fake.page
    fake.push(opponent_played("9C", turn=1))
    expect(page.locator('.seat-box[data-seat="1"] .name')).to_have_text("سارةSara_98")
    assert page.locator('.seat-box[data-seat="1"] .name').evaluate("(n) => n.tagName") == "BDI"
    expect(page.locator("#last-play .last-label").first).to_have_text("سارةSara_98 played")
    expect(page.locator("#last-play .cut-name")).to_have_text("سارةSara_98")
    assert page.locator("#last-play .cut-name").evaluate("(n) => n.tagName") == "BDI"
    expect(page.locator("#turn-banner")).to_contain_text("سارةSara_98 to play")
    expect(page.locator("#turn-banner .cut-name")).to_have_text("سارةSara_98")


def test_quick_phrases_in_arabic(new_page, request):
    fake = open_table(new_page, request, locale="ar", extra_http_headers={"Accept-Language": "ar"})
    page = fake.page
    fake.send({"type": "phrase", "seat": 1, "id": "good_game"})
    bubble = page.locator(".seat-box[data-seat='1'] .phrase-bubble")
    expect(bubble).to_be_visible()
    assert bubble.inner_text() != "Good game!"
    assert re.search("[\u0600-\u06FF]", bubble.inner_text())
    screenshot(page, "phrases-arabic")


def test_a_phrase_goes_round_a_real_table(new_page, request):
    page = new_page()
    signed_up(request, page, "p" + str(abs(hash(request.node.name)) % 10**8))
    play_the_computer(page, clock="none")
    page.click("#talk-button")
    page.locator("#talk-menu button[data-phrase='hello']").click()
    # The server sends it back to every socket of the table, this one included.
    expect(page.locator(".seat-box.me .phrase-bubble")).to_have_text("Hello!")
    # The page offers no other one for three seconds; sent anyway, the server refuses it.
    expect(page.locator("#talk-menu button[data-phrase='oops']")).to_be_disabled()
    page.click("#talk-button")  # and says why
    expect(page.locator("#talk-menu .talk-wait")).to_have_text("Wait a few seconds before sending another phrase.")
    expect(page.locator("#talk-menu .talk-wait")).to_be_hidden(timeout=6000)
    expect(page.locator("#talk-menu button[data-phrase='oops']")).to_be_enabled()
    page.locator("#talk-menu button[data-phrase='hello']").click()
    page.evaluate(f"{TABLE_STORE}.then(m => m.send({{type: 'phrase', id: 'oops'}}))")
    expect(page.locator("#table-error")).to_have_text("Wait a few seconds before sending another phrase.")
    expect(page.locator(".seat-box.me .phrase-bubble")).to_have_text("Hello!")


# --- states that say themselves ----------------------------------------------------------------


def test_a_lost_connection_shows_over_the_table_why_the_cards_do_not_answer(new_page, request):
    fake = open_table(new_page, request)
    page = fake.page
    banner = page.locator("#conn-banner")
    expect(banner).to_be_hidden()
    fake.refuse = True
    fake.sockets[-1].close()
    expect(banner).to_be_visible()
    expect(banner).to_contain_text("Connection lost")
    expect(banner).to_contain_text("Your cards are disabled until the table is back.")
    screenshot(page, "connection-lost")
    for card in page.locator("#hand button.card").all():
        expect(card).to_be_disabled()
    # The banner lies over the table.
    box, board = banner.bounding_box(), page.locator("#board").bounding_box()
    assert board["y"] <= box["y"] < board["y"] + board["height"]
    fake.refuse = False
    expect(banner).to_be_hidden(timeout=20_000)
    expect(page.locator("#hand button.card").first).to_be_enabled()


def test_a_stale_answer_is_no_error(new_page, request):
    fake = open_table(new_page, request)
    page = fake.page
    page.locator("#hand button.card[data-card='4D']").click()
    fake.wait_sent(lambda m: m.get("type") == "play")
    # Another tab of alice played first: the server says "stale" and sends the new state.
    fake.send({"type": "error", "code": "stale", "message": "Someone played first."})
    # The page takes its socket's messages in order: the error came before the state it drew.
    fake.push(lambda s: s["round"].update(turn=1, hand=["7S", "AC", "KH"], hand_sizes=[3, 4]))
    expect(page.locator("#table-error")).to_be_hidden()
    # A real refusal is still shown.
    fake.send({"type": "error", "code": "not_your_turn", "message": "It is not your turn."})
    expect(page.locator("#table-error")).to_have_text("It is not your turn.")


def test_a_logged_out_tab_says_so_with_a_login_link(new_page, request):
    fake = open_table(new_page, request)
    page = fake.page
    session = page.locator("#session-banner")
    expect(session).to_be_hidden()
    expect(page.locator(".site-header .whoami")).to_be_visible()
    fake.send({"type": "logged_out"})
    expect(session).to_be_visible()
    expect(session).to_contain_text("logged out")
    # The header no longer names the user nor offers to log out: they are logged out.
    expect(page.locator(".site-header .whoami")).to_be_hidden()
    expect(page.locator(".site-header [data-account-out]")).to_be_visible()
    expect(page.locator(".site-header [data-account-out] a").first).to_have_text("Log in")
    link = page.locator("#session-banner a")
    match_id = root(page).get_attribute("data-match-id")
    expect(link).to_have_attribute("href", f"/accounts/login/?next=%2Ftable%2F{match_id}%2F")
    fake.push(lambda s: s.update(you=None) or s["round"].update(hand=[]))
    expect(session).to_be_visible()
    expect(page.locator("#watching-banner")).to_be_hidden()


def test_spectators_see_they_are_watching(new_page, request):
    state = copy.deepcopy(PLAYING)
    state["you"] = None
    state["round"]["hand"] = []
    fake = open_table(new_page, request, state=state)
    page = fake.page
    expect(page.locator("#watching-banner")).to_have_text("You are watching this table.")
    expect(page.locator("#talk")).to_be_hidden()


# --- a phone's taps, scrolls and rounds ---------------------------------------------------------


def waiting_state() -> dict:
    """``PLAYING`` before omar sat down: alice alone in the waiting room."""
    state = copy.deepcopy(PLAYING)
    state["match"]["status"] = "open"
    state["seats"] = [seat(0, "alice")]
    state["round"] = None
    return state


def test_a_match_that_starts_while_the_page_is_scrolled_down_is_brought_into_view(new_page, request):
    landscape = {"viewport": {"width": 844, "height": 390}, "is_mobile": True, "has_touch": True}
    fake = open_table(new_page, request, state=waiting_state(), **landscape)
    page = fake.page
    expect(page.locator("#waiting")).to_be_visible()
    expect(page.locator("#more-time-button")).to_be_hidden()  # nobody's turn before the start
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    fake.push(lambda state: state.update(copy.deepcopy(PLAYING), seq=state["seq"]))
    expect(page.locator("#hand button.card")).to_have_count(4)
    for part in ("#turn-banner", "#hand", "#floor", "#scoreboard"):
        expect(page.locator(part)).to_be_in_viewport()


def test_a_card_pressed_while_the_round_score_covers_the_floor_shows_the_floor_first(new_page, request):
    fake = open_table(new_page, request, fake_clock=True)
    page = fake.page
    page.clock.pause_at(datetime.now(timezone.utc) + timedelta(seconds=1))

    def mine(state):
        next_round(2)(state)
        state["round"]["turn"] = 0
    fake.push(mine)
    breakdown = page.locator("#breakdown")
    expect(breakdown).to_be_visible()
    card = page.locator("#hand button.card").first
    code = card.get_attribute("data-card")
    card.click(force=True)  # held under the score (aria-disabled), which a finger ignores
    expect(breakdown).to_be_hidden()
    # A phrase sent after the tap is a barrier: the socket keeps the page's frames in order, so
    # a play the tap had sent would have come before it.
    page.click("#talk-button")
    page.locator("#talk-menu button[data-phrase='good_luck']").click()
    fake.wait_sent(lambda m: m.get("type") == "phrase")
    assert not [m for m in fake.sent if m.get("type") == "play"]
    card.click()  # the floor in sight: now it is played
    assert fake.wait_sent(lambda m: m.get("type") == "play")["card"] == code


def test_a_basra_moves_aside_when_the_turn_comes_back(new_page, request):
    fake = open_table(new_page, request)
    page = fake.page

    def my_basra(state):
        r = state["round"]
        r["last_play"] = {"seat": 0, "card": "KH", "taken": ["10D", "8H", "4H"], "basra": None,
                          "timeout": False, "bot": None}
        r["last_play"]["basra"] = "basra"
        r["floor"], r["hand"], r["turn"] = [], ["4D", "7S", "AC"], 1
        r["hand_sizes"][0] = 3
    fake.push(my_basra)
    celebration = page.locator("#celebration")
    expect(celebration).to_be_visible()
    expect(celebration).not_to_have_class(re.compile(r"\baside\b"))  # omar to move: centred
    fake.push(opponent_played("9C", turn=0))
    expect(celebration).to_have_class(re.compile(r"\baside\b"))
    covered = page.evaluate("""() => {
        const c = document.getElementById("celebration").getBoundingClientRect();
        const r = document.getElementById("floor").getBoundingClientRect();
        return c.left < r.right && r.left < c.right && c.top < r.bottom && r.top < c.bottom;
    }""")
    assert not covered


# The table page when the server's database cannot answer (docs/protocol.md "error":
# ``unavailable``): it says so, gives the hand back, and asks for the table again in a moment
# rather than at once (which would only meet the same outage).
UNAVAILABLE_TEXT = "Connection trouble on the server: nothing was done. Trying again in a moment…"


def test_unavailable_is_shown_and_the_table_asked_for_again_in_a_moment(new_page, request):
    fake = open_table(new_page, request, fake_clock=True)
    page = fake.page
    page.clock.pause_at(datetime.now(timezone.utc) + timedelta(seconds=1))
    card = page.locator("#hand button.card[data-card='4D']")
    card.click()
    fake.wait_sent(lambda m: m.get("type") == "play")
    before = len(fake.sent)

    fake.send({"type": "error", "code": "unavailable", "message": UNAVAILABLE_TEXT})

    expect(page.locator("#table-error")).to_have_text(UNAVAILABLE_TEXT)
    expect(card).to_have_attribute("aria-disabled", "false")  # nothing was played: again
    # Not at once: a frame the page sends now comes before any sync it would have sent.
    page.evaluate(f"{TABLE_STORE}.then(m => m.send({{type: 'marker'}}))")
    fake.wait_sent(lambda m: m.get("type") == "marker")
    assert [m["type"] for m in fake.sent[before:]] == ["marker"]
    # In a moment (2 to 3 s), once.
    page.clock.run_for(3500)
    fake.wait_sent(lambda m: m.get("type") == "sync" and m in fake.sent[before:])
    assert [m["type"] for m in fake.sent[before:]] == ["marker", "sync"]


def test_nothing_on_the_table_animates_for_as_long_as_the_turn_lasts(new_page, request):
    """The turn banner pulses when the turn comes, then stands still: no animation of the table
    runs on endlessly (every frame drawn is a phone's battery)."""
    fake = open_table(new_page, request)  # alice's turn
    page = fake.page
    expect(page.locator("#turn-banner")).to_have_class(re.compile(r"\bmine\b"))
    endless = page.evaluate("""() => document.getAnimations()
      .filter((a) => a.effect.getComputedTiming().iterations === Infinity)
      .map((a) => a.animationName + " on #" + a.effect.target.id)""")
    assert endless == []
    # The pulse is a ring's opacity, which the compositor animates alone; an animated
    # box-shadow restyles and repaints the page every frame it lasts.
    banner = page.locator("#turn-banner")
    assert banner.evaluate("n => getComputedStyle(n, '::after').animationName") == "pulse"
    animated = page.evaluate("""() => [...document.styleSheets].flatMap((sheet) => [...sheet.cssRules])
      .filter((rule) => rule instanceof CSSKeyframesRule && rule.name === "pulse")
      .flatMap((rule) => [...rule.cssRules].flatMap((frame) => [...frame.style]))""")
    assert set(animated) == {"opacity"}


#: Where the turn banner's ring is painted and what may show of it: the ring's box (the
#: ``::after``'s, placed by its offsets in the banner) grown by every outer box-shadow and its
#: outline, and the box that every ancestor clipping its overflow, and the viewport, leave
#: visible ({left, top, right, bottom} in CSS px each).
RING_AND_ITS_CLIP = r"""() => {
  const banner = document.getElementById("turn-banner"), ring = getComputedStyle(banner, "::after");
  const px = (v) => parseFloat(v) || 0, b = banner.getBoundingClientRect();
  const box = {left: b.left + px(ring.left), top: b.top + px(ring.top),
               right: b.right - px(ring.right), bottom: b.bottom - px(ring.bottom)};
  const painted = {...box};
  const grow = (x, y, reach) => {
    painted.left = Math.min(painted.left, box.left + x - reach);
    painted.right = Math.max(painted.right, box.right + x + reach);
    painted.top = Math.min(painted.top, box.top + y - reach);
    painted.bottom = Math.max(painted.bottom, box.bottom + y + reach);
  };
  if (ring.boxShadow !== "none") {
    for (const shadow of ring.boxShadow.split(/,(?![^(]*\))/)) {
      if (/\binset\b/.test(shadow)) continue;
      const [x, y, blur = 0, spread = 0] = shadow.replace(/rgba?\([^)]*\)/, "").match(/-?[\d.]+px/g).map(px);
      grow(x, y, blur + spread);
    }
  }
  if (ring.outlineStyle !== "none") grow(0, 0, px(ring.outlineWidth) + px(ring.outlineOffset));
  const clip = {left: 0, top: 0, right: document.documentElement.clientWidth, bottom: innerHeight};
  for (let node = banner.parentElement; node; node = node.parentElement) {
    const style = getComputedStyle(node);
    if (style.overflowX === "visible" && style.overflowY === "visible") continue;
    const r = node.getBoundingClientRect();
    const left = r.left + node.clientLeft, top = r.top + node.clientTop;
    if (style.overflowX !== "visible") {
      clip.left = Math.max(clip.left, left); clip.right = Math.min(clip.right, left + node.clientWidth);
    }
    if (style.overflowY !== "visible") {
      clip.top = Math.max(clip.top, top); clip.bottom = Math.min(clip.bottom, top + node.clientHeight);
    }
  }
  return {painted, clip, animation: ring.animationName};
}"""


@pytest.mark.parametrize("locale", ["en", "ar"])
def test_the_turn_banners_ring_is_painted_whole_on_a_phone(new_page, request, locale):
    """The ring that pulses round "your turn" lies whole inside what the play area shows (the
    banner is as wide as the play area, which clips what overflows it), upright and sideways,
    left to right and right to left."""
    fake = open_table(new_page, request, **PHONE, locale=locale, extra_http_headers={"Accept-Language": locale})
    page = fake.page
    expect(page.locator("#turn-banner")).to_have_class(re.compile(r"\bmine\b"))
    cut = {}
    for width, height in [(360, 740), (390, 844), (740, 360), (844, 390)]:
        resize(page, width, height)
        found = page.evaluate(RING_AND_ITS_CLIP)
        assert found["animation"] == "pulse"
        painted, clip = found["painted"], found["clip"]
        if (painted["left"] < clip["left"] - .5 or painted["right"] > clip["right"] + .5
                or painted["top"] < clip["top"] - .5 or painted["bottom"] > clip["bottom"] + .5):
            cut[f"{width}x{height}"] = found
    screenshot(page, f"turn-ring-{locale}")
    assert not cut, cut


def test_a_bar_put_above_the_table_moves_the_play_area_down_with_it(new_page, request):
    """Held sideways, the play area fills the screen below where it starts (--play-top): a bar
    an app puts between the header and the table (the moderators' notices) moves that start,
    and the play area follows, not running off the bottom of the screen."""
    fake = open_table(new_page, request, viewport={"width": 844, "height": 390})
    page = fake.page
    follows = """(below) => {
      const top = Math.round(document.getElementById('play-area').getBoundingClientRect().top + window.scrollY);
      const playTop = parseFloat(getComputedStyle(document.documentElement).getPropertyValue('--play-top'));
      return top >= below && Math.abs(top - playTop) <= 1; }"""
    top = page.evaluate("() => Math.round(document.getElementById('play-area').getBoundingClientRect().top + window.scrollY)")
    wait_until(page, follows, arg=top)
    page.evaluate("""() => { const bar = document.createElement('div'); bar.style.height = '40px';
      document.querySelector('.site-header').after(bar); }""")
    wait_until(page, follows, arg=top + 39)


def test_a_refused_rematch_is_told_in_the_rematch_panel_on_a_phone(new_page, request):
    """A tap on "Ask for a rematch" that the server refuses is answered where the player looks,
    in the panel (the table's notice lies under the finished table, off a phone's screen); a
    player who left first (``rematch_gone``) means no rematch, and no button any more."""
    fake = open_table(new_page, request, **PHONE)
    page = fake.page
    fake.push(match_over)
    panel = page.locator("#rematch")
    page.locator("#rematch-button").click()
    fake.wait_sent(lambda m: m.get("type") == "rematch")
    fake.send({"type": "error", "code": "too_many_tables",
               "message": "You are already playing at 5 tables."})
    expect(panel.locator(".rematch-refused")).to_have_text("You are already playing at 5 tables.")
    expect(panel.locator(".rematch-refused")).to_be_in_viewport()
    expect(page.locator("#rematch-button")).to_be_enabled()

    fake.sent.clear()
    page.locator("#rematch-button").click()
    fake.wait_sent(lambda m: m.get("type") == "rematch")
    fake.send({"type": "error", "code": "rematch_gone",
               "message": "No rematch: a player has left the table."})
    expect(panel).to_have_attribute("data-state", "gone")
    expect(panel).to_have_text("No rematch: a player has left the table.")
    expect(panel).to_be_in_viewport()
    expect(page.locator("#rematch-button")).to_have_count(0)
