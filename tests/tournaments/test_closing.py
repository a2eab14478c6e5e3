"""A closing account leaves its events (games/tournaments/registration.py, ``withdraw_closing``,
the answer to ``accounts.closing.account_closing``): an entry in an upcoming event is removed;
in a running event the entrant is withdrawn, its unfinished pairing forfeited and its live table
decided for the opponent."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from accounts.closing import close_account
from games.core.models import Match
from games.tournaments import services
from games.tournaments.models import Entrant
from tests.tournaments.helpers import enter, event, live_games, pairings, refresh, users

pytestmark = pytest.mark.django_db


def test_an_upcoming_events_entry_is_removed():
    org, p1, p2 = users("org", "p1", "p2")
    t = event(org, "round_robin")
    enter(t, [p1, p2])
    close_account(p1, by=p1, reason="owner")
    assert list(Entrant.objects.filter(tournament=t).values_list("user__username", flat=True)) == ["p2"]


def test_in_a_running_event_the_entrant_is_withdrawn_and_its_pairing_forfeited():
    org, *ps = users("org", "p1", "p2", "p3", "p4")
    t = event(org, "round_robin")
    entrants = enter(t, ps)
    services.start(user=org, tournament_id=t.pk)
    quitter = entrants[0]
    (pairing,) = [p for p in pairings(refresh(t), 1) if quitter.pk in (p.a_id, p.b_id)]
    close_account(quitter.user, by=quitter.user, reason="owner")
    quitter.refresh_from_db()
    pairing.refresh_from_db()
    assert quitter.status == Entrant.Status.WITHDRAWN
    assert pairing.finished and pairing.winner_id == (pairing.b_id if pairing.a_id == quitter.pk else pairing.a_id)
    for game in live_games(refresh(t)):
        assert quitter.user_id not in set(game.match.seats.values_list("user_id", flat=True))
    assert not Match.objects.filter(seats__user=quitter.user).exclude(status=Match.Status.FINISHED).exists()


def test_the_closing_page_names_the_events_it_withdraws_from():
    org, p1, p2 = users("org", "p1", "p2")
    t = event(org, "round_robin")
    enter(t, [p1, p2])
    client = Client()
    client.force_login(p1)
    html = client.get(reverse("account_close")).content.decode()
    assert "Closing your account withdraws you from these tournaments:" in html
    assert f'href="{reverse("tournament", args=[t.pk])}"' in html and "not started: your entry is removed." in html
    client.force_login(org)
    assert 'data-closing="tournaments"' not in client.get(reverse("account_close")).content.decode()
