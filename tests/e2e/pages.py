"""What the browser tests do on the site's pages, shared by every module of tests/e2e: signing
up and signing in; the lobby (its folded forms, a table created or joined, a match against the
computer); the table (its root element whose ``data-*`` attributes the tests wait on, a card
played); a table page whose socket the test answers itself (:class:`FakeTable`).

Each waits for what the page must show (Playwright's ``expect``), never for a fixed time.
"""

from __future__ import annotations

import copy
import json
import os
import re
from pathlib import Path

from playwright.sync_api import Page, expect

#: The two pytest-xdist groups of the browser tests (tests/e2e/conftest.py), chosen so the two
#: take about as long (about 1,800 s of the modules' durations each in a whole run beside other
#: load, 2026-12-06): a group runs on one worker, which starts its servers once, and the third of
#: ``make test``'s three workers runs the other tests meanwhile (four workers with four groups
#: took longer: four Chromiums at once on two cores). A module is in the first unless it marks
#: itself ``pytest.mark.xdist_group(SECOND_GROUP)``: the second holds the table's live states,
#: layouts, keyboard and whole matches, the ratings, accessibility, the header, the tournament
#: pages, the CSP, the account pages, moderation, French, the rules and the service worker.
FIRST_GROUP, SECOND_GROUP = "e2e-1", "e2e-2"

#: Every element sticking out of the screen's width: what made the page scroll sideways
#: (``page.evaluate(OUTSIDE)``: the page's scroll width, its width, the first five such elements).
OUTSIDE = """() => { const w = document.documentElement.clientWidth, out = [];
  document.querySelectorAll('body *').forEach((el) => { const r = el.getBoundingClientRect();
    if (r.width && (r.right > w + 0.5 || r.left < -0.5)) out.push(el.tagName + '.' + el.className); });
  return {scroll: document.documentElement.scrollWidth, width: w, outside: out.slice(0, 5)}; }"""

# Accounts

PASSWORD = "Felt-and-Komi-77"
#: A 390-pixel phone, as ``new_page(**PHONE)`` opens it.
#: The table page's store (static/games/table/store.js): the module instance the page runs, found
#: by its entry module's address, for a test that drops the socket or reads the state.
TABLE_STORE = ("import(new URL('store.js', "
               "document.querySelector('script[src*=\"games/table/main\"]').src))")

PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True,
         "has_touch": True}


def fill_sign_up(page: Page, username: str) -> None:
    """Send the sign-up form for ``username`` (address ``<username>@example.com``)."""
    page.goto("/accounts/signup/")
    page.fill('input[name="username"]', username)
    page.fill('input[name="email"]', f"{username}@example.com")
    page.fill('input[name="password1"]', PASSWORD)
    page.fill('input[name="password2"]', PASSWORD)
    page.press('input[name="password2"]', "Enter")


def sign_up(page: Page, username: str) -> None:
    """Sign up as ``username`` on a server without e-mail confirmation: logged in at once."""
    fill_sign_up(page, username)
    expect(page.locator(".whoami")).to_have_text(username)


def signed_in(browser, site_url, session: str, lang: str | None = None, **options):
    """A browser context with ``session`` (a ``seed.py`` session key) as its ``sessionid``
    cookie and, given ``lang``, Django's language cookie; ``options`` are
    ``browser.new_context``'s (the viewport, mobile emulation)."""
    context = browser.new_context(base_url=site_url, **options)
    with_session(context, site_url, session, lang)
    return context


def with_session(context, site_url, session: str, lang: str | None = None) -> None:
    """Give the browser context ``context`` the ``sessionid`` cookie ``session`` (a
    ``seed.py`` session key) and, given ``lang``, Django's language cookie."""
    host = site_url.split("//")[1].split(":")[0]
    cookies = [{"name": "sessionid", "value": session, "domain": host, "path": "/"}]
    if lang is not None:
        cookies.append({"name": "django_language", "value": lang, "domain": host, "path": "/"})
    context.add_cookies(cookies)


def signed_up(request, page: Page, username: str) -> None:
    """The person ``username`` made as :func:`sign_up` makes them, but by ``seed.py``
    (``user``), and signed in on ``page``'s browser context: for a test that is not about
    signing up (``request`` is the test's, whose ``seed`` and ``site_url`` fixtures it takes).
    The page stays where it is."""
    seed, site_url = request.getfixturevalue("seed"), request.getfixturevalue("site_url")
    with_session(page.context, site_url, json.loads(seed("user", username))["session"])


