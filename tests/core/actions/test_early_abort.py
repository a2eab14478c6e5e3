"""Issue 35: a rated match whose person never plays a card of the first deal themselves is
aborted there and then (lichess's abort of a game a player never moved in), not played out and
thrown away: when the clock runs out on their first card, or the computer takes their seat over
before they played one (``games.core.actions.endings.abort_if_unplayed``). Casual tables and a
tournament's (``early_abort=False``) go on as before. Time is injected, never slept."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.core import actions
from games.core.models import Event, Match, Seat
from games.core.state import broadcast, reads
from games.core.state.cache import clear_caches
from games.core.state.records import match_record
from tests.core.helpers import event_kinds, play_turn, refused, turn_of, users_by_seat

pytestmark = pytest.mark.django_db


@pytest.fixture
def users(make_player):
    return [make_player(name).user for name in ("alice", "bob", "carol", "dave")]


@pytest.fixture(autouse=True)
def _grace(settings):
    """A minute's grace before a silent seat is absent; time jumps are not clock outages."""
    settings.BASRA_ABSENT_GRACE_SECONDS = 60
    settings.BASRA_CLOCK_OUTAGE_SECONDS = 10**9


def table(users, *, rated: bool = True, early_abort: bool = True) -> tuple[Match, object]:
    """A started table of ``users``, every seat taken at one moment; returns it and that
    moment."""
    start = timezone.now()
    match = actions.create_table(user=users[0], players=len(users), rules={}, rated=rated,
                                 early_abort=early_abort, now=start)
    for user in users[1:]:
        actions.join_table(user=user, match_id=match.pk, now=start)
    match.refresh_from_db()
    assert match.status == Match.Status.PLAYING
    return match, start


def time_runs_out(match: Match) -> bool:
    """The clock acts one second after the table's deadline."""
    match.refresh_from_db()
    return actions.act_on_deadline(match_id=match.pk, now=match.deadline + timedelta(seconds=1))


def take_over(match: Match, start, leaver) -> None:
    """Everyone but ``leaver`` is seen at the table; the clock finds ``leaver`` silent past the
    grace: absent, and (4 players) the computer takes the seat over."""
    for user in users_by_seat(match).values():
        if user != leaver:
            actions.player_seen(match_id=match.pk, user=user, now=start + timedelta(seconds=50))
    assert actions.mark_absent(match_id=match.pk, now=start + timedelta(seconds=61)) == 1


def aborted_result(match: Match, missed: list[int]) -> dict:
    return {"winner": None, "scores": [0, 0], "reason": "abort", "early": True,
            "missed": missed, "not_rated": "aborted_early"}


def test_a_seat_taken_over_before_its_first_card_aborts_a_rated_match_at_once(users):
    from games.ratings.models import NotRated, RatedMatch

    match, start = table(users)
    by_seat = users_by_seat(match)
    play_turn(match)  # the first to move plays; the next one's page closed at the start
    seat = turn_of(match)
    take_over(match, start, by_seat[seat])
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.result == Match.Result.ABORT
    assert match.winner_side is None and match.deadline is None
    # The log says what happened: the absence, the takeover, then the end at once.
    assert event_kinds(match)[-3:] == ["absent", "bot_takeover", "match_end"]
    assert Event.objects.filter(match=match, kind="play").count() == 1
    end = Event.objects.get(match=match, kind="match_end").payload
    assert end == {"scores": [0, 0], "winner": None, "reason": "abort", "early": True,
                   "missed": [seat]}
    # Nobody is rated, everyone is told why; nobody plays on.
    assert not RatedMatch.objects.filter(match=match).exists()
    assert set(NotRated.objects.filter(match=match).values_list("user_id", "reason")) == {
        (user.pk, "aborted_early") for user in users}
    other = by_seat[turn_of(match)] if turn_of(match) != seat else by_seat[(seat + 1) % 4]
    refused("match_over", actions.play_card, user=other, match_id=match.pk, card="5D",
            seq=match.seq)
    assert match_record(match)["headers"]["termination"] == "abort"


