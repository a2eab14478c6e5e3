"""Players who do not come to their tournament table (games/tournaments/noshow.py): a paired
table waits ``noshow.wait()`` (the core's absence grace) for its players; a side none of whose
players came loses by default (a forfeit win for the other, unrated, no table set up again;
both absent: both lose 0-0), and the event goes on. Time moves through the core's clock
(``clock.tick``) and the scheduler (``services.tick``) with an injected ``now``, as the server
runs them."""

from __future__ import annotations

import csv
import io
import json
import re
from datetime import timedelta
from zoneinfo import ZoneInfo

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.core import actions
from games.core.clock import clock
from games.core.models import Match
from games.ratings.models import RatedMatch
from games.tournaments import for_apps as tournaments
from games.tournaments import noshow, pages, services
from games.tournaments.crosstable import Result, build
from games.tournaments.models import Entrant, Game, Pairing, Tournament
from games.tournaments.checks import MAX_ABORTS
from games.tournaments.errors import Code, TournamentError
from tests.core.helpers import play_turn
from tests.tournaments.helpers import (
    client_for, enter, event, live_games, page_of, refresh, resign_for, users,
)

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _clock_running(settings):
    """The absence grace as the site has it (60 s); time jumped on between two ticks stands for
    time that passed with the clock running, not an outage (tests/core/clock/test_clock.py)."""
    settings.BASRA_ABSENT_GRACE_SECONDS = 60
    settings.BASRA_CLOCK_OUTAGE_SECONDS = 10**9


def run(start, seconds: int, *, present=(), step: int = 5) -> None:
    """Run the core's clock and the event scheduler every ``step`` seconds from ``start`` for
    ``seconds``; the users ``present`` keep a page of each of their live tables open (their
    sockets' beats, ``actions.player_seen``)."""
    for elapsed in range(step, seconds + 1, step):
        now = start + timedelta(seconds=elapsed)
        for user in present:
            for game in Game.objects.filter(match__status=Match.Status.PLAYING, match__seats__user=user):
                actions.player_seen(match_id=game.match_id, user=user, now=now)
        clock.tick(now=now)
        services.tick(now=now)


def started(fmt: str, people: list, **settings):
    org = users("org")[0]
    t = event(org, fmt, **settings)
    enter(t, people)
    start = timezone.now()
    services.start(user=org, tournament_id=t.pk, now=start)
    return refresh(t), start


def test_a_table_nobody_comes_to_is_a_double_default_and_never_set_up_again():
    a, b = users("a", "b")
    t, start = started("round_robin", [a, b], rated=True)
    (game,) = live_games(t)
    run(start, 10 * 60)
    assert Game.objects.filter(pairing__tournament=t).count() == 1  # no table remade
    p = Pairing.objects.get(pk=game.pairing_id)
    assert p.finished and p.forfeit and p.winner_id is None
    assert (p.score_a, p.score_b, p.no_show) == (0.0, 0.0, Pairing.NoShow.BOTH)
    assert refresh(t).status == Tournament.Status.FINISHED
    assert not RatedMatch.objects.filter(match_id=game.match_id).exists()
    # Decided at the end of the wait, not before.
    assert p.finished_at == start + timedelta(seconds=65)
    assert noshow.wait() == timedelta(seconds=60)


def test_the_player_at_the_table_wins_by_default_unrated():
    a, b = users("a", "b")
    t, start = started("round_robin", [a, b], rated=True, move_seconds=30)
    (game,) = live_games(t)
    run(start, 55, present=[a])
    assert not Pairing.objects.get(pk=game.pairing_id).finished  # the wait is not over
    run(start + timedelta(seconds=55), 5 * 60, present=[a])
    p = Pairing.objects.select_related("a", "b").get(pk=game.pairing_id)
    a_entrant = Entrant.objects.get(tournament=t, user=a)
    assert p.finished and p.forfeit and p.winner_id == a_entrant.pk
    assert p.no_show == (Pairing.NoShow.B if p.a_id == a_entrant.pk else Pairing.NoShow.A)
    match = Match.objects.get(pk=game.match_id)
    assert (match.status, match.result) == (Match.Status.FINISHED, Match.Result.DECIDED)
    assert match.winner_side == (game.a_side if p.a_id == a_entrant.pk else 1 - game.a_side)
    assert not RatedMatch.objects.filter(match=match).exists()
    assert Game.objects.filter(pairing=p).count() == 1
    assert refresh(t).status == Tournament.Status.FINISHED
    # The standings count it; the crosstable marks it as FIDE's do; the page says how.
    (first, second) = services.standings(t)
    assert (first.entrant.pk, first.score, second.score) == (a_entrant.pk, 1.0, 0.0)
    rows = {row.entrant.pk: row for row in build(t).rows}
    assert rows[a_entrant.pk].cells[1].result == Result.FORFEIT_WIN
    assert [c.result for row in rows.values() if row.entrant.pk != a_entrant.pk
            for c in row.cells.values()] == [Result.FORFEIT_LOSS]
    page = page_of(a, t)
    assert "won by default: the opponent did not come to the table" in page


