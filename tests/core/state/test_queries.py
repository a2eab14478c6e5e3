"""The compiled reads (``games.core.state.queries``) give what the ORM gives, on SQLite and PostgreSQL."""

from __future__ import annotations

import threading

import pytest
from django.db import connection, connections

from games.core import actions
from games.core.models import Match, Seat
from games.core.state import queries
from tests.core.helpers import play_turn, seated_match

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.live]


def _fields(match: Match) -> dict:
    return {f.attname: getattr(match, f.attname) for f in Match._meta.concrete_fields}


def test_a_match_row_is_the_orms(make_player):
    alice, bob = make_player("alice"), make_player("bob")
    match = seated_match([alice.user, bob.user], rules={"target": 61})
    play_turn(match)  # scores, a deadline, a seq past the start
    Match.objects.filter(pk=match.pk).update(watchers=Match.Watchers.REGISTERED)
    read = queries.match_row(match.pk)
    orm = Match.objects.get(pk=match.pk)
    assert _fields(read) == _fields(orm)
    assert read.rules["target"] == 61 and isinstance(read.scores, list)
    assert read.deadline is not None and read.deadline.tzinfo is not None
    assert read._state.adding is False and read._state.db == "default"
    assert queries.match_row(match.pk + 1000) is None


def test_an_open_tables_row_with_empty_fields(make_player):
    alice = make_player("alice")
    match = actions.create_table(user=alice.user, players=4, rules={}, rated=False)
    assert _fields(queries.match_row(match.pk)) == _fields(Match.objects.get(pk=match.pk))


def test_seat_values_are_the_orms(make_player):
    alice, bob = make_player("alice"), make_player("bob")
    match = actions.create_table(user=alice.user, players=2, rules={}, rated=False,
                                 bots={1: "greedy"})
    other = seated_match([alice.user, bob.user])
    for table in (match, other):
        orm = Seat.objects.filter(match_id=table.pk).order_by("seat").values_list(
            *queries.SEAT_COLUMNS
        )
        assert queries.seat_values(table.pk) == [list(row) for row in orm]
    assert queries.seat_values(other.pk)[1][2] == "bob"
    assert queries.seat_values(match.pk)[1][:4] == [1, None, None, "greedy"]


@pytest.mark.skipif(connection.vendor == "sqlite", reason="in-memory SQLite: one connection")
def test_each_thread_runs_it_on_its_own_connection(make_player):
    alice, bob = make_player("alice"), make_player("bob")
    match = seated_match([alice.user, bob.user])
    queries.match_row(match.pk)  # compiled on this thread's connection
    found = {}

    def elsewhere() -> None:
        try:
            found["row"] = queries.match_row(match.pk)
            found["connection"] = connections["default"]
        finally:
            connections.close_all()

    thread = threading.Thread(target=elsewhere)
    thread.start()
    thread.join()
    assert found["row"].pk == match.pk and found["connection"] is not connections["default"]
    assert queries.match_row(match.pk).pk == match.pk  # this thread's kept one still runs
