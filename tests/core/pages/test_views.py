"""Lobby and table pages over the Django test client: login, CSRF, the create form, seating."""

import re

import pytest
from django.contrib.messages import get_messages
from django.test import Client
from django.urls import reverse

from games.core import actions
from games.core.models import Match, Seat
from games.core.state import reads
from tests.core.pages.helpers import VALID, computer_data, config_of, logged_in, new_table
from tests.site.catalogue import script_label, served_catalogue

pytestmark = pytest.mark.django_db

@pytest.fixture
def bob(make_user):
    return make_user("bob")


def message_texts(response) -> list[str]:
    return [str(m) for m in get_messages(response.wsgi_request)]


# --- login required ---------------------------------------------------------------------------

def test_create_requires_login(client):
    response = client.post(reverse("table_create"), VALID)
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("account_login") + "?next=/")
    assert not Match.objects.exists()


def test_join_requires_login(client, alice):
    match = new_table(alice)
    response = client.post(reverse("table_join", args=[match.id]))
    assert response.status_code == 302
    login = reverse("account_login")
    assert response["Location"] == f"{login}?next=/table/{match.id}/"
    assert Seat.objects.filter(match=match).count() == 1


def test_leave_requires_login(client, alice):
    match = new_table(alice)
    response = client.post(reverse("table_leave", args=[match.id]))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("account_login"))
    assert Seat.objects.filter(match=match, user=alice).exists()


@pytest.mark.parametrize("name", ["table_create", "table_leave"])
def test_an_action_opened_as_a_page_does_nothing_and_goes_back(alice, name):
    """``GET`` of an action's address does nothing (the action needs its form); the browser is
    sent back where it came from (or the lobby) with a message, not shown a bare 405."""
    match = new_table(alice)
    kwargs = {} if name == "table_create" else {"match_id": match.id}
    client = logged_in(alice)
    response = client.get(reverse(name, kwargs=kwargs))
    assert response.status_code == 302 and response["Location"] == reverse("lobby")
    assert Seat.objects.filter(match=match, user=alice).exists()  # nothing changed
    page = client.get(response["Location"]).content.decode()
    assert "That address is an action" in page
    table = reverse("table", args=[match.id])
    back = client.get(reverse(name, kwargs=kwargs), HTTP_REFERER=f"http://testserver{table}")
    assert back.status_code == 302 and back["Location"] == f"http://testserver{table}"
    away = client.get(reverse(name, kwargs=kwargs), HTTP_REFERER="https://evil.example/")
    assert away["Location"] == reverse("lobby")  # never to another site


def test_get_of_a_join_link_shows_the_table_and_takes_no_seat(client, alice, bob):
    match = new_table(alice)
    url = reverse("table_join", kwargs={"match_id": match.id})
    for viewer in (client, logged_in(bob)):
        response = viewer.get(url, follow=True)
        assert response.status_code == 200
        assert response.redirect_chain == [(reverse("table", args=[match.id]), 302)]
        assert response.templates[0].name == "games/table.html"
    assert not Seat.objects.filter(match=match, user=bob).exists()
    assert logged_in(bob).get(reverse("table_join", kwargs={"match_id": 999999})).status_code == 404


def test_create_refuses_rules_under_which_nobody_can_score(alice):
    nothing = {**VALID, "majority_points": "0", "basra_points": "0", "jack_basra_points": "0"}
    response = logged_in(alice).post(reverse("table_create"), nothing)
    assert response.status_code == 400
    assert response.context["form"].errors["majority_points"] == [
        "Under these rules nobody could ever score, so the match would never end: give points "
        "for the most cards, a basra or a jack basra, or count card points."
    ]
    assert not Match.objects.exists()
    computer = {f"computer-{k}": "0" for k in ("majority_points", "basra_points", "jack_basra_points")}
    response = logged_in(alice).post(reverse("table_computer"), {**computer_data(), **computer})
    assert response.status_code == 400
    assert not Match.objects.exists()


