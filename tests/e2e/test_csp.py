"""The site's Content-Security-Policy (``script-src 'self'``, django-csp) in Chromium: pages work
with no inline script or handler, and the browser reports no violation."""

import re

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.pages import SECOND_GROUP, open_lobby, sign_up


pytestmark = [pytest.mark.e2e, pytest.mark.xdist_group(SECOND_GROUP)]


def watch_violations(page: Page) -> list[str]:
    seen: list[str] = []
    page.on("console", lambda message: seen.append(message.text)
            if "Content Security Policy" in message.text else None)
    return seen


def test_the_language_list_and_the_invite_box_work_under_the_policy(new_page):
    page = new_page()
    violations = watch_violations(page)
    sign_up(page, "cspuser")
    open_lobby(page)
    response = page.request.get("/")
    assert "script-src 'self'" in response.headers["content-security-policy"]
    # The header's language list posts its form when a language is chosen (static/site.js).
    page.wait_for_load_state()  # the page's deferred scripts have run (static/site.js)
    page.select_option('select[name="language"]', "ar")
    expect(page.locator("html")).to_have_attribute("lang", "ar")
    page.wait_for_load_state()
    page.select_option('select[name="language"]', "en")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    # A private table's invite box selects its link when focused.
    open_lobby(page)
    page.check('input[name="private"]')
    page.click("#create-table-button")
    page.wait_for_url(re.compile(r"/table/\d+/$"))
    box = page.locator("#invite-url")
    box.focus()
    assert page.evaluate(
        "() => { const b = document.getElementById('invite-url');"
        " return b.selectionStart === 0 && b.selectionEnd === b.value.length && b.value.length > 0; }"
    )
    assert violations == []  # the site's own pages break none of it
    # An inline script, as an injection would add, does not run.
    page.evaluate("""() => { const s = document.createElement('script');
        s.textContent = 'window.injected = true'; document.body.appendChild(s); }""")
    assert page.evaluate("() => window.injected === undefined")
    expect(page.locator("#invite-url")).to_be_visible()  # a moment for the console report
    assert violations and all("script-src" in text for text in violations)


def test_the_api_documentation_renders_from_the_site_s_own_files(new_page, site_url):
    """``/api/docs``: django-ninja's Swagger UI, its script and style served by the site, renders
    the OpenAPI description with no violation of the policy."""
    page = new_page(fresh=True)  # every file fetched, none from the cache
    violations = watch_violations(page)
    outside: list[str] = []
    page.on("request", lambda request: outside.append(request.url)
            if not request.url.startswith((site_url, "data:")) else None)
    page.goto("/api/docs")
    expect(page.locator(".swagger-ui .information-container")).to_be_visible()
    expect(page.locator('[data-path="/api/stream/event"]').first).to_be_attached()
    assert violations == []
    assert outside == []


def test_the_api_documentation_fits_a_phone_and_leads_back_to_the_site(new_page):
    """On a phone the documentation is laid out at the phone's width (a page without a
    viewport is laid out 980 px wide and shrunk), and links back to the lobby in the reader's
    language."""
    page = new_page(viewport={"width": 360, "height": 640}, is_mobile=True, has_touch=True,
                    locale="ar")
    page.goto("/api/docs")
    expect(page.locator(".swagger-ui .information-container")).to_be_visible()
    assert page.evaluate("() => window.innerWidth") == 360
    back = page.locator(".back-to-site a")
    expect(back).to_have_text("العودة إلى الصالة")
    back.click()
    expect(page).to_have_url(re.compile(r"^http://[^/]+/$"))
