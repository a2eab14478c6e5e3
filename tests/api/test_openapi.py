"""The OpenAPI 3.1 description the site serves names every path of ``../shared/API.md`` that
the site has, and its bearer scheme; the documentation page uses the site's own files."""

from __future__ import annotations

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db

#: API.md's paths (puzzles aside: the site has none yet), as django-ninja writes them.
CONTRACT = {
    ("get", "/api/account"), ("post", "/api/bot/account/upgrade"),
    ("get", "/api/user/{username}"), ("get", "/api/games/user/{username}"),
    ("get", "/api/match/{match_id}/record"), ("get", "/api/tournament/{tournament_id}"),
    ("get", "/api/stream/event"), ("post", "/api/challenge/{username}"),
    ("post", "/api/challenge/{challenge_id}/accept"), ("post", "/api/challenge/{challenge_id}/decline"),
    ("post", "/api/challenge/{challenge_id}/cancel"), ("post", "/api/challenge/ai"),
    *((method, f"/api/{family}/{path}") for family in ("bot", "board") for method, path in (
        ("get", "game/stream/{match_id}"), ("post", "game/{match_id}/play/{card}"),
        ("post", "game/{match_id}/resign"), ("post", "game/{match_id}/chat"),
    )),
    *(("post", f"/api/rel/{name}/{{username}}") for name in ("follow", "unfollow", "block", "unblock")),
    ("get", "/api/rel/following"),
}


def test_the_description_is_openapi_3_1_with_every_path_of_the_contract():
    spec = Client().get("/api/openapi.json").json()
    assert spec["openapi"].startswith("3.1")
    served = {(method, path) for path, item in spec["paths"].items() for method in item}
    assert CONTRACT <= served, CONTRACT - served
    assert spec["components"]["securitySchemes"]["TokenAuth"]["scheme"] == "bearer"
    assert "Rate limits" in spec["info"]["description"]


def test_the_documentation_page_loads_only_the_site_s_files():
    page = Client().get("/api/docs").content.decode()
    assert "/static/ninja/swagger-ui-bundle.js" in page
    assert "cdn" not in page.lower() and "<script>" not in page
