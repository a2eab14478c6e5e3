"""The "Play now" page and its POSTs (games/queues/views.py): the page for everyone, JSON for
the page's script, a clear error for bad input, and a flood of joins that leaves one entry."""

from __future__ import annotations

from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.test import Client
from django.utils import timezone

from games.queues import scheduler, services
from games.queues.models import Entry, QueueTable
from tests.core.helpers import VirtualClock, eventually
from tests.queues.helpers import users

pytestmark = pytest.mark.django_db

JSON = {"HTTP_ACCEPT": "application/json"}


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_page_shows_every_queue_to_anyone_and_links_from_the_header_and_lobby():
    page = Client().get("/play/")
    assert page.status_code == 200
    body = page.content.decode()
    for seconds in (10, 20, 30, 60):
        assert f'data-queue="2-{seconds}"' in body and f'data-queue="4-{seconds}"' in body
    assert 'class="nav-play" href="/play/"' in body
    assert 'href="/play/"' in Client().get("/").content.decode()


def test_joining_answers_the_status_and_a_flood_of_joins_leaves_one_entry():
    (a,) = users("a")
    client = logged_in(a)
    for _ in range(20):
        answer = client.post("/play/join/", {"players": "2", "seconds": "10"}, **JSON)
        assert answer.status_code == 200
    assert Entry.objects.filter(user=a).count() == 1
    state = answer.json()
    assert state["mine"]["players"] == 2 and state["mine"]["move_seconds"] == 10
    assert {"players": 2, "move_seconds": 10, "waiting": 1, "playing": 0} in state["queues"]
    assert client.get("/play/status/").json()["mine"]["move_seconds"] == 10


def test_a_forged_time_is_a_clear_error_in_json_and_on_the_page():
    (a,) = users("a")
    client = logged_in(a)
    answer = client.post("/play/join/", {"players": "2", "seconds": "5"}, **JSON)
    assert answer.status_code == 400 and answer.json()["error"] == "bad_queue"
    page = client.post("/play/join/", {"players": "2", "seconds": "5"}, follow=True)
    assert "There is no such queue" in page.content.decode()
    assert not Entry.objects.exists()


def test_leaving_when_not_in_a_queue_answers_the_status():
    (a,) = users("a")
    answer = logged_in(a).post("/play/leave/", **JSON)
    assert answer.status_code == 200 and answer.json()["mine"] is None


def test_posting_needs_a_login_and_a_post():
    assert Client().post("/play/join/", {"players": "2", "seconds": "10"}).status_code == 302
    (a,) = users("a")
    assert logged_in(a).get("/play/join/").status_code != 200  # the site answers a GET here as a 405 does
    assert not Entry.objects.exists()


def test_the_page_says_beforehand_that_the_player_sits_at_a_table_with_the_way_back():
    # Issue 35: the page gave no sign of the running match before "Play now" was refused.
    from games.core import actions

    a, b = users("a", "b")
    client = logged_in(a)
    assert 'id="queues-seated" role="status" hidden' in client.get("/play/").content.decode()
    match = actions.create_table(user=a, players=2, rules={}, rated=False)
    body = client.get("/play/").content.decode()
    assert f"You are seated at table {match.pk}, which waits for its players." in body
    assert f'id="queues-seated-link" href="/table/{match.pk}/"' in body
    actions.join_table(user=b, match_id=match.pk)
    body = client.get("/play/").content.decode()
    assert 'id="queues-seated" role="status" hidden' not in body
    assert f"You are playing at table {match.pk}." in body
    assert client.get("/play/status/").json()["table"] == {
        "match_id": match.pk, "url": f"/table/{match.pk}/", "playing": True}
    arabic = client.get("/play/", HTTP_ACCEPT_LANGUAGE="ar").content.decode()
    assert "Back to the table" not in arabic and f'href="/table/{match.pk}/"' in arabic
    # Nobody else is told: b's page names b's own table, an anonymous page none.
    assert Client().get("/play/status/").json()["table"] is None


def test_joining_while_seated_is_refused_with_the_way_back_to_the_table():
    from games.core import actions

    (a,) = users("a")
    match = actions.create_table(user=a, players=2, rules={}, rated=False)
    answer = logged_in(a).post("/play/join/", {"players": "2", "seconds": "10"}, **JSON)
    assert answer.status_code == 400
    assert answer.json() == {
        "error": "queue_seated", "message": answer.json()["message"],
        "table": {"match_id": match.pk, "url": f"/table/{match.pk}/", "playing": False}}
    assert not Entry.objects.exists()


def test_the_page_is_in_arabic_right_to_left():
    (a,) = users("a")
    client = logged_in(a)
    client.post("/play/join/", {"players": "4", "seconds": "30"})
    body = client.get("/play/", HTTP_ACCEPT_LANGUAGE="ar").content.decode()
    assert 'dir="rtl"' in body
    assert "العب الآن" in body


def test_a_tick_runs_a_due_wave_and_waits_between_waves():
    a, b, c, d = users("a", "b", "c", "d")
    now = timezone.now()
    services.join(user=a, players=2, move_seconds=10, now=now)
    services.join(user=b, players=2, move_seconds=10, now=now)
    assert scheduler.tick(now)["tables"] == 1
    services.join(user=c, players=2, move_seconds=10, now=now)
    services.join(user=d, players=2, move_seconds=10, now=now)
    # One second after the last wave, with fewer than ENOUGH waiting: not yet. Each tick is a
    # call of its own, as after a restart: the last wave's time is in the database.
    assert scheduler.tick(now + timedelta(seconds=1))["waves"] == 0
    assert Entry.objects.count() == 2
    assert scheduler.tick(now + timedelta(seconds=scheduler.WAVE_SECONDS))["tables"] == 1


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_restarted_scheduler_waits_for_the_next_wave():
    # Virtual time: the server ticks every second; the first one runs a wave at 0 s and stops;
    # one started again at 1 s ticks at once, and its wave waits until 3 s, as the first's would.
    clock, start = VirtualClock(), timezone.now()

    def now():
        return start + timedelta(seconds=clock() - 1000.0)

    a, b, c, d = await database_sync_to_async(users)("ra", "rb", "rc", "rd")
    join = database_sync_to_async(services.join)
    tables = database_sync_to_async(QueueTable.objects.count)
    for u in (a, b):
        await join(user=u, players=2, move_seconds=10, now=start)
    stop = scheduler.start_in_server(None, in_process=True, interval=1.0, sleep=clock.sleep, clock=now)
    await eventually(lambda: clock.sleeping() == 1)
    await stop()
    assert await tables() == 1
    for u in (c, d):
        await join(user=u, players=2, move_seconds=10, now=start)
    await clock.advance(1.0)
    stop = scheduler.start_in_server(None, in_process=True, interval=1.0, sleep=clock.sleep, clock=now)
    await eventually(lambda: clock.sleeping() == 1)
    assert await tables() == 1  # it ticked, and the wave waits
    await clock.advance(1.0)
    assert await tables() == 1
    await clock.advance(1.0)  # 3 s after the last wave
    assert await tables() == 2
    await stop()
