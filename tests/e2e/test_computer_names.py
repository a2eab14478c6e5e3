"""A computer seat's one name at the table (static/games/table/kit.js, ``seatName``): its seat,
the turn line, the last play and the score boxes all call it the same, its level and, where the
table has several computer seats, its number ("Random 1", "Expert 3"), and nowhere is it cut.

The table: four seats, three of them computers (Random, Strong, Expert), the narrowest case for
a side seat. The socket is answered by the test (``FakeTable``), in English, Arabic and French,
upright at 390 and 360 px.
"""

import copy

import pytest
from playwright.sync_api import expect

from tests.e2e.pages import PLAYING, open_table, resize, screenshot, seat, settled

pytestmark = pytest.mark.e2e

#: The computer seats of the table, and their levels.
BOTS = {1: "random", 2: "strong", 3: "expert"}

#: Each place naming ``seat``: its text, and what of it is cut. A name is whole when neither
#: its box nor any box inside it is narrower than what it holds (``scrollWidth``), and its
#: text's box lies inside every box around it that clips (``overflow`` not visible).
NAMES = """(seat) => {
  const places = {
    seat: document.querySelector(`#board .seat-box[data-seat="${seat}"] .seat-name .name`),
    turn: document.querySelector('#turn-banner bdi'),
    last: document.querySelector('#last-play .last-who bdi'),
    score: document.querySelector(`#scoreboard .side-member[data-seat="${seat}"]`),
  };
  const cut = (name) => {
    const range = document.createRange();
    range.selectNodeContents(name);
    const text = range.getBoundingClientRect();
    const boxes = [name, ...name.querySelectorAll('*')];
    const narrow = boxes.filter((box) => box.clientWidth && box.scrollWidth > box.clientWidth + 0.5);
    const clipped = [];
    for (let box = name.parentElement; box && box !== document.body; box = box.parentElement) {
      if (getComputedStyle(box).overflowX === 'visible') continue;
      const r = box.getBoundingClientRect();
      if (text.left < r.left - 0.5 || text.right > r.right + 0.5) clipped.push(box.className || box.id);
    }
    return {narrow: narrow.map((box) => box.className), clipped};
  };
  // The name's words, not the computer badge's (an <svg> whose <title> is "Computer player").
  const shown = (name) => {
    const words = [], walk = document.createTreeWalker(name, NodeFilter.SHOW_TEXT);
    while (walk.nextNode()) if (!walk.currentNode.parentElement.closest('svg')) words.push(walk.currentNode.data);
    return words.join('').trim();
  };
  const out = {};
  for (const [place, name] of Object.entries(places)) {
    out[place] = name ? {text: shown(name), ...cut(name)} : null;
  }
  return out;
}"""


def names_of(page, number: int) -> dict:
    """What each place calls seat ``number``, and what of it is cut (:data:`NAMES`)."""
    settled(page)
    return page.evaluate(NAMES, number)


@pytest.mark.parametrize("lang", ["en", "ar", "fr"])
def test_a_computer_seat_has_one_name_everywhere_and_it_is_never_cut(new_page, request, lang):
    state = copy.deepcopy(PLAYING)
    state["seats"] = [seat(0, "alice")] + [seat(k, None, bot=level) for k, level in BOTS.items()]
    fake = open_table(new_page, request, state, locale=lang,
                      viewport={"width": 390, "height": 844})
    wrong = {}
    names = {}
    for width, height in [(390, 844), (360, 640)]:
        resize(fake.page, width, height)
        for number in BOTS:
            # Its turn, then its card the last play, the next seat to play.
            def its_turn(state, number=number):
                state["round"]["turn"] = number
                state["round"]["last_play"] = {"seat": (number - 1) % 4, "card": "8C", "taken": [], "basra": None}

            def it_played(state, number=number):
                state["round"]["turn"] = (number + 1) % 4
                state["round"]["last_play"] = {"seat": number, "card": "4S", "taken": ["4H"], "basra": None}

            fake.push(its_turn)
            turn = names_of(fake.page, number)
            fake.push(it_played)
            played = names_of(fake.page, number)
            found = {"seat": played["seat"], "turn": turn["turn"], "last": played["last"],
                     "score": played["score"]}
            texts = {place: (shown or {}).get("text") for place, shown in found.items()}
            names.setdefault(number, set()).update(texts.values())
            if len(set(texts.values())) != 1 or None in texts.values():
                wrong[f"{width} seat {number} names"] = texts
            cut = {place: shown for place, shown in found.items()
                   if shown and (shown["narrow"] or shown["clipped"])}
            if cut:
                wrong[f"{width} seat {number} cut"] = cut
        screenshot(fake.page, f"computer-names-{lang}-{width}", full_page=False)
    assert not wrong, wrong
    # Three seats, three names, each its seat's number.
    assert [len(shown) for shown in names.values()] == [1, 1, 1], names
    assert all(str(number) in next(iter(names[number])) for number in BOTS), names

    # The result names them so too: "Random 1 & Expert 3" won.
    def over(state):
        state["match"]["status"] = "finished"
        state["round"].update(over=True, turn=None, hand=[], hand_sizes=[0, 0, 0, 0])
        state["scores"] = [40, 101]
        state["result"] = {"winner": 1, "scores": [40, 101], "reason": "target"}

    fake.push(over)
    expect(fake.page.locator("#result-banner")).to_be_visible()
    result = fake.page.evaluate("""() => Object.fromEntries(Array.from(
      document.querySelectorAll('#result-banner .result-line bdi[data-seat]'),
      (name) => [name.dataset.seat, Array.from(name.querySelectorAll('span')).map((s) => s.textContent).join('')]))""")
    assert {int(k): v for k, v in result.items() if int(k) in BOTS} == {
        number: next(iter(names[number])) for number in BOTS}, result