def at_a_new_table(request, page: Page, username: str) -> None:
    """Open, on ``page``, the 2-player table to 11 that the person ``username`` opened from
    the lobby (:func:`create_table`), signed in as them; both made by ``seed.py``
    (``created``), for a test about the table, not about signing up or the lobby."""
    seed, site_url = request.getfixturevalue("seed"), request.getfixturevalue("site_url")
    table = json.loads(seed("created", 2, 11, username))
    with_session(page.context, site_url, table["session"])
    page.goto(f"/table/{table['match']}/")


def wait_until(page: Page, expression: str, *, arg=None, timeout: float | None = None):
    """``page.wait_for_function(expression)`` asked every 50 ms, not on every animation frame
    (Playwright's default): a frame asked for is a frame drawn, and a test waiting seconds for a
    computer's card or a round's end made Chromium draw sixty a second (about 17% of a core).
    Not for a page whose clock the test holds still (``page.clock``): its frames still come.
    ``expression`` answers at once, never with a Promise (an ``async`` function, a ``.then``):
    Playwright takes any Promise as a true answer and returns before it settles."""
    return page.wait_for_function(expression, arg=arg, timeout=timeout, polling=50)


# Barriers: a check that something did not happen waits on one of these, never a fixed time.


def settled(page: Page) -> None:
    """Return once the page has drawn two more frames: what it does in reply to a state, an input
    or a resize (the handlers, the animation frames and resize observers they start) is done."""
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")


def tasks_done(page: Page) -> None:
    """Return once every task the page had queued has run (a ``setTimeout`` round trip): a
    click's handlers, and the dialogs they open, which the page waits on."""
    page.evaluate("() => new Promise((done) => setTimeout(done))")


def resize(page: Page, width: int, height: int) -> None:
    """Give the page a viewport of ``width`` × ``height`` px; return once its ``resize`` event
    has come (none comes for the size it has) and the page has :func:`settled`."""
    if page.viewport_size == {"width": width, "height": height}:
        settled(page)
        return
    page.evaluate("() => { window.resizedForTest = new Promise((done) =>"
                  " window.addEventListener('resize', done, {once: true})); }")
    page.set_viewport_size({"width": width, "height": height})
    page.evaluate("() => window.resizedForTest")
    settled(page)


#: Each word of the text inside the elements a selector finds that is drawn on more than one
#: line (its text's client rectangles on more than one line): a word broken inside.
BROKEN_WORDS = """(selector) => {
  const broken = [];
  for (const cell of document.querySelectorAll(selector)) {
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const m of node.data.matchAll(/\\S+/g)) {
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
        if (lines.size > 1) broken.push(m[0]);
      }
    }
  }
  return broken;
}"""


def broken_words(page: Page, selector: str) -> list[str]:
    """The words inside ``selector``'s elements that the page breaks across lines
    (:data:`BROKEN_WORDS`); ``[]`` when each wraps between words only."""
    return page.evaluate(BROKEN_WORDS, selector)


# The lobby


def open_lobby(page: Page) -> None:
    """The lobby, its forms unfolded as a person on a phone unfolds them (lobby.js folds them
    to their headings there)."""
    page.goto("/")
    expect(page.locator("#live-status")).to_have_attribute("data-state", "live")
    unfold(page)


def unfold(page: Page) -> None:
    """Open the lobby's folded forms with a tap on each heading."""
    folded = page.locator(".lobby-fold:not([open]) > summary")
    for _ in range(folded.count()):
        folded.first.click()
    expect(folded).to_have_count(0)


def create_table(page: Page, *, players: int, target: int) -> int:
    open_lobby(page)
    page.check(f'input[name="players"][value="{players}"]')
    page.fill('input[name="target"]', str(target))
    page.click("#create-table-button")
    page.wait_for_url(re.compile(r"/table/\d+/$"))
    return int(re.search(r"/table/(\d+)/$", page.url).group(1))


def join_from_lobby(page: Page, match_id: int) -> None:
    """Join through the lobby page, which must already show the table (it arrives live)."""
    row = page.locator(f'.table-row[data-match-id="{match_id}"]')
    # By the form's address, not the button's text: the page may be in Arabic.
    row.locator(f'form[action="/table/{match_id}/join/"] button').click()
    page.wait_for_url(f"**/table/{match_id}/")
    expect(page.locator("#live-status")).to_have_attribute("data-state", "live")


