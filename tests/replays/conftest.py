"""Fixtures of the replays tests: a database of matches played through the live core's actions.

The matches are played once per test process (:func:`_played_rows`, in a transaction rolled
back) and their rows written again into each test's database (:func:`_played`): playing them
cost 1.2-2.8 s of set-up a test, loading them a few milliseconds. What each test finds is what
the actions wrote, row for row. Under pytest-xdist (``make test``) the tests that load them are
one group (:data:`PLAYED_GROUP`), run by one worker, so the run plays them once, not once a
worker (60-80 s each under load).
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.apps import apps
from django.core import serializers
from django.db import transaction

from games.core import actions
from games.core.models import Match
from games.core.state.cache import clear_caches
from tests.core.helpers import play_out, play_turn, seated_match, users_by_seat

NAMES = ("alice", "bob", "carol", "dave")

#: The pytest-xdist group (``--dist loadgroup``) of every test that loads the played matches.
PLAYED_GROUP = "replays-played"


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    """Put every test that loads the played matches (:func:`_played_rows`) in
    :data:`PLAYED_GROUP`, before pytest-xdist's own hook reads the marks."""
    for item in items:
        if "_played_rows" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.xdist_group(PLAYED_GROUP))


def random_choice(seed: int):
    rng = random.Random(seed)
    return lambda hand: rng.choice(sorted(hand))


def play_matches(users: list[Any]) -> list[Match]:
    """Matches played through ``games.core.actions`` and finished every way: two players to the
    default target 101 (several rounds), four players to 31, a resignation in round 1, an abort
    before the first play, and one still being played."""
    full = seated_match(users[:2])
    play_out(full)
    four = seated_match(users[:4], rules={"target": 31})
    play_out(four)
    resigned = seated_match(users[:2], rules={"target": 31})
    choose = random_choice(3)
    for _ in range(20):
        play_turn(resigned, choose)
    actions.resign(user=users_by_seat(resigned)[1], match_id=resigned.pk)
    aborted = seated_match(users[2:4])
    actions.abort_match(user=users[2], match_id=aborted.pk)
    playing = seated_match(users[:2])
    play_turn(playing)
    return [full, four, resigned, aborted, playing]


def _stored_models() -> list:
    return [m for m in apps.get_models() if m._meta.managed and not m._meta.proxy]


@pytest.fixture(scope="session")
def _played_rows(django_db_setup, django_db_blocker) -> tuple[list[dict], list[int], list[int]]:
    """``(rows, user ids, match ids)``: every row the players and :func:`play_matches` wrote
    (Django's "python" serialization), played in a transaction that is rolled back."""
    from django.contrib.auth import get_user_model
    from django.test import Client

    with django_db_blocker.unblock(), transaction.atomic():
        before = {model: set(model._base_manager.values_list("pk", flat=True))
                  for model in _stored_models()}
        users = []
        for name in NAMES:  # as ``make_player`` makes them: no password, logged in
            user = get_user_model().objects.create_user(
                username=name, email=f"{name}@example.com", password=None
            )
            Client().force_login(user)
            users.append(user)
        matches = play_matches(users)
        added = [obj for model in _stored_models()
                 for obj in model._base_manager.exclude(pk__in=before[model]).order_by("pk")]
        rows = serializers.serialize("python", added)
        transaction.set_rollback(True)
    clear_caches()  # the live states of matches that, outside the tests, no longer exist
    return rows, [u.pk for u in users], [m.pk for m in matches]


@pytest.fixture
def _played(_played_rows, db) -> tuple[list[Any], list[Match]]:
    """The played rows written into this test's database: ``(users, matches)``."""
    from django.contrib.auth import get_user_model

    rows, user_ids, match_ids = _played_rows
    by_model: dict = {}
    for item in serializers.deserialize("python", rows):
        by_model.setdefault(type(item.object), []).append(item.object)
    for model, objects in by_model.items():
        model._base_manager.bulk_create(objects)
    users = {u.pk: u for u in get_user_model().objects.filter(pk__in=user_ids)}
    matches = {m.pk: m for m in Match.objects.filter(pk__in=match_ids)}
    return [users[pk] for pk in user_ids], [matches[pk] for pk in match_ids]


@pytest.fixture
def users(_played) -> list[Any]:
    """alice, bob, carol, dave: the players of :func:`played`."""
    return _played[0]


@pytest.fixture
def played(_played) -> list[Match]:
    """The matches of :func:`play_matches`: ``[full, four, resigned, aborted, playing]``."""
    return _played[1]
