"""The write path of the live tables (games/core/actions/): seating, plays, refusals, the log."""

from __future__ import annotations

import copy
import uuid
from collections import Counter

import pytest
from django.contrib.auth.models import AnonymousUser
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import engine
from games.core import actions
from games.core.actions import funnel, seating
from games.core.models import Event, Match, Seat
from games.core.state import reads, cache as table_cache, log as event_log
from games.engine import shuffle
from tests.core.helpers import (
    event_kinds,
    play_out,
    play_turn,
    refused,
    seated_match,
    timeless,
    users_by_seat,
)
from tests.core.helpers import snapshot

pytestmark = pytest.mark.django_db


@pytest.fixture
def users(make_player):
    return [make_player(name).user for name in ("alice", "bob", "carol", "dave", "erin")]



# --- creating -------------------------------------------------------------------------------


def test_create_table_seats_the_creator_and_stores_the_rules(users):
    match = actions.create_table(
        user=users[0], players=4, rules={"target": 151, "seven_diamonds": "classic"}, rated=True
    )
    assert match.status == Match.Status.OPEN
    assert match.rated is True
    assert match.rules == engine.Rules(players=4, target=151, seven_diamonds="classic").to_dict()
    assert list(match.seats.values_list("seat", "user")) == [(0, users[0].pk)]
    assert event_kinds(match) == ["join"]
    assert match.seq == 1
    assert match.scores == [0, 0]


@pytest.mark.parametrize(
    "players, rules",
    [
        (3, {}),
        (2, {"no_such_option": 1}),
        (2, {"target": "lots"}),
        (2, {"seven_diamonds": "purple"}),
        (2, {"players": 4}),
    ],
)
def test_create_table_refuses_bad_rules(users, players, rules):
    refused("bad_rules", actions.create_table, user=users[0], players=players, rules=rules,
            rated=False)
    assert not Match.objects.exists()


def test_create_table_needs_a_logged_in_user():
    refused("login_required", actions.create_table, user=AnonymousUser(), players=2, rules={},
            rated=False)


# --- joining and leaving ---------------------------------------------------------------------


def test_four_player_seating_order_and_start(users, known_decks):
    match = actions.create_table(user=users[0], players=4, rules={}, rated=False)
    seats = [actions.join_table(user=u, match_id=match.pk) for u in users[1:4]]
    assert seats == [2, 1, 3]
    match.refresh_from_db()
    assert match.status == Match.Status.PLAYING
    assert match.started_at is not None
    assert event_kinds(match) == ["join", "join", "join", "join", "start", "deal"]
    start = match.events.get(kind="start")
    seeds = [s.client_seed for s in match.seats.order_by("seat")]
    assert all(seeds) and match.client_seeds == seeds
    assert start.payload == {
        "seats": ["alice", "carol", "bob", "dave"], "bots": [None, None, None, None], "dealer": 0,
        "algorithm": "basra-shuffle/1", "commitment": shuffle.commitment(match.server_seed),
        "client_seeds": seeds}
    deal = match.events.get(kind="deal")
    assert deal.payload == {"round": 1, "dealer": 0, "deck": known_decks[0]}
    assert sorted(deal.payload["deck"]) == sorted(c.code for c in engine.full_deck())
    assert match.seq == 6


def test_two_player_table_starts_on_the_second_join(users):
    match = seated_match(users[:2])
    assert match.status == Match.Status.PLAYING
    deck = match.events.get(kind="deal").payload["deck"]
    assert len(set(deck)) == 52


def test_shuffles_differ(users):
    # The deck comes from secrets.SystemRandom: two tables virtually never get the same order.
    decks = {tuple(seated_match(users[i:i + 2]).events.get(kind="deal").payload["deck"])
             for i in (0, 2)}
    assert len(decks) == 2


def test_join_refusals_change_nothing(users):
    match = actions.create_table(user=users[0], players=2, rules={}, rated=False)
    before = snapshot(match)
    refused("already_seated", actions.join_table, user=users[0], match_id=match.pk)
    assert snapshot(match) == before
    refused("not_found", actions.join_table, user=users[1], match_id=match.pk + 1000)
    refused("login_required", actions.join_table, user=AnonymousUser(), match_id=match.pk)
    assert snapshot(match) == before
    actions.join_table(user=users[1], match_id=match.pk)
    full = snapshot(match)
    refused("table_full", actions.join_table, user=users[2], match_id=match.pk)
    refused("already_seated", actions.join_table, user=users[1], match_id=match.pk)
    assert snapshot(match) == full


