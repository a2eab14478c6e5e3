"""The tournament pages: list, create form, event page (tables, standings, bracket, arena
leaderboard, audit trail), the CSRF-protected actions, and the header link."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.core import actions
from games.tournaments import services
from games.tournaments.models import Entrant, Tournament
from tests.tournaments.helpers import client_for, enter, event, form_data, live_games, play_out, refresh, users

pytestmark = pytest.mark.django_db


def test_list_shows_upcoming_running_and_finished_and_the_header_links_it():
    org, a, b = users("org", "a", "b")
    upcoming = event(org, "swiss", swiss_rounds=3)
    running = event(org, "round_robin")
    enter(running, [a, b])
    services.start(user=org, tournament_id=running.pk)
    page = Client().get(reverse("tournaments")).content.decode()
    assert f'href="{reverse("tournaments")}"' in page  # the header's link
    assert page.index("Running") < page.index(running.name) < page.index("Upcoming") < page.index(upcoming.name)


def test_list_puts_cancelled_events_under_their_own_heading_not_the_finished_one():
    org, a = users("org", "a")
    done, called_off = event(org, "swiss", swiss_rounds=3), event(org, "round_robin")
    Tournament.objects.filter(pk=done.pk).update(
        name="Played out", status=Tournament.Status.FINISHED, finished_at=timezone.now())
    Tournament.objects.filter(pk=called_off.pk).update(name="Called off")
    services.cancel(user=org, tournament_id=called_off.pk)
    for language, finished, cancelled in (("en", "Finished", "Cancelled"), ("ar", "انتهت", "أُلغيت"),
                                          ("fr", "Terminé", "Annulé")):
        client = Client()
        client.cookies["django_language"] = language
        page = client.get(reverse("tournaments"), HTTP_ACCEPT_LANGUAGE=language).content.decode()
        headings = re.findall(r"<h2>([^<]*)</h2>", page)
        assert headings[-2:] == [finished, cancelled], (language, headings)
        sections = page.split(f"<h2>{cancelled}</h2>")
        assert "Played out" in sections[0] and "Called off" not in sections[0]
        assert "Called off" in sections[1] and "Played out" not in sections[1]
    # With no cancelled event, no empty section for them.
    Tournament.objects.filter(pk=called_off.pk).delete()
    page = Client().get(reverse("tournaments")).content.decode()
    assert "<h2>Cancelled</h2>" not in page


@pytest.mark.parametrize("zone", ["UTC", "America/Indiana/Knox"])
def test_list_names_the_time_zone_of_its_start_column_once_without_nested_brackets(zone):
    """The start column's heading had the zone in brackets round a name that has its own:
    "Starts at (Coordinated Universal Time (UTC))"."""
    from games.tournaments import zones

    (org,) = users("org")
    event(org, "swiss", swiss_rounds=3)
    client = Client()
    client.cookies["basra_tz"] = zone
    page = client.get(reverse("tournaments")).content.decode()
    heading = next(h for h in re.findall(r"<th>(.*?)</th>", page) if "Starts at" in h)
    text = re.sub(r"<[^>]+>", " ", heading)
    name = zones.label(zone)
    assert text.count(name) == 1, text
    depth = deepest = 0
    for char in text:
        depth += {"(": 1, ")": -1}.get(char, 0)
        deepest = max(deepest, depth)
    assert deepest <= 1, text


def test_a_zone_in_no_country_is_named_by_its_place_alone():
    """CLDR puts ``Antarctica/Troll`` in no country (the world): its name is its station's, in
    each language's words for a zone, never "world (Troll Station) Time"."""
    from games.tournaments import zones

    assert "Antarctica/Troll" in zones.names()
    assert zones.label("Antarctica/Troll", "en") == "Troll Station Time"
    assert zones.label("Antarctica/Troll", "ar") == "توقيت ترول"
    assert zones.label("Antarctica/Troll", "fr") == "heure : Troll"
    assert zones.label("Africa/Cairo", "en") == "Egypt Time"
    assert not [z for z, text in zones.choices("en") if "world" in text.lower()]


