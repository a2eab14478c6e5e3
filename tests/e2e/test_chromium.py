"""The browser the tests drive (``tests/e2e/conftest.py``): Chromium's flags, the pool of
browser contexts that a test's ``close()`` gives back and the next test gets clean, and the
static files the browser keeps from one page to the next."""

import re
from pathlib import Path

import playwright
import pytest
from tests.e2e.conftest import NO_OMNIBOX_POPUPS, PLAYWRIGHT_DISABLED_FEATURES

pytestmark = pytest.mark.e2e

PHONE_EN = {"locale": "en", "is_mobile": True, "has_touch": True}


def test_the_flags_keep_every_feature_playwright_turns_off():
    """Chromium reads only the last ``--disable-features``: ours must repeat Playwright's (its
    ``chromiumSwitches.ts``, bundled in the driver), or they would be on again."""
    bundle = Path(playwright.__file__).parent / "driver" / "package" / "lib" / "coreBundle.js"
    listed = re.search(r"disabledFeatures = \[(.*?)\]", bundle.read_text(), re.S)
    assert listed, f"Playwright's list of disabled features is no longer in {bundle}"
    theirs = set(re.findall(r'"(\w+)"', listed.group(1)))
    assert theirs and theirs <= set(PLAYWRIGHT_DISABLED_FEATURES)


def test_a_page_loaded_again_asks_the_server_for_no_static_file(new_page):
    """The browser tests' servers let the browser keep the static files (tests/settings.py,
    ``BASRA_TEST_STATIC_CACHED``); ``make run`` has it ask again on every page. A file taken
    from the browser's cache has a ``transferSize`` of 0 (Resource Timing); one asked again and
    answered 304 has its headers' size."""
    page = new_page()
    page.goto("/accounts/login/")
    page.reload(wait_until="load")
    sizes = page.evaluate(
        "() => Object.fromEntries(performance.getEntriesByType('resource')"
        ".filter(e => e.name.includes('/static/')).map(e => [e.name, e.transferSize]))")
    assert sizes, "the page loads no static file"
    assert {name: size for name, size in sizes.items() if size} == {}


def test_a_new_context_builds_no_address_bar_pop_up(browser):
    session = browser.new_browser_cdp_session()
    session.send("Target.setDiscoverTargets", {"discover": True})
    made: list[str] = []
    session.on("Target.targetCreated", lambda event: made.append(event["targetInfo"]["type"]))
    context = browser.new_context(fresh=True)
    context.new_page().goto("data:text/html,<p>hi</p>")
    context.close()
    session.detach()
    assert "page" in made  # the events were heard
    assert "browser_ui" not in made, NO_OMNIBOX_POPUPS


def test_a_context_given_back_comes_back_empty_at_the_size_asked(browser, site_url):
    context = browser.new_context(base_url=site_url, viewport={"width": 390, "height": 844}, **PHONE_EN)
    page = context.new_page()
    page.goto("/accounts/login/")
    page.evaluate("() => { localStorage.setItem('kept', '1'); sessionStorage.setItem('kept', '1'); }")
    assert context.cookies()  # the site's CSRF cookie
    page.set_viewport_size({"width": 800, "height": 600})
    context.close()

    again = browser.new_context(base_url=site_url, **PHONE_EN, viewport={"width": 360, "height": 640})
    assert again is context  # the options but the viewport are the same: the same context
    page = again.new_page()
    assert page.url == "about:blank"
    assert again.cookies() == []
    assert page.viewport_size == {"width": 360, "height": 640}
    page.goto("/accounts/login/")
    assert page.evaluate("() => [localStorage.length, sessionStorage.length]") == [0, 0]
    again.close()
    again.close()  # the fixture's close after the test's: given back once
    other = browser.new_context(base_url=site_url, **PHONE_EN)
    assert other is context
    another = browser.new_context(base_url=site_url, **PHONE_EN)
    assert another is not context
    other.close()
    another.close()


def test_a_context_the_pool_cannot_reset_is_closed(browser, site_url):
    context = browser.new_context(base_url=site_url, locale="fr")
    page = context.new_page()
    page.on("dialog", lambda dialog: dialog.accept())  # would answer the next test's dialogs
    context.close()
    assert browser.new_context(base_url=site_url, locale="fr") is not context
    context = browser.new_context(base_url=site_url, locale="ar")
    context.add_init_script("window.planted = true")
    context.close()
    assert browser.new_context(base_url=site_url, locale="ar") is not context
    fresh = browser.new_context(base_url=site_url, locale="ar", fresh=True)
    fresh.close()
    assert browser.new_context(base_url=site_url, locale="ar") is not fresh