def test_leave_before_start_frees_the_seat(users):
    match = actions.create_table(user=users[0], players=4, rules={}, rated=False)
    actions.join_table(user=users[1], match_id=match.pk)
    actions.leave_table(user=users[1], match_id=match.pk)
    assert list(match.seats.values_list("seat", flat=True)) == [0]
    assert event_kinds(match) == ["join", "join", "leave"]
    assert actions.join_table(user=users[2], match_id=match.pk) == 2


def test_creator_leaving_keeps_the_table_for_the_others(users):
    match = actions.create_table(user=users[0], players=2, rules={}, rated=False)
    actions.join_table(user=users[1], match_id=match.pk)
    refused("cannot_leave", actions.leave_table, user=users[1], match_id=match.pk)
    other = actions.create_table(user=users[2], players=4, rules={}, rated=False)
    actions.join_table(user=users[3], match_id=other.pk)
    actions.leave_table(user=users[2], match_id=other.pk)
    assert list(other.seats.values_list("seat", "user")) == [(2, users[3].pk)]
    # Seat 0 is the first free one again.
    assert actions.join_table(user=users[4], match_id=other.pk) == 0


def test_last_player_leaving_removes_the_table(users):
    match = actions.create_table(user=users[0], players=2, rules={}, rated=False)
    actions.leave_table(user=users[0], match_id=match.pk)
    assert not Match.objects.filter(pk=match.pk).exists()
    assert reads.open_tables() == []


def test_leave_refusals(users):
    match = actions.create_table(user=users[0], players=2, rules={}, rated=False)
    before = snapshot(match)
    refused("not_seated", actions.leave_table, user=users[1], match_id=match.pk)
    refused("not_found", actions.leave_table, user=users[0], match_id=match.pk + 1000)
    refused("login_required", actions.leave_table, user=AnonymousUser(), match_id=match.pk)
    assert snapshot(match) == before
    actions.join_table(user=users[1], match_id=match.pk)
    started = snapshot(match)
    refused("cannot_leave", actions.leave_table, user=users[0], match_id=match.pk)
    assert snapshot(match) == started


def test_open_tables_rows(users):
    first = actions.create_table(user=users[0], players=4, rules={"target": 61}, rated=True)
    actions.join_table(user=users[1], match_id=first.pk)
    second = actions.create_table(user=users[2], players=2, rules={}, rated=False)
    started = actions.create_table(user=users[3], players=2, rules={}, rated=False)
    actions.join_table(user=users[4], match_id=started.pk)
    rows = reads.open_tables()
    assert [row["id"] for row in rows] == [first.pk, second.pk]
    row = rows[0]
    assert row["players"] == 4 and row["rated"] is True and row["target"] == 61
    assert row["rules"] == engine.Rules(players=4, target=61).to_dict()
    # The ratings app adds each person's rating as shown (new players: "1500?").
    assert row["seats"] == [
        {"seat": 0, "username": "alice", "bot": None, "online": True, "rating": "1500?", "title": None},
        {"seat": 2, "username": "bob", "bot": None, "online": True, "rating": "1500?", "title": None},
    ]
    assert row["move_seconds"] == 30
    assert row["created_by"] == "alice"
    assert row["created_at"] == first.created_at.isoformat()


# --- playing ---------------------------------------------------------------------------------


def test_play_applies_the_engine_and_logs_it(users, known_decks):
    match = seated_match(users[:2])
    live = engine.Match(engine.Rules(players=2), dealer=0)
    live.start_round(known_decks[0])
    seat = live.round.turn
    card = live.round.hands[seat][2]
    expected = live.play(card)
    new_seq = actions.play_card(
        user=users_by_seat(match)[seat], match_id=match.pk, card=card.code, seq=match.seq
    )
    assert new_seq == match.seq + 1
    event = match.events.get(seq=new_seq)
    assert (event.kind, event.seat) == ("play", seat)
    assert event.payload == {
        "card": card.code,
        "taken": [c.code for c in sorted(expected.taken)],
        "basra": None if expected.basra is None else expected.basra.value,
    }
    mine = reads.table_state(match_id=match.pk, user=users_by_seat(match)[seat])
    assert mine["round"]["hand"] == [c.code for c in live.round.hands[seat]]
    assert mine["round"]["floor"] == [c.code for c in live.round.floor]


