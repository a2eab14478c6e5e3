"""A closing account's matches, tables and challenges (games/core/actions/closing.py, the core's
answer to ``accounts.closing.account_closing``): a match being played is resigned for the
player's side (in a match of four without asking the partner), a table waiting for players is
left, a pending challenge is called off; a seat the computer took over stays the computer's."""

import pytest
from django.contrib.auth import get_user_model

from accounts.closing import close_account
from games.core import actions
from games.core.models import Challenge, Match
from tests.core.helpers import seated_match, users_by_seat

pytestmark = pytest.mark.django_db


CHALLENGE = {"rules": {}, "rated": False, "move_seconds": 30}


def people(*names):
    return [get_user_model().objects.create_user(username=n, password=None) for n in names]


def test_a_match_being_played_is_resigned_and_the_other_side_wins():
    ali, badr = people("ali", "badr")
    match = seated_match([ali, badr])
    assert match.status == Match.Status.PLAYING
    seat = next(s for s, u in users_by_seat(match).items() if u == ali)
    close_account(ali, by=ali, reason="owner")
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.result == Match.Result.RESIGN
    assert match.winner_side == 1 - seat % 2


def test_in_a_match_of_four_the_side_resigns_without_the_partner():
    four = people("a1", "b1", "a2", "b2")
    match = seated_match(four, rules={"target": 101})
    seats = users_by_seat(match)
    closing = seats[0]
    close_account(closing, by=closing, reason="owner")
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.result == Match.Result.RESIGN
    assert match.winner_side == 1


def test_a_table_waiting_for_players_is_left():
    ali, badr = people("ali", "badr")
    mine = actions.create_table(user=ali, players=2, rules={}, rated=False)
    theirs = actions.create_table(user=badr, players=4, rules={}, rated=False)
    actions.join_table(user=ali, match_id=theirs.pk)
    close_account(ali, by=ali, reason="owner")
    assert not Match.objects.filter(pk=mine.pk).exists()  # nobody left at it
    theirs.refresh_from_db()
    assert theirs.status == Match.Status.OPEN
    assert list(theirs.seats.exclude(user=None).values_list("user__username", flat=True)) == ["badr"]


def test_pending_challenges_are_called_off_and_a_closed_player_cannot_be_challenged():
    from games.core.errors import GameError

    ali, badr, cala = people("ali", "badr", "cala")
    sent = actions.create_challenge(user=ali, username="badr", **CHALLENGE)
    received = actions.create_challenge(user=cala, username="ali", **CHALLENGE)
    close_account(ali, by=ali, reason="owner")
    assert Challenge.objects.get(pk=sent.pk).status == Challenge.Status.CANCELLED
    assert Challenge.objects.get(pk=received.pk).status == Challenge.Status.DECLINED
    with pytest.raises(GameError):
        actions.create_challenge(user=badr, username="ali", **CHALLENGE)


def test_once_closed_the_players_table_sockets_check_their_session_again(django_capture_on_commit_callbacks):
    from unittest import mock

    (ali,) = people("ali")
    with mock.patch("games.core.sockets.auth.broadcast.send_session_recheck") as recheck:
        with django_capture_on_commit_callbacks(execute=True):
            close_account(ali, by=ali, reason="owner")
    recheck.assert_called_once_with(ali.pk)
