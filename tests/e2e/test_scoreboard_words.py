"""The score boxes over a phone's table (static/games/table/board.js, renderScoreboard): a
side's label ("ADVERSAIRE") is never broken inside a word, and partners' names are joined by
the catalogue's words ("%(a)s & %(b)s", in Arabic "%(a)s و%(b)s"), each name cut at its own end
so both partners show; every score lists the viewer's side first (kit.js sideOrder). The socket
is answered by the test (``FakeTable``), at 360×640."""

import copy

import pytest
from playwright.sync_api import expect

from tests.e2e.pages import PLAYING, TWO_PLAYING, open_table, seat, settled

pytestmark = pytest.mark.e2e

PHONE_360 = {"viewport": {"width": 360, "height": 640}}

#: Each score box's label: its words, and the words its lines start with (a word broken
#: across two lines starts a line with its tail, which is no word of the label).
LABEL_LINES = """() => Array.from(document.querySelectorAll('#scoreboard .side-label')).map((label) => {
  const text = label.textContent, node = label.firstChild, starts = [];
  let top = null;
  for (let i = 0; i < text.length; i++) {
    const range = document.createRange();
    range.setStart(node, i); range.setEnd(node, i + 1);
    const rect = range.getClientRects()[0];
    if (!rect || !rect.width) continue;
    if (top === null || rect.top - top > rect.height / 2) { starts.push(i); top = rect.top; }
  }
  const wordStarts = [0];
  for (let i = 1; i < text.length; i++) if (/\\s/.test(text[i - 1]) && !/\\s/.test(text[i])) wordStarts.push(i);
  return {text, broken: starts.filter((i) => !wordStarts.includes(i)).length,
          cut: label.scrollWidth > label.clientWidth + 0.5};
})"""


def over(state: dict) -> None:
    """The match over, the opponents' side the winner with three digits (its score's column
    the widest: "ADVERSAIRE" had the rest of the box, about 96 px, and broke as "ADVERSAIR / E")."""
    players = state["match"]["players"]
    state["match"]["status"] = "finished"
    state["round"].update(over=True, turn=None, hand=[], hand_sizes=[0] * players)
    state["scores"] = [100, 108]
    state["result"] = {"winner": 1, "scores": [100, 108], "reason": "target"}


@pytest.mark.parametrize("lang", ["fr", "ar", "en"])
@pytest.mark.parametrize("players", [2, 4])
def test_no_side_label_breaks_inside_a_word_at_360(new_page, request, lang, players):
    state = copy.deepcopy(TWO_PLAYING if players == 2 else PLAYING)
    state["scores"] = [100, 108]
    fake = open_table(new_page, request, state, locale=lang, **PHONE_360)
    wrong = []
    for moment in ("playing", "over"):
        if moment == "over":
            fake.push(over)
        settled(fake.page)
        labels = fake.page.evaluate(LABEL_LINES)
        assert len(labels) == 2
        wrong += [(moment, label) for label in labels if label["broken"] or label["cut"]]
    assert not wrong, wrong


#: Each score box's names: the text, and each partner's name box (its width, what it shows).
SIDE_NAMES = """() => Array.from(document.querySelectorAll('#scoreboard .side-name')).map((box) => {
  const outer = box.getBoundingClientRect();
  const members = Array.from(box.querySelectorAll('.side-member')).map((m) => {
    const r = m.getBoundingClientRect();
    return {width: r.width, inside: r.left >= outer.left - 0.5 && r.right <= outer.right + 0.5,
            whole: m.scrollWidth <= m.clientWidth + 0.5};
  });
  return {text: box.textContent, members, cut: box.scrollWidth > box.clientWidth + 0.5};
})"""


def test_partners_are_joined_by_the_catalogue_s_words_and_both_show_in_arabic_at_360(new_page, request):
    """A four-seat table against the computer in Arabic: the score boxes joined the names with
    "&" where the result says "و", and cut the side's whole line, the second partner lost
    ("خبير 1 & خبـ…")."""
    state = copy.deepcopy(PLAYING)
    state["seats"] = [seat(0, "Zeinab_ElShenawy_abcde"), seat(1, None, bot="expert"),
                      seat(2, "abdelrahman_abcde"), seat(3, None, bot="expert")]
    fake = open_table(new_page, request, state, locale="ar", **PHONE_360)
    settled(fake.page)
    sides = fake.page.evaluate(SIDE_NAMES)
    assert len(sides) == 2
    for side in sides:
        assert "&" not in side["text"] and "و" in side["text"], side
        assert len(side["members"]) == 2, side
        # Both partners show, each at least a few letters wide, inside the box; what does not
        # fit is cut at a name's own end, not at the box's.
        assert all(m["inside"] and m["width"] >= 24 for m in side["members"]), side
        assert not side["cut"], side
    expect(fake.page.locator("#scoreboard .side-member").first).to_be_visible()