@pytest.mark.parametrize(
    "scoring",
    [{"majority_points": "1"}, {"basra_points": "1"}, {"jack_basra_points": "1"},
     {"card_points": "on"}],
)
def test_create_accepts_rules_with_a_single_way_to_score(alice, scoring):
    nothing = {**VALID, "majority_points": "0", "basra_points": "0", "jack_basra_points": "0"}
    response = logged_in(alice).post(reverse("table_create"), {**nothing, **scoring})
    assert response.status_code == 302
    assert Match.objects.count() == 1


def test_the_action_refuses_rules_under_which_nobody_can_score(alice):
    from games.core.errors import GameError

    with pytest.raises(GameError) as refused:
        actions.create_table(
            user=alice, players=2, rated=False,
            rules={"majority_points": 0, "basra_points": 0, "jack_basra_points": 0},
        )
    assert refused.value.code == "rules_no_points"
    assert not Match.objects.exists()


# --- CSRF -------------------------------------------------------------------------------------

def csrf_token_of(client: Client) -> str:
    client.get(reverse("lobby"))
    return client.cookies["csrftoken"].value


def test_create_needs_csrf_token(alice):
    client = logged_in(alice, enforce_csrf_checks=True)
    response = client.post(reverse("table_create"), VALID)
    assert response.status_code == 403
    assert not Match.objects.exists()

    response = client.post(
        reverse("table_create"), {**VALID, "csrfmiddlewaretoken": csrf_token_of(client)}
    )
    assert response.status_code == 302
    assert Match.objects.count() == 1


def test_join_and_leave_need_csrf_token(alice, bob):
    match = new_table(alice, players=4)
    client = logged_in(bob, enforce_csrf_checks=True)
    assert client.post(reverse("table_join", args=[match.id])).status_code == 403
    assert not Seat.objects.filter(match=match, user=bob).exists()

    token = csrf_token_of(client)
    client.post(reverse("table_join", args=[match.id]), {"csrfmiddlewaretoken": token})
    assert Seat.objects.filter(match=match, user=bob).exists()

    assert client.post(reverse("table_leave", args=[match.id])).status_code == 403
    assert Seat.objects.filter(match=match, user=bob).exists()
    client.post(reverse("table_leave", args=[match.id]), {"csrfmiddlewaretoken": token})
    assert not Seat.objects.filter(match=match, user=bob).exists()


# --- the create form --------------------------------------------------------------------------

@pytest.mark.parametrize(
    "field, value",
    [
        ("players", "3"),
        ("players", ""),
        ("target", "10"),
        ("target", "502"),
        ("target", "ten"),
        ("mode", "betting"),
        ("seven_diamonds", "joker"),
        ("jack_basra_points", "-1"),
        ("majority_points", "101"),
    ],
)
def test_create_rejects_bad_options(alice, field, value):
    response = logged_in(alice).post(reverse("table_create"), {**VALID, field: value})
    assert response.status_code == 400
    assert field in response.context["form"].errors
    assert not Match.objects.exists()


def test_the_lobby_says_the_target_s_range_beside_its_box(alice):
    """Told before the form is sent, in the reader's language: 11 to 501 (forms.TARGET_MIN and
    TARGET_MAX), the box's own bounds, and at least 61 for a rated table (RATED_TARGET_MIN)."""
    client = logged_in(alice)
    page = client.get("/").content.decode()
    box = re.search(r'<input[^>]*name="target"[^>]*>', page).group(0)
    assert 'min="11"' in box and 'max="501"' in box
    described = re.search(r'aria-describedby="([^"]+)"', box).group(1)
    assert re.search(
        rf'id="{described}">[^<]*: from 11 to 501\. Rated tables play to at least 61\.<', page)
    client.cookies["django_language"] = "ar"
    page = client.get("/").content.decode()
    assert ": من 11 إلى 501." in page
    assert "الطاولات المصنّفة تُلعب حتى 61 نقطة على الأقل." in page