def test_a_player_who_comes_within_the_wait_is_no_no_show():
    a, b = users("a", "b")
    t, start = started("round_robin", [a, b], move_seconds=30)
    (game,) = live_games(t)
    actions.player_seen(match_id=game.match_id, user=b, now=start + timedelta(seconds=40))
    run(start, 70, present=[a])
    assert live_games(t) == [game]  # b is not absent yet: the table goes on
    assert not Pairing.objects.get(pk=game.pairing_id).finished


def test_swiss_no_shows_lose_by_default_and_the_rounds_go_on():
    a, b, c, d = users("a", "b", "c", "d")
    t, start = started("swiss", [a, b, c, d], swiss_rounds=2)
    run(start, 10 * 60, present=[a, b])
    assert refresh(t).status == Tournament.Status.FINISHED
    # One table per pairing, whatever the wait: never remade.
    for p in Pairing.objects.filter(tournament=t):
        assert p.games.count() == 1
    lines = {line.entrant.user_id: line.score for line in services.standings(t)}
    assert lines[c.pk] == lines[d.pk] == 0.0
    assert lines[a.pk] + lines[b.pk] >= 2.0


def test_knockout_nobody_comes_the_better_seed_goes_on():
    people = users("a", "b", "c", "d")
    t, start = started("knockout", people)
    run(start, 10 * 60)
    t = refresh(t)
    assert t.status == Tournament.Status.FINISHED
    assert Game.objects.filter(pairing__tournament=t).count() == 3  # two semi-finals, a final
    final = Pairing.objects.get(tournament=t, round__number=2)
    assert final.no_show == Pairing.NoShow.BOTH and final.winner.seed == 1
    assert "neither came to the table" in page_of(people[0], t)


def test_knockout_tables_everyone_left_after_playing_still_send_someone_on():
    """Tables every player left after playing a card (abandoned, no no-show) are set up again up
    to ``MAX_ABORTS`` times; then, both sides having aborted as many (none), the better seed
    goes on and the next round is paired."""
    people = users("a", "b", "c", "d")
    t, _start = started("knockout", people)
    games = live_games(t)
    stayed = next(g for g in games if g.pairing.a.seed == 1)
    other = next(g for g in games if g is not stayed)
    resign_for(other.pairing.b, other)
    for _ in range(MAX_ABORTS + 1):
        (game,) = [g for g in live_games(t) if g.pairing_id == stayed.pairing_id]
        play_turn(game.match)
        play_turn(game.match)
        clock.tick(now=timezone.now() + timedelta(seconds=61))  # both gone: abandoned
        services.catch_up(t.pk)
    p = Pairing.objects.get(pk=stayed.pairing_id)
    assert p.forfeit and p.winner.seed == 1 and p.no_show == Pairing.NoShow.NONE
    (final,) = Pairing.objects.filter(tournament=t, round__number=2)
    assert final.a_id == p.winner_id


def version(t: Tournament, user) -> str:
    """The event page's ETag for ``user`` (``pages.version``), in English and UTC."""
    return pages.version(t.pk, user, "en", lambda _zone: ZoneInfo("UTC"))


def rejoin_form(client: Client, t: Tournament) -> tuple[str, str]:
    """The event page's rejoin form as ``client`` gets it: its action and CSRF token."""
    page = client.get(reverse("tournament", args=[t.pk])).content.decode()
    form = re.search(r'<form[^>]*action="([^"]*/rejoin/)".*?</form>', page, re.S)
    assert form, "no rejoin form on the page"
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form.group(0))
    assert token and 'id="rejoin-button"' in form.group(0)
    return form.group(1), token.group(1)


