"""The service worker in Chromium (``basra_site/install.py``, ``static/install.js``): once it
controls the site, a page opened offline is the offline page in the reader's language, never a
table from a cache; back online, the same address is the live table again; a language switch
keeps the same worker (a worker per language made the switch install a new one while the next
page loaded, holding that page's navigation) and its offline page is in the new language.

The table is seeded (``tests/e2e/seed.py table``, a signed-in session set as the cookie); the
network is cut with Playwright's ``BrowserContext.set_offline``, which Chromium applies to the
worker's own fetches too.
"""

import json
import uuid

import pytest
from playwright.sync_api import expect
from tests.e2e.pages import SECOND_GROUP, wait_until

pytestmark = [pytest.mark.e2e, pytest.mark.xdist_group(SECOND_GROUP)]

#: Whether the worker has kept ``code`` as the reader's language: each page tells it its own once
#: the worker is ready (``static/install.js``), and it keeps it in its cache, which the page can
#: read too (one CacheStorage per origin).
KEPT_LANGUAGE = """async (code) => {
    const kept = await caches.match("/offline/language");
    return kept !== undefined && (await kept.json()).language === code;
}"""


def test_offline_a_page_is_the_offline_page_and_online_the_table_is_live(browser, site_url, seed):
    tag = uuid.uuid4().hex[:6]
    table = json.loads(seed("table", 2, 1, f"sw_a_{tag}", f"sw_b_{tag}"))
    context = browser.new_context(base_url=site_url, viewport={"width": 390, "height": 844},
                                  service_workers="allow")
    try:
        host = site_url.split("//")[1].split(":")[0]
        context.add_cookies([
            {"name": "sessionid", "value": table["sessions"][0], "domain": host, "path": "/"},
            {"name": "django_language", "value": "ar", "domain": host, "path": "/"},
        ])
        page = context.new_page()
        address = f"/table/{table['match']}/"
        page.goto(address)
        expect(page.locator("#live-status")).to_have_attribute("data-state", "live")
        # The worker registers after the page's load and claims the page once it is active.
        wait_until(page, "() => navigator.serviceWorker.controller !== null")
        worker = page.evaluate("() => navigator.serviceWorker.controller.scriptURL")
        assert worker == f"{site_url}/sw.js"
        wait_until(page, KEPT_LANGUAGE, arg="ar")
        # Chromium's own verdict on the manifest, its icons and the worker (DevTools protocol).
        devtools = context.new_cdp_session(page)
        manifest = devtools.send("Page.getAppManifest")
        assert manifest["url"].endswith("/manifest.webmanifest") and not manifest["errors"]
        errors = devtools.send("Page.getInstallabilityErrors")["installabilityErrors"]
        # A Playwright context is an incognito profile, where nothing installs: that one is ours.
        assert [e["errorId"] for e in errors if e["errorId"] != "in-incognito"] == []

        context.set_offline(True)
        page.goto(address)
        expect(page.locator("#offline-page h1")).to_have_text("أنت غير متصل بالإنترنت")
        expect(page.locator("html")).to_have_attribute("dir", "rtl")
        # Nothing of the table was kept to be shown as if live.
        expect(page.locator("#hand")).to_have_count(0)
        expect(page.locator("#live-status")).to_have_count(0)
        # The page's style sheet came from the worker's cache too.
        assert page.evaluate("() => document.styleSheets[0].cssRules.length") > 0
        page.goto("/")  # any page, not only one seen before
        expect(page.locator("#offline-page")).to_be_visible()

        context.set_offline(False)
        page.goto(address)
        expect(page.locator("#live-status")).to_have_attribute("data-state", "live")
        expect(page.locator("#hand .card").first).to_be_visible()
        expect(page.locator("#offline-page")).to_have_count(0)

        # In English now: the same worker, nothing installing, and the offline page in English.
        page.evaluate("() => { document.cookie = 'django_language=en; path=/'; }")
        page.reload()
        expect(page.locator("html")).to_have_attribute("lang", "en")
        assert page.evaluate("""async () => {
            const registration = await navigator.serviceWorker.ready;
            return [registration.active.scriptURL, registration.installing, registration.waiting,
                    navigator.serviceWorker.controller.scriptURL];
        }""") == [worker, None, None, worker]
        wait_until(page, KEPT_LANGUAGE, arg="en")
        # Where the worker cannot read the language cookie, the page opened last's language: a
        # page opened before telling its language late (two pages' messages come in either
        # order) changes nothing.
        worker = next(w for w in context.service_workers if w.url == f"{site_url}/sw.js")
        assert worker.evaluate("""async () => {
            const later = Date.now() + 1e9;
            await rememberLanguage("en", later);
            await rememberLanguage("ar", later - 1000);
            const kept = await (await caches.match(LANGUAGE_KEY)).json();
            return [chosen.language, kept.language];
        }""") == ["en", "en"]
        context.set_offline(True)
        page.goto("/rules/")
        expect(page.locator("#offline-page h1")).to_have_text("You are offline")
        expect(page.locator("html")).to_have_attribute("dir", "ltr")
    finally:
        context.close()