def play_the_computer(page: Page, *, clock: str) -> int:
    open_lobby(page)
    form = page.locator("#computer-form")
    expect(form.locator('.bot-seats[data-players="4"]')).to_be_hidden()
    form.locator('input[name="computer-players"][value="2"]').check()
    form.locator('input[name="computer-target"]').fill("11")
    form.locator(f'input[name="computer-move_seconds"][value="{clock}"]').check()
    form.locator('input[name="computer-opponent"][value="greedy"]').check()
    screenshot(page, "computer-lobby")
    page.click("#play-computer-button")
    page.wait_for_url(re.compile(r"/table/\d+/$"))
    expect(page.locator("#live-status")).to_have_attribute("data-state", "live")
    socket_state_drawn(page)
    return int(re.search(r"/table/(\d+)/$", page.url).group(1))


# The table


def socket_state_drawn(page: Page) -> None:
    """Wait for the table socket's own first state to be drawn: the page first draws the state
    it was served with, and says "live" as the socket opens, before the socket's state comes;
    what the seat may do (the phrases, the chat) and what is news to it start with that one."""
    page.evaluate("""async () => {
      const main = document.querySelector('script[src*="games/table/main"]').src;
      const [store, kit] = await Promise.all([import(new URL("store.js", main)), import(new URL("kit.js", main))]);
      window.tableForTest = {store, kit}; }""")
    wait_until(page, "() => window.tableForTest.store.getState() !== window.tableForTest.kit.cfg.state")


def root(page: Page):
    return page.locator("#table")


def hand(page: Page) -> list[str]:
    return page.locator("#hand button.card").evaluate_all("bs => bs.map(b => b.dataset.card)")


def floor(page: Page) -> list[str]:
    return page.locator("#floor .card").evaluate_all("cs => cs.map(c => c.dataset.card)")


def play_one(page: Page) -> tuple[str, str]:
    """Click the first playable card; return (card, the new seq) once the state came back."""
    # Between two rounds the score covers the floor through the pause, and a card pressed then
    # only shows the floor again (table_board.js): a player waits for it to go, as here.
    expect(root(page)).not_to_have_attribute("data-score-over", "1")
    before = root(page).get_attribute("data-seq")
    card = page.locator("#hand button.card:not([disabled])").first
    code = card.get_attribute("data-card")
    card.click()
    expect(root(page)).not_to_have_attribute("data-seq", before)
    return code, root(page).get_attribute("data-seq")


