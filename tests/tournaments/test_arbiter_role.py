"""Issue 24's arbiter role: the organiser names arbiters (registered users, by username) who may
do what the organiser does on the event; an organiser (or arbiter) who plays in the event leaves
the results of their own pairings to another arbiter, or to staff when none is named. Naming and
removing an arbiter is kept in the organiser's changes, and the event page names them."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.tournaments import services
from games.tournaments.models import AuditEntry, Tournament
from tests.tournaments.helpers import (
    client_for, enter, event, live_games, page_of, refresh, refused, result_form, users,
)

pytestmark = pytest.mark.django_db


def own_and_other(t: Tournament, player):
    """The live pairing ``player`` plays in, and another one."""
    games = live_games(t)
    own = next(g.pairing for g in games if player.pk in (g.pairing.a.user_id, g.pairing.b.user_id))
    other = next(g.pairing for g in games if g.pairing.pk != own.pk)
    return own, other


def test_the_organiser_names_an_arbiter_by_username_on_the_event_page():
    org, ref, a, b = users("org", "ref", "a", "b")
    t = event(org, "swiss", swiss_rounds=3)
    enter(t, [a, b])
    page = page_of(org, t)
    assert 'id="arbiter-form"' in page and 'name="username"' in page
    assert 'id="arbiter-form"' not in page_of(a, t)
    response = client_for(org).post(reverse("tournament_add_arbiter", args=[t.pk]),
                                    {"username": "REF"}, follow=True)
    assert "ref is an arbiter of the event." in response.content.decode()
    assert list(t.arbiters.all()) == [ref]
    entry = t.audit.get(action=AuditEntry.Action.APPOINT)
    assert (entry.actor, entry.details) == (org, {"arbiter": "ref"})
    for viewer in (a, ref):
        page = page_of(viewer, t)
        assert "<dt>Arbiter</dt>" in page and f'href="{reverse("profile", args=["ref"])}">ref</a>' in page
        assert "org: Named an arbiter: ref" in page


def test_the_arbiter_is_told_after_the_commit(sent, django_capture_on_commit_callbacks):
    org, ref = users("org", "ref")
    t = event(org, "arena", arena_minutes=30)
    with django_capture_on_commit_callbacks(execute=True):
        services.add_arbiter(user=org, tournament_id=t.pk, arbiter=ref)
        assert sent == []
    assert [(user_id, kind, p["news"]) for user_id, kind, p in sent] == [
        (ref.pk, "tournament_news", "arbiter")]


def test_naming_an_arbiter_is_refused_to_others_and_for_nobody_and_changes_nothing():
    org, ref, other, a = users("org", "ref", "other", "a")
    t = event(org, "swiss", swiss_rounds=3)
    enter(t, [a])
    services.add_arbiter(user=org, tournament_id=t.pk, arbiter=ref)
    refused("not_event_organiser", t, services.add_arbiter, user=ref, tournament_id=t.pk, arbiter=other)
    refused("not_event_organiser", t, services.add_arbiter, user=a, tournament_id=t.pk, arbiter=a)
    refused("not_event_organiser", t, services.remove_arbiter, user=ref, tournament_id=t.pk, arbiter_id=ref.pk)
    refused("already_arbiter", t, services.add_arbiter, user=org, tournament_id=t.pk, arbiter=ref)
    refused("arbiter_is_organiser", t, services.add_arbiter, user=org, tournament_id=t.pk, arbiter=org)
    refused("not_arbiter", t, services.remove_arbiter, user=org, tournament_id=t.pk, arbiter_id=other.pk)
    unknown = client_for(org).post(reverse("tournament_add_arbiter", args=[t.pk]),
                                   {"username": "nobody"}, follow=True)
    assert "There is no player called nobody." in unknown.content.decode()
    forged = client_for(other).post(reverse("tournament_add_arbiter", args=[t.pk]),
                                    {"username": "other"}, follow=True)
    assert "Only the organiser (or staff) names and removes the arbiters." in forged.content.decode()
    assert list(t.arbiters.all()) == [ref]
    assert 'id="arbiter-form"' not in page_of(ref, t)  # an arbiter acts, the organiser names


def test_an_arbiter_does_what_the_organiser_does_until_removed():
    org, ref, *ps = users("org", "ref", "p1", "p2", "p3", "p4")
    t = event(org, "round_robin")
    entrants = enter(t, ps)
    refused("not_organiser", t, services.start, user=ref, tournament_id=t.pk)
    services.add_arbiter(user=org, tournament_id=t.pk, arbiter=ref)
    assert 'id="start-button"' in page_of(ref, t) and 'id="edit-link"' in page_of(ref, t)
    assert client_for(ref).get(reverse("tournament_edit", args=[t.pk])).status_code == 200
    services.start(user=ref, tournament_id=t.pk)
    services.pause(user=ref, tournament_id=t.pk)
    services.resume(user=ref, tournament_id=t.pk)
    p = live_games(t)[0].pairing
    services.record_forfeit(user=ref, pairing_id=p.pk, winner_id=p.b_id)
    services.correct_result(user=ref, pairing_id=p.pk, winner_id=p.a_id)
    actions = list(t.audit.filter(actor=ref).order_by("pk").values_list("action", flat=True))
    assert actions == ["start", "pause", "resume", "forfeit", "correct"]
    client_for(org).post(reverse("tournament_remove_arbiter", args=[t.pk, ref.pk]))
    assert not t.arbiters.exists()
    assert t.audit.get(action=AuditEntry.Action.DISMISS).details == {"arbiter": "ref"}
    refused("not_organiser", t, services.pause, user=ref, tournament_id=t.pk)
    refused("not_organiser", t, services.withdraw_other, user=ref, entrant_id=entrants[0].pk)
    assert "<dt>Arbiter</dt>" not in page_of(ref, t)


def test_an_organiser_who_plays_leaves_their_own_pairing_to_the_arbiter():
    """The issue: "an organiser who plays has their own pairings decided by the arbiter"."""
    org, ref, *ps = users("org", "ref", "p1", "p2", "p3")
    t = event(org, "round_robin")
    enter(t, [org, *ps])
    services.add_arbiter(user=org, tournament_id=t.pk, arbiter=ref)
    services.start(user=org, tournament_id=t.pk)
    own, other = own_and_other(t, org)
    assert f"/pairing/{own.pk}/forfeit/" not in page_of(org, t)
    result_form(page_of(ref, t), own.pk)  # offered to the arbiter
    refused("own_pairing", t, services.record_forfeit, user=org, pairing_id=own.pk, winner_id=own.a_id)
    services.record_forfeit(user=org, pairing_id=other.pk, winner_id=other.a_id)  # not theirs
    mine = own.a_id if own.a.user_id == org.pk else own.b_id
    theirs = own.b_id if mine == own.a_id else own.a_id
    services.record_forfeit(user=ref, pairing_id=own.pk, winner_id=theirs)
    refused("own_pairing", t, services.correct_result, user=org, pairing_id=own.pk, winner_id=mine)
    response = client_for(org).post(reverse("tournament_correct", args=[t.pk, own.pk]),
                                    {"winner": str(mine)}, follow=True)
    assert "decided by an arbiter (or staff), not by you." in response.content.decode()
    own.refresh_from_db()
    assert own.winner_id == theirs


def test_an_arbiter_who_plays_does_not_decide_their_own_pairing_either():
    org, ref, p2 = users("org", "ref", "p2")
    t = event(org, "round_robin")
    enter(t, [ref, p2])
    services.add_arbiter(user=org, tournament_id=t.pk, arbiter=ref)
    services.start(user=ref, tournament_id=t.pk)
    (game,) = live_games(t)
    refused("own_pairing", t, services.record_forfeit, user=ref, pairing_id=game.pairing_id,
            winner_id=game.pairing.a_id)
    services.record_forfeit(user=org, pairing_id=game.pairing_id, winner_id=game.pairing.a_id)


def test_arbiters_stay_as_they_were_once_the_event_is_over():
    org, ref, a, b = users("org", "ref", "a", "b")
    t = event(org, "swiss", swiss_rounds=3)
    enter(t, [a, b])
    services.add_arbiter(user=org, tournament_id=t.pk, arbiter=ref)
    services.cancel(user=org, tournament_id=t.pk)
    assert refresh(t).status == Tournament.Status.CANCELLED
    refused("event_over", t, services.add_arbiter, user=org, tournament_id=t.pk, arbiter=a)
    refused("event_over", t, services.remove_arbiter, user=org, tournament_id=t.pk, arbiter_id=ref.pk)
    page = page_of(org, t)
    assert 'id="arbiter-form"' not in page and "<dt>Arbiter</dt>" in page
