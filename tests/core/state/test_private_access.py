"""Who may see a private table (games.core.state.watching.check_may_see_private): its seated
players, the browser sessions that opened its invite link, everyone when its creator chose so;
for anyone else its page is a 404 and its socket closes with 4404, as for an unknown id."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from django.conf import settings
from django.test import Client
from django.urls import reverse

from games.core import actions
from games.core.models import Match
from tests.conftest import communicator
from tests.core.helpers import expect_error, table_path
from tests.core.pages.helpers import PRIVATE_TABLE_FORM

pytestmark = pytest.mark.live

db = database_sync_to_async


def private_table(user, **options) -> Match:
    return actions.create_table(
        user=user, players=2, rules={}, rated=False, private=True, **options
    )


def page(client: Client, match: Match) -> int:
    return client.get(reverse("table", kwargs={"match_id": match.pk})).status_code


def invite(match: Match) -> str:
    return reverse("table_invite", kwargs={"match_id": match.pk, "token": match.invite_token})


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.mark.django_db
def test_an_outsider_gets_a_404_for_the_private_table_at_any_status(make_player):
    alice, bob, carol = make_player("alice"), make_player("bob"), make_player("carol")
    match = private_table(alice.user)
    missing = Match.objects.order_by("-pk").first().pk + 1
    assert page(Client(), match) == 404
    assert page(logged_in(carol.user), match) == 404
    assert Client().get(reverse("table", kwargs={"match_id": missing})).status_code == 404
    actions.join_table(user=bob.user, match_id=match.pk, invite=match.invite_token)
    assert Match.objects.get(pk=match.pk).status == Match.Status.PLAYING
    assert page(logged_in(carol.user), match) == 404
    # The join form's page (GET) tells nothing either: it leads to the 404.
    join = Client().get(reverse("table_join", kwargs={"match_id": match.pk}), follow=True)
    assert join.status_code == 404


@pytest.mark.django_db
def test_the_seated_players_see_their_private_table(make_player):
    alice, bob = make_player("alice"), make_player("bob")
    match = private_table(alice.user)
    assert page(logged_in(alice.user), match) == 200
    actions.join_table(user=bob.user, match_id=match.pk, invite=match.invite_token)
    assert page(logged_in(bob.user), match) == 200


@pytest.mark.django_db
def test_the_session_that_opened_the_invite_keeps_the_right(make_player):
    alice, bob = make_player("alice"), make_player("bob")
    match = private_table(alice.user)
    client = Client()  # not logged in: the browser session holds the right
    assert client.get(invite(match)).status_code == 200
    response = client.get(reverse("table", kwargs={"match_id": match.pk}))
    assert response.status_code == 200
    # Its join at the plain address carries the invite, so the seat can be taken from there.
    assert response.context["config"]["urls"]["join"].endswith(f"?invite={match.invite_token}")
    # Logging in keeps the session's data (Django's login() cycles the key, not the data).
    client.force_login(bob.user)
    assert page(client, match) == 200
    # Another session of the same user did not open the link.
    assert page(logged_in(bob.user), match) == 404


@pytest.mark.django_db
def test_a_wrong_invite_gives_no_right(make_player):
    alice = make_player("alice")
    match = private_table(alice.user)
    client = Client()
    url = reverse("table_invite", kwargs={"match_id": match.pk, "token": "x" * 43})
    assert client.get(url).status_code == 404
    assert page(client, match) == 404


@pytest.mark.django_db
def test_the_creator_may_let_everyone_watch(make_player):
    alice, carol = make_player("alice"), make_player("carol")
    match = private_table(alice.user, private_watchable=True)
    assert page(Client(), match) == 200
    assert page(logged_in(carol.user), match) == 200
    public = actions.create_table(user=alice.user, players=2, rules={}, rated=False,
                                  private_watchable=True)
    assert public.private_watchable is False  # the choice is a private table's only


@pytest.mark.django_db
def test_the_create_form_sets_everyone_may_watch(make_player):
    alice = make_player("alice")
    client = logged_in(alice.user)
    response = client.post(
        reverse("table_create"), PRIVATE_TABLE_FORM | {"private_watchable": "on"}
    )
    assert response.status_code == 302
    match = Match.objects.get()
    assert match.private and match.private_watchable


async def refused_not_found(path: str, cookie: str | None) -> None:
    comm = communicator(path, cookie)
    connected, _ = await comm.connect()
    assert connected
    await expect_error(comm, "not_found")
    assert (await comm.receive_output())["code"] == 4404
    await comm.disconnect()


async def sees_state(path: str, cookie: str | None) -> dict:
    comm = communicator(path, cookie)
    connected, _ = await comm.connect()
    assert connected
    message = await comm.receive_json_from()
    await comm.disconnect()
    return message


def invited_cookie(match: Match) -> str:
    client = Client()
    assert client.get(invite(match)).status_code == 200
    return client.cookies[settings.SESSION_COOKIE_NAME].value


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_the_socket_of_a_private_table_is_refused_to_outsiders_only(make_player):
    alice = await db(make_player)("alice")
    carol = await db(make_player)("carol")
    match = await db(private_table)(alice.user)
    path = table_path(match.pk)
    await refused_not_found(path, None)
    await refused_not_found(path, carol.cookie)
    assert (await sees_state(path, alice.cookie))["type"] == "state"
    cookie = await db(invited_cookie)(match)
    state = await sees_state(path, cookie)
    assert state["type"] == "state" and state["you"] is None
    await db(Match.objects.filter(pk=match.pk).update)(private_watchable=True)
    assert (await sees_state(path, carol.cookie))["type"] == "state"


@pytest.mark.django_db
def test_a_private_table_and_an_unknown_id_read_the_same_even_under_debug(make_player, settings):
    """The outsider's page says what a person can do (the invite link), the same for both, and
    never Django's technical 404 (which lists the site's every address) even with DEBUG on."""
    settings.DEBUG = True
    alice, carol = make_player("alice"), make_player("carol")
    match = private_table(alice.user)
    missing = Match.objects.order_by("-pk").first().pk + 1
    bodies = []
    for match_id in (match.pk, missing):
        response = logged_in(carol.user).get(reverse("table", kwargs={"match_id": match_id}))
        assert response.status_code == 404
        body = response.content.decode()
        assert "No such table" in body and "invite link" in body and "URLconf" not in body
        bodies.append(body[body.index('<section class="error-page">'):body.index("</section>")])
    assert bodies[0] == bodies[1]
