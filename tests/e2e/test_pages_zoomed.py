"""The site's pages on a phone zoomed to 200% (issue 22, "zooming to 200%"): a 390×844 phone is
then a 195×422 page. No page scrolls sideways (WCAG 2.2, 1.4.10 "Reflow"), in English and
Arabic. The table itself is ``test_table_layout.py``'s."""

import pytest

from tests.e2e.test_table import sign_up

pytestmark = pytest.mark.e2e

PAGES = ["/", "/rules/", "/tournaments/", "/ladder/", "/replays/"]

#: Every element sticking out of the screen's width: what made the page scroll sideways.
OUTSIDE = """() => { const w = document.documentElement.clientWidth, out = [];
  document.querySelectorAll('body *').forEach((el) => { const r = el.getBoundingClientRect();
    if (r.width && (r.right > w + 0.5 || r.left < -0.5)) out.push(el.tagName + '.' + el.className); });
  return {scroll: document.documentElement.scrollWidth, width: w, outside: out.slice(0, 5)}; }"""


@pytest.mark.parametrize("locale", ["en", "ar"])
def test_no_page_scrolls_sideways_on_a_phone_zoomed_to_200(new_page, locale):
    page = new_page(viewport={"width": 195, "height": 422}, locale=locale)
    sign_up(page, f"zoom_{locale}")
    wide = {}
    for path in PAGES:
        page.goto(path)
        page.wait_for_load_state("load")
        found = page.evaluate(OUTSIDE)
        if found["scroll"] > found["width"]:
            wide[path] = found
    assert not wide, wide