def screenshot(target, name: str, *, full_page: bool = True) -> None:
    """Keep a picture of ``target`` (a page, or a locator: that element) for a human to look at,
    as ``<name>.png`` in the folder ``E2E_SCREENSHOTS`` names (``E2E_SCREENSHOTS=test-artifacts
    make test``); without it none is taken (a whole page's costs Chromium about a quarter of a
    second of CPU). ``full_page``: a page's whole length, not only what is in its viewport."""
    folder = os.environ.get("E2E_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        options = {"full_page": full_page} if isinstance(target, Page) else {}
        target.screenshot(path=str(Path(folder) / f"{name}.png"), **options)


MY_TURN_OR_END = """() => {
  const table = document.getElementById("table");
  return table.dataset.myTurn === "true" || table.dataset.finished === "true";
}"""


# A table page whose socket the test answers (states of docs/protocol.md, "state")


def seat(number: int, username: str | None, **fields) -> dict:
    entry = {"seat": number, "username": username, "side": number % 2, "bot": None,
             "absent": False, "resign_offer": False}
    entry.update(fields)
    return entry


#: A 4-player match in its first round, seen from seat 0 (alice); dina (seat 2) is her partner.
PLAYING = {
    "type": "state", "seq": 100, "prev_seq": None,
    "match": {"id": 1, "status": "playing", "players": 4, "rated": False,
              "rules": {"players": 4, "target": 101, "majority_points": 30, "basra_points": 10,
                        "jack_basra_points": 20, "card_points": False, "seven_diamonds": "wild"}},
    "seats": [seat(0, "alice"), seat(1, "omar"), seat(2, "dina"), seat(3, "rana")],
    "you": 0,
    "round": {"number": 1, "dealer": 3, "turn": 1, "floor": ["10D", "8H", "4H"],
              "hand": ["4D", "7S", "AC"], "hand_sizes": [3, 4, 4, 4], "stock_size": 32,
              "pile_sizes": [0, 0], "basras": [0, 0], "jack_basras": [0, 0],
              "last_play": {"seat": 0, "card": "8C", "taken": [], "basra": None}, "over": False},
    "scores": [0, 0], "target": 101, "round_results": [], "result": None,
    "move_seconds": None, "deadline": None, "now": "2026-11-29T12:30:36.100000+00:00",
}


class FakeTable:
    """Plays the server's part of a table socket: answers every ``sync`` with ``self.state``
    (:data:`PLAYING` unless given) as a snapshot (``prev_seq`` null, docs/protocol.md); with
    ``refuse`` set, closes every socket the page opens (the server is unreachable); with
    ``held`` set, keeps the answers back until :meth:`answer_held` (a slow server)."""

    def __init__(self, page: Page, state: dict = PLAYING):
        self.page = page
        self.state = copy.deepcopy(state)
        self.sent: list[dict] = []
        self.sockets = []
        self.refuse = False
        self.held = False
        self._unanswered = []
        page.route_web_socket(re.compile(r"/ws/table/\d+/$"), self._route)

    def _route(self, ws) -> None:
        if self.refuse:
            ws.close()
            return
        self.sockets.append(ws)

        def from_page(message):
            data = json.loads(message)
            self.sent.append(data)
            if data.get("type") == "sync":
                if self.held:
                    self._unanswered.append(ws)
                else:
                    self._answer(ws)

        ws.on_message(from_page)

    def _answer(self, ws) -> None:
        ws.send(json.dumps({**self.state, "prev_seq": None}))

    def answer_held(self) -> None:
        """Answer the syncs kept back while ``held`` was set, in order, and keep none back
        from now on."""
        self.held = False
        while self._unanswered:
            self._answer(self._unanswered.pop(0))

    def wait_sent(self, wanted) -> dict:
        """The first frame the page sent that is ``wanted`` (a message, or a predicate on one),
        waited for while Playwright delivers the page's frames (its callbacks run while it
        waits); :class:`AssertionError` if none comes in 5 s."""
        matches = wanted if callable(wanted) else wanted.__eq__
        for _ in range(100):
            for message in self.sent:
                if matches(message):
                    return message
            self.page.wait_for_timeout(50)
        raise AssertionError(f"the page never sent {wanted}: {self.sent}")

    def send(self, message: dict) -> None:
        self.sockets[-1].send(json.dumps(message))

    def push(self, change) -> dict:
        """Change a copy of the state with ``change(state)``, send it as the next ``seq``, wait
        until it is drawn; returns it."""
        state = copy.deepcopy(self.state)
        change(state)
        state["prev_seq"] = self.state["seq"]
        state["seq"] = self.state["seq"] + 1
        self.state = state
        self.send(state)
        expect(root(self.page)).to_have_attribute("data-seq", str(state["seq"]))
        return state


#: A 2-player match, round 1, seen from seat 0 (alice), whose turn it is.
TWO_PLAYING = {
    "type": "state", "seq": 100, "prev_seq": None,
    "match": {"id": 1, "status": "playing", "players": 2, "rated": False,
              "rules": {"players": 2, "target": 101, "majority_points": 30, "basra_points": 10,
                        "jack_basra_points": 20, "card_points": False, "seven_diamonds": "wild"},
              "shuffle": None},
    "seats": [seat(0, "alice"), seat(1, "omar")],
    "you": 0,
    "round": {"number": 1, "dealer": 1, "turn": 0, "floor": ["10D", "8H", "4H"],
              "hand": ["4D", "7S", "AC", "KH"], "hand_sizes": [4, 4], "stock_size": 36,
              "pile_sizes": [0, 0], "basras": [0, 0], "jack_basras": [0, 0],
              "last_play": None, "over": False},
    "scores": [0, 0], "target": 101, "round_results": [], "result": None,
    "move_seconds": None, "deadline": None, "now": "2026-11-29T12:30:36.100000+00:00", "client_seed": None,
}


def open_table(new_page, request, state=TWO_PLAYING, fake_clock=False, **context) -> FakeTable:
    """A table page whose socket ``FakeTable`` answers; with ``fake_clock`` the page's clock is
    Playwright's (``page.clock``), which the test can hold still and move on itself."""
    page = new_page(**context)
    if fake_clock:
        page.clock.install()
    fake = FakeTable(page, state)
    # The table's page as the lobby opens it, reached in one load: the person and the table
    # come from seed.py, as the socket's state comes from the test.
    at_a_new_table(request, page, "u" + str(abs(hash(request.node.name + str(context))) % 10**8))
    expect(root(page)).to_have_attribute("data-seq", str(state["seq"]))
    expect(page.locator("#live-status")).to_have_attribute("data-state", "live")
    return fake
