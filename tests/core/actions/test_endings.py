"""Every ending goes through ``games.core.actions.endings.finish``, which sends ``match_finished``
inside the transaction (target, claim, resignation, abort); a receiver that raises rolls the
ending back."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from games.core import actions
from games.core.errors import GameError
from games.core.models import Event, Match, Seat
from games.core.signals import match_finished
from games.core.state import reads
from games.core.state.log import rebuild
from tests.core.helpers import event_kinds, play_turn, seated_match, users_by_seat

pytestmark = pytest.mark.django_db


@pytest.fixture
def users(make_player):
    return [make_player(name).user for name in ("alice", "bob", "carol", "dave")]


class Receiver:
    """Records each ``match_finished`` it gets, with what the database said at that moment."""

    def __init__(self, fail: bool = False) -> None:
        self.calls: list[dict] = []
        self.fail = fail

    def __call__(self, sender, match, winner, result, **kwargs) -> None:
        row = Match.objects.get(pk=match.pk)
        self.calls.append(
            {
                "sender": sender,
                "match": match.pk,
                "winner": winner,
                "result": result,
                "in_transaction": connection.in_atomic_block,
                "row_status": row.status,
                "row_winner": row.winner_side,
                "match_end_logged": Event.objects.filter(
                    match_id=match.pk, kind=Event.Kind.MATCH_END
                ).exists(),
            }
        )
        if self.fail:
            raise RuntimeError("a listener failed")


@pytest.fixture
def receiver():
    got = Receiver()
    match_finished.connect(got)
    yield got
    match_finished.disconnect(got)


def finishing_play(match: Match):
    """Play until the next play would end the match; returns ``(user, card, seq)`` of it.

    Each candidate is tried on a copy of the engine state rebuilt from the log, so a round that
    ends without a winner (a 26-26 tie with no basra at target 11) is simply played through.
    """
    while True:
        match.refresh_from_db()
        public = reads.table_state(match_id=match.pk, user=None)
        user = users_by_seat(match)[public["round"]["turn"]]
        mine = reads.table_state(match_id=match.pk, user=user)
        card = mine["round"]["hand"][0]
        trial = rebuild(match)
        trial.play(card)
        if trial.over:
            return user, card, mine["seq"]
        actions.play_card(user=user, match_id=match.pk, card=card, seq=mine["seq"])


def test_reaching_the_target_sends_match_finished_once_inside_the_transaction(
    users, receiver, django_capture_on_commit_callbacks, known_decks
):
    match = seated_match(users[:2], rules={"target": 11})
    user, card, seq = finishing_play(match)
    assert receiver.calls == []
    with django_capture_on_commit_callbacks(execute=True):
        actions.play_card(user=user, match_id=match.pk, card=card, seq=seq)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    [call] = receiver.calls
    assert call == {
        "sender": Match,
        "match": match.pk,
        "winner": match.winner_side,
        "result": "target",
        "in_transaction": True,
        "row_status": "finished",
        "row_winner": match.winner_side,
        "match_end_logged": True,
    }
    assert match.winner_side in (0, 1)


@pytest.mark.parametrize("warm", [True, False], ids=["compare-and-set", "locked"])
def test_a_receiver_that_raises_rolls_the_ending_back(
    users, django_capture_on_commit_callbacks, warm, known_decks
):
    match = seated_match(users[:2], rules={"target": 11})
    with django_capture_on_commit_callbacks(execute=True):
        user, card, seq = finishing_play(match)
    if not warm:
        from games.core.state.cache import clear_caches

        clear_caches()
    failing = Receiver(fail=True)
    match_finished.connect(failing)
    try:
        with pytest.raises(RuntimeError, match="a listener failed"):
            actions.play_card(user=user, match_id=match.pk, card=card, seq=seq)
    finally:
        match_finished.disconnect(failing)
    assert len(failing.calls) == 1 and failing.calls[0]["row_status"] == "finished"
    match.refresh_from_db()
    assert match.status == Match.Status.PLAYING and match.seq == seq
    assert not Event.objects.filter(match=match, seq__gt=seq).exists()
    state = reads.table_state(match_id=match.pk, user=user)
    assert state["seq"] == seq and card in state["round"]["hand"]
    # The match stays playable: the same play now ends it.
    actions.play_card(user=user, match_id=match.pk, card=card, seq=seq)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert event_kinds(match)[-2:] == ["round_end", "match_end"]


def test_resign_claim_and_abort_each_send_it(users, receiver):
    resigned = seated_match(users[:2])
    actions.resign(user=users[0], match_id=resigned.pk)
    claimed = seated_match(users[2:4])
    Seat.objects.filter(match=claimed, seat=1).update(
        last_seen=timezone.now() - timedelta(hours=1)
    )
    Match.objects.filter(pk=claimed.pk).update(started_at=timezone.now() - timedelta(hours=1))
    actions.mark_absent(match_id=claimed.pk, now=timezone.now())
    actions.claim_win(user=users[2], match_id=claimed.pk)
    aborted = seated_match([users[0], users[2]])
    actions.abort_match(user=users[2], match_id=aborted.pk)
    got = {(c["match"], c["winner"], c["result"]) for c in receiver.calls}
    assert got == {(resigned.pk, 1, "resign"), (claimed.pk, 0, "claim"), (aborted.pk, None, "abort")}
    assert all(c["in_transaction"] and c["match_end_logged"] for c in receiver.calls)


def test_a_refused_action_sends_nothing(users, receiver):
    match = seated_match(users[:2])
    with pytest.raises(GameError):
        actions.claim_win(user=users[0], match_id=match.pk)  # the opponent is not absent
    actions.resign(user=users[0], match_id=match.pk)
    with pytest.raises(GameError) as error:
        actions.resign(user=users[1], match_id=match.pk)
    assert error.value.code == "match_over"
    assert len(receiver.calls) == 1


def test_the_abort_s_broadcast_names_who_called_it_off(users, django_assert_num_queries):
    """The state sent after the change reads the seat from the change's own events."""
    from games.core.models import Event
    from games.core.state.cache import seat_rows

    match = seated_match(users[:2])
    actions.abort_match(user=users[0], match_id=match.pk)
    match.refresh_from_db()
    events = list(Event.objects.filter(match=match, kind__in=["abort", "match_end"]))
    seats = seat_rows(match)
    with django_assert_num_queries(0):
        info = reads.table_info(match, seats, events, played=False)
    assert (info.aborted_by, info.missed) == (0, None)


