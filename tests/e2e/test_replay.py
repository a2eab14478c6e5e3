"""The replay viewer in the browser (issue 12): a match against the computer is resigned, the
result banner's "Watch the replay" opens it; the keys step through it (←/→, j/k, ↑/↓, Home/End);
a share link opens at its play; an imported record opens in the same viewer; 390 px and Arabic.
"""

import json
import random
import re
from decimal import ROUND_HALF_UP, Decimal

import pytest
from playwright.sync_api import Page, expect

from games import engine

from tests.e2e.pages import open_lobby, play_one, root, screenshot, signed_up, wait_until

pytestmark = pytest.mark.e2e


def viewer(page: Page):
    return page.locator("#replay")


def at(page: Page, ply: int) -> None:
    expect(viewer(page)).to_have_attribute("data-ply", str(ply))


def engine_record(seed: int = 5) -> dict:
    """A two-round record played by the engine with random cards (target 31)."""
    rng = random.Random(seed)
    match = engine.Match(engine.Rules(target=31), dealer=0)
    while not match.over:
        deck = engine.full_deck()
        rng.shuffle(deck)
        match.start_round(deck)
        while not match.round.over:
            match.play(rng.choice(match.round.legal_plays()))
    return match.to_record(["amal", "bot:strong"])


def test_step_through_a_replay_with_the_keys_and_open_a_share_link(request, new_page):
    page = new_page()
    signed_up(request, page, "nadia")
    open_lobby(page)
    form = page.locator("#computer-form")
    form.locator('input[name="computer-players"][value="2"]').check()
    form.locator('input[name="computer-move_seconds"][value="none"]').check()
    page.click("#play-computer-button")
    page.wait_for_url(re.compile(r"/table/\d+/$"))
    match_id = int(re.search(r"/table/(\d+)/$", page.url).group(1))
    expect(root(page)).to_have_attribute("data-status", "playing")
    assert page.request.get(f"/match/{match_id}/replay/").status == 404
    for _ in range(3):  # three plays of mine, the computer's between them
        expect(root(page)).to_have_attribute("data-my-turn", "true")
        play_one(page)
    page.click("#resign-button")
    page.click("#confirm-yes")
    link = page.locator("#replay-link")
    expect(link).to_have_attribute("href", f"/match/{match_id}/replay/")
    link.click()
    page.wait_for_url(f"**/match/{match_id}/replay/")
    expect(viewer(page)).to_have_attribute("data-ready", "true")
    at(page, 0)
    hands = page.locator(".open-hand")
    expect(hands).to_have_count(2)
    assert all(len(h.get_attribute("data-hand").split()) == 4 for h in hands.all())
    expect(page.locator("#stock .card")).to_have_count(40)

    page.keyboard.press("ArrowRight")
    at(page, 1)
    page.keyboard.press("k")
    at(page, 2)
    played = page.locator("#last-play").get_attribute("data-card")
    page.keyboard.press("j")
    at(page, 1)
    page.keyboard.press("ArrowLeft")
    at(page, 0)
    page.keyboard.press("End")
    last = int(viewer(page).get_attribute("data-ply"))
    assert last >= 5
    page.keyboard.press("Home")
    at(page, 0)
    page.keyboard.press("ArrowDown")  # the end of round 1 (the resignation's round: its last play)
    expect(viewer(page)).to_have_attribute("data-round", "1")
    page.keyboard.press("ArrowUp")
    at(page, 0)
    screenshot(page, "replay-start")

    # The share link of play 2 opens at play 2, in another browser, logged out.
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    at(page, 2)
    share = page.locator("#share-link").input_value()
    assert share.endswith(f"/match/{match_id}/replay/?ply=2")
    other = new_page()
    other.goto(share)
    at(other, 2)
    expect(other.locator("#last-play")).to_have_attribute("data-card", played)


