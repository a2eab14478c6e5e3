"""Rematches (games.core.actions.rematch): every rule and every state."""

from __future__ import annotations

import pytest

from games.core import actions
from games.core.errors import GameError
from games.core.models import Match, Rematch, Seat
from games.core.state import broadcast
from tests.site.catalogue import script_label
from tests.core.helpers import seated_match

pytestmark = [pytest.mark.django_db, pytest.mark.live]


@pytest.fixture
def news(monkeypatch):
    """The frames sent to the old tables' sockets: ``[(match id, message), ...]``."""
    out: list = []
    monkeypatch.setattr(
        broadcast, "send_table_news",
        lambda match_id, message: out.append((match_id, message)),
    )
    return out


def finished(users, **kwargs) -> Match:
    match = seated_match(users, **kwargs)
    actions.resign(user=users[1], match_id=match.pk)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    return match


def refused(code: str, **kwargs) -> None:
    with pytest.raises(GameError) as error:
        actions.ask_rematch(**kwargs)
    assert error.value.code == code


def seats_of(match: Match) -> dict:
    return dict(Seat.objects.filter(match=match).values_list("seat", "user_id"))


def test_both_ask_and_one_new_table_starts_with_the_same_rules(
    make_player, news, django_capture_on_commit_callbacks
):
    alice, bob = make_player("alice").user, make_player("bob").user
    old = finished([alice, bob], rules={"target": 61, "card_points": False}, rated=True)
    with django_capture_on_commit_callbacks(execute=True):
        assert actions.ask_rematch(user=bob, match_id=old.pk, client_seed="b") is None
    assert news == [(old.pk, {"type": "rematch", "accepted": [1], "waiting": [0], "gone": False,
                              "url": None})]
    assert Match.objects.count() == 1
    # A second click of the same player changes nothing.
    assert actions.ask_rematch(user=bob, match_id=old.pk) is None
    assert Rematch.objects.get().accepted == [1] and Match.objects.count() == 1
    with django_capture_on_commit_callbacks(execute=True):
        new = actions.ask_rematch(user=alice, match_id=old.pk, client_seed="a")
    assert new is not None and new.pk != old.pk
    new.refresh_from_db()
    assert new.status == Match.Status.PLAYING
    assert new.rules == old.rules and new.rated and new.move_seconds == old.move_seconds
    assert new.private == old.private
    assert seats_of(new) == seats_of(old)
    assert new.client_seeds == ["a", "b"]
    assert news[-1][1]["url"] == f"/table/{new.pk}/"
    # Clicking again afterwards returns the same table: never two.
    assert actions.ask_rematch(user=bob, match_id=old.pk).pk == new.pk
    assert Match.objects.count() == 2


def test_no_rematch_before_the_end_or_for_someone_not_seated(make_player):
    alice, bob, carol = (make_player(n).user for n in ("alice", "bob", "carol"))
    match = seated_match([alice, bob])
    refused("rematch_not_over", user=alice, match_id=match.pk)
    actions.resign(user=bob, match_id=match.pk)
    refused("not_seated", user=carol, match_id=match.pk)
    refused("not_found", user=alice, match_id=match.pk + 99)
    refused("client_seed_newline", user=alice, match_id=match.pk, client_seed="x\ny")
    assert all(not r.accepted for r in Rematch.objects.all())
    assert Match.objects.count() == 1


def test_no_rematch_of_a_match_decided_away_from_the_table(make_player):
    alice, bob = make_player("alice").user, make_player("bob").user
    match = seated_match([alice, bob])
    actions.end_by_decision(match_id=match.pk, winner=0)
    refused("rematch_decided", user=alice, match_id=match.pk)
    refused("rematch_decided", user=bob, match_id=match.pk)
    assert not Rematch.objects.exists()
    assert Match.objects.count() == 1


def test_someone_leaving_ends_the_offer(make_player, news, django_capture_on_commit_callbacks):
    alice, bob = make_player("alice").user, make_player("bob").user
    old = finished([alice, bob])
    actions.ask_rematch(user=alice, match_id=old.pk)
    with django_capture_on_commit_callbacks(execute=True):
        actions.rematch_left(user=bob, match_id=old.pk)
    assert news[-1] == (old.pk, {"type": "rematch", "accepted": [0], "waiting": [1],
                                 "gone": True, "url": None})
    refused("rematch_gone", user=bob, match_id=old.pk)
    refused("rematch_gone", user=alice, match_id=old.pk)
    assert Match.objects.count() == 1


def test_leaving_before_anyone_asked_also_ends_it(make_player):
    alice, bob = make_player("alice").user, make_player("bob").user
    old = finished([alice, bob])
    actions.rematch_left(user=alice, match_id=old.pk)
    refused("rematch_gone", user=bob, match_id=old.pk)


def test_leaving_a_table_still_playing_or_after_the_start_changes_nothing(make_player):
    alice, bob = make_player("alice").user, make_player("bob").user
    playing = seated_match([alice, bob])
    actions.rematch_left(user=alice, match_id=playing.pk)
    assert not Rematch.objects.exists()
    old = finished([make_player("carol").user, make_player("dave").user])
    carol, dave = old.seats.order_by("seat")[0].user, old.seats.order_by("seat")[1].user
    actions.ask_rematch(user=carol, match_id=old.pk)
    new = actions.ask_rematch(user=dave, match_id=old.pk)
    actions.rematch_left(user=carol, match_id=old.pk)  # going to the new table
    row = Rematch.objects.get(match=old)
    assert not row.gone and row.new_match_id == new.pk