#: The result line's score and the names beside it: the score's element, its weight and frame,
#: and the room between its box and the nearest name's box, in the score's ems, on each side.
SCORE_APART = """() => {
  const score = document.querySelector('#result-banner .result-line .result-score');
  const names = Array.from(document.querySelectorAll('#result-banner .result-line bdi'));
  const s = score.getBoundingClientRect(), em = parseFloat(getComputedStyle(score).fontSize);
  const gaps = names.filter((n) => Math.abs(n.getBoundingClientRect().top - s.top) < s.height)
    .map((n) => { const r = n.getBoundingClientRect();
                  return Math.max(r.left - s.right, s.left - r.right) / em; });
  const style = getComputedStyle(score);
  return {tag: score.tagName, text: score.textContent, names: names.map((n) => n.textContent),
          inName: names.some((n) => n.contains(score) || score.contains(n)),
          weight: Number(style.fontWeight), border: parseFloat(style.borderInlineStartWidth),
          gap: Math.min(...gaps), rtl: getComputedStyle(score.parentNode).direction === 'rtl'};
}"""


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_the_result_s_score_stands_apart_from_a_computer_s_number_at_360(new_page, request, lang):
    """A match of four against the computer, over at 0 – 50: the score is an element of its own,
    no name's, bold in a frame and at least most of an em from the names beside it, so that
    "Greedy 2" and "0 – 50" never read as "Greedy 20 – 50"."""
    state = copy.deepcopy(PLAYING)
    state["seats"] = [seat(0, "tester_ar"), seat(1, None, bot="greedy"),
                      seat(2, None, bot="greedy"), seat(3, None, bot="greedy")]
    fake = open_table(new_page, request, state, locale=lang, **PHONE_360)

    def zero_to_fifty(state: dict) -> None:
        over(state)
        state["scores"] = [0, 50]
        state["result"] = {"winner": 1, "scores": [0, 50], "reason": "target"}

    fake.push(zero_to_fifty)
    expect(fake.page.locator("#result-banner")).to_be_visible()
    settled(fake.page)
    found = fake.page.evaluate(SCORE_APART)
    assert found["text"] == "0 – 50" and not found["inName"], found
    assert len(found["names"]) == 4 and found["rtl"] == (lang == "ar"), found
    assert found["tag"] == "STRONG" and found["weight"] >= 700 and found["border"] >= 1, found
    assert found["gap"] >= 0.6, found
    # Each side's number beside its side's names: the viewer's 0 next to the viewer's name (on
    # its left in Arabic), 50 beyond it (the other side's names may wrap onto the next line).
    at = fake.page.evaluate("""() => {
      const line = document.querySelector('#result-banner .result-line');
      const [mine, , theirs] = line.querySelector('.result-score').children;
      const x = (e) => { const r = e.getBoundingClientRect(); return (r.left + r.right) / 2; };
      return {mine: x(mine), theirs: x(theirs), texts: [mine.textContent, theirs.textContent],
              own: x(line.querySelector('bdi'))};
    }""")
    assert at["texts"] == ["0", "50"], at
    assert (at["own"] > at["mine"] > at["theirs"]) == (lang == "ar"), at
    assert (at["own"] < at["mine"] < at["theirs"]) == (lang == "en"), at


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_a_spectator_of_two_reads_each_box_by_its_player_s_name(new_page, request, lang):
    """At two players a lone player is no side (the Arabic for "Side 1", "الفريق 1", says
    "team"): each box is its player's name, as the players' boxes name them, with no numbered
    label; at four the sides keep their numbers."""
    state = copy.deepcopy(TWO_PLAYING)
    state.update(you=None, client_seed=None)
    state["round"]["hand"] = None
    fake = open_table(new_page, request, state, locale=lang, **PHONE_360)
    board = fake.page.locator("#scoreboard")
    for side, name in ((0, "alice"), (1, "omar")):
        expect(board.locator(f'.side[data-side="{side}"] .side-name')).to_have_text(name)
    expect(board.locator(".side-label")).to_have_count(0)
    side_word = "الفريق" if lang == "ar" else "Side"
    expect(board).not_to_contain_text(side_word)
    # The name and the score on one line, not the score under a missing label's line.
    settled(fake.page)
    assert fake.page.evaluate("""() => {
      const box = document.querySelector('#scoreboard .side[data-side="0"]');
      const name = box.querySelector('.side-name').getBoundingClientRect();
      const score = box.querySelector('.side-score').getBoundingClientRect();
      return score.top < name.bottom && name.top < score.bottom; }""")

    def four(state: dict) -> None:
        state.update({k: copy.deepcopy(v) for k, v in PLAYING.items() if k not in ("seq", "prev_seq")})
        state.update(you=None)
        state["round"]["hand"] = None

    fake.push(four)
    expect(board.locator(".side-label")).to_have_count(2)
    expect(board.locator('.side[data-side="1"] .side-label')).to_contain_text(side_word)