def test_an_imported_record_in_the_viewer_at_390_px_in_arabic(request, new_page):
    record = engine_record()
    record["seats"][0] = "سمير_عبدالرحمن_المصري"
    page = new_page(viewport={"width": 390, "height": 844}, locale="ar")
    signed_up(request, page, "layla")  # importing needs a login
    page.goto("/replay/import/")
    page.fill('textarea[name="text"]', json.dumps(record))
    page.click('#import-form button[type="submit"]')
    page.wait_for_url(re.compile(r"/replay/[A-Za-z0-9_-]{22}/$"))
    expect(page.locator("html")).to_have_attribute("dir", "rtl")
    expect(viewer(page)).to_have_attribute("data-ready", "true")
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0
    # The play list names each card in Arabic ("ولد سباتي"), never by its Latin code ("JC").
    ranks = {"A": "آس", "2": "اثنان", "3": "ثلاثة", "4": "أربعة", "5": "خمسة", "6": "ستة", "7": "سبعة",
             "8": "ثمانية", "9": "تسعة", "10": "عشرة", "J": "ولد", "Q": "بنت", "K": "شايب"}
    suits = {"C": "سباتي", "D": "ديناري", "H": "كوبة", "S": "بستوني"}
    moves = page.locator("#moves button.move[data-card]").evaluate_all(
        "buttons => buttons.map(b => [b.dataset.card, b.querySelector('.move-card').textContent])")
    assert len(moves) > 48
    for code, name in moves:
        assert name == f"{ranks[code[:-1]]} {suits[code[-1]]}", (code, name)
    # The step buttons sit right under the board, on one screen with it, and cover none of it
    # (above it, they put the board a screen's height down on a phone; held at the screen's
    # foot, they covered its lower half).
    for where in ("nearest", "start"):  # the board half in view, then at the screen's top
        page.locator("#board").evaluate(f"board => board.scrollIntoView({{block: '{where}'}})")
        board, forward = page.locator("#board").bounding_box(), page.locator("#go-forward").bounding_box()
        assert forward["y"] >= board["y"] + board["height"], (where, board, forward)
    assert forward["y"] + forward["height"] <= 844, forward
    # Every control a thumb taps is at least 24 px tall (WCAG 2.2's target size): the speed's
    # menu and each play of the list.
    heights = page.evaluate("""() => [document.getElementById('speed'), ...document.querySelectorAll('#moves .move')]
        .map((e) => [e.id || e.className, e.getBoundingClientRect().height])""")
    assert [h for h in heights if h[1] < 24] == [], heights[:3]
    # Each seat's name on the board is whole, on one line, where the board has the room (not
    # "سمير_عبدالرحمن_ال / مصري" in a box as narrow as its cards).
    lines = page.evaluate("""() => [...document.querySelectorAll('#board .replay-seat .name')]
        .map((n) => { const range = document.createRange(); range.selectNodeContents(n);
                      return [n.textContent, new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size]; })""")
    assert len(lines) == 2 and all(count == 1 for _, count in lines), lines
    # Round 2 starts one position after round 1's 48 plays.
    page.keyboard.press("ArrowDown")
    at(page, 48)
    page.keyboard.press("ArrowDown")
    at(page, 97)
    page.keyboard.press("ArrowUp")
    at(page, 49)
    expect(viewer(page)).to_have_attribute("data-round", "2")
    # Autoplay moves on by itself.
    page.select_option("#speed", "400")
    page.click("#autoplay")
    # Moves on by itself: at least two steps (watched for, not timed: a poll may miss a step).
    wait_until(page, "() => +document.getElementById('replay').dataset.ply >= 51")
    page.click("#autoplay")
    screenshot(page, "replay-imported-ar-390")

    # A broken record: refused with the engine's words, nothing stored.
    record["rounds"][1]["plays"][16] = record["rounds"][1]["plays"][0]
    page.goto("/replay/import/")
    page.fill('textarea[name="text"]', json.dumps(record))
    page.click('#import-form button[type="submit"]')
    expect(page.locator("#import-errors")).to_contain_text("round 2, play 17")


def test_a_play_by_an_arabic_name_reads_in_the_page_s_direction(request, new_page):
    """In an English page "سارة played" reads left to right, the name first: the label took its
    direction from the name's first letter and put "played" before it."""
    record = constructed_record()
    record["seats"] = ["amal", "سارة_Sara"]
    page = new_page()
    signed_up(request, page, "amira")
    page.goto("/replay/import/")
    page.fill('textarea[name="text"]', json.dumps(record))
    page.click('#import-form button[type="submit"]')
    expect(viewer(page)).to_have_attribute("data-ready", "true")
    page.keyboard.press("ArrowRight")  # seat 1 plays KS
    label = page.locator("#last-play .last-label").first
    expect(label).to_have_text("\u2068سارة_Sara\u2069 played")
    assert label.evaluate("el => getComputedStyle(el).direction") == "ltr"