def test_a_swiss_no_show_is_absent_sits_out_unpaired_and_rejoins():
    """A Swiss entrant who did not come to its table is marked absent: not paired in the next
    round (no table, no forfeit, no bye: no points), shown absent, until it rejoins with the
    event page's button (a POST with the CSRF token); the round after, it is paired again."""
    a, b, c, d = users("a", "b", "c", "d")
    t, start = started("swiss", [a, b, c, d], swiss_rounds=3, move_seconds=None)
    run(start, 70, present=[a, b, c])
    gone = Entrant.objects.get(tournament=t, user=d)
    assert gone.absent and gone.status == Entrant.Status.ACTIVE
    (played,) = live_games(t)  # the table of two who came goes on
    resign_for(played.pairing.b, played)
    assert refresh(t).current_round == 2
    second = Pairing.objects.filter(tournament=t, round__number=2)
    assert gone.pk not in {x for p in second for x in (p.a_id, p.b_id)}
    assert len(second) == 2 and sum(p.b_id is None for p in second) == 1  # a pair, a bye
    lines = {line.entrant.pk: line for line in services.standings(t)}
    assert lines[gone.pk].score == 0.0
    assert 'class="tag absent-tag">absent</span>' in page_of(a, t)
    # The crosstable and the exports say so too.
    crosstable = Client().get(reverse("tournament_crosstable", args=[t.pk])).content.decode()
    assert crosstable.count('class="tag absent-tag">absent</span>') >= 2  # start list, crosstable
    standings = Client().get(reverse("tournament_standings_csv", args=[t.pk])).content.decode()
    assert {r["name"]: r["absent"] for r in csv.DictReader(io.StringIO(standings))} == {
        "a": "0", "b": "0", "c": "0", "d": "1"}
    read = json.loads(Client().get(reverse("tournament_json", args=[t.pk])).content)
    assert {e["name"]: e["absent"] for e in read["entrants"]} == {
        "a": False, "b": False, "c": False, "d": True}
    # The rejoin button: a POST that needs the page's CSRF token.
    client = Client(enforce_csrf_checks=True)
    client.force_login(d)
    action, token = rejoin_form(client, t)
    assert client.post(action).status_code == 403
    gone.refresh_from_db()
    assert gone.absent
    before = version(t, d)
    assert client.post(action, {"csrfmiddlewaretoken": token}).status_code == 302
    gone.refresh_from_db()
    assert not gone.absent
    assert version(t, d) != before  # the page's refresh (an ETag) sees the change
    assert 'id="rejoin-button"' not in client.get(reverse("tournament", args=[t.pk])).content.decode()
    (played,) = live_games(t)
    resign_for(played.pairing.b, played)
    third = Pairing.objects.filter(tournament=t, round__number=3)
    assert gone.pk in {x for p in third for x in (p.a_id, p.b_id)}
    # No point for the round it sat out.
    assert {line.entrant.pk: line.score for line in services.standings(t)}[gone.pk] == 0.0


def test_an_arena_no_show_is_paused_and_rejoins():
    """An arena entrant who did not come to its table is paused, not withdrawn: the waves pass
    it over, and the other apps take it for free (``for_apps.engaged``), until it rejoins from
    the event page; then the next wave pairs it."""
    a, b = users("a", "b")
    t, start = started("arena", [a, b], arena_minutes=10)
    run(start, 5 * 60, present=[a])
    assert Game.objects.filter(pairing__tournament=t).count() == 1
    no_show = Entrant.objects.get(tournament=t, user=b)
    assert no_show.status == Entrant.Status.ACTIVE and no_show.absent
    p = Pairing.objects.get(tournament=t)
    assert p.forfeit and p.winner.user_id == a.pk
    page = page_of(b, t)
    assert "You are paused: rejoin" in page and 'class="tag absent-tag">paused</span>' in page
    # Paused, b is free for the other apps (a queue may pair them); back, engaged again.
    assert tournaments.engaged([a.pk, b.pk]) == {a.pk}
    services.rejoin(user=b, tournament_id=t.pk)
    assert tournaments.engaged([b.pk]) == {b.pk}
    services.catch_up(t.pk)  # the server's step after the commit (follow.wake)
    (game,) = live_games(t)
    assert {game.pairing.a.user_id, game.pairing.b.user_id} == {a.pk, b.pk}
    with pytest.raises(TournamentError) as refused:
        services.rejoin(user=b, tournament_id=t.pk)
    assert refused.value.code == Code.NOT_ABSENT


