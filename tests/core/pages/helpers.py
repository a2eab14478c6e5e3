"""Helpers shared by the tests of the core's pages (and by other tests that post the pages'
forms): the forms' data, a logged-in test client, the configuration a page gives its scripts."""

from __future__ import annotations

import json
import re

from django.test import Client

from games.core import actions
from games.core.models import Match


VALID = {
    "players": "2",
    "target": "101",
    "mode": "casual",
    "majority_points": "30",
    "basra_points": "10",
    "jack_basra_points": "20",
    "seven_diamonds": "wild",
    "move_seconds": "30",
}


def logged_in(user, **kwargs) -> Client:
    client = Client(**kwargs)
    client.force_login(user)
    return client


def config_of(response, element_id: str) -> dict:
    """The json_script block the page scripts read."""
    match = re.search(
        rf'<script id="{element_id}" type="application/json">(.*?)</script>',
        response.content.decode(), re.S,
    )
    assert match, f"no {element_id} on the page"
    return json.loads(match.group(1))


def new_table(user, players=2, **rules) -> Match:
    return actions.create_table(
        user=user, players=players, rules={"players": players, "target": 101, **rules}, rated=False
    )


def computer_data(**fields) -> dict:
    """A "Play the computer" POST (its fields carry the ``computer-`` prefix)."""
    data = {
        "players": "2", "target": "11", "move_seconds": "none", "opponent": "greedy",
        "seat_1": "greedy", "seat_2": "greedy", "seat_3": "greedy", "majority_points": "30",
        "basra_points": "10", "jack_basra_points": "20", "seven_diamonds": "wild", **fields,
    }
    return {f"computer-{name}": value for name, value in data.items()}


#: The lobby's create form for a casual private table of two.
PRIVATE_TABLE_FORM = {
    "players": "2", "target": "101", "mode": "casual", "move_seconds": "30",
    "majority_points": "30", "basra_points": "10", "jack_basra_points": "30",
    "seven_diamonds": "wild", "private": "on",
}