def constructed_record() -> dict:
    """One round's first two plays: seat 1 holds 10H KS 6C QD with 2C 3D AH 4S on the floor and
    plays KS, where 10H took the whole floor, a basra (RULES.md, "Dealing": dealer 0 deals
    deck[0:4] to seat 1, deck[4:8] to seat 0, then the floor)."""
    top = "10H KS 6C QD 5C 8D 9S 7H 2C 3D AH 4S".split()
    deck = top + [c.code for c in engine.full_deck() if c.code not in top]
    return {"format": "basra-record/1", "rules": engine.Rules().to_dict(), "seats": ["amal", "badr"],
            "rounds": [{"dealer": 0, "deck": deck, "plays": ["KS", "5C"]}]}


def test_the_analysis_panel_progress_accuracy_and_a_labelled_mistake(request, new_page):
    # A finished match against the computer: ask for its analysis, see it wait or run, then the
    # accuracy of both players.
    page = new_page()
    signed_up(request, page, "salwa")
    open_lobby(page)
    form = page.locator("#computer-form")
    form.locator('input[name="computer-players"][value="2"]').check()
    form.locator('input[name="computer-move_seconds"][value="none"]').check()
    page.click("#play-computer-button")
    page.wait_for_url(re.compile(r"/table/\d+/$"))
    match_id = int(re.search(r"/table/(\d+)/$", page.url).group(1))
    for _ in range(2):
        expect(root(page)).to_have_attribute("data-my-turn", "true")
        play_one(page)
    page.click("#resign-button")
    page.click("#confirm-yes")
    expect(page.locator("#replay-link")).to_be_visible()
    page.goto(f"/match/{match_id}/replay/")
    expect(viewer(page)).to_have_attribute("data-ready", "true")
    summary = page.locator("#analysis-summary")
    page.click("#analyse")
    expect(summary).to_have_attribute("data-status", re.compile(r"^(pending|running)$"))
    expect(summary).to_have_attribute("data-status", "done", timeout=90_000)
    expect(summary.locator(".accuracy")).to_have_count(2)
    expect(summary.locator(".accuracy").first).to_contain_text("points lost per play")
    expect(summary.locator(".accuracy-line").first).to_contain_text("Accuracy")
    expect(summary.locator(".accuracy-line").first).to_contain_text("blunders")
    expect(summary.locator(".luck")).to_have_count(2)
    expect(summary.locator(".chance-graph svg polyline")).to_have_count(1)
    expect(page.locator("#loss-bars")).to_be_visible()

    # A record with a known mistake, imported: nobody logged in may ask for its analysis, so a
    # visitor is offered a log-in that comes back to the replay, not a button that fails.
    page.goto("/replay/import/")
    page.fill('textarea[name="text"]', json.dumps(constructed_record()))
    page.click('#import-form button[type="submit"]')
    page.wait_for_url(re.compile(r"/replay/[A-Za-z0-9_-]{22}/$"))
    link = page.url
    stranger = new_page()
    stranger.goto(link)
    offer = stranger.locator("#analyse")
    expect(offer).to_have_text("Log in to analyse this match")
    expect(offer).to_have_attribute("href", re.compile(r"^/accounts/login/\?next=/replay/[A-Za-z0-9_-]{22}/"))
    stranger.click("#analyse")
    stranger.wait_for_url(re.compile(r"/accounts/login/\?next=/replay/"))

    # Logged in, asked: the mistake is named with what it gave up, and links to its play.
    page.click("#analyse")
    expect(summary).to_have_attribute("data-status", "done", timeout=90_000)
    mistake = summary.locator('.worst li[data-labels~="missed_basra"]')
    expect(mistake).to_have_count(1)
    expect(mistake).to_contain_text("king of spades (best ten of hearts")
    expect(mistake.locator(".mistake-label")).to_contain_text("missed a basra worth 10 points")
    mistake.locator("a").click()
    at(page, 1)
    expect(page.locator("#last-play .analysis-note.bad")).to_contain_text("missed a basra")
    # The best card by its name, as the table names cards, not by its code ("TH").
    expect(page.locator("#last-play .analysis-note.bad")).to_contain_text("best: ten of hearts")
    # Graded by the chance of winning it gave up.
    expect(page.locator("#last-play .analysis-note.bad")).to_contain_text("points of chance")
    screenshot(page, "replay-analysis-mistake")


