"""A ranked ban (``actions.ranked_ban``) answered to the core's ``standing`` question: no rated
table, seat, challenge or rematch (``ranked_banned``), no queue (``queue_ranked_banned``), no
tournament (``tournament_ranked_banned``), off the ladders; casual play stays open, and lifting
it opens everything again."""

from __future__ import annotations

import pytest

from games.core import actions as core
from games.core.errors import GameError
from games.moderation import actions
from games.queues import services as queues
from games.queues.errors import QueueError
from games.ratings.ladder import ladder
from games.tournaments import services as tournaments
from games.tournaments.errors import TournamentError
from tests.ratings.helpers import lose, rated_match
from tests.tournaments.helpers import event

pytestmark = pytest.mark.django_db


@pytest.fixture
def banned(people):
    actions.ranked_ban(moderator=people["mod"], user=people["ali"], reason="sandbagging")
    return people["ali"]


def code_of(call):
    with pytest.raises((GameError, QueueError, TournamentError)) as caught:
        call()
    return str(caught.value.code)


def test_no_rated_table_for_a_banned_player(banned, people):
    assert code_of(lambda: core.create_table(user=banned, players=2, rules={}, rated=True)) == "ranked_banned"
    casual = core.create_table(user=banned, players=2, rules={}, rated=False)
    assert casual.pk
    theirs = core.create_table(user=people["bea"], players=2, rules={}, rated=True)
    assert code_of(lambda: core.join_table(user=banned, match_id=theirs.pk)) == "ranked_banned"


def test_no_rated_challenge_either_way(people):
    ali, bea = people["ali"], people["bea"]
    earlier = core.create_challenge(user=bea, username="ali", rules={}, rated=True, move_seconds=30)
    actions.ranked_ban(moderator=people["mod"], user=ali, reason="sandbagging")
    sent = lambda: core.create_challenge(user=ali, username="bea", rules={}, rated=True, move_seconds=30)
    assert code_of(sent) == "ranked_banned"
    to_banned = lambda: core.create_challenge(user=bea, username="ali", rules={}, rated=True, move_seconds=30)
    assert code_of(to_banned) == "ranked_banned"  # refused when sent, not only when accepted
    accept = lambda: core.accept_challenge(user=ali, challenge_id=earlier.pk)
    assert code_of(accept) == "ranked_banned"
    core.create_challenge(user=ali, username="cem", rules={}, rated=False, move_seconds=30)


def test_no_rematch_of_a_rated_match(people):
    ali, bea = people["ali"], people["bea"]
    match = lose(rated_match([ali, bea]), bea)
    actions.ranked_ban(moderator=people["mod"], user=ali, reason="boosting")
    assert code_of(lambda: core.ask_rematch(user=bea, match_id=match.pk)) == "ranked_banned"


def test_no_queue_and_no_tournament(banned, people):
    assert code_of(lambda: queues.join(user=banned, players=2, move_seconds=30)) == "queue_ranked_banned"
    assert code_of(lambda: queues.invite(user=people["bea"], username="ali", move_seconds=30)) == "queue_ranked_banned"
    t = event(people["bea"], "round_robin")
    assert code_of(lambda: tournaments.register(user=banned, tournament_id=t.pk)) == "tournament_ranked_banned"


def test_off_the_ladder_until_lifted(people):
    ali, bea, mod = people["ali"], people["bea"], people["mod"]
    lose(rated_match([ali, bea]), bea)
    assert {row.user_id for row in ladder("1v1", None)} == {ali.pk, bea.pk}
    actions.ranked_ban(moderator=mod, user=ali, reason="boosting")
    assert {row.user_id for row in ladder("1v1", None)} == {bea.pk}
    actions.lift(moderator=mod, user=ali, kind="ranked_ban", reason="appeal granted")
    assert {row.user_id for row in ladder("1v1", None)} == {ali.pk, bea.pk}
    assert core.create_table(user=ali, players=2, rules={}, rated=True).rated


def test_a_ranked_ban_takes_the_player_out_of_their_queue_and_events(people):
    from games.queues.models import Entry
    from games.tournaments.models import Entrant

    ali, bea = people["ali"], people["bea"]
    queues.join(user=ali, players=2, move_seconds=30)
    t = event(bea, "round_robin")
    tournaments.register(user=ali, tournament_id=t.pk)
    actions.ranked_ban(moderator=people["mod"], user=ali, reason="boosting")
    assert not Entry.objects.filter(user=ali).exists()
    assert not Entrant.objects.filter(tournament=t, user=ali).exists()