def test_ten_is_accepted_as_t(users, monkeypatch):
    # A deck whose first hand holds the ten of hearts: dealer 0, so seat 1 gets deck[0:4].
    deck = [c.code for c in engine.full_deck()]
    deck.remove("10H")
    deck.insert(0, "10H")
    monkeypatch.setattr(seating, "shuffled_deck", lambda *seeds: list(deck))
    monkeypatch.setattr(seating, "first_dealer", lambda *seeds: 0)
    match = seated_match(users[:2])
    bob = users_by_seat(match)[1]
    seq = actions.play_card(user=bob, match_id=match.pk, card="TH", seq=match.seq)
    assert match.events.get(seq=seq).payload["card"] == "10H"


def test_play_refusals_change_nothing(users, known_decks):
    match = seated_match(users[:2])
    by_seat = users_by_seat(match)
    public = reads.table_state(match_id=match.pk, user=None)
    turn = public["round"]["turn"]
    mover, waiter = by_seat[turn], by_seat[1 - turn]
    mover_hand = reads.table_state(match_id=match.pk, user=mover)["round"]["hand"]
    waiter_hand = reads.table_state(match_id=match.pk, user=waiter)["round"]["hand"]
    seq = match.seq
    before = snapshot(match)
    not_mine = waiter_hand[0]
    cases = [
        ("not_your_turn", dict(user=waiter, card=waiter_hand[0], seq=seq)),
        ("card_not_in_hand", dict(user=mover, card=not_mine, seq=seq)),
        ("bad_card", dict(user=mover, card="11S", seq=seq)),
        ("bad_card", dict(user=mover, card="", seq=seq)),
        ("stale", dict(user=mover, card=mover_hand[0], seq=seq - 1)),
        ("stale", dict(user=mover, card=mover_hand[0], seq=seq + 1)),
        ("not_seated", dict(user=users[2], card=mover_hand[0], seq=seq)),
        ("login_required", dict(user=AnonymousUser(), card=mover_hand[0], seq=seq)),
    ]
    for code, kwargs in cases:
        refused(code, actions.play_card, match_id=match.pk, **kwargs)
        assert snapshot(match) == before, code
    refused("not_found", actions.play_card, user=mover, match_id=match.pk + 1000,
            card=mover_hand[0], seq=seq)
    # The refusals left the live state untouched too.
    assert reads.table_state(match_id=match.pk, user=mover)["round"]["hand"] == mover_hand


def test_double_click_is_applied_once(users):
    match = seated_match(users[:2])
    public = reads.table_state(match_id=match.pk, user=None)
    mover = users_by_seat(match)[public["round"]["turn"]]
    hand = reads.table_state(match_id=match.pk, user=mover)["round"]["hand"]
    actions.play_card(user=mover, match_id=match.pk, card=hand[0], seq=public["seq"])
    after = snapshot(match)
    refused("stale", actions.play_card, user=mover, match_id=match.pk, card=hand[0],
            seq=public["seq"])
    assert snapshot(match) == after
    assert Event.objects.filter(match=match, kind="play").count() == 1


def test_not_started_and_match_over(users, known_decks):
    waiting = actions.create_table(user=users[0], players=2, rules={}, rated=False)
    refused("not_started", actions.play_card, user=users[0], match_id=waiting.pk, card="5D",
            seq=waiting.seq)
    match = seated_match(users[1:3], rules={"target": 11})
    play_out(match)
    match.refresh_from_db()
    before = snapshot(match)
    for user in users_by_seat(match).values():
        refused("match_over", actions.play_card, user=user, match_id=match.pk, card="5D",
                seq=match.seq)
    assert snapshot(match) == before


