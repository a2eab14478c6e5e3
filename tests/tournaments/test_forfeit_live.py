"""A forfeit recorded while the pairing's table is still being played (issue 13): the table
ends there and then, decided for the forfeit's winner (the core's
``end_by_decision``), so it can no longer be played or claimed, the ratings do not rate it
the other way, and the event's result stands. The same for a withdrawal."""

from __future__ import annotations

import pytest

from games.core import actions
from games.core.errors import GameError
from games.core.models import Match
from games.core.state import reads
from games.ratings.models import PlayerRating, RatedMatch
from games.tournaments import services
from games.tournaments.models import AuditEntry, Game, Pairing, Tournament
from tests.tournaments.helpers import enter, event, live_games, refresh, users

pytestmark = pytest.mark.django_db


def side_of(game: Game, entrant_id: int) -> int:
    return game.a_side if entrant_id == game.pairing.a_id else 1 - game.a_side


def refused_at_table(code: str, call, **kwargs) -> None:
    with pytest.raises(GameError) as error:
        call(**kwargs)
    assert error.value.code == code and error.value.message


def test_a_forfeit_on_a_live_table_ends_it_for_the_forfeit_winner():
    org, a, b = users("org", "a", "b")
    t = event(org, "round_robin", rated=True, move_seconds=30)
    enter(t, [a, b])
    services.start(user=org, tournament_id=t.pk)
    (game,) = live_games(t)
    p = game.pairing
    loser = p.a
    winner = p.b
    ratings_before = list(PlayerRating.objects.order_by("pk").values())

    services.record_forfeit(user=org, pairing_id=p.pk, winner_id=winner.pk)

    match = Match.objects.get(pk=game.match_id)
    assert (match.status, match.result) == (Match.Status.FINISHED, Match.Result.DECIDED)
    assert match.winner_side == side_of(game, winner.pk)
    # The table is over for everyone: no play, no claim, no resignation.
    hand_state = reads.table_state(match_id=match.pk, user=loser.user)
    assert hand_state["result"]["reason"] == "decided"
    refused_at_table("match_over", actions.play_card, user=loser.user, match_id=match.pk,
                     card="AS", seq=match.seq)
    refused_at_table("match_over", actions.claim_win, user=loser.user, match_id=match.pk)
    refused_at_table("match_over", actions.resign, user=winner.user, match_id=match.pk)
    # Not rated (either way).
    assert not RatedMatch.objects.filter(match=match).exists()
    assert list(PlayerRating.objects.order_by("pk").values()) == ratings_before
    # The event's result stands, recorded once: the forfeit, its winner, the game's winner.
    p.refresh_from_db()
    game.refresh_from_db()
    assert p.forfeit and p.winner_id == winner.pk and (p.score_a, p.score_b) == (0.0, 1.0)
    assert game.winner_id == winner.pk and not game.aborted
    assert Game.objects.filter(pairing=p).count() == 1  # no table set up again
    assert list(AuditEntry.objects.filter(tournament=t).values_list("action", flat=True)) == [
        "start", "forfeit"
    ]
    # The event's one round is decided: it is over once the step after the commit has run.
    assert refresh(t).status == Tournament.Status.RUNNING
    services.catch_up(t.pk)
    assert refresh(t).status == Tournament.Status.FINISHED
    # The receiver, sent the decided ending again, changes nothing.
    services.on_match_finished(sender=Match, match=match, winner=1 - match.winner_side,
                               result=Match.Result.DECIDED)
    p.refresh_from_db()
    game.refresh_from_db()
    assert p.winner_id == winner.pk and game.winner_id == winner.pk


def test_a_double_forfeit_ends_the_table_with_no_winner():
    org, *ps = users("org", "a", "b", "c", "d")
    t = event(org, "round_robin", rated=True, move_seconds=30)
    enter(t, ps)
    services.start(user=org, tournament_id=t.pk)
    game, other = live_games(t)
    services.record_forfeit(user=org, pairing_id=game.pairing_id, winner_id=None)
    match = Match.objects.get(pk=game.match_id)
    assert (match.status, match.result, match.winner_side) == ("finished", "decided", None)
    p = Pairing.objects.get(pk=game.pairing_id)
    assert p.forfeit and p.winner_id is None and (p.score_a, p.score_b) == (0.0, 0.0)
    # The tournaments' receiver did not record the decided ending again (not an abort).
    game.refresh_from_db()
    assert game.winner_id is None and not game.aborted
    # The other pairing's table is untouched.
    assert Match.objects.get(pk=other.match_id).status == Match.Status.PLAYING
    assert not RatedMatch.objects.exists()


def test_a_withdrawal_ends_its_live_table_for_the_opponent_unrated():
    org, *ps = users("org", "a", "b", "c", "d")
    t = event(org, "round_robin", rated=True, move_seconds=30)
    enter(t, ps)
    services.start(user=org, tournament_id=t.pk)
    game = next(g for g in live_games(t) if ps[0].pk in (g.pairing.a.user_id, g.pairing.b.user_id))
    quitter = game.pairing.a if game.pairing.a.user_id == ps[0].pk else game.pairing.b
    opponent = game.pairing.b if quitter == game.pairing.a else game.pairing.a
    services.withdraw(user=ps[0], tournament_id=t.pk)
    match = Match.objects.get(pk=game.match_id)
    assert (match.status, match.result) == ("finished", "decided")
    assert match.winner_side == side_of(game, opponent.pk)
    game.refresh_from_db()
    assert game.winner_id == opponent.pk
    assert not RatedMatch.objects.filter(match=match).exists()
    refused_at_table("match_over", actions.claim_win, user=opponent.user, match_id=match.pk)



def test_the_record_of_a_table_ended_by_a_forfeit_or_a_withdrawal_says_decided():
    """Issue 24: the records of such tables said ``resign`` or ``abort``; RULES.md's
    termination for them is ``decided``."""
    from games.core.state.records import match_record

    org, *ps = users("org", "p1", "p2", "p3", "p4")
    t = event(org, "round_robin")
    entrants = enter(t, ps)
    services.start(user=org, tournament_id=t.pk)
    forfeited, withdrawn = live_games(t)
    services.record_forfeit(user=org, pairing_id=forfeited.pairing_id, winner_id=forfeited.pairing.a_id)
    quitter = next(e for e in entrants if e.pk in (withdrawn.pairing.a_id, withdrawn.pairing.b_id))
    services.withdraw(user=quitter.user, tournament_id=t.pk)
    for game in (forfeited, withdrawn):
        match = Match.objects.get(pk=game.match_id)
        headers = match_record(match)["headers"]
        assert headers["termination"] == "decided" and headers["winner"] is not None
