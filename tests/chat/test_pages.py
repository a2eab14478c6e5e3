"""The chat on the pages: the table's panel and its config, the rules' section, the replay's lines
for its players only, the chat setting's page; no line in a match's record nor the API's export."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.urls import reverse

from games.chat import services
from games.core.for_apps import match_record, resign
from tests.api.helpers import collect
from tests.chat.helpers import say
from tests.core.helpers import seated_match

pytestmark = pytest.mark.django_db

SECRET = "the secret line 42"


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def over(django_user_model):
    """alice and bob's finished match (bob resigned), with a line of each; carol watched."""
    alice, bob, carol = (django_user_model.objects.create_user(n, f"{n}@example.com") for n in ("alice", "bob", "carol"))
    match = seated_match([alice, bob])
    say(alice, match, SECRET)
    say(carol, match, "<b>spectator</b>", room="spectator", seat=None)
    resign(user=bob, match_id=match.pk)
    return match, alice, bob, carol


def test_the_table_page_has_the_panel_and_its_module(over):
    match, alice, _bob, _carol = over
    page = logged_in(alice).get(reverse("table", kwargs={"match_id": match.pk})).content.decode()
    assert 'id="chat-panel"' in page and 'maxlength="140"' in page and "chat/table_chat" in page
    start = page.index('id="chat-config"')
    config = json.loads(page[page.index(">", start) + 1:page.index("</script>", start)])
    assert config == {"loggedIn": True, "username": "alice", "on": True, "maxLength": 140,
                      "settings": reverse("chat:settings")}


def test_the_rules_page_says_which_tables_have_chat():
    page = Client().get(reverse("rules")).content.decode()
    assert 'id="chat-title"' in page and "only the quick phrases" in page


def test_the_replay_shows_the_chat_to_the_match_s_players_only(over):
    match, alice, bob, carol = over
    url = reverse("replays:match", kwargs={"match_id": match.pk})
    for player in (alice, bob):
        page = logged_in(player).get(url).content.decode()
        assert SECRET in page and 'id="chat-replay"' in page
        assert "&lt;b&gt;spectator&lt;/b&gt;" in page and "<b>spectator</b>" not in page
        # A report link on the others' lines, none on one's own.
        assert (f"/players/alice/report/?match={match.pk}&amp;line=" in page) == (player is bob)
    for reader in (Client(), logged_in(carol)):
        page = reader.get(url).content.decode()
        assert SECRET not in page and 'id="chat-replay"' not in page


@pytest.mark.django_db(transaction=True)  # the API's export is an async view: another connection
def test_no_line_in_the_record_nor_the_api_export(over):
    match, alice, _bob, _carol = over
    assert SECRET not in json.dumps(match_record(match))
    assert SECRET not in Client().get(reverse("match_record", kwargs={"match_id": match.pk})).content.decode()
    body = collect(Client().get("/api/games/user/alice")).decode()
    assert f'"id":{match.pk}' in body.replace(" ", "") and SECRET not in body


def test_the_setting_page_turns_the_chat_off_and_on(django_user_model):
    dave = django_user_model.objects.create_user("dave", "dave@example.com")
    client = logged_in(dave)
    url = reverse("chat:settings")
    assert client.get(url).status_code == 200
    assert client.post(url, {"chat": "off", "next": "https://evil.example/"})["Location"] == url
    assert not services.chat_enabled(dave.pk)
    assert client.post(url, {"chat": "on", "next": "/rules/"})["Location"] == "/rules/"
    assert services.chat_enabled(dave.pk)
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(dave)
    assert strict.post(url, {"chat": "off"}).status_code == 403
    assert Client().get(url).status_code == 302  # to the log-in


def test_the_profile_settings_page_links_to_the_chat_setting(django_user_model):
    """The people app's settings page shows the chat's link (its ``settings.links`` fragment),
    with the setting's state, and the chat page comes back to it."""
    erin = django_user_model.objects.create_user("erin", "erin@example.com")
    client = logged_in(erin)
    page = client.get(reverse("people_settings")).content.decode()
    link = f'href="{reverse("chat:settings")}?next=/settings/profile/"'
    assert link in page and "chat on" in page
    services.set_enabled(erin, False)
    assert "chat off" in client.get(reverse("people_settings")).content.decode()


def test_the_moderators_page_shows_a_masked_line_as_written(over, django_user_model):
    match, alice, _bob, _carol = over
    say(alice, match, "you b4stard")
    staff = django_user_model.objects.create_user("mod", "mod@example.com", is_staff=True)
    url = reverse("moderation:player", kwargs={"username": "alice"})
    page = logged_in(staff).get(url).content.decode()
    assert "you *******" in page and "you b4stard" in page