def test_the_graded_analysis_at_360_px_in_arabic(request, new_page):
    page = new_page(viewport={"width": 360, "height": 740}, locale="ar")
    signed_up(request, page, "nour")
    page.goto("/replay/import/")
    page.fill('textarea[name="text"]', json.dumps(constructed_record()))
    page.click('#import-form button[type="submit"]')
    expect(viewer(page)).to_have_attribute("data-ready", "true")
    expect(page.locator("html")).to_have_attribute("dir", "rtl")
    page.click("#analyse")
    summary = page.locator("#analysis-summary")
    expect(summary).to_have_attribute("data-status", "done", timeout=90_000)
    expect(summary.locator(".accuracy-line").first).to_contain_text("الدقة")
    expect(summary.locator(".luck").first).to_contain_text("حظ الورق")
    graph = summary.locator(".chance-graph svg")
    expect(graph).to_be_visible()
    box = graph.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 360, box
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    summary.scroll_into_view_if_needed()
    screenshot(page, "replay-analysis-ar-360")


def written_by_live_js(new_page, lang: str, expression: str):
    """What ``expression`` gives, with ``B`` the page's live.js module, on a page in ``lang``
    (the import page: the /jsi18n/ catalogue and <html lang> of that language)."""
    page = new_page(extra_http_headers={"Accept-Language": lang})
    page.goto("/replay/import/")
    expect(page.locator("html")).to_have_attribute("lang", lang)
    return page.evaluate(f"""async () => {{
        const B = await import("/static/games/live.js");
        return {expression};
    }}""")


@pytest.mark.parametrize(("lang", "wanted"), [
    ("fr", ["88,4", "\u221235,7", "+3,5", "50\u00a0%"]),
    ("en", ["88.4", "\u221235.7", "+3.5", "50%"]),
    # The Arabic decimal separator (U+066B), the pages' own (basra_site/formats/ar/), with the
    # Western digits Chromium's Arabic writes, as the pages do; not its Latin "88.4". The marks
    # U+200E keep a sign and the percent beside their number in a right-to-left line.
    ("ar", ["88\u066b4", "\u200e\u221235\u066b7", "\u200e+3\u066b5", "50\u200e%\u200e"]),
])
def test_the_analysis_numbers_are_written_in_the_page_s_language(new_page, lang, wanted):
    # replay.js writes every number of the analysis through live.js's number(): the page's
    # language's decimal mark and percent, and one minus sign (U+2212).
    written = written_by_live_js(new_page, lang, """[B.number(88.44, 1), B.number(-35.7, 1),
        B.number(3.5, 1, {signDisplay: "exceptZero"}), B.number(0.5, 0, {style: "percent"}),
        B.number(12345.5, 1)]""")
    assert written[:4] == wanted
    # Thousands too: the separator the pages group with, never beside a different decimal mark.
    assert written[4] == {"fr": "12\u202f345,5", "en": "12,345.5", "ar": "12\u066c345\u066b5"}[lang]


@pytest.mark.parametrize(("lang", "wanted"), [
    ("en", ["round 3 and round 5", "round 3, round 5, and round 7"]),
    ("fr", ["round 3 et round 5", "round 3, round 5 et round 7"]),
    # Arabic joins a list with "و", as CLDR writes it: no Latin comma between the items.
    ("ar", ["round 3 \u0648round 5", "round 3 \u0648round 5 \u0648round 7"]),
])
def test_the_scripts_lists_are_joined_in_the_page_s_language(new_page, lang, wanted):
    # Every list a script writes (the rounds whose deck does not match, the cards folded in the
    # last play, the players of a rematch) goes through live.js's list().
    written = written_by_live_js(new_page, lang, """[B.list(["round 3", "round 5"]),
        B.list(["round 3", "round 5", "round 7"])]""")
    assert written == wanted


