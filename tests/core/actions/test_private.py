"""Private tables: not listed, joined only with the invite link (games.core.actions.seating,
games.core.pages.friend_views)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from games.core import actions
from games.core.errors import GameError
from games.core.models import Event, Match, Seat
from games.core.state import reads
from tests.core.pages.helpers import PRIVATE_TABLE_FORM

pytestmark = [pytest.mark.django_db, pytest.mark.live]

def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def snapshot(match_id: int):
    match = Match.objects.get(pk=match_id)
    seats = list(Seat.objects.filter(match_id=match_id).values_list("seat", "user_id"))
    return match.seq, match.status, seats, Event.objects.filter(match_id=match_id).count()


def test_a_private_table_is_not_listed_and_has_an_unguessable_token(make_player):
    alice = make_player("alice")
    public = actions.create_table(user=alice.user, players=2, rules={}, rated=False)
    private = actions.create_table(
        user=alice.user, players=2, rules={}, rated=False, private=True
    )
    assert [row["id"] for row in reads.open_tables()] == [public.pk]
    assert public.invite_token == ""
    assert len(private.invite_token) >= 40  # secrets.token_urlsafe(32): 256 bits
    other = actions.create_table(user=alice.user, players=2, rules={}, rated=False, private=True)
    assert other.invite_token != private.invite_token


def test_joining_without_or_with_a_wrong_invite_is_refused_and_changes_nothing(make_player):
    alice, bob = make_player("alice"), make_player("bob")
    match = actions.create_table(user=alice.user, players=2, rules={}, rated=False, private=True)
    before = snapshot(match.pk)
    for invite in (None, "", "wrong", match.invite_token[:-1], "é" * 43):
        with pytest.raises(GameError) as refused:
            actions.join_table(user=bob.user, match_id=match.pk, invite=invite)
        assert refused.value.code == "private_table"
        assert snapshot(match.pk) == before
    assert actions.join_table(user=bob.user, match_id=match.pk, invite=match.invite_token) == 1
    match.refresh_from_db()
    assert match.status == Match.Status.PLAYING


def test_the_create_form_makes_a_private_table(make_player):
    alice = make_player("alice")
    client = client_for(alice.user)
    response = client.post(reverse("table_create"), PRIVATE_TABLE_FORM)
    match = Match.objects.get()
    assert response.status_code == 302 and match.private
    assert reads.open_tables() == []
    page = client.get(reverse("table", kwargs={"match_id": match.pk}))
    link = reverse("table_invite", kwargs={"match_id": match.pk, "token": match.invite_token})
    assert link in page.content.decode()  # the seated creator sees the link to send


def test_the_invite_link_shows_the_table_with_a_join_that_works(make_player):
    alice, bob = make_player("alice"), make_player("bob")
    match = actions.create_table(user=alice.user, players=2, rules={}, rated=False, private=True)
    client = client_for(bob.user)
    # Before the link, the private table is not there for bob (test_private_access.py).
    assert client.get(reverse("table", kwargs={"match_id": match.pk})).status_code == 404
    link = reverse("table_invite", kwargs={"match_id": match.pk, "token": match.invite_token})
    page = client.get(link)
    assert page.status_code == 200
    config = page.context["config"]
    assert config["urls"]["join"].endswith(f"?invite={match.invite_token}")
    assert page.context["invite_link"] is None  # bob is not seated yet

    join = reverse("table_join", kwargs={"match_id": match.pk})
    before = snapshot(match.pk)
    refused = client.post(join, {"client_seed": "abc"}, follow=True)
    assert "only its invite link" in refused.content.decode()
    assert snapshot(match.pk) == before

    client.post(f"{join}?invite={match.invite_token}", {"client_seed": "abc"})
    assert Seat.objects.filter(match=match, user=bob.user).exists()


def test_a_wrong_invite_link_is_a_404(make_player):
    alice = make_player("alice")
    private = actions.create_table(user=alice.user, players=2, rules={}, rated=False, private=True)
    public = actions.create_table(user=alice.user, players=2, rules={}, rated=False)
    client = Client()
    for match_id, token in ((private.pk, "x" * 43), (public.pk, "x"), (public.pk, "")):
        if not token:
            continue
        url = reverse("table_invite", kwargs={"match_id": match_id, "token": token})
        assert client.get(url).status_code == 404


def test_an_anonymous_join_from_an_invite_comes_back_to_the_invite(make_player):
    alice = make_player("alice")
    match = actions.create_table(user=alice.user, players=2, rules={}, rated=False, private=True)
    join = reverse("table_join", kwargs={"match_id": match.pk})
    response = Client().post(f"{join}?invite={match.invite_token}")
    assert response.status_code == 302
    assert match.invite_token in response["Location"]
