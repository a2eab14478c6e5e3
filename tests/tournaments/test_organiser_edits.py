"""The organiser's changes before the start (issue 24): cancel the event, remove an entrant."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from games.core.state import broadcast
from games.tournaments import services
from games.tournaments.errors import Code, TournamentError
from games.tournaments.models import AuditEntry, Entrant, Tournament
from tests.tournaments.helpers import enter, event, refresh, users

pytestmark = pytest.mark.django_db


@pytest.fixture
def sent(monkeypatch):
    """Every notice that leaves after a commit, as ``(user id, kind, payload)``."""
    out: list[tuple[int, str, dict]] = []
    monkeypatch.setattr(broadcast, "send_notices", lambda items: out.extend(items))
    return out


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_organiser_cancels_an_upcoming_event_and_its_players_are_told(
    sent, django_capture_on_commit_callbacks
):
    org, a, b = users("org", "a", "b")
    t = event(org, "swiss", swiss_rounds=3)
    enter(t, [a, b])
    with django_capture_on_commit_callbacks(execute=True):
        response = client_for(org).post(reverse("tournament_cancel", args=[t.pk]))
    assert response.status_code == 302
    t = refresh(t)
    assert t.status == Tournament.Status.CANCELLED and t.finished_at is not None
    entry = t.audit.get(action=AuditEntry.Action.CANCEL)
    assert entry.actor == org and entry.details == {"entrants": 2}
    told = {(user_id, p["news"]) for user_id, kind, p in sent if kind == "tournament_news"}
    assert told == {(a.pk, "cancelled"), (b.pk, "cancelled")}
    page = client_for(org).get(reverse("tournament", args=[t.pk])).content.decode()
    assert 'id="cancel-reason"' not in page and 'id="cancel-button"' not in page


def test_cancel_is_refused_to_others_and_once_started():
    org, a, b = users("org", "a", "b")
    t = event(org, "swiss", swiss_rounds=3)
    enter(t, [a, b])
    with pytest.raises(TournamentError) as error:
        services.cancel(user=a, tournament_id=t.pk)
    assert error.value.code == Code.NOT_ORGANISER
    assert client_for(org).get(reverse("tournament", args=[t.pk])).content.decode().count(
        'id="cancel-button"') == 1
    services.start(user=org, tournament_id=t.pk)
    with pytest.raises(TournamentError) as error:
        services.cancel(user=org, tournament_id=t.pk)
    assert error.value.code == Code.ALREADY_STARTED
    assert refresh(t).status == Tournament.Status.RUNNING
    assert not t.audit.filter(action=AuditEntry.Action.CANCEL).exists()


def test_the_organiser_removes_an_entrant_before_the_start_and_the_player_is_told(
    sent, django_capture_on_commit_callbacks
):
    org, a, b, c = users("org", "a", "b", "c")
    t = event(org, "swiss", swiss_rounds=3)
    ea, eb, ec = enter(t, [a, b, c])
    page = client_for(org).get(reverse("tournament", args=[t.pk])).content.decode()
    assert reverse("tournament_remove_entrant", args=[t.pk, eb.pk]) in page
    with django_capture_on_commit_callbacks(execute=True):
        client_for(org).post(reverse("tournament_remove_entrant", args=[t.pk, eb.pk]))
    assert set(t.entrants.values_list("pk", flat=True)) == {ea.pk, ec.pk}
    entry = t.audit.get(action=AuditEntry.Action.REMOVE)
    assert entry.actor == org and entry.details == {"entrant": "b"}
    told = [(user_id, p["news"]) for user_id, kind, p in sent if kind == "tournament_news"]
    assert told == [(b.pk, "removed")]


def test_removing_is_the_organisers_and_only_before_the_start():
    org, a, b = users("org", "a", "b")
    t = event(org, "swiss", swiss_rounds=3)
    ea, eb = enter(t, [a, b])
    with pytest.raises(TournamentError) as error:
        services.remove_entrant(user=a, entrant_id=eb.pk)
    assert error.value.code == Code.NOT_ORGANISER
    services.start(user=org, tournament_id=t.pk)
    with pytest.raises(TournamentError) as error:
        services.remove_entrant(user=org, entrant_id=eb.pk)
    assert error.value.code == Code.ALREADY_STARTED
    assert Entrant.objects.filter(pk=eb.pk).exists()
    page = client_for(org).get(reverse("tournament", args=[t.pk])).content.decode()
    assert "tournament_remove_entrant" not in page and f"/entrant/{eb.pk}/remove/" not in page


def test_seeds_set_by_hand_are_the_starts_seeds():
    org, a, b, c, d = users("org", "a", "b", "c", "d")
    t = event(org, "knockout")
    ea, eb, ec, ed = enter(t, [a, b, c, d])
    client = client_for(org)
    assert reverse("tournament_seeds", args=[t.pk]) in client.get(reverse("tournament", args=[t.pk])).content.decode()
    client.post(reverse("tournament_seeds", args=[t.pk]),
                {f"seed-{ec.pk}": 1, f"seed-{ea.pk}": 2, f"seed-{ed.pk}": 3, f"seed-{eb.pk}": 4})
    t = refresh(t)
    assert t.seeding == Tournament.Seeding.MANUAL
    assert t.audit.get(action=AuditEntry.Action.SEED).details == {"before": None, "after": "c, a, d, b"}
    late = services.register(user=users("e")[0], tournament_id=t.pk)
    services.start(user=org, tournament_id=t.pk)
    order = list(t.entrants.order_by("seed").values_list("pk", flat=True))
    assert order == [ec.pk, ea.pk, ed.pk, eb.pk, late.pk]


@pytest.mark.parametrize("seeds", [
    {"a": 1, "b": 1, "c": 2},  # repeated
    {"a": 1, "b": 2, "c": 4},  # out of 1..n
    {"a": 1, "b": 2},  # one missing
])
def test_bad_seeds_are_refused_and_change_nothing(seeds):
    org, a, b, c = users("org", "a", "b", "c")
    t = event(org, "swiss", swiss_rounds=3)
    by_name = {e.name: e.pk for e in enter(t, [a, b, c])}
    with pytest.raises(TournamentError) as error:
        services.set_seeds(user=org, tournament_id=t.pk, seeds={by_name[k]: v for k, v in seeds.items()})
    assert error.value.code == Code.BAD_SEEDS
    assert refresh(t).seeding == Tournament.Seeding.RATING
    assert not t.entrants.filter(seed__isnull=False).exists()
    response = client_for(org).post(reverse("tournament_seeds", args=[t.pk]), {f"seed-{by_name['a']}": "x"})
    assert response.status_code == 302 and not t.audit.exists()


def test_seeds_are_the_organisers_and_only_before_the_start():
    org, a, b = users("org", "a", "b")
    t = event(org, "swiss", swiss_rounds=3)
    ea, eb = enter(t, [a, b])
    with pytest.raises(TournamentError) as error:
        services.set_seeds(user=a, tournament_id=t.pk, seeds={ea.pk: 2, eb.pk: 1})
    assert error.value.code == Code.NOT_ORGANISER
    services.start(user=org, tournament_id=t.pk)
    with pytest.raises(TournamentError) as error:
        services.set_seeds(user=org, tournament_id=t.pk, seeds={ea.pk: 2, eb.pk: 1})
    assert error.value.code == Code.ALREADY_STARTED
