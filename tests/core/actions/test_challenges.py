"""Challenges (games.core.actions.challenges, games.core.pages.friend_views): every rule and every state."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.core import actions
from games.core.models import Challenge, Match, Seat
from games.core.state import notices
from tests.core.helpers import refused

pytestmark = [pytest.mark.django_db, pytest.mark.live]


def challenge(user, username, **kwargs):
    options = {"rules": {"target": 61}, "rated": False, "move_seconds": 20} | kwargs
    return actions.create_challenge(user=user, username=username, **options)


def nothing_changed(before: int, matches: int = 0) -> None:
    assert Challenge.objects.count() == before
    assert Match.objects.count() == matches



def test_a_challenge_is_sent_live_to_both(make_player, sent, django_capture_on_commit_callbacks):
    alice, bob = make_player("alice"), make_player("bob")
    with django_capture_on_commit_callbacks(execute=True):
        made = challenge(alice.user, "bob", rated=True)
    assert made.status == Challenge.Status.PENDING and made.rated
    assert made.rules["players"] == 2 and made.rules["target"] == 61
    waits = made.expires_at - made.created_at
    assert timedelta(seconds=178) < waits < timedelta(seconds=182)
    assert [(uid, kind) for uid, kind, _p in sent] == [
        (bob.user.pk, "challenge"), (alice.user.pk, "challenge_sent"),
    ]
    payload = sent[0][2]
    assert payload["from"] == "alice" and payload["to"] == "bob" and payload["id"] == made.pk
    assert payload["move_seconds"] == 20 and payload["target"] == 61 and payload["url"] is None


def test_the_expiry_is_a_setting(make_player, settings):
    alice, _bob = make_player("alice"), make_player("bob")
    settings.BASRA_CHALLENGE_SECONDS = 30
    made = challenge(alice.user, "bob")
    assert made.expires_at - made.created_at < timedelta(seconds=31)


def test_bad_challenges_are_refused_and_change_nothing(make_player):
    alice, _bob = make_player("alice"), make_player("bob")
    refused("challenge_self", challenge, user=alice.user, username="alice")
    refused("player_not_found", challenge, user=alice.user, username="nobody")
    refused("challenge_two_players", challenge, user=alice.user, username="bob",
            rules={"players": 4})
    refused("bad_rules", challenge, user=alice.user, username="bob", rules={"target": -3})
    refused("bad_clock", challenge, user=alice.user, username="bob", rated=True, move_seconds=None)
    refused("bad_clock", challenge, user=alice.user, username="bob", move_seconds=7)
    refused("client_seed_newline", challenge, user=alice.user, username="bob", client_seed="a\nb")
    nothing_changed(0)
    challenge(alice.user, "bob")
    refused("challenge_pending", challenge, user=alice.user, username="bob")
    nothing_changed(1)


def test_accepting_starts_a_table_with_both_seated(make_player, sent,
                                                    django_capture_on_commit_callbacks):
    alice, bob = make_player("alice"), make_player("bob")
    made = challenge(alice.user, "bob", client_seed="alice-seed")
    with django_capture_on_commit_callbacks(execute=True):
        accepted = actions.accept_challenge(user=bob.user, challenge_id=made.pk, client_seed="bob")
    match = Match.objects.get()
    assert accepted.status == Challenge.Status.ACCEPTED and accepted.match_id == match.pk
    assert match.status == Match.Status.PLAYING and match.players == 2
    assert match.rules["target"] == 61 and match.move_seconds == 20 and not match.rated
    assert dict(Seat.objects.filter(match=match).values_list("seat", "user_id")) == {
        0: alice.user.pk, 1: bob.user.pk,
    }
    assert match.client_seeds == ["alice-seed", "bob"]
    url = reverse("table", kwargs={"match_id": match.pk})
    answers = [(uid, p["status"], p["url"]) for uid, kind, p in sent if kind == "challenge_answer"]
    assert sorted(answers) == sorted(
        [(alice.user.pk, "accepted", url), (bob.user.pk, "accepted", url)]
    )


def test_accepting_twice_declining_after_and_cancelling_after_are_refused(make_player):
    alice, bob = make_player("alice"), make_player("bob")
    made = challenge(alice.user, "bob")
    actions.accept_challenge(user=bob.user, challenge_id=made.pk)
    refused("challenge_answered", actions.accept_challenge, user=bob.user, challenge_id=made.pk)
    refused("challenge_answered", actions.decline_challenge, user=bob.user, challenge_id=made.pk)
    refused("challenge_answered", actions.cancel_challenge, user=alice.user, challenge_id=made.pk)
    assert Match.objects.count() == 1  # a double click never opens a second table
    assert Challenge.objects.get().status == Challenge.Status.ACCEPTED


def test_only_the_challenged_player_answers(make_player):
    alice, bob, carol = make_player("alice"), make_player("bob"), make_player("carol")
    made = challenge(alice.user, "bob")
    refused("challenge_own", actions.accept_challenge, user=alice.user, challenge_id=made.pk)
    refused("challenge_own", actions.decline_challenge, user=alice.user, challenge_id=made.pk)
    refused("challenge_not_yours", actions.accept_challenge, user=carol.user, challenge_id=made.pk)
    refused("challenge_not_yours", actions.decline_challenge, user=carol.user, challenge_id=made.pk)
    refused("challenge_not_sender", actions.cancel_challenge, user=bob.user, challenge_id=made.pk)
    refused("challenge_not_found", actions.accept_challenge, user=bob.user,
            challenge_id=made.pk + 9)
    refused("challenge_not_found", actions.accept_challenge, user=bob.user, challenge_id="1")
    assert Challenge.objects.get().status == Challenge.Status.PENDING
    assert Match.objects.count() == 0


def test_decline_and_cancel(make_player, sent, django_capture_on_commit_callbacks):
    alice, bob = make_player("alice"), make_player("bob")
    first = challenge(alice.user, "bob")
    with django_capture_on_commit_callbacks(execute=True):
        actions.decline_challenge(user=bob.user, challenge_id=first.pk)
    assert Challenge.objects.get(pk=first.pk).status == Challenge.Status.DECLINED
    second = challenge(alice.user, "bob")  # a declined challenge no longer blocks a new one
    with django_capture_on_commit_callbacks(execute=True):
        actions.cancel_challenge(user=alice.user, challenge_id=second.pk)
    assert Challenge.objects.get(pk=second.pk).status == Challenge.Status.CANCELLED
    refused("challenge_answered", actions.accept_challenge, user=bob.user, challenge_id=second.pk)
    statuses = [(uid, p["status"]) for uid, kind, p in sent if kind == "challenge_answer"]
    assert sorted(statuses) == sorted([
        (alice.user.pk, "declined"), (bob.user.pk, "declined"),
        (alice.user.pk, "cancelled"), (bob.user.pk, "cancelled"),
    ])
    assert Match.objects.count() == 0


def test_an_expired_challenge_cannot_be_answered(make_player):
    alice, bob = make_player("alice"), make_player("bob")
    made = challenge(alice.user, "bob")
    later = timezone.now() + timedelta(seconds=181)
    refused("challenge_expired", actions.accept_challenge, user=bob.user, challenge_id=made.pk,
            now=later)
    refused("challenge_expired", actions.cancel_challenge, user=alice.user, challenge_id=made.pk,
            now=later)
    assert Match.objects.count() == 0
    # Expired, it no longer blocks a new challenge either.
    challenge(alice.user, "bob", now=later)


def test_waiting_challenges_are_pending_notices_for_both(make_player):
    alice, bob, carol = make_player("alice"), make_player("bob"), make_player("carol")
    made = challenge(alice.user, "bob")
    assert [(n["kind"], n["payload"]["id"]) for n in notices.pending(bob.user)] == [
        ("challenge", made.pk)
    ]
    assert [n["kind"] for n in notices.pending(alice.user)] == ["challenge_sent"]
    assert notices.pending(carol.user) == []
    actions.decline_challenge(user=bob.user, challenge_id=made.pk)
    assert notices.pending(bob.user) == [] and notices.pending(alice.user) == []


# --- pages ------------------------------------------------------------------------------------

FORM = {
    "challenge-target": "61", "challenge-mode": "rated", "challenge-move_seconds": "20",
    "challenge-majority_points": "30", "challenge-basra_points": "10",
    "challenge-jack_basra_points": "30", "challenge-seven_diamonds": "wild",
}


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_profile_shows_the_challenge_form_to_other_players_only(make_player):
    alice, _bob = make_player("alice"), make_player("bob")
    url = reverse("profile", kwargs={"username": "bob"})
    assert 'id="challenge-form"' in client_for(alice.user).get(url).content.decode()
    assert 'id="challenge-form"' not in Client().get(url).content.decode()
    own = reverse("profile", kwargs={"username": "alice"})
    assert 'id="challenge-form"' not in client_for(alice.user).get(own).content.decode()


def test_the_profile_form_sends_a_challenge(make_player):
    alice, bob = make_player("alice"), make_player("bob")
    client = client_for(alice.user)
    response = client.post(reverse("challenge_create", kwargs={"username": "bob"}), FORM)
    assert response.status_code == 302
    made = Challenge.objects.get()
    assert made.challenged == bob.user and made.rated and made.move_seconds == 20
    assert made.rules["target"] == 61 and made.rules["players"] == 2
    # A rated challenge without a clock is a form error: nothing is sent.
    client.post(reverse("challenge_create", kwargs={"username": "bob"}),
                FORM | {"challenge-move_seconds": "none"})
    assert Challenge.objects.count() == 1
    # Challenging oneself through the page is the same clear refusal.
    answer = client.post(reverse("challenge_create", kwargs={"username": "alice"}), FORM,
                         HTTP_ACCEPT="application/json")
    assert answer.status_code == 400 and answer.json()["error"] == "challenge_self"


def test_the_answer_endpoints(make_player):
    alice, bob, carol = make_player("alice"), make_player("bob"), make_player("carol")
    made = challenge(alice.user, "bob")
    accept = reverse("challenge_accept", kwargs={"challenge_id": made.pk})
    answer = client_for(carol.user).post(accept, HTTP_ACCEPT="application/json")
    assert answer.status_code == 400 and answer.json()["error"] == "challenge_not_yours"
    answer = client_for(bob.user).post(accept, {"client_seed": "s"}, HTTP_ACCEPT="application/json")
    match = Match.objects.get()
    assert answer.json() == {
        "status": "accepted", "url": reverse("table", kwargs={"match_id": match.pk})
    }
    again = client_for(bob.user).post(accept, HTTP_ACCEPT="application/json")
    assert again.status_code == 400 and again.json()["error"] == "challenge_answered"
    assert Match.objects.count() == 1
    # Without JSON, a plain form post goes to the table.
    second = challenge(bob.user, "alice")
    accept_second = reverse("challenge_accept", kwargs={"challenge_id": second.pk})
    plain = client_for(alice.user).post(accept_second)
    assert plain.status_code == 302 and plain["Location"].startswith("/table/")
    # Anonymous: to the log-in page, nothing changes.
    third = challenge(carol.user, "alice")
    anon = Client().post(reverse("challenge_decline", kwargs={"challenge_id": third.pk}))
    assert anon.status_code == 302 and "login" in anon["Location"]
    assert Challenge.objects.get(pk=third.pk).status == Challenge.Status.PENDING


def test_cancel_and_send_again_is_capped_per_player_and_per_sender(make_player, sent,
                                                                  django_capture_on_commit_callbacks):
    from games.core.actions import challenges

    alice, bob = make_player("alice"), make_player("bob")
    others = [make_player(f"p{n}") for n in range(12)]
    for _ in range(challenges.CHALLENGES_TO_ONE_PER_WINDOW):
        made = challenge(alice.user, "bob")
        actions.cancel_challenge(user=alice.user, challenge_id=made.pk)
    before = Challenge.objects.count()
    with django_capture_on_commit_callbacks(execute=True):
        refused("challenge_too_many", challenge, user=alice.user, username="bob")
    nothing_changed(before)
    assert not [kind for _uid, kind, _p in sent if kind == "challenge"]
    # Waiting at once: at most CHALLENGES_WAITING, whoever they are sent to.
    for other in others[: challenges.CHALLENGES_WAITING]:
        challenge(alice.user, other.user.username)
    refused("challenge_too_many", challenge, user=alice.user, username=others[-1].user.username)
    # Bob is not limited by what alice sent; and once the window has passed alice may again.
    challenge(bob.user, "alice")
    later = timezone.now() + challenges.CHALLENGE_WINDOW + timedelta(seconds=1)
    Challenge.objects.filter(challenger=alice.user).update(status=Challenge.Status.CANCELLED)
    actions.create_challenge(user=alice.user, username="bob", rules={}, rated=False,
                             move_seconds=20, now=later)


def test_a_rated_challenge_to_fewer_than_61_points_is_refused(make_player, sent):
    """Issue 35, item 5: a rated match to 11 points (one round) was allowed through a
    challenge. Refused when sent, on the form and by the action alike; casual, it is sent."""
    alice, bob = make_player("alice"), make_player("bob")
    refused("rated_target_too_low", challenge, user=alice.user, username="bob",
            rules={"target": 11}, rated=True)
    nothing_changed(0)
    assert sent == []
    client = client_for(alice.user)
    # Said beside the target of the profile's form, before it is sent.
    profile = client.get(reverse("profile", kwargs={"username": "bob"})).content.decode()
    assert "Rated tables play to at least 61." in profile
    url = reverse("challenge_create", kwargs={"username": "bob"})
    response = client.post(url, FORM | {"challenge-target": "11"}, follow=True)
    assert "A rated table plays to at least 61 points" in response.content.decode()
    nothing_changed(0)
    answer = client.post(url, FORM | {"challenge-target": "11", "challenge-mode": "casual"})
    assert answer.status_code == 302
    assert Challenge.objects.get().rules["target"] == 11 and not Challenge.objects.get().rated


def test_a_rated_challenge_under_61_sent_before_the_rule_cannot_be_accepted(make_player):
    alice, bob = make_player("alice"), make_player("bob")
    made = challenge(alice.user, "bob", rated=True)
    Challenge.objects.filter(pk=made.pk).update(rules=made.rules | {"target": 11})
    refused("rated_target_too_low", actions.accept_challenge, user=bob.user, challenge_id=made.pk)
    assert Challenge.objects.get(pk=made.pk).status == Challenge.Status.PENDING
    nothing_changed(1)
