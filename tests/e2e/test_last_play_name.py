"""The last play's line on a phone (static/games/table/board.js, renderLastPlay): the player's
name, up to 12 letters, shows whole at 360 and 390 px upright, in English and Arabic, at two
and four players; the cards in the line overlap and the line takes a second line before the
name is cut, and the page never scrolls sideways. The socket is answered by the test
(``FakeTable``)."""

import copy

import pytest
from playwright.sync_api import expect

from tests.e2e.pages import PLAYING, TWO_PLAYING, open_table, resize, screenshot, seat, settled

pytestmark = pytest.mark.e2e

#: The last play's name: what it shows against what it needs, and the page's width.
LAST_NAME = """() => { const name = document.querySelector('#last-play .last-who .cut-name');
  const line = document.getElementById('last-play').getBoundingClientRect();
  return {text: name.textContent, shown: name.clientWidth, needed: name.scrollWidth,
          line: [line.left, line.right], view: document.documentElement.clientWidth,
          scroll: document.documentElement.scrollWidth}; }"""


@pytest.mark.parametrize("lang", ["en", "ar"])
@pytest.mark.parametrize("players", [2, 4])
def test_a_name_of_twelve_letters_shows_whole_in_the_last_play_on_a_phone(new_page, request, lang, players):
    """At four seats the name had about 21 px of the 36 px "alice2" needs ("a… played …")."""
    state = copy.deepcopy(PLAYING if players == 4 else TWO_PLAYING)
    state["seats"][0] = seat(0, "alice2")
    state["round"]["last_play"] = {"seat": 0, "card": "3S", "taken": ["3D"], "basra": None}
    fake = open_table(new_page, request, state, locale=lang, viewport={"width": 360, "height": 640})
    wrong = []
    for name, taken in (("alice2", ["3D"]), ("Zeinab_ElShe", ["3D", "10D", "8H"])):
        def play(s, name=name, taken=taken):
            s["seats"][0]["username"] = name
            s["round"]["last_play"] = {"seat": 0, "card": "3S", "taken": taken, "basra": None}
        fake.push(play)
        for width, height in ((360, 640), (390, 844)):
            resize(fake.page, width, height)
            settled(fake.page)
            found = fake.page.evaluate(LAST_NAME)
            screenshot(fake.page, f"last-play-{len(name)}-{players}p-{lang}-{width}x{height}", full_page=False)
            assert found["text"] == name
            if (found["needed"] > found["shown"] + 0.5 or found["scroll"] > found["view"]
                    or found["line"][0] < -0.5 or found["line"][1] > found["view"] + 0.5):
                wrong.append((name, width, found))
    assert not wrong, wrong
    expect(fake.page.locator("#last-play")).to_be_visible()


def test_a_longest_name_is_cut_at_its_own_end_within_the_line(new_page, request):
    """A name of 24 letters (the sign-up's limit) wider than the whole line: cut at its own end,
    still inside the line, and the page does not scroll sideways."""
    state = copy.deepcopy(PLAYING)
    state["seats"][0] = seat(0, "Zeinab_ElShenawy_Abdelra")
    state["round"]["last_play"] = {"seat": 0, "card": "3S", "taken": ["3D", "10D", "8H"], "basra": None}
    fake = open_table(new_page, request, state, locale="ar", viewport={"width": 360, "height": 640})
    settled(fake.page)
    found = fake.page.evaluate(LAST_NAME)
    screenshot(fake.page, "last-play-24-4p-ar-360x640", full_page=False)
    assert found["scroll"] <= found["view"], found
    assert found["line"][0] >= -0.5 and found["line"][1] <= found["view"] + 0.5, found
    assert found["shown"] >= 36, found
    # Cut at its end, its start shown: a Latin name keeps its own direction on an Arabic page.
    name = fake.page.locator("#last-play .last-who .cut-name")
    assert name.evaluate("n => [getComputedStyle(n).direction, n.scrollWidth > n.clientWidth]") == ["ltr", True]
