"""A partner's invitation (games/tournaments/registration.py): a fresh organiser found no way to
decline one and no live word of it. The invited player is told live, wherever they are on the
site (``tournament_invite``), may accept or decline on the event page (POST, CSRF, only them),
and the player who invited them is told of a refusal (``tournament_declined``)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from games.tournaments import news, services
from games.tournaments.errors import TournamentError
from games.tournaments.models import Entrant
from tests.tournaments.helpers import client_for, event, users

pytestmark = pytest.mark.django_db


def test_the_invited_partner_is_told_live_after_the_commit(sent, django_capture_on_commit_callbacks):
    org, a, b = users("org", "a", "b")
    t = event(org, "round_robin", players=4)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        e = services.register(user=a, tournament_id=t.pk, partner=b)
    assert sent == []
    for callback in callbacks:
        callback()
    assert sent == [(b.pk, news.INVITE, {
        "tournament_id": t.pk, "event": t.name, "event_url": reverse("tournament", args=[t.pk]),
        "entrant_id": e.pk, "inviter": "a",
    })]


def test_only_the_invited_partner_declines_and_the_inviter_is_told(sent, django_capture_on_commit_callbacks):
    org, a, b, c = users("org", "a", "b", "c")
    t = event(org, "round_robin", players=4)
    e = services.register(user=a, tournament_id=t.pk, partner=b)
    sent.clear()
    for user in (a, c):
        with pytest.raises(TournamentError) as error:
            services.decline_partner(user=user, entrant_id=e.pk)
        assert error.value.code == "not_invited"
    assert Entrant.objects.filter(pk=e.pk).exists()
    with django_capture_on_commit_callbacks(execute=True):
        services.decline_partner(user=b, entrant_id=e.pk)
    assert not Entrant.objects.filter(pk=e.pk).exists()
    assert sent == [(a.pk, news.DECLINED, {
        "tournament_id": t.pk, "event": t.name, "event_url": reverse("tournament", args=[t.pk]),
        "partner": "b",
    })]
    with pytest.raises(TournamentError) as error:
        services.decline_partner(user=b, entrant_id=e.pk)
    assert error.value.code == "not_found"
    # a may invite someone else now.
    again = services.register(user=a, tournament_id=t.pk, partner=c)
    services.accept_partner(user=c, entrant_id=again.pk)
    with pytest.raises(TournamentError) as error:
        services.decline_partner(user=c, entrant_id=again.pk)
    assert error.value.code == "already_accepted"


def test_decline_on_the_event_page_is_a_post_with_csrf_for_the_invitee_only():
    org, a, b = users("org", "a", "b")
    t = event(org, "round_robin", players=4)
    e = services.register(user=a, tournament_id=t.pk, partner=b)
    url = reverse("tournament_decline", args=[t.pk, e.pk])
    page = client_for(b).get(reverse("tournament", args=[t.pk])).content.decode()
    assert url in page and "Decline" in page
    assert url not in client_for(a).get(reverse("tournament", args=[t.pk])).content.decode()
    client_for(b).get(url)
    assert Entrant.objects.filter(pk=e.pk).exists()  # a GET changes nothing
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(b)
    assert strict.post(url).status_code == 403
    refused = client_for(a).post(url, follow=True).content.decode()
    assert "not addressed to you" in refused and Entrant.objects.filter(pk=e.pk).exists()
    done = client_for(b).post(url, follow=True).content.decode()
    assert "You have declined the invitation." in done
    assert not Entrant.objects.filter(pk=e.pk).exists()


def test_the_notices_are_worded_on_every_page():
    from tests.site.catalogue import script_label, served_catalogue

    (a,) = users("a")
    page = client_for(a).get(reverse("lobby")).content.decode()
    assert "tournaments/notify.js" in page
    notify = "games/tournaments/static/tournaments/notify.js"
    labels = {key: script_label(notify, key) for key in ("invite", "declined")}
    assert labels["invite"] == "%(inviter)s invites you as a partner in %(event)s: answer on the event page."
    assert labels["declined"] == "%(partner)s declined your invitation to play %(event)s together."
    arabic = served_catalogue("ar")
    assert arabic[labels["invite"]] != labels["invite"] and "%(inviter)s" in arabic[labels["invite"]]
    assert arabic[labels["declined"]] != labels["declined"] and "%(partner)s" in arabic[labels["declined"]]
