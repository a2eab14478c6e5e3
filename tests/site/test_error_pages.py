"""The site's own 404 and 500 pages, translated, when DEBUG is off."""

import pytest
from django.test import RequestFactory
from django.utils import translation
from django.views.defaults import server_error


@pytest.mark.django_db
def test_404_is_the_site_s_page(client, settings):
    settings.DEBUG = False
    response = client.get("/no-such-page/")
    html = response.content.decode()
    assert response.status_code == 404
    assert 'class="site-header"' in html
    assert "Page not found" in html
    assert 'href="/rules/"' in html


@pytest.mark.django_db
def test_404_in_arabic(client, settings):
    settings.DEBUG = False
    response = client.get("/no/such/page/", HTTP_ACCEPT_LANGUAGE="ar")
    html = response.content.decode()
    assert response.status_code == 404
    assert '<html lang="ar" dir="rtl">' in html
    assert "الصفحة غير موجودة" in html
    # A table's own 404 (an unknown id reads as a private table does: games/no_table.html).
    table = client.get("/table/999999/", HTTP_ACCEPT_LANGUAGE="ar")
    assert table.status_code == 404 and "لا توجد طاولة هنا" in table.content.decode()


@pytest.mark.parametrize(
    ("language", "title"), [("en", "Something went wrong"), ("ar", "حدث خطأ")]
)
def test_500_renders_without_the_database_or_a_context(language, title, settings):
    """No ``django_db`` mark: any query would fail the test, as a dead database would."""
    settings.DEBUG = False
    request = RequestFactory().get("/")
    with translation.override(language):
        response = server_error(request)
    html = response.content.decode()
    assert response.status_code == 500
    assert f"<h1>{title}</h1>" in html
    assert f'lang="{language}"' in html


def test_500_from_a_failing_view(client, settings):
    """A view that raises, DEBUG off: the site's 500 page, not Django's bare one."""
    settings.DEBUG = False
    settings.ROOT_URLCONF = "tests.site.failing_urls"
    client.raise_request_exception = False
    response = client.get("/boom/")
    assert response.status_code == 500
    assert "Something went wrong" in response.content.decode()
