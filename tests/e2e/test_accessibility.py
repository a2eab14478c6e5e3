"""No serious accessibility violation on the pages a player uses (issue 22, WCAG 2.2 AA): axe-core
(``tests/e2e/vendor/axe-core``, never shipped to players) runs on a live table for two and four
players and on the lobby, the rules, the tournaments and a replay, in English and Arabic, at a
phone's 390×844; a violation of impact "serious" or "critical" fails the test, named with its
rule and the elements it found. The pages' Content-Security-Policy forbids inline scripts, so
the test's browser context bypasses it to load axe (``bypass_csp``): the page's own scripts run
exactly as they do for a player.
"""

import json
import uuid
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.e2e.pages import SECOND_GROUP, create_table, signed_up


pytestmark = [pytest.mark.e2e, pytest.mark.xdist_group(SECOND_GROUP)]

AXE = (Path(__file__).parent / "vendor" / "axe-core" / "axe.min.js").read_text(encoding="utf-8")
AXE_VERSION = "4.10.3"
#: WCAG 2.0, 2.1 and 2.2 at levels A and AA (axe's tags).
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]


def serious(page) -> list[str]:
    """The serious and critical violations axe finds on ``page`` as it is now, one line each."""
    if not page.evaluate("() => !!window.axe"):
        page.evaluate(AXE)
    assert page.evaluate("() => axe.version") == AXE_VERSION
    result = page.evaluate(
        "(tags) => axe.run(document, {runOnly: {type: 'tag', values: tags}})", TAGS)
    return [
        f"{v['id']} ({v['impact']}): {v['help']} — "
        + "; ".join(json.dumps(n["target"]) for n in v["nodes"][:5])
        for v in result["violations"] if v["impact"] in ("serious", "critical")
    ]


def context_for(browser, site_url, lang: str, session: str | None = None):
    context = browser.new_context(base_url=site_url, viewport={"width": 390, "height": 844},
                                  bypass_csp=True)
    host = site_url.split("//")[1].split(":")[0]
    cookies = [{"name": "django_language", "value": lang, "domain": host, "path": "/"}]
    if session:
        cookies.append({"name": "sessionid", "value": session, "domain": host, "path": "/"})
    context.add_cookies(cookies)
    return context


@pytest.mark.parametrize("lang", ["en", "ar"])
@pytest.mark.parametrize("players", [2, 4])
def test_a_live_table_has_no_serious_violation(browser, site_url, seeded, players, lang):
    table = seeded(players)
    context = context_for(browser, site_url, lang, table["sessions"][0])
    try:
        page = context.new_page()
        page.goto(f"/table/{table['match']}/")
        expect(page.locator("#live-status")).to_have_attribute("data-state", "live")
        expect(page.locator("#hand .card").first).to_be_visible()
        found = serious(page)
        assert not found, "\n".join(found)
    finally:
        context.close()


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_the_pages_around_the_table_have_no_serious_violation(request, browser, site_url, new_page, lang):
    # An open table in the lobby, with its empty seat, made here: the lobby is checked with the
    # empty seat's grey in it, not only when another test happens to leave such a table.
    host = new_page()
    signed_up(request, host, f"a11y_host_{lang}_{uuid.uuid4().hex[:6]}")
    create_table(host, players=2, target=11)
    context = context_for(browser, site_url, lang)
    try:
        page = context.new_page()
        failures = []
        page.goto("/")
        expect(page.locator(".seat-chip.empty").first).to_be_visible()
        for path in ["/", "/rules/", "/tournaments/", "/ladder/", "/replays/", "/accounts/signup/"]:
            page.goto(path)
            failures += [f"{path}: {line}" for line in serious(page)]
        assert not failures, "\n".join(failures)
    finally:
        context.close()
