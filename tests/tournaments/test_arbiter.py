"""Issue 24, "Tournament organisation as a club arbiter expects it": the organiser's result
lists preselect nothing (a correction its current result), nothing chosen is refused, and what
ends a table being played (a forfeit, a withdrawal, the organiser withdrawing a no-show) needs
the confirmation the page asks for (``static/site.js``): a post without it changes
nothing. Withdrawals are kept in the organiser's changes."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse

from games.core import actions
from games.tournaments import services
from games.tournaments.models import AuditEntry, Entrant, Pairing, Tournament
from tests.tournaments.helpers import (
    client_for, enter, event, form_data, live_games, page_of, play_round, refresh, refused,
    resign_for, result_form, snapshot, started_arena, users,
)

pytestmark = pytest.mark.django_db


def live_round_robin(*names: str):
    org, *ps = users("org", *names)
    t = event(org, "round_robin")
    entrants = enter(t, ps)
    services.start(user=org, tournament_id=t.pk)
    return org, t, entrants


def test_the_forfeit_list_preselects_nothing_and_asks_to_confirm_ending_the_table():
    """"Record a forfeit" pressed untouched must not make the first-listed entrant the winner
    and end the live table in one click: nothing is chosen, and the ending is confirmed."""
    org, t, _ = live_round_robin("p1", "p2")
    (game,) = live_games(t)
    form = result_form(page_of(org, t), game.pairing_id)
    assert '<option value="" selected>(choose)</option>' in form
    assert form.count(" selected") == 1
    assert 'data-confirm="This ends the table being played now' in form
    assert '<input type="hidden" name="confirmed" value="">' in form
    assert '<option value="none">Both lose</option>' in form


def test_a_forfeit_posted_untouched_or_unconfirmed_changes_nothing():
    org, t, _ = live_round_robin("p1", "p2")
    (game,) = live_games(t)
    p = game.pairing
    url = reverse("tournament_forfeit", args=[t.pk, p.pk])
    before = snapshot(t)
    untouched = client_for(org).post(url, {"winner": "", "confirmed": "yes"}, follow=True)
    assert "Choose who wins (or that both lose): nothing was changed." in untouched.content.decode()
    forged = client_for(org).post(url, {"winner": "x7"}, follow=True)
    assert "Choose who wins" in forged.content.decode()
    unconfirmed = client_for(org).post(url, {"winner": p.a_id}, follow=True)
    assert "This ends a table being played: nothing was changed." in unconfirmed.content.decode()
    assert snapshot(t) == before and live_games(t)
    refused("confirm_needed", t, services.record_forfeit, user=org, pairing_id=p.pk,
            winner_id=p.a_id, end_live=False)
    client_for(org).post(url, {"winner": p.a_id, "confirmed": "yes"})
    p.refresh_from_db()
    assert p.finished and p.forfeit and p.winner_id == p.a_id and not live_games(t)


def test_both_lose_is_its_own_choice():
    org, t, _ = live_round_robin("p1", "p2", "p3")
    (game,) = live_games(t)
    p = game.pairing
    client_for(org).post(reverse("tournament_forfeit", args=[t.pk, p.pk]),
                         {"winner": "none", "confirmed": "yes"})
    p.refresh_from_db()
    assert p.finished and p.winner_id is None and (p.score_a, p.score_b) == (0.0, 0.0)


def test_the_correction_list_preselects_the_current_result_so_pressing_it_untouched_changes_nothing():
    """"Correct the result" pressed untouched keeps the result (round-robin and arena
    pairings alike), rather than give it to the first-listed entrant."""
    org, t, _ = live_round_robin("p1", "p2")
    (game,) = live_games(t)
    p = game.pairing
    services.record_forfeit(user=org, pairing_id=p.pk, winner_id=p.b_id)
    form = result_form(page_of(org, t), p.pk)
    assert f'<option value="{p.b_id}" selected>' in form and form.count(" selected") == 1
    assert "(choose)" not in form and "data-confirm" not in form
    before = snapshot(t)
    response = client_for(org).post(reverse("tournament_correct", args=[t.pk, p.pk]),
                                    {"winner": str(p.b_id)}, follow=True)
    assert "That is already the result." in response.content.decode()
    empty = client_for(org).post(reverse("tournament_correct", args=[t.pk, p.pk]), {}, follow=True)
    assert "Choose who wins" in empty.content.decode()
    assert snapshot(t) == before


def test_withdrawing_during_a_live_table_needs_the_confirmation_and_is_in_the_organisers_changes():
    """"Withdraw" ends a live knockout table, so it asks first; and the withdrawal is in
    "Organiser's changes"."""
    org, *ps = users("org", "p1", "p2")
    t = event(org, "knockout")
    enter(t, ps)
    services.start(user=org, tournament_id=t.pk)
    page = page_of(ps[0], t)
    assert 'data-confirm="Withdraw from the event? It is final' in page
    url = reverse("tournament_withdraw", args=[t.pk])
    before = snapshot(t)
    response = client_for(ps[0]).post(url, follow=True)
    assert "This ends a table being played" in response.content.decode()
    assert snapshot(t) == before and live_games(t)
    client_for(ps[0]).post(url, {"confirmed": "yes"})
    assert Entrant.objects.get(tournament=t, user=ps[0]).status == Entrant.Status.WITHDRAWN
    assert not live_games(t)
    (entry,) = AuditEntry.objects.filter(tournament=t, action=AuditEntry.Action.WITHDRAW)
    assert (entry.actor, entry.details["entrant"]) == (ps[0], "p1")
    assert "p1: Withdrew an entrant: p1" in page_of(org, t)


def test_the_organiser_withdraws_a_no_show():
    """The organiser could not withdraw a no-show: their table waited for ever."""
    org, t, entrants = live_round_robin("p1", "p2", "p3", "p4")
    no_show = entrants[0]
    page = page_of(org, t)
    url = reverse("tournament_withdraw_entrant", args=[t.pk, no_show.pk])
    assert url in page and 'data-confirm="Withdraw p1 from the event?' in page
    assert url not in page_of(entrants[1].user, t)
    refused("not_organiser", t, services.withdraw_other, user=entrants[1].user, entrant_id=no_show.pk)
    before = snapshot(t)
    client_for(org).post(url)  # unconfirmed: p1's table is being played
    assert snapshot(t) == before
    client_for(org).post(url, {"confirmed": "yes"})
    no_show.refresh_from_db()
    assert no_show.status == Entrant.Status.WITHDRAWN
    (entry,) = AuditEntry.objects.filter(tournament=t, action=AuditEntry.Action.WITHDRAW)
    assert (entry.actor, entry.details["entrant"]) == (org, "p1")
    refused("not_registered", t, services.withdraw_other, user=org, entrant_id=no_show.pk)
    assert refresh(t).status == Tournament.Status.RUNNING


def test_an_organiser_who_plays_may_not_withdraw_their_own_opponent():
    org, p2 = users("org", "p2")
    t = event(org, "round_robin")
    _, theirs = enter(t, [org, p2])
    services.start(user=org, tournament_id=t.pk)
    refused("own_pairing", t, services.withdraw_other, user=org, entrant_id=theirs.pk)


def test_pausing_an_arena_moves_its_end_on_by_the_pause_and_the_page_says_so():
    """A 4-minute arena paused for 100 s ends 100 s later, and its page says so."""
    org, *ps = users("org", "p1", "p2", "p3", "p4")
    t, start = started_arena(org, ps, 4)
    end = t.ends_at
    assert end == start + timedelta(minutes=4)
    services.pause(user=org, tournament_id=t.pk, now=start + timedelta(seconds=60))
    assert "paused: the end moves on by the length of the pause" in page_of(org, t)
    # Its matches end during the pause (no wave follows), then the planned end passes: the
    # arena does not end.
    assert play_round(t) == 2 and not live_games(t)
    services.tick(now=end + timedelta(seconds=5))
    assert refresh(t).status == Tournament.Status.RUNNING
    services.resume(user=org, tournament_id=t.pk, now=start + timedelta(seconds=160))
    assert refresh(t).ends_at == end + timedelta(seconds=100)
    entry = AuditEntry.objects.get(tournament=t, action=AuditEntry.Action.RESUME)
    assert entry.details["moved_seconds"] == 100
    assert "Resumed the event: the end moved on by 100 seconds" in page_of(org, t)


def test_a_swiss_with_more_rounds_than_entrants_less_one_warns_the_organiser():
    """A 5-round Swiss of 4 entrants cannot pair every round without a repeat: the organiser
    is warned before it starts."""
    org, *ps = users("org", "p1", "p2", "p3", "p4", "p5", "p6")
    t = event(org, "swiss", swiss_rounds=5)
    enter(t, ps[:4])
    warning = "This Swiss has 5 rounds for 4 entrants: more rounds than entrants less one"
    assert warning in page_of(org, t)
    assert warning not in page_of(ps[0], t)
    response = client_for(org).post(reverse("tournament_start", args=[t.pk]), follow=True)
    text = response.content.decode()
    assert "The tournament has started." in text and warning in text
    roomy = event(org, "swiss", swiss_rounds=5)
    enter(roomy, ps)
    assert "This Swiss has" not in page_of(org, roomy)


def test_the_standings_name_their_articles_and_are_provisional_mid_round():
    org, *ps = users("org", "p1", "p2", "p3", "p4")
    t = event(org, "swiss", swiss_rounds=3)
    enter(t, ps)
    services.start(user=org, tournament_id=t.pk)
    page = page_of(org, t)
    assert "Provisional: round 1 is being played" in page
    assert ("Tie-breaks follow FIDE Handbook C.07, Tie-Break Regulations effective from "
            "1 August 2024: Buchholz cut 1, article 8.1, 14.1; Buchholz, article 8.1; "
            "Sonneborn-Berger, article 9.1; unplayed rounds, article 16.") in page
    play_round(t)  # round 1 over, round 2 paired
    first, _second = live_games(t)
    resign_for(max((first.pairing.a, first.pairing.b), key=lambda e: e.user.username), first)
    assert "Provisional: round 2 is being played" in page_of(org, t)
    # Mid-round, a table still being played is not a round its entrants stayed away from (which
    # would count ½ in their opponents' Buchholz, C.07 16.3): each Buchholz is the sum of the
    # finished opponents' scores.
    lines = {line.entrant.pk: line for line in services.standings(t)}
    for e in Entrant.objects.filter(tournament=t):
        opponents = [p.b_id if p.a_id == e.pk else p.a_id
                     for p in Pairing.objects.filter(tournament=t, finished_at__isnull=False)
                     if e.pk in (p.a_id, p.b_id)]
        assert lines[e.pk].tiebreaks[1] == sum(lines[o].score for o in opponents)


def test_the_bracket_names_its_rounds_draws_the_later_ones_and_labels_the_third_place_match():
    """The bracket names its rounds (not "Round 1/2/3"), labels its third-place box, draws the
    rounds not yet paired, and the knockout standings have no "Last round" column."""
    org, *ps = users("org", *[f"p{i}" for i in range(1, 9)])
    t = event(org, "knockout", third_place=True)
    enter(t, ps)
    services.start(user=org, tournament_id=t.pk)
    page = page_of(org, t)
    bracket = page[page.index('id="bracket"'):page.index("</section>", page.index('id="bracket"'))]
    assert [h for h in re.findall(r"<h3>(.*?)</h3>", bracket)] == ["Quarter-finals", "Semi-finals", "Final"]
    assert bracket.count('class="bracket-pairing empty"') == 2 + 1  # semi-finals and final
    assert bracket.count("Third-place match") == 1 and 'class="bracket-pairing third empty"' in bracket
    assert "Last round" not in page and "<th>Reached</th>" in page
    play_round(t)
    play_round(t)  # the semi-finals: the final and the third-place match are paired
    page = page_of(org, t)
    bracket = page[page.index('id="bracket"'):page.index("</section>", page.index('id="bracket"'))]
    assert 'class="bracket-pairing empty"' not in bracket and "third empty" not in bracket
    assert '<h4 class="third-label">Third-place match</h4>' in bracket
    assert ">Semi-finals</td>" in page and ">Quarter-finals</td>" in page


def test_times_are_taken_in_the_organisers_zone_and_shown_in_each_viewers():
    """The create form took times in UTC only. Cairo is UTC+2 in winter and UTC+3 in summer
    (summer time since 2023): 18:00 there is 16:00 or 15:00 UTC."""
    from datetime import UTC, datetime

    (org,) = users("org")
    client = client_for(org)
    form = client.get(reverse("tournament_create")).content.decode()
    assert 'name="time_zone"' in form and 'value="Africa/Cairo"' in form and "data-browser-zone" in form
    assert 'class="format-option" data-formats="swiss"' in form  # create.js shows one format's
    client.post(reverse("tournament_create"), form_data(
        name="Winter", starts_at="2099-01-15T18:00", time_zone="Africa/Cairo"))
    client.post(reverse("tournament_create"), form_data(
        name="Summer", starts_at="2099-07-01T18:00", time_zone="Africa/Cairo"))
    winter, summer = Tournament.objects.get(name="Winter"), Tournament.objects.get(name="Summer")
    assert winter.starts_at == datetime(2099, 1, 15, 16, 0, tzinfo=UTC)
    assert summer.starts_at == datetime(2099, 7, 1, 15, 0, tzinfo=UTC)
    assert winter.time_zone == "Africa/Cairo"
    refused = client.post(reverse("tournament_create"), form_data(name="x", time_zone="Mars/Olympus"))
    assert refused.status_code == 200 and not Tournament.objects.filter(name="x").exists()
    # A viewer without a zone of their own sees the organiser's; one in Tokyo sees Tokyo's.
    page = Client().get(reverse("tournament", args=[summer.pk])).content.decode()
    assert 'id="event-zone">Egypt Time<' in page
    tokyo = Client()
    tokyo.cookies["basra_tz"] = "Asia/Tokyo"
    page = tokyo.get(reverse("tournament", args=[summer.pk])).content.decode()
    assert 'id="event-zone">Japan Time <small>' in page and "the organiser's: Egypt Time" in page
    from django.template.defaultfilters import date as date_filter
    from zoneinfo import ZoneInfo
    assert date_filter(summer.starts_at.astimezone(ZoneInfo("Asia/Tokyo")), "SHORT_DATETIME_FORMAT") in page
    forged = Client()
    forged.cookies["basra_tz"] = "<script>"
    assert 'id="event-zone">Egypt Time<' in forged.get(reverse("tournament", args=[summer.pk])).content.decode()


def test_a_tournament_table_links_back_to_its_event():
    org, t, _ = live_round_robin("p1", "p2")
    (game,) = live_games(t)
    page = client_for(org).get(reverse("table", args=[game.match_id])).content.decode()
    assert f'<a href="{reverse("tournament", args=[t.pk])}">round_robin test, Round 1: back to the event</a>' in page
    # A table of no event has no such link.
    (alone,) = users("alone")
    match = actions.create_table(user=alone, players=2, rules={}, rated=False)
    assert 'id="tournament-link"' not in client_for(alone).get(reverse("table", args=[match.pk])).content.decode()


@pytest.mark.parametrize("language, semicolon", [("fr", "\u00a0; "), ("ar", "؛ ")])
def test_the_tie_breaks_are_separated_as_the_reader_s_language_writes_it(language, semicolon):
    """The tie-breaks' clauses are separated by the reader's semicolon: French puts a no-break
    space before it, Arabic writes "؛"."""
    org, *ps = users("org", "p1", "p2")
    t = event(org, "swiss", swiss_rounds=3)
    enter(t, ps)
    services.start(user=org, tournament_id=t.pk)
    client = client_for(org)
    client.cookies["django_language"] = language
    page = client.get(reverse("tournament", args=[t.pk]), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    note = page.split('id="tiebreak-articles">', 1)[1].split("</p>", 1)[0]
    assert note.count(semicolon) == 3  # three tie-breaks and the unplayed rounds' rule
    assert "; " not in note.replace(semicolon, "")
