"""A player in two events at once (games/tournaments/busy.py): a fresh organiser saw a player
seated at tables of two events at the same time, one of them played out by timeouts. A player
sits at one tournament table at a time: a round's table waits until its players are free (the
pairing that waited longest first), an arena leaves them out of its waves, and registering for
an event whose time overlaps another of the player's says so."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db.models import Q
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.core import actions
from games.core.models import Seat
from games.tournaments import busy, services
from games.tournaments.models import Pairing, Tournament
from tests.tournaments.helpers import enter, event, live_games, refresh, resign_for, users

pytestmark = pytest.mark.django_db


def seated_now(user) -> list[int]:
    """The tournament tables ``user`` sits at that are being played."""
    return list(
        Seat.objects.filter(user=user, match__status="playing", match__tournament_game__isnull=False)
        .values_list("match_id", flat=True)
    )


def lose(t: Tournament, user) -> None:
    """``user``'s side resigns its live game in ``t``."""
    (game,) = [g for g in live_games(t) if user.pk in (g.pairing.a.user_id, g.pairing.b.user_id)]
    loser = game.pairing.a if game.pairing.a.user_id == user.pk else game.pairing.b
    resign_for(loser, game)


def test_a_round_waits_for_a_player_seated_in_another_event_and_opens_when_free():
    org, p, q, r = users("org", "p", "q", "r")
    first = event(org, "round_robin")
    enter(first, [p, q])
    second = event(org, "round_robin")
    enter(second, [p, r])
    services.start(user=org, tournament_id=first.pk)
    assert len(seated_now(p)) == 1
    services.start(user=org, tournament_id=second.pk)
    # The second event's pairing is made, but its table waits: p is at the first one's.
    (waiting,) = Pairing.objects.filter(tournament=second)
    assert not waiting.finished and live_games(second) == [] and len(seated_now(p)) == 1
    assert busy.engaged([p.pk, r.pk], tournament_id=second.pk, pairing_id=waiting.pk) == {p.pk: refresh(first)}
    assert services.tick()["tables"] == 0  # still seated there
    page = Client().get(reverse("tournament", args=[second.pk])).content.decode()
    assert "The table opens when p is free (busy in round_robin test)." in page
    assert 'class="tag busy-elsewhere"' in page
    lose(first, q)
    assert refresh(first).status == Tournament.Status.FINISHED
    assert services.tick()["tables"] == 1
    (game,) = live_games(second)
    assert game.pairing_id == waiting.pk and len(seated_now(p)) == 1


def test_the_event_playing_a_player_does_not_call_them_busy_in_the_event_waiting_for_them():
    """Two events started together: the first seats p, the second's pairing waits for p. The
    first event's page called p "busy in" the second (its waiting pairing) while the second's
    said its table opens when p is free of the first: now only the second says so."""
    org, p, q, r = users("org", "p", "q", "r")
    first, second = event(org, "round_robin"), event(org, "round_robin")
    enter(first, [p, q])
    enter(second, [p, r])
    services.start(user=org, tournament_id=first.pk)
    services.start(user=org, tournament_id=second.pk)
    assert len(seated_now(p)) == 1 and live_games(second) == []
    playing = Client().get(reverse("tournament", args=[first.pk])).content.decode()
    waiting = Client().get(reverse("tournament", args=[second.pk])).content.decode()
    assert 'class="tag busy-elsewhere"' not in playing
    assert 'class="tag busy-elsewhere"' in waiting
    assert busy.engaged_entrants(refresh(first), first.entrants.all()) == {}


def test_the_pairing_that_waited_longest_gets_the_player_first():
    """p's match ends a round of the first event, which pairs its next round at once: the
    second event's pairing, waiting for p since before, still gets p first."""
    org, p, q, s, u, r = users("org", "p", "q", "s", "u", "r")
    first = event(org, "round_robin")
    enter(first, [p, q, s, u])
    second = event(org, "round_robin")
    enter(second, [p, r])
    services.start(user=org, tournament_id=first.pk)
    services.start(user=org, tournament_id=second.pk)
    assert live_games(second) == []
    others = [g for g in live_games(first) if p.pk not in (g.pairing.a.user_id, g.pairing.b.user_id)]
    for game in others:
        resign_for(game.pairing.b, game)
    lose(first, p)  # the last match of round 1: round 2 is paired right after its commit
    assert refresh(first).current_round == 2
    mine = Pairing.objects.get(Q(a__user=p) | Q(b__user=p), tournament=first, round__number=2)
    assert not mine.games.exists() and seated_now(p) == []  # it yields to the older pairing
    services.tick()
    (game,) = live_games(second)
    assert seated_now(p) == [game.match_id]
    assert not mine.games.exists()
    resign_for(game.pairing.b if game.pairing.b.user == r else game.pairing.a, game)
    services.tick()
    assert mine.games.count() == 1 and len(seated_now(p)) == 1