def test_abort_only_before_the_first_play(users):
    match = seated_match(users[:2])
    play_turn(match)
    match.refresh_from_db()
    seq = match.seq
    for user in users[:2]:
        with pytest.raises(GameError) as error:
            actions.abort_match(user=user, match_id=match.pk)
        assert error.value.code == "abort_not_allowed"
    with pytest.raises(GameError) as error:
        actions.abort_match(user=users[2], match_id=match.pk)
    assert error.value.code == "not_seated"
    match.refresh_from_db()
    assert match.seq == seq and match.status == Match.Status.PLAYING


def test_an_aborted_match_has_no_winner_and_says_so(users):
    match = seated_match(users[:2])
    actions.abort_match(user=users[1], match_id=match.pk)
    match.refresh_from_db()
    assert (match.status, match.winner_side, match.result) == ("finished", None, "abort")
    assert event_kinds(match)[-2:] == ["abort", "match_end"]
    state = reads.table_state(match_id=match.pk, user=users[0])
    # Who called it off: their seat, for every seat and spectator (the table names them).
    assert state["result"] == {"winner": None, "scores": [0, 0], "reason": "abort", "by": 1}
    assert reads.table_state(match_id=match.pk, user=None)["result"]["by"] == 1
    assert state["deadline"] is None
    with pytest.raises(GameError) as error:
        play_turn(match)
    assert error.value.code == "match_over"