def test_a_whole_match_is_logged_and_scored(users, known_decks):
    match = seated_match(users[:2])
    plays = play_out(match)
    match.refresh_from_db()
    kinds = event_kinds(match)
    rounds = kinds.count("deal")
    assert rounds >= 2  # 101 points take more than one round (a round is worth at most ~30+basras)
    assert kinds.count("round_end") == rounds
    assert kinds.count("play") == plays == 48 * rounds
    assert kinds[-2:] == ["round_end", "match_end"]
    # Every round after the first is dealt right after the previous one ends.
    for index, kind in enumerate(kinds):
        if kind == "round_end" and index + 1 < len(kinds) - 1:
            assert kinds[index + 1] == "deal"
    assert list(match.events.values_list("seq", flat=True).order_by("seq")) == list(
        range(1, match.seq + 1)
    )
    assert match.status == Match.Status.FINISHED and match.finished_at is not None
    record = event_log.record_from_events(
        match.rules, match.events.order_by("seq").values_list("kind", "payload")
    )
    result = engine.replay(record)
    assert match.scores == list(result.scores)
    assert match.winner_side == result.winner
    assert max(match.scores) >= 101
    end = match.events.get(kind="match_end")
    assert end.payload == {"scores": match.scores, "winner": match.winner_side, "reason": "target"}
    assert match.result == Match.Result.TARGET and match.deadline is None
    # Dealers rotate: the next round's dealer is the seat after the current one.
    dealers = [e.payload["dealer"] for e in match.events.filter(kind="deal").order_by("seq")]
    assert all(b == (a + 1) % 2 for a, b in zip(dealers, dealers[1:]))
    final = reads.table_state(match_id=match.pk, user=users[0])
    assert final["result"] == {
        "winner": match.winner_side, "scores": match.scores, "reason": "target"}
    assert final["round"]["over"] is True and final["round"]["turn"] is None
    assert len(final["round_results"]) == rounds
    assert [r["number"] for r in final["round_results"]] == list(range(1, rounds + 1))
    totals = [sum(r["total"][side] for r in final["round_results"]) for side in (0, 1)]
    assert totals == match.scores


def test_a_four_player_match_plays_out(users, known_decks):
    match = seated_match(users[:4], rules={"target": 31})
    plays = play_out(match)
    kinds = event_kinds(match)
    assert plays == 48 * kinds.count("deal")
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert match.winner_side in (0, 1)


# --- the log is the truth --------------------------------------------------------------------


def views(live: engine.Match, players: int) -> list:
    return [live.view(seat) for seat in range(players)] + [live.public_view()]


def test_cached_state_equals_replay_of_the_log(
    users, known_decks, django_capture_on_commit_callbacks
):
    match = seated_match(users[:2], rules={"target": 31})
    checked = 0
    while True:
        match.refresh_from_db()
        if match.status == Match.Status.FINISHED:
            break
        with django_capture_on_commit_callbacks(execute=True):
            play_turn(match)
        match.refresh_from_db()
        cached = table_cache.cache.checkout(match)
        rebuilt = event_log.rebuild(match)
        assert cached is not rebuilt
        assert views(cached, 2) == views(rebuilt, 2)
        assert cached.scores == rebuilt.scores and cached.over == rebuilt.over
        table_cache.cache.checkin(match, cached)
        checked += 1
    assert checked >= 48


def test_a_restart_loses_nothing(users):
    match = seated_match(users[:2])
    for _ in range(30):  # into the second deal of the first round
        play_turn(match)
    match.refresh_from_db()
    before = {u.pk: timeless(reads.table_state(match_id=match.pk, user=u)) for u in users[:3]}
    table_cache.clear_caches()  # what a process restart does to the cache
    after = {u.pk: timeless(reads.table_state(match_id=match.pk, user=u)) for u in users[:3]}
    assert after == before
    play_turn(match)  # and the game goes on from the log
    match.refresh_from_db()
    assert match.seq == before[users[0].pk]["seq"] + 1


def warm_table(users, capture) -> tuple[Match, dict]:
    """A started match one play in, whose state this process keeps (the play's after-commit
    ran); returns it and the state of the seat to move."""
    match = seated_match(users[:2])
    with capture(execute=True):
        play_turn(match)
    match.refresh_from_db()
    turn = reads.table_state(match_id=match.pk, user=None)["round"]["turn"]
    return match, reads.table_state(match_id=match.pk, user=users_by_seat(match)[turn])


