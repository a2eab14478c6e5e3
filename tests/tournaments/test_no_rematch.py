"""A tournament's table has no rematch: the event opens its players' next table (the core asks
the app, ``for_apps.claim_tables_with``; ``games.tournaments.tables.is_event_table``)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from games.core import actions
from games.core.errors import GameError
from games.core.models import Match, Rematch
from games.tournaments import services
from tests.core.helpers import seated_match
from tests.core.pages.helpers import config_of
from tests.tournaments.helpers import enter, event, live_games, resign_for, users

pytestmark = pytest.mark.django_db


def page_config(client: Client, match_id: int) -> dict:
    """The ``table-config`` the table page of ``match_id`` gives its scripts."""
    return config_of(client.get(reverse("table", kwargs={"match_id": match_id})), "table-config")


def test_a_finished_tournament_table_offers_no_rematch_and_a_casual_one_does():
    org, p, q = users("org", "p", "q")
    t = event(org, "round_robin")
    enter(t, [p, q])
    services.start(user=org, tournament_id=t.pk)
    (game,) = live_games(t)
    client = Client()
    client.force_login(p)
    # Said to a page opened while the table is played, which is not loaded again at its end.
    assert page_config(client, game.match_id)["rematchOffered"] is False
    resign_for(game.pairing.b, game)
    assert Match.objects.get(pk=game.match_id).status == Match.Status.FINISHED
    with pytest.raises(GameError) as refused:
        actions.ask_rematch(user=p, match_id=game.match_id)
    assert refused.value.code == "rematch_not_offered"
    assert not Rematch.objects.exists()
    assert page_config(client, game.match_id)["rematchOffered"] is False

    assert "replay" in page_config(client, game.match_id)["urls"]  # resigned: not a no-show

    casual = seated_match([p, q])
    actions.resign(user=q, match_id=casual.pk)
    assert page_config(client, casual.pk)["rematchOffered"] is True
    actions.ask_rematch(user=p, match_id=casual.pk)
    assert Rematch.objects.filter(match_id=casual.pk).exists()


def test_a_no_show_s_table_has_no_replay_to_watch():
    """A table decided before any card (a tournament's forfeit) shows no "Watch the replay"."""
    p, q = users("p", "q")
    forfeit = seated_match([p, q])
    actions.end_by_decision(match_id=forfeit.pk, winner=0)
    client = Client()
    client.force_login(p)
    assert "replay" not in page_config(client, forfeit.pk)["urls"]