def test_the_analysis_marks_and_counts_the_same_graded_plays(request, new_page):
    # The grades (games/replays/analysis.py: chance of winning lost) are what the page counts,
    # marks in the list of plays, and names beside each of the worst plays.
    page = new_page()
    signed_up(request, page, "hala")
    page.goto("/replay/import/")
    page.fill('textarea[name="text"]', json.dumps(constructed_record()))
    page.click('#import-form button[type="submit"]')
    page.wait_for_url(re.compile(r"/replay/[A-Za-z0-9_-]{22}/$"))
    summary = page.locator("#analysis-summary")
    page.click("#analyse")
    expect(summary).to_have_attribute("data-status", "done", timeout=90_000)
    result = page.evaluate("""async () => {
        const config = JSON.parse(document.getElementById("replay-config").textContent);
        return (await (await fetch(config.urls.analysis, {credentials: "same-origin"})).json()).result;
    }""")
    graded = [p for p in result["plays"] if p.get("grade")]
    assert graded, result["plays"]  # the missed basra
    counted = sum(p["inaccuracies"] + p["mistakes"] + p["blunders"] for p in result["players"])
    assert counted == len(graded)
    expect(page.locator("#moves .move.mistake")).to_have_count(len(graded))
    worst = summary.locator(".worst li")
    expect(worst.locator(".grade-label")).to_have_count(worst.count())
    for item in worst.all():
        grade = item.get_attribute("data-grade")
        label = item.locator(".grade-label")
        expect(label).to_contain_text({"blunder": "Blunder", "mistake": "Mistake", "inaccuracy": "Inaccuracy",
                                       "": "not graded"}[grade])
        expect(label).to_contain_text("points of chance")


def record_into_round_two(seed: int = 5, plays: int = 3) -> dict:
    """A record played by the engine with random cards (target 31): its first round whole, then
    the first ``plays`` plays of its second (a match still under way)."""
    rng = random.Random(seed)
    match = engine.Match(engine.Rules(target=31), dealer=0)
    for round_plays in (None, plays):
        deck = engine.full_deck()
        rng.shuffle(deck)
        match.start_round(deck)
        made = 0
        while not match.round.over and made != round_plays:
            match.play(rng.choice(match.round.legal_plays()))
            made += 1
    return match.to_record(["amal", "badr"])


def test_the_chance_graph_says_the_chance_at_the_replay_s_play(request, new_page):
    """The chance graph's caption gives side 0's chance of winning at the play the replay shows
    (50% before the first play, then after each play made, a round's deal adding none) and
    follows the viewer's steps, in every round; its mark stands at that play."""
    page = new_page()
    signed_up(request, page, "rasha")
    page.goto("/replay/import/")
    page.fill('textarea[name="text"]', json.dumps(record_into_round_two()))
    page.click('#import-form button[type="submit"]')
    page.wait_for_url(re.compile(r"/replay/[A-Za-z0-9_-]{22}/$"))
    summary = page.locator("#analysis-summary")
    page.click("#analyse")
    expect(summary).to_have_attribute("data-status", "done", timeout=90_000)
    curve = page.evaluate("""async () => {
        const config = JSON.parse(document.getElementById("replay-config").textContent);
        return (await (await fetch(config.urls.analysis, {credentials: "same-origin"})).json()).result.curve;
    }""")
    assert len(curve) == 48 + 3 + 1 and len(set(curve)) > 2, curve
    graph = summary.locator(".chance-graph")
    caption = graph.locator("figcaption")

    def shows(ply: int, made: int) -> None:
        at(page, ply)
        percent = Decimal(str(curve[made])).quantize(Decimal(1), ROUND_HALF_UP)
        # Two players: a player's chance, not a "side"'s (Arabic's word for it says "team").
        expect(caption).to_have_text(re.compile(rf"^Chance of winning of [^']*amal[^']*, play by play: {percent}%$"))
        expect(graph).to_have_attribute("data-play", str(made))
        assert float(graph.get_attribute("data-chance")) == curve[made]
        assert float(graph.locator(".chance-now").get_attribute("x1")) == made

    shows(0, 0)  # round 1 dealt: before the first play
    assert curve[0] == 50
    page.keyboard.press("ArrowRight")
    shows(1, 1)
    page.keyboard.press("ArrowRight")
    shows(2, 2)
    page.keyboard.press("ArrowDown")  # the end of round 1: its 48th play
    shows(48, 48)
    page.keyboard.press("ArrowRight")  # round 2 dealt: no play made since
    shows(49, 48)
    page.keyboard.press("End")  # the third play of round 2
    shows(52, 51)
    page.keyboard.press("ArrowLeft")
    shows(51, 50)