def statements(queries) -> list[str]:
    """The SQL of captured queries, without the transaction's own ``BEGIN`` and the savepoints
    of the test's outer transaction."""
    return [
        q["sql"] for q in queries if not q["sql"].startswith(("BEGIN", "SAVEPOINT", "RELEASE"))
    ]


def test_a_play_at_a_table_this_process_keeps_is_a_compare_and_set(
    users, known_decks, django_capture_on_commit_callbacks
):
    """The path a play takes, on either database: no lock, no read, one conditional write
    (PostgreSQL: one statement; SQLite: the UPDATE, then the INSERT of the event)."""
    match, mine = warm_table(users, django_capture_on_commit_callbacks)
    mover = users_by_seat(match)[mine["you"]]
    card = mine["round"]["hand"][0]
    before = funnel.paths.copy()
    with CaptureQueriesContext(connection) as queries:
        seq = actions.play_card(user=mover, match_id=match.pk, card=card, seq=mine["seq"])
    assert funnel.paths - before == Counter({"compare_and_set": 1})
    sql = statements(queries)
    if connection.vendor == "postgresql":
        assert len(sql) == 1 and sql[0].startswith("WITH moved AS (UPDATE")
    else:
        assert [s.split()[0] for s in sql] == ["UPDATE", "INSERT"]
    assert not any("FOR UPDATE" in s or "FOR NO KEY UPDATE" in s for s in sql)
    assert seq == mine["seq"] + 1
    match.refresh_from_db()
    assert match.seq == seq and match.deadline is not None
    event = Event.objects.get(match=match, seq=seq)
    assert (event.kind, event.seat, event.payload["card"]) == ("play", mine["you"], card)
    after = reads.table_state(match_id=match.pk, user=mover)
    assert after["round"]["hand"] == [c for c in mine["round"]["hand"] if c != card]
    assert after["round"]["last_play"]["card"] == card


@pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's prepared statements")
def test_the_play_statement_is_prepared_on_postgresql(
    users, known_decks, django_capture_on_commit_callbacks, settings
):
    """On the fast path (``games.core.fastpath``, ``cursor``) PostgreSQL plans the
    compare-and-set statement once per connection: after a play it is in the session's prepared
    statements, and the next play uses it."""
    settings.BASRA_FAST_PATH = True
    match, mine = warm_table(users, django_capture_on_commit_callbacks)
    mover = users_by_seat(match)[mine["you"]]
    with django_capture_on_commit_callbacks(execute=True):
        actions.play_card(
            user=mover, match_id=match.pk, card=mine["round"]["hand"][0], seq=mine["seq"]
        )
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        prepared = [row[0] for row in cursor.fetchall()]
    assert any(statement.startswith("WITH moved AS (UPDATE") for statement in prepared)


def test_a_state_before_the_rounds_first_play_does_not_read_the_log(users, known_decks):
    """Who made the match's last play (a timeout? the computer?) is shown only on the round's
    last play: a state read before the round's first play (a table's sockets connecting at
    its start) reads no event; once a play is made it is read and shown."""
    match = seated_match(users[:2])
    reads.table_state(match_id=match.pk, user=None)  # this process keeps the dealt state
    with CaptureQueriesContext(connection) as queries:
        state = reads.table_state(match_id=match.pk, user=users[0])
    assert state["round"]["last_play"] is None
    event_table = Event._meta.db_table
    assert not any(event_table in sql for sql in statements(queries))
    play_turn(match)
    match.refresh_from_db()
    with CaptureQueriesContext(connection) as queries:
        state = reads.table_state(match_id=match.pk, user=users[0])
    assert any(event_table in sql for sql in statements(queries))
    assert state["round"]["last_play"]["timeout"] is False
    assert state["round"]["last_play"]["bot"] is None


def test_a_play_at_a_table_this_process_does_not_keep_takes_the_lock(
    users, known_decks, django_capture_on_commit_callbacks
):
    match, mine = warm_table(users, django_capture_on_commit_callbacks)
    table_cache.clear_caches()  # another process served this table until now
    mover = users_by_seat(match)[mine["you"]]
    before = funnel.paths.copy()
    with CaptureQueriesContext(connection) as queries:
        actions.play_card(
            user=mover, match_id=match.pk, card=mine["round"]["hand"][0], seq=mine["seq"]
        )
    assert funnel.paths - before == Counter({"locked": 1})
    if connection.vendor == "postgresql":
        assert any("FOR NO KEY UPDATE" in s for s in statements(queries))


