"""What the tournaments tell their players through the site's notices (games/tournaments/news.py):
each seated player is sent one ``tournament_table`` notice per table the event opens (round
start, next round, arena wave, an aborted match set up again), after the commit; byes, the start
and the end are news; a page opened later is offered the tables still being played."""

from __future__ import annotations

from collections import Counter

import pytest
from django.urls import reverse

from games.core import actions
from games.core.state import notices
from games.tournaments import news, services
from games.tournaments.models import Game
from tests.tournaments.helpers import enter, event, live_games, play_round, refresh, users

pytestmark = pytest.mark.django_db


def of_kind(sent, kind: str) -> list[tuple[int, dict]]:
    return [(user_id, payload) for user_id, k, payload in sent if k == kind]


def seated_ids(game: Game) -> list[int]:
    return list(game.match.seats.values_list("user_id", flat=True))


def test_starting_a_round_sends_each_seated_player_one_notice_after_the_commit(
    sent, django_capture_on_commit_callbacks, settings
):
    """Each seated player is told once, after the commit, of their table: where it is, and how
    long they have to come to it (the core's absence grace, ``noshow.wait``)."""
    settings.BASRA_ABSENT_GRACE_SECONDS = 90
    org, a, b, c, d, e = users("org", "a", "b", "c", "d", "e")
    t = event(org, "swiss", swiss_rounds=2)
    entrants = enter(t, [a, b, c, d, e])
    with django_capture_on_commit_callbacks() as callbacks:
        services.start(user=org, tournament_id=t.pk)
        assert sent == []  # nothing before the commit
    for callback in callbacks:
        callback()
    games = live_games(t)
    assert len(games) == 2
    tables = of_kind(sent, news.TABLE)
    assert Counter(user_id for user_id, _ in tables) == Counter(
        user_id for g in games for user_id in seated_ids(g)
    )
    assert len(tables) == 4  # one each
    for game in games:
        for user_id in seated_ids(game):
            (payload,) = [p for u, p in tables if u == user_id]
            assert payload == {
                "match_id": game.match_id,
                "url": reverse("table", args=[game.match_id]),
                "tournament_id": t.pk,
                "event": t.name,
                "event_url": reverse("tournament", args=[t.pk]),
                "round": 1,
                "game": 1,
                "wait_seconds": 90,
            }
    # The fifth has a bye, and is told so; every entrant is told the event started.
    (bye,) = of_kind(sent, "tournament_news")[len(entrants):]
    seated = {u for g in games for u in seated_ids(g)}
    (odd,) = {x.pk for x in (a, b, c, d, e)} - seated
    assert bye[0] == odd and bye[1]["news"] == "bye" and bye[1]["round"] == 1
    started = of_kind(sent, news.NEWS)[: len(entrants)]
    assert sorted(u for u, _ in started) == sorted(x.pk for x in (a, b, c, d, e))
    assert {p["news"] for _, p in started} == {"started"}


def test_a_refused_start_sends_nothing(sent, django_capture_on_commit_callbacks):
    org, a = users("org", "a")
    t = event(org, "round_robin")
    enter(t, [a])
    with django_capture_on_commit_callbacks(execute=True):
        with pytest.raises(services.TournamentError):
            services.start(user=org, tournament_id=t.pk)
    assert sent == []


def test_the_next_round_and_the_end_are_told(sent, django_capture_on_commit_callbacks):
    org, a, b, c, d = users("org", "a", "b", "c", "d")
    t = event(org, "round_robin")
    enter(t, [a, b, c, d])
    services.start(user=org, tournament_id=t.pk)
    first = live_games(t)
    with django_capture_on_commit_callbacks(execute=True):
        play_round(t)
    second = live_games(t)
    assert second and {g.pk for g in second}.isdisjoint(g.pk for g in first)
    tables = of_kind(sent, news.TABLE)
    assert sorted(u for u, _ in tables) == sorted(u for g in second for u in seated_ids(g))
    assert {p["round"] for _, p in tables} == {2}
    # The finished tables no longer wait for their players.
    over = of_kind(sent, news.TABLE_OVER)
    assert sorted((u, p["match_id"]) for u, p in over) == sorted(
        (u, g.match_id) for g in first for u in seated_ids(g)
    )
    sent.clear()
    with django_capture_on_commit_callbacks(execute=True):
        while live_games(t):
            play_round(t)
    assert refresh(t).status == t.Status.FINISHED
    finished = [(u, p) for u, p in of_kind(sent, news.NEWS) if p["news"] == "finished"]
    assert sorted(u for u, _ in finished) == sorted(x.pk for x in (a, b, c, d))


def test_an_arena_wave_and_an_aborted_match_set_up_again_are_told(sent, django_capture_on_commit_callbacks):
    org, a, b = users("org", "a", "b")
    t = event(org, "arena", arena_minutes=30)
    enter(t, [a, b])
    with django_capture_on_commit_callbacks(execute=True):
        services.start(user=org, tournament_id=t.pk)
    (game,) = live_games(t)
    tables = of_kind(sent, news.TABLE)
    assert sorted(u for u, _ in tables) == sorted([a.pk, b.pk])
    assert tables[0][1]["round"] is None  # an arena has no rounds
    sent.clear()
    seat0 = game.match.seats.get(seat=0).user
    with django_capture_on_commit_callbacks(execute=True):
        actions.abort_match(user=seat0, match_id=game.match_id)
    assert not of_kind(sent, news.TABLE)  # the ending opens no table
    with django_capture_on_commit_callbacks(execute=True):
        services.catch_up(t.pk)  # the step after the ending's commit
    (again,) = live_games(t)
    assert again.pk != game.pk
    tables = of_kind(sent, news.TABLE)
    assert sorted(u for u, _ in tables) == sorted([a.pk, b.pk])
    assert {p["match_id"] for _, p in tables} == {again.match_id} and tables[0][1]["game"] == 2


def test_a_forfeit_tells_the_table_no_longer_counts(sent, django_capture_on_commit_callbacks):
    org, a, b = users("org", "a", "b")
    t = event(org, "round_robin")
    ea, eb = enter(t, [a, b])
    services.start(user=org, tournament_id=t.pk)
    (game,) = live_games(t)
    with django_capture_on_commit_callbacks(execute=True):
        services.record_forfeit(user=org, pairing_id=game.pairing_id, winner_id=ea.pk)
    over = of_kind(sent, news.TABLE_OVER)
    assert sorted(u for u, _ in over) == sorted([a.pk, b.pk])
    assert {p["match_id"] for _, p in over} == {game.match_id}


def test_the_pending_provider_offers_the_tables_being_played():
    org, a, b, c = users("org", "a", "b", "c")
    t = event(org, "round_robin")
    enter(t, [a, b])
    assert news.pending_tables(a) == []
    services.start(user=org, tournament_id=t.pk)
    (game,) = live_games(t)
    for player in (a, b):
        # Registered with the core's notices (TournamentsConfig.ready).
        assert {"kind": news.TABLE, "payload": news.table_payload(t, game.pairing, game)} in notices.pending(player)
        ((kind, payload),) = news.pending_tables(player)
        assert kind == "tournament_table" and payload["match_id"] == game.match_id
        assert payload["url"] == reverse("table", args=[game.match_id]) and payload["event"] == t.name
    assert news.pending_tables(c) == []
    actions.resign(user=b, match_id=game.match_id)
    assert news.pending_tables(a) == [] and news.pending_tables(b) == []
