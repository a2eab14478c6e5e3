"""A NUL character in a path or query string is the site's 400, never a database error
(basra_site.middleware.NulRefusedMiddleware): PostgreSQL refuses NUL in text."""

from __future__ import annotations

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("address", [
    "/ladder/1v1/?q=%00",
    "/ladder/1v1/?q%00=x",
    "/players/a%00b/",
    "/players/a%00b/matches/",
    "/players/amira/matches/?opponent=%00",
    "/players/amira/vs/x%00/",
])
def test_a_nul_in_the_address_is_a_bad_request(address, caplog):
    response = Client().get(address)
    assert response.status_code == 400
    html = response.content.decode()
    assert 'class="site-header"' in html and "Bad request" in html  # the site's own page
    assert not any(record.exc_info for record in caplog.records)  # no traceback logged


def test_the_bad_request_page_is_in_the_visitors_language():
    response = Client(headers={"accept-language": "ar"}).get("/ladder/1v1/?q=%00")
    assert response.status_code == 400 and "طلب غير صالح" in response.content.decode()


def test_addresses_without_nul_are_served_as_before():
    assert Client().get("/ladder/1v1/?q=amira").status_code == 200


def test_a_body_refused_as_too_large_logs_one_line_and_no_traceback(client, settings,
                                                                     django_user_model):
    import io
    import logging

    client.force_login(django_user_model.objects.create_user("omar"))
    handler = logging.getLogger("django.security").handlers[0]
    out = io.StringIO()
    old = handler.setStream(out)
    try:
        response = client.post("/replay/import/", {"text": "x" * (settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 1)})
    finally:
        handler.setStream(old)
    assert response.status_code == 400
    logged = out.getvalue()
    assert "Request body exceeded" in logged and "Traceback" not in logged