def test_a_kept_state_catches_up_from_the_log_instead_of_replaying(
    users, known_decks, django_capture_on_commit_callbacks, monkeypatch
):
    """Plays written by another process (the clock, another server): this process applies
    only the newer events to the state it keeps, and the next play is still a compare-and-set."""
    match, mine = warm_table(users, django_capture_on_commit_callbacks)
    entry = table_cache.cache.take(match.pk)
    behind = copy.deepcopy(entry)
    table_cache.cache.checkin(entry.row, entry.live)
    for _ in range(3):  # another process's plays: this one keeps its state from before them
        with django_capture_on_commit_callbacks(execute=True):
            play_turn(match)
    table_cache.clear_caches()
    table_cache.cache.checkin(behind.row, behind.live)

    def no_replay(match):
        raise AssertionError("the whole log was replayed")

    monkeypatch.setattr(event_log, "rebuild", no_replay)
    match.refresh_from_db()
    turn = reads.table_state(match_id=match.pk, user=None)["round"]["turn"]
    mover = users_by_seat(match)[turn]
    mine = reads.table_state(match_id=match.pk, user=mover)
    before = funnel.paths.copy()
    with django_capture_on_commit_callbacks(execute=True):
        actions.play_card(
            user=mover, match_id=match.pk, card=mine["round"]["hand"][0], seq=mine["seq"]
        )
    assert funnel.paths - before == Counter({"compare_and_set": 1})
    monkeypatch.undo()
    match.refresh_from_db()
    kept = table_cache.cache.take(match.pk)
    assert kept.seq == match.seq
    assert views(kept.live, 2) == views(event_log.rebuild(match), 2)


def test_a_play_on_a_state_another_process_moved_on_is_stale(
    users, known_decks, django_capture_on_commit_callbacks
):
    match, mine = warm_table(users, django_capture_on_commit_callbacks)
    seen = mine["seq"]
    entry = table_cache.cache.take(match.pk)
    behind = copy.deepcopy(entry)
    table_cache.cache.checkin(entry.row, entry.live)
    with django_capture_on_commit_callbacks(execute=True):
        play_turn(match)  # another process's play: this one never hears of it
    table_cache.clear_caches()
    table_cache.cache.checkin(behind.row, behind.live)
    before = snapshot(match)
    mover = users_by_seat(match)[mine["you"]]
    refused(
        "stale", actions.play_card,
        user=mover, match_id=match.pk, card=mine["round"]["hand"][1], seq=seen,
    )
    assert snapshot(match) == before
    assert table_cache.cache.take(match.pk) is None  # the old state was dropped


def test_a_stale_cache_entry_is_never_used(users):
    match = seated_match(users[:2])
    play_turn(match)
    match.refresh_from_db()
    old = event_log.rebuild(match)
    play_turn(match)
    match.refresh_from_db()
    # Pretend the cache still holds the state one play behind, under the old seq: it catches up.
    row = copy.copy(match)
    row.seq -= 1
    table_cache.cache.checkin(row, old)
    fresh = reads.table_state(match_id=match.pk, user=None)
    assert fresh["seq"] == match.seq
    assert fresh["round"]["last_play"]["card"] == (
        match.events.get(seq=match.seq).payload["card"]
    )


def test_a_kept_state_of_another_match_under_the_same_id_is_never_used(users):
    """A kept state whose ``cache_token`` is not the row's (an id reused after a rolled-back
    insert) is replayed from the log, never caught up."""
    match = seated_match(users[:2])
    play_turn(match)
    match.refresh_from_db()
    other = copy.copy(match)
    other.cache_token, other.seq = uuid.uuid4(), match.seq - 1
    wrong = event_log.rebuild(match)
    wrong.play(wrong.round.hands[wrong.round.turn][0])  # a state this match never had
    table_cache.cache.checkin(other, wrong)
    live = table_cache.cache.checkout(match)
    assert views(live, 2) == views(event_log.rebuild(match), 2)


