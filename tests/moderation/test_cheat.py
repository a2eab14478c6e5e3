"""Closing a player for cheating (``actions.close(cheat=True)``): the account closed and
flagged, off the ladders, their matches marked on the histories, and the rating points they
took from non-provisional opponents in their last rated matches of 5 days given back through
the ratings app's ``refund`` (lila's ``RatingRefund``), the victims and reporters told."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games.moderation import actions, reports
from games.moderation.errors import ModerationError
from games.moderation.models import Message, ModLog, Sanction
from games.moderation.refund import points_to_refund
from games.ratings import history
from games.ratings.models import PlayerRating, RatingChange, RatingRefund
from tests.ratings.helpers import lose, rated_match

pytestmark = pytest.mark.django_db


def established(user, rating=1600.0, top=1650.0):
    """``user`` with an established 1v1 rating (deviation 60: not provisional)."""
    PlayerRating.objects.create(user=user, pool="1v1", rating=rating, deviation=60.0, matches=30,
                                top=top, last_rated_at=timezone.now())


def test_the_victims_get_back_what_the_cheater_took(people, client):
    ali, bea, cem, dan, mod = (people[n] for n in ("ali", "bea", "cem", "dan", "mod"))
    established(bea)
    established(dan, rating=1500.0, top=1500.0)
    losses = [lose(rated_match([ali, bea]), bea) for _ in range(2)]
    old = lose(rated_match([ali, dan]), dan)  # six days ago: out of the refund's reach
    RatingChange.objects.filter(match=old).update(rated_at=timezone.now() - timedelta(days=6))
    lose(rated_match([ali, cem]), cem)  # cem is provisional (new): no refund
    lose(rated_match([dan, ali]), ali)  # dan won: nothing lost
    reports.file_report(reporter=bea, username="ali", reason="cheat")

    changes = list(RatingChange.objects.filter(user=bea, match__in=losses))
    loss = sum(round(c.rating_before) - round(c.rating_after) for c in changes)
    top_before = max(round(c.rating_before) for c in changes)
    current = round(PlayerRating.objects.get(user=bea).rating)
    expected = points_to_refund(loss, current, top_before, 1650)
    assert 0 < expected <= loss

    entry = actions.close(moderator=mod, user=ali, reason="engine use", cheat=True)

    ali.refresh_from_db()
    assert not ali.is_active
    assert Sanction.objects.filter(user=ali, kind="cheat").exists()
    refund = RatingRefund.objects.get()
    assert (refund.user, refund.pool, refund.points, refund.reason) == (bea, "1v1", expected, "cheat")
    assert round(PlayerRating.objects.get(user=bea).rating) == current + expected
    assert entry.action == ModLog.Action.CLOSE_CHEAT
    assert entry.details["refunds"] == [{"user": bea.pk, "pool": "1v1", "points": expected}]
    told = sorted(Message.objects.values_list("user__username", "kind"))
    assert told == [("bea", "refund"), ("bea", "report_outcome")]

    rows = history.rows(history.seats_of(bea), bea)
    assert rows and all(row.extra["cheater_opponent"] for row in rows)
    assert not any(row.extra["cheater_opponent"] for row in history.rows(history.seats_of(mod), mod))

    page = client.get(reverse("match_history", kwargs={"username": "bea"}))
    text = page.content.decode()
    assert "Rating points given back" in text and f"+{expected}" in text
    assert "Closed for cheating" in text


def test_closing_without_cheat_gives_nothing_back(people):
    ali, bea, mod = people["ali"], people["bea"], people["mod"]
    established(bea)
    lose(rated_match([ali, bea]), bea)
    actions.close(moderator=mod, user=ali, reason="asked to")
    assert not RatingRefund.objects.exists()
    assert not Sanction.objects.filter(kind="cheat").exists()


def test_an_account_already_closed_is_still_closed_for_cheating_once(people):
    ali, bea, mod = people["ali"], people["bea"], people["mod"]
    established(bea)
    lose(rated_match([ali, bea]), bea)
    actions.close(moderator=mod, user=ali, reason="asked to")  # or its owner closed it
    current = round(PlayerRating.objects.get(user=bea).rating)

    actions.close(moderator=mod, user=ali, reason="engine use", cheat=True)

    assert Sanction.objects.filter(user=ali, kind="cheat").count() == 1
    refund = RatingRefund.objects.get()
    assert refund.user == bea and refund.points > 0
    assert round(PlayerRating.objects.get(user=bea).rating) == current + refund.points
    with pytest.raises(ModerationError) as caught:
        actions.close(moderator=mod, user=ali, reason="engine use", cheat=True)
    assert caught.value.code == "mod_already_closed"
    assert RatingRefund.objects.count() == 1


def test_a_cheater_s_results_stay_in_a_finished_tournament_flagged(people, client):
    from games.tournaments import services
    from games.tournaments.models import Tournament
    from tests.tournaments.helpers import enter, event, play_round, refresh

    ali, bea, mod = people["ali"], people["bea"], people["mod"]
    t = event(mod, "round_robin")
    enter(t, [ali, bea])
    services.start(user=mod, tournament_id=t.pk)
    play_round(t)  # ali beats bea (the name sorting last resigns)
    assert refresh(t).status == Tournament.Status.FINISHED
    before = [(line.entrant.user_id, line.score) for line in services.standings(t)]
    actions.close(moderator=mod, user=bea, reason="engine use", cheat=True)
    assert [(line.entrant.user_id, line.score) for line in services.standings(t)] == before
    page = client.get(reverse("tournament", kwargs={"tournament_id": t.pk})).content.decode()
    assert page.count("cheat-mark") == 1


def test_the_replay_marks_the_seat_of_a_player_closed_for_cheating(people, client):
    ali, bea, mod = people["ali"], people["bea"], people["mod"]
    match = lose(rated_match([ali, bea]), bea)
    url = reverse("replays:match", kwargs={"match_id": match.pk})
    assert "cheat-mark" not in client.get(url).content.decode()
    actions.close(moderator=mod, user=ali, reason="engine use", cheat=True)
    assert client.get(url).content.decode().count("cheat-mark") == 1
