"""A fresh organiser's findings on the tournaments app: a correction to the same result, the
correction form where the service refuses it, a registration deadline in the past, a cancelled
event that says why, a withdrawn player registering again, the partnership invitation's
buttons and messages, the winner's label on the forfeit form."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.core import actions
from games.tournaments import services
from games.tournaments.models import AuditEntry, Tournament
from tests.tournaments.helpers import client_for, enter, event, form_data, live_games, refused, users

pytestmark = pytest.mark.django_db


def page_of(client: Client, t) -> str:
    return client.get(reverse("tournament", args=[t.pk])).content.decode()


def test_correcting_a_result_to_the_same_winner_is_refused_and_not_audited():
    """"Correct the result" with the winner it has changes nothing: it is refused, not said
    "corrected" and audited "p7 → p7"."""
    org, *ps = users("org", "p7", "p8")
    t = event(org, "round_robin")
    enter(t, ps)
    services.start(user=org, tournament_id=t.pk)
    (game,) = live_games(t)
    p = game.pairing
    services.record_forfeit(user=org, pairing_id=p.pk, winner_id=p.a_id)
    refused("same_result", t, services.correct_result, user=org, pairing_id=p.pk, winner_id=p.a_id)
    response = client_for(org).post(reverse("tournament_correct", args=[t.pk, p.pk]),
                                    {"winner": p.a_id}, follow=True)
    text = response.content.decode()
    assert "That is already the result." in text and "The result is corrected." not in text
    assert not AuditEntry.objects.filter(tournament=t, action=AuditEntry.Action.CORRECT).exists()


def test_the_correction_form_is_not_offered_once_the_next_knockout_round_is_paired_on_it():
    """"Correct the result" is not offered on a knockout pairing whose next round is paired on
    it: submitting could only be refused ("The next round is already paired on this
    result.")."""
    org, *ps = users("org", "p1", "p2", "p3", "p4")
    t = event(org, "knockout")
    enter(t, ps)
    services.start(user=org, tournament_id=t.pk)
    first = live_games(t)
    done, other = first[0].pairing, first[1].pairing
    loser = max((done.a, done.b), key=lambda e: e.user.username)
    actions.resign(user=loser.user, match_id=first[0].match_id)
    page = page_of(client_for(org), t)
    assert reverse("tournament_correct", args=[t.pk, done.pk]) in page  # round 2 not paired yet
    loser = max((other.a, other.b), key=lambda e: e.user.username)
    actions.resign(user=loser.user, match_id=first[1].match_id)
    services.catch_up(t.pk)  # round 2, after the ending's commit
    page = page_of(client_for(org), t)
    assert reverse("tournament_correct", args=[t.pk, done.pk]) not in page
    assert reverse("tournament_correct", args=[t.pk, other.pk]) not in page
    final = live_games(t)[0].pairing
    assert reverse("tournament_forfeit", args=[t.pk, final.pk]) in page


def test_registration_closing_in_the_past_is_refused_by_the_form():
    """An event whose "Registration closes" is already past (its start in the future) is
    refused by the form: nobody could ever register."""
    (org,) = users("org")
    client = client_for(org)
    past = (timezone.now() - timedelta(hours=1)).strftime("%Y-%m-%dT%H:%M")
    response = client.post(reverse("tournament_create"), form_data(registration_closes=past))
    assert response.status_code == 200
    assert "Registration must not close in the past." in response.content.decode()
    assert not Tournament.objects.exists()
    soon = (timezone.now() + timedelta(hours=1)).strftime("%Y-%m-%dT%H:%M")
    client.post(reverse("tournament_create"), form_data(registration_closes=soon))
    assert Tournament.objects.count() == 1


def test_a_cancelled_event_says_why_in_the_page_and_the_audit_trail():
    """An event cancelled at its start (one entrant) says why on its page and in "Organiser's
    changes", not only "Cancelled", and has no empty "Organiser:" label."""
    org, p1 = users("org", "p1")
    t = event(org, "round_robin", starts_in=5)
    enter(t, [p1])
    assert services.tick(now=timezone.now() + timedelta(minutes=6))["cancelled"] == 1
    (entry,) = AuditEntry.objects.filter(tournament=t)
    assert (entry.actor, entry.action, entry.details) == (
        None, AuditEntry.Action.CANCEL, {"reason": "too_few_entrants", "entrants": 1})
    page = page_of(client_for(org), t)
    assert "Cancelled: fewer than two entrants at the start." in page
    assert "Organiser's changes" in page
    assert "The site: Cancelled the event (fewer than two entrants at the start)" in page
    assert "<strong>Organiser:</strong>" not in page
    assert f">{org.username}</a>" in page  # the settings still name the organiser


def test_a_withdrawn_player_registering_again_is_told_they_withdrew():
    """A withdrawn player posting "register" again (a Swiss taking late entries) is told they
    withdrew, not "You are already registered for this tournament"."""
    org, *ps = users("org", "p1", "p2", "p3", "p4")
    t = event(org, "swiss", swiss_rounds=5)
    enter(t, ps)
    services.start(user=org, tournament_id=t.pk)
    services.withdraw(user=ps[0], tournament_id=t.pk)
    assert services.registration_open(t)  # late entry still open to others
    refused("withdrew", t, services.register, user=ps[0], tournament_id=t.pk)
    response = client_for(ps[0]).post(reverse("tournament_register", args=[t.pk]), follow=True)
    assert "You withdrew from this tournament and cannot enter it again." in response.content.decode()


def test_the_invitee_sees_only_the_invitation_and_the_inviter_the_waiting_line():
    """An invited partner (p3, invited by p2) sees their Accept/Decline alone; "Waiting for p3
    to accept." and the Withdraw button are the inviter's."""
    org, p2, p3 = users("org", "p2", "p3")
    t = event(org, "round_robin", players=4)
    e = services.register(user=p2, tournament_id=t.pk, partner=p3)
    invitee = page_of(client_for(p3), t)
    assert reverse("tournament_accept", args=[t.pk, e.pk]) in invitee
    assert reverse("tournament_decline", args=[t.pk, e.pk]) in invitee
    assert "Waiting for p3 to accept." not in invitee and 'id="withdraw-button"' not in invitee
    assert 'id="register-button"' not in invitee
    inviter = page_of(client_for(p2), t)
    assert "Waiting for p3 to accept." in inviter and 'id="withdraw-button"' in inviter
    assert reverse("tournament_accept", args=[t.pk, e.pk]) not in inviter


def test_inviting_a_player_with_a_pending_invitation_from_someone_else():
    """A player with only a pending invitation from someone else is not "already registered
    for this tournament": the refusal names the pending invitation."""
    org, p1, p2, p3 = users("org", "p1", "p2", "p3")
    t = event(org, "round_robin", players=4)
    services.register(user=p2, tournament_id=t.pk, partner=p3)
    refused("partner_invited", t, services.register, user=p1, tournament_id=t.pk, partner=p3)
    response = client_for(p1).post(reverse("tournament_register", args=[t.pk]), {"partner": "p3"}, follow=True)
    assert "Your partner has a pending invitation from another player" in response.content.decode()


def test_the_forfeit_form_labels_its_list_as_the_winner():
    """The forfeit form's list is labelled as the winner: "[p1 ▾] Record a forfeit" does not
    say whom the name is for."""
    org, *ps = users("org", "p1", "p2")
    t = event(org, "round_robin")
    enter(t, ps)
    services.start(user=org, tournament_id=t.pk)
    (game,) = live_games(t)
    page = page_of(client_for(org), t)
    assert f'<label for="winner-{game.pairing_id}">Winner:</label>' in page
    assert f'<select name="winner" id="winner-{game.pairing_id}">' in page


def test_a_start_at_the_current_minute_is_refused_by_the_form():
    """Issue 24: an event set to start at the current minute passed the form, closed its
    registration at once and was cancelled 10 s later for want of entrants."""
    (org,) = users("org")
    client = client_for(org)
    # The current minute is refused (as too soon, or as past once the minute has turned).
    now = timezone.localtime().strftime("%Y-%m-%dT%H:%M")
    assert client.post(reverse("tournament_create"), form_data(starts_at=now)).status_code == 200
    # Two minutes on (between one and two minutes away once typed to the minute): too soon.
    soon = (timezone.localtime() + timedelta(minutes=2)).strftime("%Y-%m-%dT%H:%M")
    response = client.post(reverse("tournament_create"), form_data(starts_at=soon))
    assert response.status_code == 200
    assert "The start must be at least 5 minutes from now" in response.content.decode()
    closing = client.post(reverse("tournament_create"), form_data(registration_closes=soon))
    assert "Registration must stay open at least 5 minutes." in closing.content.decode()
    assert not Tournament.objects.exists()
    later = (timezone.localtime() + timedelta(minutes=10)).strftime("%Y-%m-%dT%H:%M")
    assert client.post(reverse("tournament_create"), form_data(starts_at=later)).status_code == 302
    assert Tournament.objects.count() == 1
