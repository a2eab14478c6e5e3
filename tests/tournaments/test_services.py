"""Bad input to the tournament services: a clear error and nothing changed (issue 13, "Bad
input"); the organiser's pause, forfeit and correction, each in the audit trail."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import AnonymousUser
from django.utils import timezone

from games.core import actions
from games.core.errors import GameError
from games.tournaments import services, tables
from games.tournaments.errors import TournamentError
from games.tournaments.models import AuditEntry, Entrant, Pairing, Tournament
from tests.tournaments.helpers import enter, event, live_games, play_out, refresh, refused, snapshot, users

pytestmark = pytest.mark.django_db


def test_registering_twice_after_the_deadline_or_beyond_the_limit():
    org, a, b, c = users("org", "a", "b", "c")
    t = event(org, "swiss", swiss_rounds=3, max_entrants=2)
    services.register(user=a, tournament_id=t.pk)
    refused("already_registered", t, services.register, user=a, tournament_id=t.pk)
    services.register(user=b, tournament_id=t.pk)
    refused("event_full", t, services.register, user=c, tournament_id=t.pk)
    t2 = event(org, "round_robin")
    # From t2's own deadline: t's is earlier by however long the lines between took.
    late = refresh(t2).registration_deadline + timedelta(seconds=1)
    refused("registration_closed", t2, services.register, user=c, tournament_id=t2.pk, now=late)
    refused("login_required", t2, services.register, user=AnonymousUser(), tournament_id=t2.pk)
    refused("partner_not_allowed", t2, services.register, user=c, tournament_id=t2.pk, partner=a)


def test_registration_closes_at_the_start_except_for_swiss_late_entry():
    org, a, b, c = users("org", "a", "b", "c")
    t = event(org, "knockout")
    enter(t, [a, b])
    services.start(user=org, tournament_id=t.pk)
    refused("registration_closed", t, services.register, user=c, tournament_id=t.pk)
    refused("already_started", t, services.start, user=org, tournament_id=t.pk)


def test_partner_accepting_twice_or_for_someone_else():
    org, a, b, c, d = users("org", "a", "b", "c", "d")
    t = event(org, "round_robin", players=4)
    refused("partner_required", t, services.register, user=a, tournament_id=t.pk)
    refused("partner_self", t, services.register, user=a, tournament_id=t.pk, partner=a)
    invite = services.register(user=a, tournament_id=t.pk, partner=b)
    assert invite.status == Entrant.Status.INVITED
    refused("partner_invited", t, services.register, user=c, tournament_id=t.pk, partner=b)
    refused("already_registered", t, services.register, user=b, tournament_id=t.pk, partner=c)
    refused("not_invited", t, services.accept_partner, user=c, entrant_id=invite.pk)
    refused("not_invited", t, services.accept_partner, user=a, entrant_id=invite.pk)
    services.accept_partner(user=b, entrant_id=invite.pk)
    refused("already_accepted", t, services.accept_partner, user=b, entrant_id=invite.pk)
    refused("partner_registered", t, services.register, user=c, tournament_id=t.pk, partner=b)
    refused("not_found", t, services.accept_partner, user=b, entrant_id=invite.pk + 999)


def test_a_partnership_not_accepted_by_the_start_is_dropped():
    org, *ps = users("org", "a", "b", "c", "d", "e", "f")
    t = event(org, "swiss", players=4, swiss_rounds=1)
    enter(t, ps[:4])
    waiting = services.register(user=ps[4], tournament_id=t.pk, partner=ps[5])
    services.start(user=org, tournament_id=t.pk)
    assert not Entrant.objects.filter(pk=waiting.pk).exists()
    assert Entrant.objects.filter(tournament=t).count() == 2


def test_a_result_reported_twice():
    org, a, b = users("org", "a", "b")
    t = event(org, "round_robin")
    enter(t, [a, b])
    services.start(user=org, tournament_id=t.pk)
    (game,) = live_games(t)
    actions.resign(user=b, match_id=game.match_id)  # the receiver records it
    services.catch_up(t.pk)  # the event's end, after the commit
    game.refresh_from_db()
    assert game.winner.user == a and refresh(t).status == Tournament.Status.FINISHED
    refused("result_reported", t, services.record_result, match_id=game.match_id, winner=1, result="resign")
    # The receiver itself is idempotent: the signal again changes nothing and raises nothing.
    before = snapshot(t)
    game.match.refresh_from_db()
    services.on_match_finished(sender=None, match=game.match, winner=1, result="resign")
    assert snapshot(t) == before


def test_a_non_organiser_acting_as_organiser():
    org, a, b, staff = users("org", "a", "b", "staff")
    staff.is_staff = True
    staff.save()
    t = event(org, "round_robin")
    enter(t, [a, b])
    refused("not_organiser", t, services.start, user=a, tournament_id=t.pk)
    refused("login_required", t, services.start, user=AnonymousUser(), tournament_id=t.pk)
    services.start(user=staff, tournament_id=t.pk)  # staff can manage every event
    (p,) = Pairing.objects.filter(tournament=t)
    refused("not_organiser", t, services.pause, user=a, tournament_id=t.pk)
    refused("not_organiser", t, services.record_forfeit, user=a, pairing_id=p.pk, winner_id=p.a_id)
    refused("not_organiser", t, services.pair_round, user=b, tournament_id=t.pk)
    play_out(t)
    refused("not_organiser", t, services.correct_result, user=a, pairing_id=p.pk, winner_id=p.a_id)


def test_pairing_a_round_before_the_last_one_ended():
    org, *ps = users("org", "a", "b", "c", "d")
    t = event(org, "swiss", swiss_rounds=3)
    enter(t, ps)
    services.start(user=org, tournament_id=t.pk)
    refused("round_not_over", t, services.pair_round, user=org, tournament_id=t.pk)
    services.pause(user=org, tournament_id=t.pk)
    refused("already_paused", t, services.pause, user=org, tournament_id=t.pk)
    for game in live_games(t):
        loser = max((game.pairing.a, game.pairing.b), key=lambda e: e.user.username)
        actions.resign(user=loser.user, match_id=game.match_id)
    # Paused: the round is over but the next is not paired until the organiser says so.
    assert refresh(t).current_round == 1 and not live_games(t)
    services.pair_round(user=org, tournament_id=t.pk)
    assert refresh(t).current_round == 2 and len(live_games(t)) == 2
    refused("round_not_over", t, services.pair_round, user=org, tournament_id=t.pk)
    services.resume(user=org, tournament_id=t.pk)
    refused("not_paused", t, services.resume, user=org, tournament_id=t.pk)
    play_out(t)
    assert refresh(t).status == Tournament.Status.FINISHED
    actions_logged = list(AuditEntry.objects.filter(tournament=t).values_list("action", flat=True))
    assert actions_logged == ["start", "pause", "pair", "resume"]
    arena = event(org, "arena", arena_minutes=10)
    enter(arena, users("x", "y"))
    services.start(user=org, tournament_id=arena.pk)
    refused("no_rounds", arena, services.pair_round, user=org, tournament_id=arena.pk)


def test_organiser_forfeit_and_correction_are_kept_in_the_audit_trail():
    org, *ps = users("org", "a", "b", "c", "d")
    t = event(org, "round_robin")
    enter(t, ps)
    services.start(user=org, tournament_id=t.pk)
    first, second = live_games(t)
    p = first.pairing
    refused("bad_winner", t, services.record_forfeit, user=org, pairing_id=p.pk, winner_id=second.pairing.a_id)
    refused("not_finished", t, services.correct_result, user=org, pairing_id=p.pk, winner_id=p.a_id)
    services.record_forfeit(user=org, pairing_id=p.pk, winner_id=p.b_id)
    p.refresh_from_db()
    assert p.forfeit and p.winner_id == p.b_id and p.score_b == 1.0
    refused("result_reported", t, services.record_forfeit, user=org, pairing_id=p.pk, winner_id=p.a_id)
    # The table was ended with the forfeit: it can no longer be resigned (or played).
    with pytest.raises(GameError) as error:
        actions.resign(user=p.b.user, match_id=first.match_id)
    assert error.value.code == "match_over"
    p.refresh_from_db()
    assert p.winner_id == p.b_id
    services.correct_result(user=org, pairing_id=p.pk, winner_id=p.a_id)
    p.refresh_from_db()
    assert p.winner_id == p.a_id and p.score_a == 1.0 and p.score_b == 0.0
    trail = list(AuditEntry.objects.filter(tournament=t).order_by("pk"))
    assert [e.action for e in trail] == ["start", "forfeit", "correct"]
    assert trail[2].details == {"before": p.b.name, "after": p.a.name}
    assert trail[1].pairing_id == p.pk and trail[1].actor == org


def test_an_organiser_who_plays_cannot_decide_their_own_pairing():
    """An organiser entered in their own Swiss may not record a forfeit in their own pairing
    (in their own favour); staff still may, and the organiser still decides the other
    pairings."""
    org, *ps = users("org", "a", "b", "c")
    t = event(org, "round_robin")
    enter(t, [org, *ps])
    services.start(user=org, tournament_id=t.pk)
    games = live_games(t)
    own = next(g.pairing for g in games if org in (g.pairing.a.user, g.pairing.b.user))
    other = next(g.pairing for g in games if g.pairing.pk != own.pk)
    mine = own.a_id if own.a.user == org else own.b_id
    refused("own_pairing", t, services.record_forfeit, user=org, pairing_id=own.pk, winner_id=mine)
    services.record_forfeit(user=org, pairing_id=other.pk, winner_id=other.a_id)
    staff = users("staff")[0]
    staff.is_staff = True
    staff.save(update_fields=["is_staff"])
    services.record_forfeit(user=staff, pairing_id=own.pk, winner_id=mine)
    own.refresh_from_db()
    assert own.forfeit and own.winner_id == mine
    refused("own_pairing", t, services.correct_result, user=org, pairing_id=own.pk, winner_id=None)


def test_a_knockout_result_cannot_be_corrected_once_the_next_round_is_paired():
    org, *ps = users("org", "a", "b", "c", "d")
    t = event(org, "knockout")
    enter(t, ps)
    services.start(user=org, tournament_id=t.pk)
    first = live_games(t)
    for game in first:
        loser = max((game.pairing.a, game.pairing.b), key=lambda e: e.user.username)
        actions.resign(user=loser.user, match_id=game.match_id)
    services.catch_up(t.pk)  # the next round, after the commit
    p = first[0].pairing
    refused("next_round_paired", t, services.correct_result, user=org, pairing_id=p.pk, winner_id=p.b_id)
    refused("bad_winner", t, services.record_forfeit, user=org,
            pairing_id=live_games(t)[0].pairing_id, winner_id=None)


def test_bad_settings():
    (org,) = users("org")
    starts = timezone.now() + timedelta(hours=1)
    bad = [
        {"format": "ladder"},
        {"format": "swiss"},  # no rounds
        {"format": "arena"},  # no duration
        {"format": "knockout", "best_of": 2},
        {"format": "round_robin", "rated": True, "move_seconds": None},
        {"format": "round_robin", "rules": {"target": 0}},
        # Nobody could ever score (Rules.can_score): no match of it would end.
        {"format": "round_robin",
         "rules": {"majority_points": 0, "basra_points": 0, "jack_basra_points": 0}},
        {"format": "round_robin", "players": 3},
        {"format": "round_robin", "max_entrants": 1},
        {"format": "round_robin", "tiebreaks": ["coin toss"]},
        {"format": "round_robin", "registration_closes": starts + timedelta(minutes=1)},
    ]
    for settings in bad:
        with pytest.raises(TournamentError) as error:
            services.create_tournament(user=org, name="x", starts_at=starts, **settings)
        assert error.value.code == "bad_settings", settings
    assert not Tournament.objects.exists()


def test_the_scheduler_starts_events_at_their_time_and_cancels_empty_ones():
    org, a, b = users("org", "a", "b")
    full = event(org, "round_robin", starts_in=5)
    enter(full, [a, b])
    empty = event(org, "round_robin", starts_in=5)
    assert services.tick()["started"] == 0
    counts = services.tick(now=timezone.now() + timedelta(minutes=6))
    assert counts["started"] == 1 and counts["cancelled"] == 1
    assert refresh(full).status == Tournament.Status.RUNNING and len(live_games(full)) == 1
    assert refresh(empty).status == Tournament.Status.CANCELLED


def test_a_table_the_core_refused_is_opened_by_the_scheduler(monkeypatch):
    from games.core.errors import GameError

    org, a, b = users("org", "a", "b")
    t = event(org, "round_robin")
    enter(t, [a, b])
    real = tables.create_table

    def refuse(**kwargs):
        raise GameError("too_many_open_tables")

    monkeypatch.setattr(tables, "create_table", refuse)
    services.start(user=org, tournament_id=t.pk)
    assert not live_games(t) and Pairing.objects.filter(tournament=t, finished_at=None).count() == 1
    monkeypatch.setattr(tables, "create_table", real)
    assert services.tick()["tables"] == 1
    assert len(live_games(t)) == 1


def test_entrants_are_seeded_with_their_rating_in_the_events_pool():
    """Seeding by rating reads the ratings app (a new player's 1500 without a rating there)."""
    from games.ratings.models import PlayerRating

    organiser, strong, newcomer, a, b = users("org", "strong", "newcomer", "pa", "pb")
    PlayerRating.objects.create(user=strong, pool="1v1", rating=1812.5, deviation=80,
                                volatility=0.06)
    PlayerRating.objects.create(user=a, pool="partnership", rating=1700, deviation=80,
                                volatility=0.06)
    single = event(organiser, "swiss", swiss_rounds=3)
    by_user = {e.user_id: e.rating for e in enter(single, [strong, newcomer])}
    assert by_user == {strong.pk: 1812.5, newcomer.pk: 1500.0}
    pairs = event(organiser, "swiss", players=4, swiss_rounds=3)
    [team] = enter(pairs, [a, b])
    assert team.rating == (1700 + 1500) / 2


def test_no_tie_breaks_is_an_empty_order_and_the_default_is_stored_with_the_event():
    import importlib

    from django.apps import apps

    (org,) = users("org")
    none = event(org, "swiss", swiss_rounds=3, tiebreaks=[])
    usual = event(org, "swiss", swiss_rounds=3)
    assert none.tiebreak_order() == [] and refresh(none).tiebreaks == []
    assert usual.tiebreak_order() == ["buchholz_cut1", "buchholz", "sonneborn_berger"]
    arena = event(org, "arena", arena_minutes=5)
    assert arena.tiebreaks == []  # no tie-breaks there
    with pytest.raises(TournamentError):
        event(org, "swiss", swiss_rounds=3, tiebreaks=["wins", "wins"])
    # Events made before kept an empty order for "the format's default": the migration gives
    # it to them, so their standings do not change.
    Tournament.objects.filter(pk=usual.pk).update(tiebreaks=[])
    migration = importlib.import_module("games.tournaments.migrations.0002_tiebreaks_default_stored")
    migration.store_defaults(apps, None)
    assert refresh(usual).tiebreaks == ["buchholz_cut1", "buchholz", "sonneborn_berger"]
    assert refresh(arena).tiebreaks == []