def test_an_away_player_means_no_rematch(make_player):
    alice, bob = make_player("alice").user, make_player("bob").user
    old = finished([alice, bob])
    Seat.objects.filter(match=old, user=bob).update(absent=True)
    refused("rematch_gone", user=alice, match_id=old.pk)


def against_the_computer(user, players: int) -> Match:
    """A finished casual match of ``user`` against ``players - 1`` computer seats."""
    match = actions.create_table(
        user=user, players=players, rules={}, rated=False,
        bots={seat: "greedy" for seat in range(1, players)},
    )
    actions.resign(user=user, match_id=match.pk)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    return match


@pytest.mark.parametrize("players", [2, 4])
def test_back_at_a_finished_match_against_the_computer_the_rematch_is_still_there(
    make_player, news, django_capture_on_commit_callbacks, players
):
    """Computers never leave, and the one person is the one who went: nobody is told "gone",
    and back at the table they may ask, also where an older close already marked it gone."""
    alice = make_player("alice").user
    old = against_the_computer(alice, players)
    with django_capture_on_commit_callbacks(execute=True):
        actions.rematch_left(user=alice, match_id=old.pk)
    assert news == [] and actions.rematch_state(match_id=old.pk) is None
    new = actions.ask_rematch(user=alice, match_id=old.pk)
    assert new is not None and new.players == players and seats_of(new) == seats_of(old)
    marked = against_the_computer(alice, players)
    Rematch.objects.create(match=marked, gone=True)
    assert actions.rematch_state(match_id=marked.pk)["gone"] is False
    assert actions.ask_rematch(user=alice, match_id=marked.pk) is not None


def test_a_person_back_from_being_away_is_not_blocked_by_it(make_player):
    """Away at the end (the match ended while they were gone): asking is being back, so their
    own absence does not refuse them, and once they asked it does not refuse the others."""
    alice = make_player("alice").user
    alone = against_the_computer(alice, 2)
    Seat.objects.filter(match=alone, user=alice).update(absent=True)
    assert actions.ask_rematch(user=alice, match_id=alone.pk) is not None
    bob = make_player("bob").user
    old = finished([alice, bob])
    Seat.objects.filter(match=old, user=bob).update(absent=True)
    refused("rematch_gone", user=alice, match_id=old.pk)
    assert actions.ask_rematch(user=bob, match_id=old.pk) is None
    assert actions.ask_rematch(user=alice, match_id=old.pk) is not None


def test_computer_seats_accept_at_once(make_player):
    alice = make_player("alice").user
    old = actions.create_table(user=alice, players=2, rules={}, rated=False, bots={1: "greedy"})
    actions.resign(user=alice, match_id=old.pk)
    new = actions.ask_rematch(user=alice, match_id=old.pk)
    assert new is not None and new.status == Match.Status.PLAYING
    assert dict(Seat.objects.filter(match=new).values_list("seat", "bot")) == {0: "", 1: "greedy"}


def test_four_players_start_when_every_person_asked(make_player):
    users = [make_player(n).user for n in ("alice", "bob", "carol", "dave")]
    old = seated_match(users)
    # Seat 1's side resigns: both partners (seats 1 and 3) agree.
    by_seat = {s.seat: s.user for s in old.seats.all()}
    actions.resign(user=by_seat[1], match_id=old.pk)
    actions.resign(user=by_seat[3], match_id=old.pk)
    for seat in (0, 1, 2):
        assert actions.ask_rematch(user=by_seat[seat], match_id=old.pk) is None
    new = actions.ask_rematch(user=by_seat[3], match_id=old.pk)
    assert seats_of(new) == seats_of(old) and new.players == 4


def test_no_rematch_of_a_rated_match_under_61_points(make_player, news):
    """Issue 35, item 5: a rated table plays to at least 61 points. A rated match to fewer (made
    before the rule; a tournament's, whose organiser chose its target) has no rematch: asking is
    refused and nothing is recorded, neither made casual nor played to another target; the
    table page says so in place of the button."""
    from django.test import Client
    from django.urls import reverse

    alice, bob = make_player("alice").user, make_player("bob").user
    old = actions.create_table(user=alice, players=2, rules={"target": 11}, rated=True,
                               rated_target_min=None)
    actions.join_table(user=bob, match_id=old.pk)
    actions.resign(user=bob, match_id=old.pk)
    refused("rated_target_too_low", user=bob, match_id=old.pk)
    refused("rated_target_too_low", user=alice, match_id=old.pk)
    assert not Rematch.objects.exists() and Match.objects.count() == 1 and news == []
    client = Client()
    client.force_login(alice)
    page = client.get(reverse("table", kwargs={"match_id": old.pk})).content.decode()
    assert '"ratedTargetMin": 61' in page
    # The page has the minimum; its script words the refusal with it (table/labels.js).
    said = script_label("static/games/table/labels.js", "rematchTargetTooLow")
    assert said.startswith("No rematch: rated tables play to at least %(count)s points")
    # A casual match to 11 has its rematch, to 11.
    casual = finished([alice, bob], rules={"target": 11})
    actions.ask_rematch(user=bob, match_id=casual.pk)
    new = actions.ask_rematch(user=alice, match_id=casual.pk)
    assert new.rules["target"] == 11 and not new.rated