def test_create_rejects_missing_target(alice):
    data = {k: v for k, v in VALID.items() if k != "target"}
    response = logged_in(alice).post(reverse("table_create"), data)
    assert response.status_code == 400
    assert "target" in response.context["form"].errors
    assert not Match.objects.exists()


def test_create_stores_the_rules_and_seats_the_creator(alice):
    data = {
        **VALID, "players": "4", "target": "151", "mode": "rated", "majority_points": "40",
        "basra_points": "15", "jack_basra_points": "0", "card_points": "on",
        "seven_diamonds": "classic",
    }
    response = logged_in(alice).post(reverse("table_create"), data)
    match = Match.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("table", args=[match.id])
    assert match.players == 4
    assert match.rated is True
    assert match.created_by == alice
    assert match.status == "open"
    assert match.rules == {
        "players": 4, "target": 151, "majority_points": 40, "basra_points": 15,
        "jack_basra_points": 0, "card_points": True, "seven_diamonds": "classic",
    }
    assert list(match.seats.values_list("seat", "user__username")) == [(0, "alice")]


def test_create_casual_defaults(alice):
    logged_in(alice).post(reverse("table_create"), VALID)
    match = Match.objects.get()
    assert match.rated is False
    assert match.rules["target"] == 101
    assert match.rules["card_points"] is False
    assert match.rules["seven_diamonds"] == "wild"


# --- lobby ------------------------------------------------------------------------------------

def test_lobby_lists_open_tables_only(client, alice, bob, make_user):
    waiting = new_table(alice, players=4, target=201)
    started = new_table(bob)
    actions.join_table(user=make_user("carol"), match_id=started.id)
    response = client.get(reverse("lobby"))
    assert response.status_code == 200
    page = response.content.decode()
    assert f'class="table-row" data-match-id="{waiting.id}"' in page
    # The started match is among the matches to watch, not the open tables.
    assert f'class="table-row" data-match-id="{started.id}"' not in page
    assert [row["id"] for row in response.context["tables"]] == [waiting.id]
    row = response.context["tables"][0]
    # Every seat is listed, free ones with no name, so the page can show the empty places.
    assert [
        (s["seat"], s["side"], s["username"], s["bot"], s["name"]) for s in row["seats"]
    ] == [
        (0, 0, "alice", None, "alice"),
        (1, 1, None, None, "Empty seat"),
        (2, 0, None, None, "Empty seat"),
        (3, 1, None, None, "Empty seat"),
    ]
    assert "to 201" in page


def test_lobby_shows_join_to_others_and_leave_to_the_seated(alice, bob):
    match = new_table(alice)
    join_url = reverse("table_join", args=[match.id])
    leave_url = reverse("table_leave", args=[match.id])
    page_bob = logged_in(bob).get(reverse("lobby")).content.decode()
    assert f'action="{join_url}"' in page_bob and f'action="{leave_url}"' not in page_bob
    page_alice = logged_in(alice).get(reverse("lobby")).content.decode()
    assert f'action="{leave_url}"' in page_alice and f'action="{join_url}"' not in page_alice


def test_lobby_offers_the_form_only_to_logged_in_users(client, alice):
    create_url = reverse("table_create")
    assert f'action="{create_url}"' not in client.get(reverse("lobby")).content.decode()
    assert f'action="{create_url}"' in logged_in(alice).get(reverse("lobby")).content.decode()


def test_lobby_config_for_the_script(alice):
    response = logged_in(alice).get(reverse("lobby"))
    config = config_of(response, "lobby-config")
    assert config["wsPath"] == "/ws/lobby/"
    assert config["username"] == "alice"
    assert config["urls"]["join"] == "/table/{id}/join/"
    assert config["csrfToken"]


# --- join and leave ---------------------------------------------------------------------------