#: The table's scores in the order they are drawn: the boxes (side, label, score), the round's
#: score table's head and its total row, the result's score.
SCORES_IN_ORDER = """() => ({
  boxes: Array.from(document.querySelectorAll('#scoreboard .side')).map((box) => [
    box.dataset.side, (box.querySelector('.side-label') || {}).textContent || null,
    box.querySelector('.side-score').textContent]),
  head: Array.from(document.querySelectorAll('#breakdown thead .score-side-label')).map((l) => l.textContent),
  total: Array.from(document.querySelectorAll('#breakdown tr[data-row="total"] td')).map((td) => td.textContent),
  result: (document.querySelector('#result-banner .result-score') || {}).textContent || null,
})"""


def test_each_player_sees_their_own_side_first_and_a_spectator_seat_order(new_page, request):
    """Every score of the table lists the viewer's side first, labelled ("You", "Your side"):
    the boxes, the round's score table, the result; a spectator's in seat order."""
    state = copy.deepcopy(TWO_PLAYING)
    state["you"] = 1
    state["scores"] = [10, 30]
    fake = open_table(new_page, request, state, **PHONE_360)
    assert fake.page.evaluate(SCORES_IN_ORDER)["boxes"] == [["1", "You", "30"], ["0", "Opponent", "10"]]

    def over(state: dict) -> None:
        state["match"]["status"] = "finished"
        state["round"].update(over=True, turn=None, hand=[], hand_sizes=[0, 0])
        state["scores"] = [54, 101]
        state["round_results"] = [{
            "number": 1, "cards": [20, 32], "majority": [0, 30], "basras": [10, 20],
            "jack_basras": [0, 0], "card_points": [0, 0], "total": [54, 101],
            "leftover": {"side": None, "cards": []}}]
        state["result"] = {"winner": 1, "scores": [54, 101], "reason": "target"}

    fake.push(over)
    expect(fake.page.locator("#breakdown")).to_be_visible()
    drawn = fake.page.evaluate(SCORES_IN_ORDER)
    assert drawn["boxes"] == [["1", "You", "101"], ["0", "Opponent", "54"]], drawn
    assert drawn["head"] == ["You", "Opponent"] and drawn["total"] == ["101", "54"], drawn
    assert drawn["result"] == "101 – 54", drawn

    # At four, from seat 3: side 1 first; a spectator: side 0 first.
    def four(you):
        def change(state: dict) -> None:
            state.update({k: copy.deepcopy(v) for k, v in PLAYING.items() if k not in ("seq", "prev_seq")})
            state["you"] = you
            state["scores"] = [10, 30]
            if you is None:
                state["round"]["hand"] = None
        return change

    fake.push(four(3))
    expect(fake.page.locator("#scoreboard .side").first).to_have_attribute("data-side", "1")
    assert fake.page.evaluate(SCORES_IN_ORDER)["boxes"] == [
        ["1", "Your side", "30"], ["0", "Opponents", "10"]]
    fake.push(four(None))
    expect(fake.page.locator("#scoreboard .side").first).to_have_attribute("data-side", "0")
    assert fake.page.evaluate(SCORES_IN_ORDER)["boxes"] == [["0", "Side 1", "10"], ["1", "Side 2", "30"]]
