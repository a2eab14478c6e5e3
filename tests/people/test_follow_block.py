"""Follows, friends and blocks (games/people/services.py) and the app's answer to the core's
question about two people (games/people/relations.py): every rule, every refusal."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from games.core import actions, relations
from games.core.errors import GameError
from games.core.models import Challenge
from games.core.state import notices as core_notices
from games.people import services
from games.people.errors import PeopleError
from games.people.models import Block, Follow, Profile
from games.queues import services as queues
from tests.people.helpers import users

pytestmark = [pytest.mark.django_db]


def refused(code: str, call, **kwargs) -> None:
    before = (Follow.objects.count(), Block.objects.count())
    with pytest.raises(PeopleError) as info:
        call(**kwargs)
    assert info.value.code == code and info.value.message
    assert (Follow.objects.count(), Block.objects.count()) == before


def test_following_both_ways_makes_friends():
    a, b = users("a", "b")
    assert services.follow(user=a, username="b") is False
    assert services.following(a.pk) == {b.pk} and services.followers(b.pk) == {a.pk}
    assert services.friends_of(a.pk) == set()
    assert services.follow(user=b, username="a") is True
    assert services.friends_of(a.pk) == {b.pk} and services.friends_of(b.pk) == {a.pk}
    services.unfollow(user=b, username="a")
    assert services.friends_of(a.pk) == set()


def test_bad_follows_are_refused_and_change_nothing(settings, monkeypatch):
    a, b, closed = users("a", "b", "closed")
    closed.is_active = False
    closed.save()
    refused("follow_self", services.follow, user=a, username="a")
    refused("people_no_such_player", services.follow, user=a, username="nobody")
    refused("people_no_such_player", services.follow, user=a, username="closed")
    refused("people_no_such_player", services.follow, user=a, username="b\x00")
    services.follow(user=a, username="b")
    refused("follow_twice", services.follow, user=a, username="b")
    refused("not_following", services.unfollow, user=b, username="a")
    monkeypatch.setattr("games.people.services.MAX_FOLLOWS", 1)
    users("c")
    refused("follow_limit", services.follow, user=a, username="c")


def test_the_follow_limit_is_400():
    a, *others = users("a", *(f"p{i}" for i in range(401)))
    Follow.objects.bulk_create([Follow(follower=a, followed=o) for o in others[:400]])
    refused("follow_limit", services.follow, user=a, username="p400")


def test_a_block_removes_the_follows_and_is_refused_when_bad(monkeypatch):
    a, b, closed = users("a", "b", "closed")
    closed.is_active = False
    closed.save()
    services.follow(user=a, username="b")
    services.follow(user=b, username="a")
    services.block(user=a, username="b")
    assert not Follow.objects.exists() and services.friends_of(a.pk) == set()
    refused("block_self", services.block, user=a, username="a")
    refused("block_twice", services.block, user=a, username="b")
    refused("people_no_such_player", services.block, user=a, username="closed")
    refused("follow_blocked", services.follow, user=a, username="b")
    monkeypatch.setattr("games.people.services.MAX_BLOCKS", 1)
    users("c")
    refused("block_limit", services.block, user=a, username="c")
    services.unblock(user=a, username="b")
    refused("not_blocked", services.unblock, user=a, username="b")


def test_the_block_limit_is_500():
    a, *others = users("a", *(f"p{i}" for i in range(501)))
    Block.objects.bulk_create([Block(blocker=a, blocked=o) for o in others[:500]])
    refused("block_limit", services.block, user=a, username="p500")


def test_a_blocked_players_follow_is_taken_as_any_but_counts_for_nothing():
    a, b = users("a", "b")
    services.block(user=a, username="b")
    assert services.follow(user=b, username="a") is False  # no hint: as any follow
    assert services.following(b.pk) == {a.pk}
    assert services.followers(a.pk) == set()
    assert services.relation(a, b.pk)["follows_me"] is False


def test_the_answer_to_the_core_question():
    a, b, c = users("a", "b", "c")
    assert relations.barriers("challenge", {a.pk}, {b.pk}) == {}
    services.block(user=b, username="a")
    for kind in ("challenge", "rematch", "phrase", "see_online"):
        assert relations.barred(kind, a.pk, (b.pk, c.pk)) == {b.pk: relations.SILENT}
        assert relations.barred(kind, b.pk, (a.pk,)) == {}  # the blocker is not kept away
    # The queues keep both apart, whichever blocked.
    assert queues.blocked_for((b.pk,), (a.pk, c.pk)) == {a.pk}
    assert queues.blocked_for((a.pk,), (b.pk, c.pk)) == {b.pk}


def test_who_may_challenge_and_who_may_see_online():
    a, b, c = users("a", "b", "c")
    Profile.objects.create(user=b, challenges="friends", online="friends")
    Profile.objects.create(user=c, challenges="nobody", online="nobody")
    assert relations.barred("challenge", a.pk, (b.pk, c.pk)) == {b.pk: relations.REFUSED, c.pk: relations.REFUSED}
    assert relations.barred("see_online", a.pk, (b.pk, c.pk)) == {b.pk: relations.SILENT, c.pk: relations.SILENT}
    services.follow(user=a, username="b")
    assert b.pk in relations.barred("challenge", a.pk, (b.pk,))  # one way is not friends
    services.follow(user=b, username="a")
    assert relations.barred("challenge", a.pk, (b.pk,)) == {}
    assert relations.barred("see_online", a.pk, (b.pk,)) == {}
    services.follow(user=a, username="c")
    services.follow(user=c, username="a")
    assert relations.barred("challenge", a.pk, (c.pk,)) == {c.pk: relations.REFUSED}


def test_a_blocked_player_s_challenge_never_reaches_the_blocker(sent, django_capture_on_commit_callbacks):
    a, b = users("a", "b")
    services.block(user=b, username="a")
    with django_capture_on_commit_callbacks(execute=True):
        made = actions.create_challenge(user=a, username="b", rules={"target": 61}, rated=False, move_seconds=20)
    assert made.status == Challenge.Status.PENDING
    assert [(u, k) for u, k, _p in sent] == [(a.pk, "challenge_sent")]
    assert core_notices.pending(b) == []


def test_a_challenge_to_someone_taking_none_is_refused_openly():
    a, b = users("a", "b")
    Profile.objects.create(user=b, challenges="nobody")
    with pytest.raises(GameError) as info:
        actions.create_challenge(user=a, username="b", rules={"target": 61}, rated=False, move_seconds=20)
    assert info.value.code == "challenge_not_accepted"
    assert not Challenge.objects.exists()


def test_a_closed_account_cannot_be_challenged():
    a, b = users("a", "b")
    get_user_model().objects.filter(pk=b.pk).update(is_active=False)
    with pytest.raises(GameError) as info:
        actions.create_challenge(user=a, username="b", rules={"target": 61}, rated=False, move_seconds=20)
    assert info.value.code == "player_not_found"


def test_many_ids_are_asked_as_one_array_each(monkeypatch):
    a, b, c = users("a", "b", "c")
    services.block(user=b, username="a")
    monkeypatch.setattr("games.people.relations.MANY", 1)  # PostgreSQL's array form (elsewhere the same query)
    assert queues.blocked_for((a.pk,), (b.pk, c.pk)) == {b.pk}
    assert relations.barred("challenge", a.pk, (b.pk, c.pk)) == {b.pk: relations.SILENT}


def _profile_page(viewer, name: str) -> str:
    from django.test import Client
    from django.urls import reverse

    client = Client()
    client.force_login(viewer)
    return client.get(reverse("profile", args=[name])).content.decode()


def test_a_profile_refusing_challenges_offers_no_form_and_says_why():
    a, b, c, d = users("a", "b", "c", "d")
    Profile.objects.create(user=b, challenges="nobody")
    Profile.objects.create(user=c, challenges="friends")
    page = _profile_page(a, "b")
    assert 'id="challenge-form"' not in page and "b takes no challenges." in page
    page = _profile_page(a, "c")
    assert 'id="challenge-form"' not in page and "c takes challenges from friends only." in page
    services.follow(user=a, username="c")
    services.follow(user=c, username="a")
    page = _profile_page(a, "c")
    assert 'id="challenge-form"' in page and "people-no-challenge" not in page
    assert 'id="challenge-form"' in _profile_page(a, "d")


def test_a_block_shows_the_profile_as_to_anyone():
    a, b, d = users("a", "b", "d")
    services.block(user=b, username="a")
    blocked, anyone = _profile_page(a, "b"), _profile_page(a, "d")
    assert 'id="challenge-form"' in blocked and "people-no-challenge" not in blocked
    assert blocked.replace(">b<", ">d<").count("people-") == anyone.count("people-")
