"""The lobby's friends online and what each is doing (games/people/doing.py), the friends'
notices (games/people/notices.py) and the pages (games/people/views.py)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.core import actions
from games.core.models import Online, Watcher
from games.people import doing, notices, services
from games.people.models import Notice, Profile
from games.queues import services as queues
from tests.core.helpers import seated_match
from tests.people.helpers import users

pytestmark = [pytest.mark.django_db]


def befriend(a, b) -> None:
    services.follow(user=a, username=b.username)
    services.follow(user=b, username=a.username)


def online(*people) -> None:
    for user in people:
        Online.objects.create(user=user, process="test", seen_at=timezone.now())


def client_of(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_friends_online_say_what_each_is_doing():
    me, player, opponent, watcher, waiter, idle, offline, stranger = users(
        "me", "player", "opponent", "watcher", "waiter", "idle", "offline", "stranger")
    for friend in (player, watcher, waiter, idle, offline):
        befriend(me, friend)
    services.follow(user=me, username="stranger")  # one way: not a friend
    match = seated_match([player, opponent])
    Watcher.objects.create(match=match, channel="c1", user=watcher, last_seen=timezone.now())
    queues.join(user=waiter, players=2, move_seconds=20)
    online(player, watcher, waiter, idle, stranger)
    rows = {f.username: (f.doing, f.match_id) for f in doing.friends_online(me.pk)}
    assert rows == {"player": ("playing", match.pk), "watcher": ("watching", match.pk),
                    "waiter": ("queue", None), "idle": ("", None)}


def test_a_friend_who_hides_or_blocked_is_not_shown():
    me, a, b = users("me", "a", "b")
    befriend(me, a)
    befriend(me, b)
    online(a, b)
    Profile.objects.update_or_create(user=a, defaults={"online": "nobody"})
    services.block(user=b, username="me")
    assert doing.friends_online(me.pk) == []


def test_the_lobby_shows_friends_online_with_one_tap_to_watch_or_challenge():
    me, a, b = users("me", "a", "b")
    befriend(me, a)
    match = seated_match([a, b])
    online(a)
    page = client_of(me).get(reverse("lobby")).content.decode()
    assert 'id="friends-online"' in page and 'data-friend="a"' in page
    assert f'href="/table/{match.pk}/"' in page
    assert page.count("people-challenge") == 0  # playing: watch, not challenge
    Online.objects.all().delete()
    assert 'data-friend="a"' not in client_of(me).get(reverse("lobby")).content.decode()


def test_a_rated_start_tells_the_friends_who_want_it(sent, django_capture_on_commit_callbacks):
    a, b, friend, quiet, other = users("a", "b", "friend", "quiet", "other")
    befriend(a, friend)
    befriend(a, quiet)
    services.follow(user=other, username="a")  # one way
    Profile.objects.update_or_create(user=quiet, defaults={"notify_rated": False})
    with django_capture_on_commit_callbacks(execute=True):
        match = seated_match([a, b], rated=True)
    told = [(u, k, p) for u, k, p in sent if k == "friend_rated"]
    assert [(u, p["friend"], p["match_id"]) for u, _k, p in told] == [(friend.pk, "a", match.pk)]
    assert list(Notice.objects.values_list("user_id", "kind")) == [(friend.pk, "rated")]
    seated_match([a, b])  # casual: nobody told
    assert Notice.objects.count() == 1
    befriend(b, friend)  # a friend of both players hears of their match once
    sent.clear()
    with django_capture_on_commit_callbacks(execute=True):
        seated_match([a, b], rated=True)
    assert [u for u, k, _p in sent if k == "friend_rated"] == [friend.pk]


def test_the_notifications_page_lists_and_marks_read_and_forgets_after_30_days():
    (me,) = users("me")
    now = timezone.now()
    Notice.objects.create(user=me, kind="rated", data={"friend": "x<b>", "match_id": 1, "url": "/table/1/"},
                          created_at=now)
    Notice.objects.create(user=me, kind="rated", data={"friend": "old", "match_id": 2, "url": "/table/2/"},
                          created_at=now - timedelta(days=31))
    client = client_of(me)
    page = client.get(reverse("people_notifications")).content.decode()
    assert "x&lt;b&gt;" in page and "old" not in page and "people-notice unread" in page
    assert notices.unread_count(me.pk) == 1
    assert client.post(reverse("people_notifications")).status_code == 302
    assert notices.unread_count(me.pk) == 0
    assert Notice.objects.count() == 1


def test_follow_and_block_from_the_profile():
    me, a = users("me", "a")
    client = client_of(me)
    assert client.post(reverse("people_follow", args=["a"])).status_code == 302
    assert services.following(me.pk) == {a.pk}
    response = client.post(reverse("people_follow", args=["a"]), HTTP_ACCEPT="application/json")
    assert response.status_code == 400 and response.json()["code"] == "follow_twice"
    client.post(reverse("people_block", args=["a"]))
    assert services.following(me.pk) == set()
    page = client.get(reverse("people_friends")).content.decode()
    assert 'href="/players/a/"' in page
    # Anonymous: to the log-in; a GET changes nothing (the site sends an action link's GET away).
    assert Client().post(reverse("people_follow", args=["a"])).status_code == 302
    client.post(reverse("people_unblock", args=["a"]))
    assert client.get(reverse("people_follow", args=["a"])).status_code in (302, 405)
    assert services.following(me.pk) == set()


def test_entering_a_tournament_tells_the_friends_who_want_it(sent, django_capture_on_commit_callbacks):
    from games.tournaments import services as events

    org, a, friend, quiet = users("org", "a", "friend", "quiet")
    befriend(a, friend)
    befriend(a, quiet)
    Profile.objects.update_or_create(user=quiet, defaults={"notify_tournament": False})
    event = events.create_tournament(user=org, name="Cairo <Swiss>", format="swiss", players=2,
                                     rules={"target": 11}, starts_at=timezone.now() + timedelta(hours=1),
                                     swiss_rounds=3)
    with django_capture_on_commit_callbacks(execute=True):
        events.register(user=a, tournament_id=event.pk)
    told = [(u, p) for u, k, p in sent if k == "friend_tournament"]
    assert told == [(friend.pk, {"friend": "a", "tournament_id": event.pk, "tournament": "Cairo <Swiss>",
                                 "url": f"/tournaments/{event.pk}/"})]
    page = client_of(friend).get(reverse("people_notifications")).content.decode()
    assert "Cairo &lt;Swiss&gt;" in page


def test_the_lobby_offers_no_challenge_to_a_friend_taking_none():
    me, a, b = users("me", "a", "b")
    befriend(me, a)
    befriend(me, b)
    online(a, b)
    Profile.objects.update_or_create(user=a, defaults={"challenges": "nobody"})
    assert [(f.username, f.challengeable) for f in doing.friends_online(me.pk)] == [("a", False), ("b", True)]
    page = client_of(me).get(reverse("lobby")).content.decode()
    assert page.count("people-challenge") == 1 and page.count('class="people-no-challenge"') == 1


def test_challenge_in_one_tap_with_the_lobby_s_defaults():
    """The lobby's "Challenge" is a form that sends the challenge at once (``quick``: the
    lobby's defaults, whatever else is posted) and comes back to the lobby; the profile's
    form stays for other settings."""
    from games.core.models import Challenge

    me, a = users("me", "a")
    befriend(me, a)
    online(a)
    client = client_of(me)
    page = client.get(reverse("lobby")).content.decode()
    action = reverse("challenge_create", args=["a"])
    assert f'action="{action}"' in page and 'name="quick"' in page
    assert 'href="/players/a/#challenge"' in page
    response = client.post(action, {"quick": "1", "next": "/", "client_seed": "s" * 16,
                                    "challenge-mode": "rated", "challenge-target": "31"})
    assert response.status_code == 302 and response["Location"] == "/"
    challenge = Challenge.objects.get(challenger=me, challenged=a)
    assert (challenge.rated, challenge.rules["target"], challenge.move_seconds) == (False, 101, 30)
    assert challenge.challenger_seed == "s" * 16
    again = client.post(action, {"quick": "1", "next": "//evil.example/"}, follow=True)
    assert again.redirect_chain[-1][0] == "/"
    assert "challenge" in [m.message for m in again.context["messages"]][0].lower()


def test_the_friends_online_block_is_drawn_again_from_its_endpoint():
    me, a = users("me", "a")
    befriend(me, a)
    url = reverse("people_friends_online")
    assert 'data-friend="a"' not in client_of(me).get(url).content.decode()
    online(a)
    html = client_of(me).get(url).content.decode()
    assert 'id="friends-online"' in html and 'data-friend="a"' in html and "<html" not in html
    assert Client().get(url).status_code == 403
    lobby = client_of(me).get(reverse("lobby")).content.decode()
    assert f'data-refresh="{url}"' in lobby and "people/friends_online.js" in lobby