def test_a_round_robin_no_show_keeps_its_schedule():
    """A round robin's no-show is not marked absent: its fixed schedule pairs it again, and each
    table it misses is a default of its own."""
    a, b, c = users("a", "b", "c")
    t, start = started("round_robin", [a, b, c], move_seconds=None)
    run(start, 70, present=[a, b])
    assert not Entrant.objects.get(tournament=t, user=c).absent
    assert "rejoin" not in page_of(c, t)


def test_the_wait_is_published_where_the_table_is_announced():
    a, b = users("a", "b")
    t, _start = started("round_robin", [a, b])
    page = client_for(a).get(reverse("tournament", args=[t.pk])).content.decode()
    waiting = page[page.index('id="my-tables"'):]
    assert 'class="note no-show-rule"' in waiting
    assert "A player who has not come to their table within 1 minute of its opening loses by default" in waiting


def first_pairings_after_the_wait(fmt: str, **settings) -> tuple[Tournament, list[Pairing]]:
    """An event of ``fmt`` for 4 entrants, with a 10 s move clock, that nobody comes to: the
    core's clock and the scheduler run until just after the wait (65 s), the clock playing for
    every seat on each time-out meanwhile. The event (read again) and its first pairings."""
    people = users("amira", "zeinab", "c", "d")
    t, start = started(fmt, people, move_seconds=10, **settings)
    assert len(live_games(t)) == 2
    run(start, 65)
    pairings = list(Pairing.objects.filter(tournament=t, round__number=1).order_by("pk"))
    return refresh(t), pairings


def assert_double_defaults(t: Tournament, pairings: list[Pairing]) -> None:
    """Both first pairings of ``t`` are double defaults (0-0, nobody credited, no table set up
    again) and every entrant is marked absent."""
    assert len(pairings) == 2
    for p in pairings:
        assert p.finished and p.forfeit and p.winner_id is None
        assert (p.score_a, p.score_b, p.no_show) == (0.0, 0.0, Pairing.NoShow.BOTH)
        assert p.games.count() == 1
    entrants = Entrant.objects.filter(tournament=t)
    assert [e.absent for e in entrants] == [True] * 4
    assert {line.score for line in services.standings(t)} == {0.0}


def test_an_arena_table_the_clock_plays_for_nobody_at_is_a_double_default():
    """At an arena table with a move clock, the plays the clock makes for seats whose time ran
    out are nobody's coming: both players who never came lose by default (0-0) and are paused,
    though the clock's time-outs mark one of them absent before the wait is over."""
    t, pairings = first_pairings_after_the_wait("arena", arena_minutes=6)
    assert_double_defaults(t, pairings)
    assert live_games(t) == []  # nobody paired again


def test_a_swiss_table_the_clock_plays_for_nobody_at_is_a_double_default():
    """The same at a Swiss table with a move clock: a double default, both marked absent."""
    t, pairings = first_pairings_after_the_wait("swiss", swiss_rounds=2)
    assert_double_defaults(t, pairings)


def test_the_scheduler_ticking_before_the_clock_still_sees_both_sides_gone(settings):
    """When the wait ends and the scheduler ticks before the core's clock has marked absent the
    seat it has not yet timed out three times, that seat, silent since, is a no-show too: a
    double default, not a win for a player who never played. Both opened the table at once
    and left (the clock waits for a player who never came: it times out only those who did)."""
    settings.BASRA_ABSENT_GRACE_SECONDS = 55  # the clock's third time-out of one seat: at 50 s
    people = users("amira", "zeinab")
    t, start = started("arena", people, move_seconds=10, arena_minutes=6)
    (game,) = live_games(t)
    for person in people:
        actions.player_seen(match_id=game.match_id, user=person, now=start + timedelta(seconds=1))
    run(start, 55)
    assert not Pairing.objects.get(pk=game.pairing_id).finished  # the wait is not over
    # The clock's time-outs marked absent the seat that moved first, not the other yet.
    assert sorted(s.absent for s in game.match.seats.all()) == [False, True]
    services.tick(now=start + timedelta(seconds=60))  # before the clock's tick at 60 s
    p = Pairing.objects.get(pk=game.pairing_id)
    assert p.finished and p.winner_id is None and p.no_show == Pairing.NoShow.BOTH
    assert [e.absent for e in Entrant.objects.filter(tournament=t)] == [True, True]