def test_join_seats_and_starts_a_two_player_table(alice, bob):
    match = new_table(alice)
    response = logged_in(bob).post(reverse("table_join", args=[match.id]))
    assert response.status_code == 302
    assert response["Location"] == reverse("table", args=[match.id])
    match.refresh_from_db()
    assert match.status == "playing"
    assert list(match.seats.values_list("seat", "user__username")) == [(0, "alice"), (1, "bob")]


def test_four_player_seating_order(alice, bob, make_user):
    """RULES.md "Four players": creator seat 0, then 2, then 1, then 3."""
    match = new_table(alice, players=4)
    for name in ["bob", "carol", "dave"]:
        user = bob if name == "bob" else make_user(name)
        logged_in(user).post(reverse("table_join", args=[match.id]))
    match.refresh_from_db()
    assert dict(match.seats.values_list("user__username", "seat")) == {
        "alice": 0, "bob": 2, "carol": 1, "dave": 3,
    }
    assert match.status == "playing"


def shown_messages(response) -> list[str]:
    """The messages the page drew (base.html's ``ul.messages``), not only those queued."""
    found = re.search(r'<ul class="messages">(.*?)</ul>', response.content.decode(), re.S)
    return re.findall(r"<li[^>]*>(.*?)</li>", found.group(1)) if found else []


@pytest.mark.parametrize("language, words", [("en", "This table is full."),
                                             ("ar", "هذه الطاولة ممتلئة.")])
def test_join_full_table_says_so_on_the_table_page(alice, bob, make_user, language, words):
    match = new_table(alice)
    actions.join_table(user=bob, match_id=match.id)
    carol = make_user("carol")
    response = logged_in(carol, headers={"accept-language": language}).post(
        reverse("table_join", args=[match.id]), follow=True)
    assert response.redirect_chain[-1][0] == reverse("table", args=[match.id])
    assert not Seat.objects.filter(match=match, user=carol).exists()
    assert shown_messages(response) == [words]


@pytest.mark.parametrize("seat", [None, "0", "3"])
def test_join_when_already_seated_lands_on_the_table_without_an_error(alice, seat):
    """A second join (a lobby row or a join button left showing in another tab): the person's
    own seat, nothing to report, whichever seat the form asked for."""
    match = new_table(alice, players=4)
    response = logged_in(alice).post(reverse("table_join", args=[match.id]),
                                     {} if seat is None else {"seat": seat}, follow=True)
    assert response.redirect_chain[-1][0] == reverse("table", args=[match.id])
    assert list(match.seats.values_list("seat", "user__username")) == [(0, "alice")]
    assert shown_messages(response) == [] and message_texts(response) == []


@pytest.mark.parametrize(
    "seat", ["abc", "9", "4", "-1", "1.5", "٢", "1" * 5000, "0" * 5000 + "1"]
)
def test_join_refuses_a_seat_that_is_not_one_of_the_table(alice, bob, seat):
    """A malformed or out-of-range seat takes no seat at all (never the next free one)."""
    match = new_table(alice, players=4)
    response = logged_in(bob).post(reverse("table_join", args=[match.id]), {"seat": seat},
                                   follow=True)
    assert response.redirect_chain[-1][0] == reverse("table", args=[match.id])
    assert not Seat.objects.filter(match=match, user=bob).exists()
    assert message_texts(response) == ["That is not a seat of this table."]


def test_join_a_chosen_free_seat(alice, bob):
    match = new_table(alice, players=4)
    logged_in(bob).post(reverse("table_join", args=[match.id]), {"seat": "3"})
    assert Seat.objects.get(match=match, user=bob).seat == 3


def test_join_unknown_table_is_404(bob):
    assert logged_in(bob).post(reverse("table_join", args=[999999])).status_code == 404