@pytest.mark.parametrize(("language", "said"), [
    ("en", "At least 5 minutes from now"), ("ar", "بعد 5 دقائق على الأقل من الآن"),
    ("fr", "Dans 5 minutes au moins"),
])
def test_the_create_form_says_the_nearest_start_before_it_is_refused(language, said):
    (org,) = users("org")
    client = client_for(org)
    client.cookies["django_language"] = language
    page = client.get(reverse("tournament_create"), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert said in page


def test_create_form_makes_an_event_organised_by_the_player():
    (org,) = users("org")
    client = client_for(org)
    assert client.get(reverse("tournament_create")).status_code == 200
    starts = (timezone.now() + timedelta(days=1)).strftime("%Y-%m-%dT%H:%M")
    response = client.post(reverse("tournament_create"), {
        "name": "Friday Swiss", "format": "swiss", "players": "2", "starts_at": starts,
        "seeding": "rating", "best_of": "1", "swiss_rounds": "4", "target": "101",
        "mode": "rated", "move_seconds": "30", "majority_points": "30", "basra_points": "10",
        "jack_basra_points": "30", "seven_diamonds": "wild", "tiebreak_1": "buchholz",
        "tiebreak_2": "wins",
    })
    t = Tournament.objects.get()
    assert response.status_code == 302 and response["Location"] == reverse("tournament", args=[t.pk])
    assert (t.organiser, t.format, t.swiss_rounds, t.rated, t.tiebreaks) == (
        org, "swiss", 4, True, ["buchholz", "wins"]
    )
    # A Swiss event without rounds is refused by the form, nothing created.
    bad = client.post(reverse("tournament_create"), {"name": "x", "format": "swiss", "players": "2",
                                                     "starts_at": starts, "target": "101"})
    assert bad.status_code == 200 and Tournament.objects.count() == 1
    # A start in the past is refused (it was created and cancelled at once).
    past = (timezone.now() - timedelta(minutes=30)).strftime("%Y-%m-%dT%H:%M")
    late = client.post(reverse("tournament_create"), {
        "name": "Past start", "format": "round_robin", "players": "2", "starts_at": past,
        "seeding": "rating", "best_of": "1", "target": "101", "mode": "casual",
    })
    assert late.status_code == 200 and "must not be in the past" in late.content.decode()
    assert Tournament.objects.count() == 1


def test_create_needs_a_login():
    response = Client().get(reverse("tournament_create"))
    assert response.status_code == 302 and "login" in response["Location"]


def test_register_withdraw_and_errors_on_the_event_page():
    org, a = users("org", "a")
    t = event(org, "swiss", swiss_rounds=3)
    client = client_for(a)
    page = client.get(reverse("tournament", args=[t.pk])).content.decode()
    assert 'id="register-button"' in page and "csrfmiddlewaretoken" in page
    # No entrant yet: a note, not a numbered item of the list ("1. Nobody yet.").
    assert '<p id="entrants" class="help">Nobody yet.</p>' in page and "<ol id=\"entrants\">" not in page
    client.post(reverse("tournament_register", args=[t.pk]))
    page = client.get(reverse("tournament", args=[t.pk])).content.decode()
    assert '<ol id="entrants">' in page and "Nobody yet." not in page
    client.post(reverse("tournament_withdraw", args=[t.pk]))
    client.post(reverse("tournament_register", args=[t.pk]))
    assert Entrant.objects.filter(tournament=t, user=a).exists()
    again = client.post(reverse("tournament_register", args=[t.pk]), follow=True).content.decode()
    assert "already registered" in again
    client.post(reverse("tournament_withdraw", args=[t.pk]))
    assert not Entrant.objects.filter(tournament=t, user=a).exists()
    # Without the CSRF token the action is refused.
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(a)
    assert strict.post(reverse("tournament_register", args=[t.pk])).status_code == 403


def test_a_full_event_and_a_closed_registration_say_so_instead_of_a_register_button():
    """A full event, and one whose registration has closed, say so where the Register button
    would be, rather than offer a click that can only be refused."""
    org, a, b, c = users("org", "a", "b", "c")
    full = event(org, "round_robin", max_entrants=2)
    enter(full, [a, b])
    page = client_for(c).get(reverse("tournament", args=[full.pk])).content.decode()
    assert 'id="register-button"' not in page and "This tournament is full." in page
    closed = event(org, "round_robin")
    Tournament.objects.filter(pk=closed.pk).update(
        registration_closes=timezone.now() - timedelta(minutes=1)
    )
    page = client_for(c).get(reverse("tournament", args=[closed.pk])).content.decode()
    assert 'id="register-button"' not in page and "Registration is closed." in page


def test_partner_invitation_and_acceptance_through_the_page():
    org, a, b = users("org", "a", "b")
    t = event(org, "round_robin", players=4)
    client_for(a).post(reverse("tournament_register", args=[t.pk]), {"partner": "b"})
    e = Entrant.objects.get(tournament=t)
    assert e.partner == b and e.status == Entrant.Status.INVITED
    page = client_for(b).get(reverse("tournament", args=[t.pk])).content.decode()
    assert reverse("tournament_accept", args=[t.pk, e.pk]) in page
    client_for(b).post(reverse("tournament_accept", args=[t.pk, e.pk]))
    assert refresh_entrant(e).status == Entrant.Status.ACTIVE
    missing = client_for(org).post(reverse("tournament_register", args=[t.pk]), {"partner": "nobody"}, follow=True)
    assert "There is no player called nobody" in missing.content.decode()


def refresh_entrant(e: Entrant) -> Entrant:
    return Entrant.objects.get(pk=e.pk)


def test_event_page_links_each_players_table_and_shows_standings_and_the_audit_trail():
    org, a, b, c, d = users("org", "a", "b", "c", "d")
    t = event(org, "swiss", swiss_rounds=2)
    enter(t, [a, b, c, d])
    assert client_for(a).post(reverse("tournament_start", args=[t.pk])).status_code == 302
    assert refresh(t).status == Tournament.Status.UPCOMING  # a is not the organiser
    client_for(org).post(reverse("tournament_start", args=[t.pk]))
    for game in live_games(t):
        page = client_for(game.pairing.a.user).get(reverse("tournament", args=[t.pk])).content.decode()
        assert 'id="my-tables"' in page and reverse("table", args=[game.match_id]) in page
    client_for(org).post(reverse("tournament_pause", args=[t.pk]))
    play_out(t)
    game = live_games(t)
    assert not game
    page = client_for(org).get(reverse("tournament", args=[t.pk])).content.decode()
    assert "Standings" in page and "Buchholz cut 1" in page and "Paused the event" in page


def test_organiser_forfeit_through_the_page():
    org, a, b = users("org", "a", "b")
    t = event(org, "round_robin")
    enter(t, [a, b])
    services.start(user=org, tournament_id=t.pk)
    (game,) = live_games(t)
    p = game.pairing
    url = reverse("tournament_forfeit", args=[t.pk, p.pk])
    client_for(a).post(url, {"winner": p.a_id})
    p.refresh_from_db()
    assert not p.finished
    client_for(org).post(url, {"winner": p.b_id, "confirmed": "yes"})
    p.refresh_from_db()
    assert p.finished and p.winner_id == p.b_id
    page = client_for(org).get(reverse("tournament", args=[t.pk])).content.decode()
    assert "Recorded a forfeit" in page


def test_knockout_bracket_and_arena_leaderboard_are_drawn():
    org, *ps = users("org", "p1", "p2", "p3")
    ko = event(org, "knockout")
    enter(ko, ps)
    services.start(user=org, tournament_id=ko.pk)
    page = Client().get(reverse("tournament", args=[ko.pk])).content.decode()
    # Two semi-finals (one a bye) and the final's box, still empty (issue 24: later rounds drawn).
    assert 'id="bracket"' in page and page.count('class="bracket-pairing') == 3 and "bye" in page
    assert page.count('class="bracket-pairing empty"') == 1
    arena = event(org, "arena", arena_minutes=60)
    enter(arena, users("q1", "q2"))
    services.start(user=org, tournament_id=arena.pk)
    (game,) = live_games(arena)
    actions.resign(user=game.pairing.b.user, match_id=game.match_id)
    services.catch_up(arena.pk)  # the next wave, after the ending's commit
    # Two players only: with nobody else to meet, they are paired again at once.
    (again,) = live_games(arena)
    assert again.pairing_id != game.pairing_id
    page = Client().get(reverse("tournament", args=[arena.pk])).content.decode()
    assert "Leaderboard" in page and 'class="pts pts-2' in page


def test_every_entrant_name_is_isolated_from_the_text_around_it():
    """An Arabic name ending in Latin ("يوسف_ca5d0") beside a seed "(2)" read "ca5d0 (2)يوسف_"
    in the Arabic bracket: in the bracket, the standings, the rounds and the entrants' list each
    name is a ``<bdi>``, its own direction; so is the event's description."""
    org, *ps = users("org", "يوسف_ca5d0", "p2", "p3", "p4")
    ko = event(org, "knockout", description='Test <b>bold</b> & "quotes"')
    enter(ko, ps)
    services.start(user=org, tournament_id=ko.pk)
    page = Client().get(reverse("tournament", args=[ko.pk])).content.decode()
    bracket = page[page.index('id="bracket"'):]
    assert re.search(r'<div class="slot[^"]*"><bdi>يوسف_ca5d0</bdi> <small>\(\d\)</small>', bracket)
    assert "<td><bdi>يوسف_ca5d0</bdi>" in page  # the standings
    assert re.search(r'<bdi class="entrant[^"]*">يوسف_ca5d0</bdi>', page)  # the rounds
    assert re.search(r'<li data-entrant-id="\d+"><bdi>يوسف_ca5d0</bdi>', page)  # the entrants
    # The organiser's description takes its own direction ("Test …" stays left to right).
    assert '<p class="description" dir="auto">Test &lt;b&gt;bold&lt;/b&gt; &amp; &quot;quotes&quot;</p>' in page


def test_a_best_of_three_shows_the_games_won():
    """A best of three shows the games won ("2–0"), not the pairing's "1–0"."""
    org, p1, p2 = users("org", "p1", "p2")
    t = event(org, "knockout", best_of=3)
    enter(t, [p1, p2])
    services.start(user=org, tournament_id=t.pk)
    for _ in range(2):
        (game,) = live_games(t)
        loser = game.pairing.b if game.pairing.a.user == p1 else game.pairing.a
        actions.resign(user=loser.user, match_id=game.match_id)
        services.catch_up(t.pk)  # the pairing's next match, after the ending's commit
    page = Client().get(reverse("tournament", args=[t.pk])).content.decode()
    assert '<span class="result">2–0' in page or '<span class="result">0–2' in page


def test_arena_streak_mark():
    org, *ps = users("org", "p1", "p2", "p3", "p4")
    arena = event(org, "arena", arena_minutes=60)
    enter(arena, ps)
    services.start(user=org, tournament_id=arena.pk)
    for _ in range(3):
        for game in live_games(arena):
            loser = max((game.pairing.a, game.pairing.b), key=lambda e: e.user.username)
            actions.resign(user=loser.user, match_id=game.match_id)
            services.catch_up(arena.pk)  # the next wave, after the ending's commit
    page = Client().get(reverse("tournament", args=[arena.pk])).content.decode()
    # The streak is drawn, its meaning its label, not left to an emoji font.
    assert '<svg class="fire"' in page and "🔥" not in page and 'pts-4 double' in page
    assert 'aria-label="On fire: the next win counts double"' in page


def test_event_results_on_player_profiles():
    org, *ps = users("org", "p1", "p2", "p3")
    t = event(org, "round_robin")
    enter(t, ps)
    services.start(user=org, tournament_id=t.pk)
    play_out(t)
    page = Client().get(reverse("profile", args=["p2"])).content.decode()
    assert reverse("tournament", args=[t.pk]) in page and "2 of 3" in page
    assert "Tournaments" not in Client().get(reverse("profile", args=["org"])).content.decode().split("</header>")[1]


def test_pages_and_errors_in_arabic():
    org, a = users("org", "a")
    t = event(org, "knockout", third_place=True)
    client = client_for(a)
    client.cookies["django_language"] = "ar"
    page = client.get(reverse("tournament", args=[t.pk]), HTTP_ACCEPT_LANGUAGE="ar").content.decode()
    assert 'dir="rtl"' in page and "البطولات" in page and "خروج المغلوب" in page and "سجّل" in page
    client.post(reverse("tournament_register", args=[t.pk]), HTTP_ACCEPT_LANGUAGE="ar")
    again = client.post(reverse("tournament_register", args=[t.pk]), HTTP_ACCEPT_LANGUAGE="ar", follow=True)
    assert "أنت مسجَّل في هذه البطولة بالفعل." in again.content.decode()
    listing = client.get(reverse("tournaments"), HTTP_ACCEPT_LANGUAGE="ar").content.decode()
    assert "قادمة" in listing and "نظّم بطولة" in listing


def test_every_page_of_a_signed_in_player_listens_for_the_tournaments_notices():
    org, a = users("org", "a")
    page = client_for(a).get(reverse("lobby")).content.decode()
    # The settings' names come with the page, the words from the JavaScript catalogue; the
    # script listens to the site's notice socket (no polling, no URL of its own).
    assert 'id="tournament-notice-config"' in page and "tournaments/notify.js" in page
    # A module; the notice socket (games/notices.js, imported by it and by the header's site.js)
    # opens once every module of the page has run, so it listens from the start.
    assert '<script type="module" src="/static/tournaments/notify.js">' in page
    assert '"starts_at": "starts at"' in page
    assert "my-tables.json" not in page
    anonymous = Client().get(reverse("lobby")).content.decode()
    assert "tournaments/notify.js" not in anonymous and "tournament-notice-config" not in anonymous
    from tests.site.catalogue import served_catalogue

    assert served_catalogue("ar")["%(event)s has started."] == "بدأت %(event)s."

def test_the_event_page_shows_the_real_start_once_started():
    """A fresh organiser pressed "Start now" an hour early: the page still said it starts at the
    planned time."""
    from django.template.defaultfilters import date as date_filter

    org, a, b = users("org", "a", "b")
    t = event(org, "round_robin", starts_in=60)
    enter(t, [a, b])
    planned = date_filter(t.starts_at, "SHORT_DATETIME_FORMAT")
    page = Client().get(reverse("tournament", args=[t.pk])).content.decode()
    assert "Starts at" in page and planned in page
    services.start(user=org, tournament_id=t.pk)
    t = refresh(t)
    started = date_filter(t.started_at, "SHORT_DATETIME_FORMAT")
    assert started != planned
    page = Client().get(reverse("tournament", args=[t.pk])).content.decode()
    assert "Started at" in page and "Starts at" not in page.split('id="event-live"')[0]
    assert started in page and planned not in page
    listing = Client().get(reverse("tournaments")).content.decode()
    assert started in listing and planned not in listing


def test_an_organiser_can_choose_no_tie_breaks():
    """A fresh organiser could not choose "no tie-breaks": an empty order meant the format's
    default. Now the first list offers it, and tied entrants share a place."""
    org, *ps = users("org", "p1", "p2", "p3")
    client = client_for(org)
    form = client.get(reverse("tournament_create")).content.decode()
    assert "No tie-breaks: tied entrants share a place" in form
    client.post(reverse("tournament_create"), form_data(tiebreak_1="none"))
    t = Tournament.objects.get()
    assert t.tiebreaks == [] and t.tiebreak_order() == []
    # Left to the site, the format's usual order is stored with the event.
    client.post(reverse("tournament_create"), form_data(name="Usual"))
    usual = Tournament.objects.get(name="Usual")
    assert usual.tiebreaks == ["direct_encounter", "sonneborn_berger", "wins"]
    # "None" and a tie-break after it contradict each other.
    bad = client.post(reverse("tournament_create"), form_data(name="Bad", tiebreak_1="none", tiebreak_2="wins"))
    assert bad.status_code == 200 and not Tournament.objects.filter(name="Bad").exists()
    # A cycle of three in a round robin (the pairing's second entrant always loses): a bye and
    # a win each, all tied, one shared place, no tie-break columns.
    enter(t, ps)
    services.start(user=org, tournament_id=t.pk)
    play_out(t, loser=lambda g: g.pairing.b)
    lines = services.standings(t)
    assert [(line.rank, line.score, line.tiebreaks) for line in lines] == [(1, 2, [])] * 3
    page = client.get(reverse("tournament", args=[t.pk])).content.decode()
    assert "None: tied entrants share a place" in page and "Sonneborn" not in page


def test_the_forfeit_form_is_not_offered_to_an_organiser_on_their_own_pairing():
    """The service refuses it (``own_pairing``); the page offered it anyway. Staff still see it."""
    org, *ps = users("org", "a", "b", "c")
    t = event(org, "round_robin")
    enter(t, [org, *ps])
    services.start(user=org, tournament_id=t.pk)
    games = live_games(t)
    own = next(g.pairing for g in games if org in (g.pairing.a.user, g.pairing.b.user))
    other = next(g.pairing for g in games if g.pairing.pk != own.pk)
    page = client_for(org).get(reverse("tournament", args=[t.pk])).content.decode()
    assert reverse("tournament_forfeit", args=[t.pk, other.pk]) in page
    assert reverse("tournament_forfeit", args=[t.pk, own.pk]) not in page
    staff = users("staff")[0]
    staff.is_staff = True
    staff.save(update_fields=["is_staff"])
    page = client_for(staff).get(reverse("tournament", args=[t.pk])).content.decode()
    assert reverse("tournament_forfeit", args=[t.pk, own.pk]) in page
    # Its result, once in, cannot be corrected by the organiser either: no form.
    services.record_forfeit(user=staff, pairing_id=own.pk, winner_id=own.a_id)
    page = client_for(org).get(reverse("tournament", args=[t.pk])).content.decode()
    assert reverse("tournament_correct", args=[t.pk, own.pk]) not in page
    assert reverse("tournament_forfeit", args=[t.pk, other.pk]) in page