def test_an_arena_leaves_a_player_seated_elsewhere_out_until_free():
    org, p, r, *others = users("org", "p", "r", "a1", "a2", "a3")
    match_play = event(org, "round_robin")
    enter(match_play, [p, r])
    arena = event(org, "arena", arena_minutes=60)
    enter(arena, [p, *others])
    services.start(user=org, tournament_id=match_play.pk)
    services.start(user=org, tournament_id=arena.pk)
    (game,) = live_games(arena)  # a1, a2, a3 wait: one pair; p is at the other event's table
    assert p.pk not in (game.pairing.a.user_id, game.pairing.b.user_id)
    services.tick()
    assert len(live_games(arena)) == 1 and len(seated_now(p)) == 1
    lose(match_play, r)
    services.tick()  # p is free: paired with the one left waiting
    games = live_games(arena)
    assert len(games) == 2 and any(p.pk in (g.pairing.a.user_id, g.pairing.b.user_id) for g in games)
    assert len(seated_now(p)) == 1


def test_a_player_at_an_arena_table_waits_before_a_round_events_table_opens():
    org, p, q, r = users("org", "p", "q", "r")
    arena = event(org, "arena", arena_minutes=60)
    enter(arena, [p, q])
    rr = event(org, "round_robin")
    enter(rr, [p, r])
    services.start(user=org, tournament_id=arena.pk)
    services.start(user=org, tournament_id=rr.pk)
    assert live_games(rr) == [] and len(seated_now(p)) == 1
    # The arena's match ends; the arena would pair p and q again at once, but the round
    # robin's pairing has waited for p since before: it is p's next table.
    lose(arena, q)
    assert seated_now(p) == []
    services.tick()
    (game,) = live_games(rr)
    assert seated_now(p) == [game.match_id] and len(live_games(arena)) == 0


def test_clashes_are_the_players_other_events_whose_expected_time_overlaps():
    org, p, q = users("org", "p", "q")
    now = timezone.now()
    evening = event(org, "swiss", swiss_rounds=3, starts_in=60)  # about 90 minutes
    enter(evening, [p])
    overlapping = event(org, "arena", arena_minutes=60, starts_in=120)
    after = event(org, "arena", arena_minutes=60, starts_in=60 + 3 * busy.ROUND_MINUTES + 1)
    week = event(org, "round_robin", starts_in=7 * 24 * 60)
    assert busy.clashes(overlapping, [p], now) == [evening]
    assert busy.clashes(after, [p], now) == []
    assert busy.clashes(week, [p], now) == []
    assert busy.clashes(overlapping, [q], now) == []
    # A partner's events count too; a withdrawn entry does not.
    assert busy.clashes(overlapping, [q, p], now) == [evening]
    services.withdraw(user=p, tournament_id=evening.pk)
    assert busy.clashes(overlapping, [p], now) == []


def test_a_running_event_overlaps_whatever_starts_before_its_last_round_could_end():
    org, p, q, r = users("org", "p", "q", "r")
    running = event(org, "round_robin")
    enter(running, [p, q])
    services.start(user=org, tournament_id=running.pk)
    soon = event(org, "round_robin", starts_in=10)
    assert busy.clashes(soon, [p]) == [refresh(running)]
    t = refresh(running)
    start, end = busy.expected_window(t, timezone.now() + timedelta(hours=5))
    assert end >= timezone.now() + timedelta(hours=5)  # still running: not over yet


def test_registering_for_an_overlapping_event_warns_before_and_after_the_click():
    org, p = users("org", "p")
    first = event(org, "arena", arena_minutes=90, starts_in=30)
    enter(first, [p])
    second = event(org, "arena", arena_minutes=30, starts_in=60)
    client = Client()
    client.force_login(p)
    page = client.get(reverse("tournament", args=[second.pk])).content.decode()
    assert 'id="overlap-warning"' in page and "arena test" in page
    assert page.index('id="overlap-warning"') < page.index('id="register-button"')
    after = client.post(reverse("tournament_register", args=[second.pk]), follow=True).content.decode()
    assert "You are registered." in after and "overlaps arena test" in after
    # Registration is not refused: the tables wait for the player instead.
    assert second.entrants.filter(user=p).exists()
    calm = event(org, "arena", arena_minutes=30, starts_in=24 * 60)
    page = client.get(reverse("tournament", args=[calm.pk])).content.decode()
    assert 'id="overlap-warning"' not in page


def test_a_casual_table_does_not_hold_up_a_tournament_table():
    """Only tournament tables count: a player at a casual table is paired as before (their
    choice to play it)."""
    org, p, q, x = users("org", "p", "q", "x")
    casual = actions.create_table(user=p, players=2, rules={"target": 11}, rated=False)
    actions.join_table(user=x, match_id=casual.pk, seat=1)
    t = event(org, "round_robin")
    enter(t, [p, q])
    services.start(user=org, tournament_id=t.pk)
    assert len(live_games(t)) == 1


def test_an_invited_partner_is_warned_before_and_after_accepting():
    org, a, b, c = users("org", "a", "b", "c")
    first = event(org, "arena", arena_minutes=90, starts_in=30)
    enter(first, [b])
    pairs = event(org, "arena", players=4, arena_minutes=30, starts_in=60)
    e = services.register(user=a, tournament_id=pairs.pk, partner=b)
    client = Client()
    client.force_login(b)
    page = client.get(reverse("tournament", args=[pairs.pk])).content.decode()
    assert "overlaps arena test" in page and reverse("tournament_accept", args=[pairs.pk, e.pk]) in page
    after = client.post(reverse("tournament_accept", args=[pairs.pk, e.pk]), follow=True).content.decode()
    assert "You are registered with your partner." in after and "overlaps arena test" in after