def test_leave_before_start_goes_back_to_the_lobby(alice, bob):
    match = new_table(alice, players=4)
    actions.join_table(user=bob, match_id=match.id)
    response = logged_in(bob).post(reverse("table_leave", args=[match.id]))
    assert response.status_code == 302
    assert response["Location"] == reverse("lobby")
    assert not Seat.objects.filter(match=match, user=bob).exists()


def test_leave_after_start_is_refused_with_a_message(alice, bob):
    match = new_table(alice)
    actions.join_table(user=bob, match_id=match.id)
    response = logged_in(bob).post(reverse("table_leave", args=[match.id]), follow=True)
    assert response.redirect_chain[-1][0] == reverse("table", args=[match.id])
    assert Seat.objects.filter(match=match, user=bob).exists()
    assert len(message_texts(response)) == 1


# --- table page -------------------------------------------------------------------------------

def test_table_page_carries_the_state_of_the_viewer(client, alice, bob):
    match = new_table(alice)
    actions.join_table(user=bob, match_id=match.id)

    config = config_of(logged_in(bob).get(reverse("table", args=[match.id])), "table-config")
    assert config["matchId"] == match.id
    assert config["wsPath"] == f"/ws/table/{match.id}/"
    assert config["state"]["you"] == 1
    assert config["state"]["match"]["status"] == "playing"
    assert config["state"]["round"]["hand"] == reads.table_state(
        match_id=match.id, user=bob
    )["round"]["hand"]
    assert len(config["state"]["round"]["hand"]) == 4

    spectator = config_of(client.get(reverse("table", args=[match.id])), "table-config")
    assert spectator["state"]["you"] is None
    assert spectator["state"]["round"]["hand"] == []


def test_table_page_of_unknown_match_is_404(client):
    assert client.get(reverse("table", args=[999999])).status_code == 404


# --- the clock and the computer ---------------------------------------------------------------

def test_create_stores_the_clock(alice):
    logged_in(alice).post(reverse("table_create"), {**VALID, "move_seconds": "10"})
    assert Match.objects.get().move_seconds == 10


def test_a_rated_table_needs_a_clock(alice):
    response = logged_in(alice).post(
        reverse("table_create"), {**VALID, "mode": "rated", "move_seconds": "none"}
    )
    assert response.status_code == 400
    assert "move_seconds" in response.context["form"].errors
    assert not Match.objects.exists()
    logged_in(alice).post(reverse("table_create"), {**VALID, "move_seconds": "none"})
    assert Match.objects.get().move_seconds is None


@pytest.mark.parametrize("level", ["strong", "expert"])
def test_play_the_computer_two_players_starts_at_once(alice, level):
    response = logged_in(alice).post(reverse("table_computer"), computer_data(opponent=level))
    match = Match.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("table", args=[match.id])
    assert match.status == "playing" and match.rated is False and match.move_seconds is None
    assert match.rules["target"] == 11
    assert list(match.seats.values_list("seat", "user__username", "bot")) == [
        (0, "alice", ""), (1, None, level)]


def test_play_the_computer_four_players_leaves_seats_to_people(alice, bob):
    logged_in(alice).post(reverse("table_computer"), computer_data(
        players="4", seat_1="random", seat_2="human", seat_3="greedy", move_seconds="20"))
    match = Match.objects.get()
    assert match.status == "open" and match.move_seconds == 20
    assert list(match.seats.values_list("seat", "bot")) == [(0, ""), (1, "random"), (3, "greedy")]
    # The lobby shows the computer seats with their badge, and offers the empty seat.
    page = logged_in(bob).get(reverse("lobby")).content.decode()
    # Two computer seats are numbered (games.core.models.seat_display_names).
    assert 'data-bot="random"' in page and "Random 1" in page
    assert f'action="{reverse("table_join", args=[match.id])}"' in page
    # bob takes the random bot's seat instead of the empty one.
    logged_in(bob).post(reverse("table_join", args=[match.id]), {"seat": "1"})
    assert list(match.seats.values_list("seat", "user__username", "bot")) == [
        (0, "alice", ""), (1, "bob", ""), (3, None, "greedy")]