@pytest.mark.parametrize("players", [2, 4])
def test_the_clock_playing_a_persons_first_card_aborts_a_rated_match_instead(
    users, players, monkeypatch, django_capture_on_commit_callbacks
):
    match, _start = table(users[:players])
    seat = turn_of(match)
    sent = []
    monkeypatch.setattr(broadcast, "send_states",
                        lambda match_id, states, seat_users: sent.append(states))
    with django_capture_on_commit_callbacks(execute=True):
        assert time_runs_out(match) is True
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.result == Match.Result.ABORT
    # No card was played for them: the match ended where it stood.
    assert not Event.objects.filter(match=match, kind="play").exists()
    assert event_kinds(match)[-1] == "match_end"
    assert Seat.objects.get(match=match, seat=seat).timeouts == 0
    # Every seat and the spectators are told why and who, the moment it happens.
    assert sent and set(sent[-1]) == {*range(players), None}
    assert all(m["result"] == aborted_result(match, [seat]) for m in sent[-1].values())
    assert all(m["extras"]["ratings"]["not_rated"] == "aborted_early"
               for m in sent[-1].values())
    assert match.deadline is None
    later = timezone.now() + timedelta(days=1)
    assert actions.act_on_deadline(match_id=match.pk, now=later) is False


def test_the_result_reads_the_same_for_a_seat_a_spectator_and_after_a_restart(users):
    match, start = table(users)
    seat = turn_of(match)
    take_over(match, start, users_by_seat(match)[seat])
    expected = aborted_result(match, [seat])
    seen = [reads.table_state(match_id=match.pk, user=user)["result"] for user in users]
    assert seen == [expected] * 4
    assert reads.table_state(match_id=match.pk, user=None)["result"] == expected
    clear_caches()  # a server restart: only the database is left
    assert reads.table_state(match_id=match.pk, user=None)["result"] == expected
    assert reads.table_state(match_id=match.pk, user=users[2])["result"] == expected


def test_a_person_who_played_a_card_themselves_and_then_times_out_plays_on(users):
    match, _start = table(users[:2])
    first = turn_of(match)
    play_turn(match)
    play_turn(match)  # each has played a card of the first deal themselves
    assert turn_of(match) == first
    assert time_runs_out(match) is True
    match.refresh_from_db()
    assert match.status == Match.Status.PLAYING
    last = Event.objects.filter(match=match).order_by("-seq").first()
    assert (last.kind, last.seat, last.payload["timeout"]) == ("play", first, True)


def test_the_others_still_to_move_are_not_named(users):
    match, _start = table(users)
    play_turn(match)
    seat = turn_of(match)
    assert time_runs_out(match) is True
    end = Event.objects.get(match=match, kind="match_end").payload
    # Two persons had not played yet either, but their turn had not come.
    assert end["missed"] == [seat]


@pytest.mark.parametrize("rated, early_abort", [(False, True), (True, False)],
                         ids=["casual", "tournament"])
def test_a_casual_or_tournament_table_goes_on(users, rated, early_abort):
    match, start = table(users, rated=rated, early_abort=early_abort)
    by_seat = users_by_seat(match)
    seat = turn_of(match)
    # The clock plays the first card of the one to move, as before.
    assert time_runs_out(match) is True
    match.refresh_from_db()
    assert match.status == Match.Status.PLAYING
    play = Event.objects.get(match=match, kind="play")
    assert (play.seat, play.payload["timeout"]) == (seat, True)
    # The next one's page closed at the start: the computer takes the seat and plays on.
    leaver = turn_of(match)
    take_over(match, start, by_seat[leaver])
    match.refresh_from_db()
    assert match.status == Match.Status.PLAYING
    assert Seat.objects.get(match=match, seat=leaver).bot == "greedy"
    assert event_kinds(match)[-2:] == ["absent", "bot_takeover"]
    assert time_runs_out(match) is True
    bot_play = Event.objects.filter(match=match, kind="play").order_by("-seq").first()
    assert (bot_play.seat, bot_play.payload["bot"]) == (leaver, "greedy")


def test_the_rules_page_says_the_match_ends_at_once(client):
    from django.urls import reverse
    from django.utils import translation

    html = client.get(reverse("rules")).content.decode()
    rated = html[html.index('id="rated"'):]
    assert "is aborted there and then" in rated
    assert "the match ends at once" in rated and "the table says who did not play" in rated
    with translation.override("ar"):
        arabic = client.get(reverse("rules"), HTTP_ACCEPT_LANGUAGE="ar").content.decode()
    assert "تُلغى في الحال" in arabic
