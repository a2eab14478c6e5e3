"""Who may ask for an analysis, how many at once, and analyses whose worker died
(games/replays/jobs.py; issue 12)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.replays import jobs
from games.replays.models import Analysis

pytestmark = pytest.mark.django_db


def url(match) -> str:
    return reverse("replays:match_analysis", kwargs={"match_id": match.pk})


def client_of(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture(autouse=True)
def no_server_runs(settings):
    settings.BASRA_ANALYSIS_IN_SERVER = False  # nothing starts by itself: the tests look at rows


def test_asking_needs_a_login(played):
    response = Client().post(url(played[0]))
    assert response.status_code == 403
    assert response.json()["code"] == "analysis_login_required"
    assert "Log in" in response.json()["message"]
    assert not Analysis.objects.exists()
    # Reading a stored analysis does not.
    assert Client().get(url(played[0])).status_code == 404


def test_a_player_may_have_so_many_analyses_waiting_or_running(played, users, settings):
    settings.BASRA_ANALYSIS_PER_USER = 1
    full, four, resigned = played[:3]
    alice, bob = client_of(users[0]), client_of(users[1])
    assert alice.post(url(full)).status_code == 202
    refused = alice.post(url(four))
    assert refused.status_code == 429
    assert refused.json()["code"] == "too_many_analyses"
    assert "1 analyses" in refused.json()["message"]
    assert not Analysis.objects.filter(match=four).exists()
    # Asking again for the one already waiting costs nothing; another player may ask.
    assert alice.post(url(full)).json()["status"] == "pending"
    assert bob.post(url(four)).status_code == 202
    # One waiting for bob already: alice's request of it is given to her, free.
    assert alice.post(url(four)).json()["status"] == "pending"
    # Once alice's is done she may ask for a new one.
    Analysis.objects.filter(match=full).update(status=Analysis.Status.DONE, result={"plays": [], "players": []})
    assert alice.post(url(resigned)).status_code == 202
    assert Analysis.objects.get(match=resigned).requested_by == users[0]


def test_a_running_analysis_whose_worker_died_fails_and_can_be_asked_again(played, users, settings):
    settings.BASRA_ANALYSIS_STALE_SECONDS = 60
    now = timezone.now()
    full, four = played[:2]
    dead = Analysis.objects.create(match=full, status=Analysis.Status.RUNNING, requested_by=users[0],
                                   started_at=now - timedelta(minutes=5),
                                   beat_at=now - timedelta(seconds=61), done=40, total=480)
    alive = Analysis.objects.create(match=four, status=Analysis.Status.RUNNING, requested_by=users[1],
                                    started_at=now - timedelta(minutes=5),
                                    beat_at=now - timedelta(seconds=30))
    body = Client().get(url(full)).json()  # a page's poll finds it
    assert body["status"] == "failed" and "Ask for it again" in body["error"]
    assert Client().get(url(four)).json()["status"] == "running"
    # The retry button: asked again, it waits for a worker anew.
    response = client_of(users[2]).post(url(full))
    assert response.status_code == 202 and response.json()["status"] == "pending"
    dead.refresh_from_db()
    assert dead.status == Analysis.Status.PENDING and dead.requested_by == users[2]
    # The sweep of the workers' loop (run_analyses) finds the others.
    Analysis.objects.filter(pk=alive.pk).update(beat_at=now - timedelta(seconds=120))
    assert jobs.reap_stale() == 1
    alive.refresh_from_db()
    assert alive.status == Analysis.Status.FAILED and alive.error == Analysis.WORKER_STOPPED


def test_the_worker_beats_while_it_runs(played, users, monkeypatch):
    beats = []

    def fake(record, *, executor=None, progress=None):
        for done in (8, 16):
            progress(done, 16)
            beats.append(Analysis.objects.get(match=played[0]).beat_at)
        return {"plays": [], "players": []}

    monkeypatch.setattr(jobs.analysis, "analyse_record", fake)
    row = jobs.request_analysis(user=users[0], match=played[0])
    assert row.beat_at is None
    assert jobs.run_analysis(row.pk)
    assert all(beats) and beats[0] <= beats[1]
    row.refresh_from_db()
    assert row.status == Analysis.Status.DONE and row.beat_at >= row.started_at