def test_play_the_computer_needs_a_computer(alice):
    response = logged_in(alice).post(reverse("table_computer"), computer_data(
        players="4", seat_1="human", seat_2="human", seat_3="human"))
    assert response.status_code == 400
    assert response.context["computer_form"].non_field_errors()
    assert not Match.objects.exists()


def test_play_the_computer_requires_login(client):
    response = client.post(reverse("table_computer"), computer_data())
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("account_login"))
    assert not Match.objects.exists()


def test_table_page_names_the_computer_levels(alice):
    match = new_table(alice)
    config = config_of(logged_in(alice).get(reverse("table", args=[match.id])), "table-config")
    assert config["botLevels"]["greedy"] == "Greedy"


#: Labels of the resign offers, the away notice and the timeout notice (table/labels.js).
NOTICE_LABELS = ["resignConfirmPair", "resignConfirmPartnerOffered", "resignConfirmPartnerGone",
                 "youOfferedPartnerGone", "youAbsentBack", "youTimedOut", "timedOutMark",
                 "pausedFor"]


def test_table_page_notice_labels_are_translated_to_arabic():
    english = {key: script_label("static/games/table/labels.js", key) for key in NOTICE_LABELS}
    arabic = served_catalogue("ar")  # what /jsi18n/?language=ar gives the table's scripts
    for key in NOTICE_LABELS:
        assert english[key] and arabic.get(english[key], english[key]) != english[key], key
    # The card's name goes into the timeout notice in both languages.
    assert "%(card)s" in english["youTimedOut"] and "%(card)s" in arabic[english["youTimedOut"]]


# --- page chrome ------------------------------------------------------------------------------

def test_every_page_links_a_favicon_that_exists(client):
    from django.contrib.staticfiles import finders

    html = client.get(reverse("lobby")).content.decode()
    link = re.search(r'<link rel="icon" href="([^"]+)" type="image/svg\+xml">', html)
    assert link and link.group(1).endswith("/favicon.svg")
    path = finders.find("favicon.svg")
    assert path and open(path).read().startswith("<svg")
    assert '<link rel="icon"' in client.get(reverse("account_login")).content.decode()


def test_a_finished_table_says_finished_not_live(alice, bob):
    match = new_table(alice)
    actions.join_table(user=bob, match_id=match.id)
    actions.resign(user=bob, match_id=match.id)
    html = logged_in(alice).get(reverse("table", args=[match.id])).content.decode()
    assert re.search(r'id="live-status" data-state="finished" role="status">Finished</span>', html)
    assert "Connecting…" not in html


def test_a_table_in_play_starts_as_connecting(alice, bob):
    match = new_table(alice)
    actions.join_table(user=bob, match_id=match.id)
    html = logged_in(alice).get(reverse("table", args=[match.id])).content.decode()
    assert 'id="live-status" data-state="connecting"' in html


def test_round_results_say_where_the_leftover_floor_cards_went(alice, bob):
    """Each finished round names the side that took the floor's last cards, and those cards."""
    from games.core.state.log import rebuild
    from tests.core.helpers import play_out

    match = new_table(alice, target=11)
    actions.join_table(user=bob, match_id=match.id)
    play_out(match)
    match.refresh_from_db()
    results = config_of(logged_in(alice).get(reverse("table", args=[match.id])),
                        "table-config")["state"]["round_results"]
    rounds = rebuild(match).rounds
    assert results and len(results) == len(rounds)
    for result, rnd in zip(results, rounds):
        cards = [card.code for card in rnd.leftover]
        assert result["leftover"] == {
            "side": rnd.last_capturer if cards else None, "cards": cards,
        }
        if cards:
            # The leftover cards are counted in that side's pile.
            assert result["cards"][result["leftover"]["side"]] >= len(cards)
    assert sum(result["cards"][0] + result["cards"][1] for result in results) == 52 * len(results)
