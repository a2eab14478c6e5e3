"""A bot account's title (``BOT``) wherever its name is shown, asked through the core's one
question (``games.core.titles``, answered by ``games.api`` in its ``AppConfig.ready()``)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from games.api.models import BotAccount
from games.core import actions, titles
from games.core.state import lobby, reads
from tests.api.helpers import account
from tests.core.helpers import seated_match

pytestmark = pytest.mark.django_db


def bot_and_person():
    bot, _token = account("robo", "bot:play")
    BotAccount.objects.create(user=bot)
    person, _token = account("amira")
    return bot, person


def test_titles_name_the_bots_only_in_one_query(django_assert_num_queries):
    bot, person = bot_and_person()
    with django_assert_num_queries(1):
        assert titles.titles([bot.pk, person.pk, None]) == {bot.pk: "BOT"}
    assert titles.is_bot(bot.pk) and not titles.is_bot(person.pk) and not titles.is_bot(None)


def test_the_table_state_seats_carry_the_title():
    bot, person = bot_and_person()
    match = seated_match([person, bot], rules={"target": 11})
    seats = reads.table_state(match_id=match.pk, user=person)["seats"]
    assert {s["username"]: s["title"] for s in seats} == {"amira": None, "robo": "BOT"}


def test_the_lobby_shows_the_title_of_a_bot_at_an_open_table():
    bot, person = bot_and_person()


    actions.create_table(user=bot, players=2, rules={"target": 11}, rated=False)
    actions.create_table(user=person, players=2, rules={"target": 11}, rated=False)
    rows = reads.open_tables()
    assert [[s["title"] for s in row["seats"]] for row in rows] == [["BOT"], [None]]
    page = Client().get(reverse("lobby")).content.decode()
    assert page.count("bot-title") == 1


def test_the_lobby_lists_of_matches_carry_the_title():
    bot, person = bot_and_person()
    seated_match([person, bot], rules={"target": 11})
    (row,) = lobby.your_matches(person)
    assert {s["username"]: s["title"] for s in row["seats"]} == {"amira": None, "robo": "BOT"}
    (live,) = lobby.live_matches(None)
    assert [s["title"] for s in live["seats"]] == [None, "BOT"]


def test_profiles_and_their_recent_matches_show_the_title():
    bot, person = bot_and_person()
    seated_match([person, bot], rules={"target": 11})
    own = Client().get(reverse("profile", kwargs={"username": "robo"})).content.decode()
    heading = own.split('<h1 class="profile-name">')[1].split("</h1>")[0]
    assert "bot-title" in heading
    theirs = Client().get(reverse("profile", kwargs={"username": "amira"})).content.decode()
    assert "bot-title" not in theirs.split('<h1 class="profile-name">')[1].split("</h1>")[0]
    recent = theirs.split('class="recent-matches"')[1]
    assert recent.count("bot-title") == 1


def test_the_match_history_shows_the_title_of_a_bot_opponent():
    bot, person = bot_and_person()
    match = seated_match([person, bot], rules={"target": 11})
    actions.abort_match(user=person, match_id=match.pk)
    page = Client().get(reverse("match_history", kwargs={"username": "amira"})).content.decode()
    assert page.count("bot-title") == 1


def test_the_friends_lists_show_the_title_of_a_bot():
    from games.people import services as people

    bot, person = bot_and_person()
    people.follow(user=person, username="robo")
    people.follow(user=bot, username="amira")
    client = Client()
    client.force_login(person)
    page = client.get(reverse("people_friends")).content.decode()
    # friends, following, followers: robo in each.
    assert page.count("bot-title") == 3


def test_the_replay_config_carries_the_seats_titles():
    bot, person = bot_and_person()
    match = seated_match([person, bot], rules={"target": 11})
    actions.abort_match(user=person, match_id=match.pk)
    page = Client().get(reverse("replays:match", kwargs={"match_id": match.pk})).content.decode()
    assert '"seatTitles": [null, "BOT"]' in page


def test_an_account_waiting_in_a_queue_or_entered_in_an_event_cannot_become_a_bot():
    from datetime import timedelta

    from django.utils import timezone

    from games.queues import services as queues
    from games.tournaments import services as tournaments
    from tests.api.helpers import call, error_code

    alice, token = account("alice", "bot:play")
    organiser, _token = account("org")
    queues.join(user=alice, players=2, move_seconds=10)
    answer = call("post", "/api/bot/account/upgrade", token)
    assert answer.status_code == 400 and error_code(answer) == "engaged"
    queues.leave(user=alice)
    event = tournaments.create_tournament(
        user=organiser, name="Cup", format="swiss", players=2, swiss_rounds=3,
        starts_at=timezone.now() + timedelta(hours=1), rules={"target": 11},
    )
    tournaments.register(user=alice, tournament_id=event.pk)
    answer = call("post", "/api/bot/account/upgrade", token)
    assert answer.status_code == 400 and error_code(answer) == "engaged"
    assert not BotAccount.objects.exists()
    tournaments.withdraw(user=alice, tournament_id=event.pk)
    assert call("post", "/api/bot/account/upgrade", token).json() == {"ok": True}