def test_player_seen_sets_last_seen_of_that_persons_seat_at_that_table_only(users):
    """``actions.player_seen`` (its own SQL): the exact time, on the person's seat at the table,
    and on no other seat of that table or of another table of theirs."""
    from datetime import timedelta

    from django.utils import timezone

    match = seated_match(users[:2])
    other = seated_match([users[0], users[2]])
    before = timezone.now() - timedelta(hours=1)
    Seat.objects.update(last_seen=before)
    now = timezone.now().replace(microsecond=123456)
    actions.player_seen(match_id=match.pk, user=users[0], now=now)
    seen = {(s.match_id, s.user_id): s.last_seen for s in Seat.objects.all()}
    assert seen[(match.pk, users[0].pk)] == now
    assert seen[(match.pk, users[1].pk)] == before
    assert seen[(other.pk, users[0].pk)] == before and seen[(other.pk, users[2].pk)] == before
    actions.player_seen(match_id=match.pk, user=AnonymousUser(), now=now + timedelta(1))
    assert Seat.objects.get(match=match, user=users[0]).last_seen == now


def test_a_frame_is_the_compact_json_of_its_message(users):
    """``broadcast.frame_text`` (orjson) writes what ``json.dumps`` with compact separators
    writes: a table's state as a client parses it, and non-string keys as strings."""
    import json

    from games.core.state import broadcast

    match = seated_match(users[:2])
    state = reads.table_state(match_id=match.pk, user=users[0])
    assert broadcast.frame_text(state) == json.dumps(state, separators=(",", ":"))
    assert json.loads(broadcast.frame_text(state)) == state
    assert broadcast.frame_text({1: "a", "b": [1.5, None, True]}) == '{"1":"a","b":[1.5,null,true]}'


def test_a_closed_seat_socket_is_seen_and_ends_a_rematch_offer_only_after_the_end(users):
    """``actions.seat_closed``: the seat is seen now; while the match is played nothing about a
    rematch is written, after its end the offer is over (``gone``)."""
    from datetime import timedelta

    from django.utils import timezone

    from games.core.models import Rematch

    match = seated_match(users[:2])
    Seat.objects.update(last_seen=timezone.now() - timedelta(hours=1))
    now = timezone.now()
    actions.seat_closed(match_id=match.pk, user=users[0], now=now)
    assert Seat.objects.get(match=match, user=users[0]).last_seen == now
    assert not Rematch.objects.filter(match=match).exists()
    actions.resign(user=users[1], match_id=match.pk)
    actions.seat_closed(match_id=match.pk, user=users[0], now=now)
    assert Rematch.objects.get(match=match).gone is True


def test_heartbeats_see_exactly_the_seats_named_and_give_each_tables_seq(users):
    """``actions.heartbeats`` (one ``UPDATE`` by row values): every named seat is seen, no seat
    that only shares a table or a person with them is; the ``seq`` of each named table that
    exists; an absent person is back, a seat the computer took over stays the computer's."""
    from datetime import timedelta

    from django.utils import timezone

    first = seated_match(users[:2])
    second = seated_match([users[2], users[0]])
    third = seated_match(users[3:5])
    old = timezone.now() - timedelta(hours=1)
    Seat.objects.update(last_seen=old)
    Seat.objects.filter(match=third, user=users[3]).update(absent=True)
    Seat.objects.filter(match=third, user=users[4]).update(absent=True, bot="greedy")
    now = timezone.now()
    seqs = actions.heartbeats(
        seated=[(first.pk, users[0].pk), (second.pk, users[2].pk), (first.pk, users[2].pk),
                (third.pk, users[3].pk), (third.pk, users[4].pk)],
        tables=[first.pk, third.pk, 10**6], now=now,
    )
    seen = {(s.match_id, s.user_id): s.last_seen for s in Seat.objects.all()}
    assert seen == {
        (first.pk, users[0].pk): now, (first.pk, users[1].pk): old,
        (second.pk, users[2].pk): now, (second.pk, users[0].pk): old,
        (third.pk, users[3].pk): now, (third.pk, users[4].pk): now,
    }
    assert seqs == {first.pk: first.seq, third.pk: Match.objects.get(pk=third.pk).seq}
    assert not Seat.objects.get(match=third, user=users[3]).absent
    assert Event.objects.filter(match=third).order_by("-seq").first().kind == "returned"
    kept = Seat.objects.get(match=third, user=users[4])
    assert kept.absent and kept.bot == "greedy"
