"""The provably fair shuffle on the site (issue 11; RULES.md, "Provably fair shuffle"): the server
seed drawn at the creation and kept secret, the client seeds (checked at join, changeable until
the start, then fixed), every deck and the first dealer from ``basra-shuffle/1``, the seed
revealed once the match is over (state, page, record), and the record checked by the
standalone verifier."""

from __future__ import annotations

import json
import uuid
from datetime import timedelta

import pytest
from django.contrib.messages import get_messages
from django.test import Client
from django.urls import reverse

from games.core import actions
from games.core.actions import seating
from games.core.errors import GameError
from games.core.models import Event, Match, Seat
from games.core.state import reads, records
from games.engine import shuffle
from tests.core.helpers import play_out, play_turn, strings_in, users_by_seat

pytestmark = pytest.mark.django_db

#: RULES.md's test vector: the server seed is the bytes 0..31, the client seeds these.
VECTOR_SEED = bytes(range(32)).hex()
VECTOR_DECK = (
    "6S 9C 8D 10S 2H QC JD 5C 7S 9H 2C 10D 8S 6C JC 4D 2D AH 3H KD AC KS 8C 10C 7D 5D AS KC 2S 3S "
    "QH AD QD 9S 8H JH 6D 7H 3D 10H 5H JS KH 3C QS 4S 4H 7C 9D 5S 4C 6H"
).split()

BAD_SEEDS = {
    "client_seed_newline": "two\nlines",
    "client_seed_too_long": "x" * 65,
    "client_seed_not_printable": "café",
    "client_seed_empty": "",
}


@pytest.fixture
def users(make_player):
    return [make_player(name).user for name in ("alice", "bob", "carol", "dave")]


@pytest.fixture
def vector_seed(monkeypatch):
    """Every table created gets RULES.md's test-vector server seed (deterministic decks)."""
    monkeypatch.setattr(shuffle, "new_server_seed", lambda: VECTOR_SEED)
    return VECTOR_SEED


def dealt(match: Match) -> list[dict]:
    return [e.payload for e in match.events.filter(kind=Event.Kind.DEAL).order_by("seq")]


# --- the server seed and the client seeds ------------------------------------------------------


def test_a_table_gets_a_secret_server_seed_and_shows_only_its_commitment(users):
    match = actions.create_table(user=users[0], players=2, rules={}, rated=False)
    match.refresh_from_db()
    assert len(match.server_seed) == 64 and int(match.server_seed, 16) >= 0
    other = actions.create_table(user=users[1], players=2, rules={}, rated=False)
    other.refresh_from_db()
    assert other.server_seed != match.server_seed
    commitment = shuffle.commitment(match.server_seed)
    row = next(row for row in reads.open_tables() if row["id"] == match.pk)
    assert row["commitment"] == commitment
    assert match.server_seed not in json.dumps(reads.open_tables())
    state = reads.table_state(match_id=match.pk, user=users[0])
    assert state["match"]["shuffle"]["commitment"] == commitment
    assert match.server_seed not in strings_in(state)


def test_the_start_fixes_and_logs_the_client_seeds(users, vector_seed):
    match = actions.create_table(
        user=users[0], players=2, rules={}, rated=False, bots={1: "greedy"},
        client_seed="alice-7f3a",
    )
    match.refresh_from_db()
    start = match.events.get(kind=Event.Kind.START).payload
    # RULES.md's vector: a computer seat's seed is "", the first dealer 1, round 1's deck.
    assert start["client_seeds"] == ["alice-7f3a", ""] == match.client_seeds
    assert start["algorithm"] == "basra-shuffle/1"
    assert start["commitment"] == shuffle.commitment(VECTOR_SEED)
    assert start["dealer"] == 1
    assert dealt(match)[0] == {"round": 1, "dealer": 1, "deck": VECTOR_DECK}
    for user in (users[0], None):
        shown = reads.table_state(match_id=match.pk, user=user)["match"]["shuffle"]
        assert shown["client_seeds"] == ["alice-7f3a", ""] and shown["server_seed"] is None


@pytest.mark.parametrize("code", sorted(BAD_SEEDS))
def test_a_bad_client_seed_is_refused_at_join_and_changes_nothing(users, code):
    match = actions.create_table(user=users[0], players=2, rules={}, rated=False)
    before = (match.events.count(), Seat.objects.filter(match=match).count())
    with pytest.raises(GameError) as info:
        actions.join_table(user=users[1], match_id=match.pk, client_seed=BAD_SEEDS[code])
    assert info.value.code == code and info.value.message
    assert (match.events.count(), Seat.objects.filter(match=match).count()) == before
    with pytest.raises(GameError) as info:
        actions.create_table(
            user=users[2], players=2, rules={}, rated=False, client_seed=BAD_SEEDS[code]
        )
    assert info.value.code == code
    assert not Match.objects.filter(created_by=users[2]).exists()


def test_the_join_page_says_what_is_wrong_with_a_seed(users):
    match = actions.create_table(user=users[0], players=2, rules={}, rated=False)
    client = Client()
    client.force_login(users[1])
    url = reverse("table_join", kwargs={"match_id": match.pk})
    response = client.post(url, {"client_seed": "x" * 65})
    assert response.status_code == 302
    assert [str(m) for m in get_messages(response.wsgi_request)] == [
        "Your client seed is too long: at most 64 characters."]
    assert not Seat.objects.filter(match=match, user=users[1]).exists()
    client.post(url, {"client_seed": "bob's own seed ~ 42"})
    assert Seat.objects.get(match=match, user=users[1]).client_seed == "bob's own seed ~ 42"


def test_the_create_form_refuses_a_bad_seed_and_keeps_a_good_one(users):
    client = Client()
    client.force_login(users[0])
    form = {"players": "2", "target": "101", "mode": "casual", "move_seconds": "30",
            "majority_points": "30", "basra_points": "10", "jack_basra_points": "20",
            "seven_diamonds": "wild"}
    response = client.post(reverse("table_create"), form | {"client_seed": "line\nbreak"})
    assert response.status_code == 400
    assert "Your client seed must be on one line" in response.content.decode()
    assert not Match.objects.exists()
    client.post(reverse("table_create"), form | {"client_seed": "Alice chose this"})
    assert Seat.objects.get(user=users[0]).client_seed == "Alice chose this"


def test_a_client_seed_changes_until_the_start_and_never_after(users):
    match = actions.create_table(user=users[0], players=4, rules={}, rated=False)
    actions.join_table(user=users[1], match_id=match.pk, client_seed="first")
    actions.set_client_seed(user=users[1], match_id=match.pk, client_seed="second")
    assert reads.table_state(match_id=match.pk, user=users[1])["client_seed"] == "second"
    # Nobody else sees it before the start.
    assert "second" not in strings_in(reads.table_state(match_id=match.pk, user=users[0]))
    with pytest.raises(GameError) as info:
        actions.set_client_seed(user=users[1], match_id=match.pk, client_seed="tab\tchar")
    assert info.value.code == "client_seed_not_printable"
    with pytest.raises(GameError) as info:
        actions.set_client_seed(user=users[3], match_id=match.pk, client_seed="not seated")
    assert info.value.code == "not_seated"
    actions.join_table(user=users[2], match_id=match.pk)
    actions.join_table(user=users[3], match_id=match.pk)
    match.refresh_from_db()
    assert match.status == Match.Status.PLAYING
    assert match.client_seeds[2] == "second"  # bob sits in seat 2 (RULES.md "Four players")
    seq = match.seq
    with pytest.raises(GameError) as info:
        actions.set_client_seed(user=users[1], match_id=match.pk, client_seed="third")
    assert info.value.code == "seeds_fixed"
    match.refresh_from_db()
    assert match.client_seeds[2] == "second" and match.seq == seq
    assert Seat.objects.get(match=match, user=users[1]).client_seed == "second"
    # Over HTTP too: the page says so, and nothing changes.
    client = Client()
    client.force_login(users[1])
    response = client.post(reverse("table_seed", kwargs={"match_id": match.pk}),
                           {"client_seed": "fourth"})
    assert [str(m) for m in get_messages(response.wsgi_request)] == [
        "The match has started: the client seeds can no longer change."]
    match.refresh_from_db()
    assert match.client_seeds[2] == "second"


# --- the decks ---------------------------------------------------------------------------------


def test_every_deck_and_the_first_dealer_follow_from_the_seeds(users, vector_seed):
    match = actions.create_table(
        user=users[0], players=2, rules={"target": 101}, rated=False, client_seed="alice-7f3a"
    )
    actions.join_table(user=users[1], match_id=match.pk, client_seed="bob 2")
    match.refresh_from_db()
    seeds = ["alice-7f3a", "bob 2"]
    assert match.client_seeds == seeds
    play_out(match)
    match.refresh_from_db()
    deals = dealt(match)
    assert len(deals) >= 2
    first = shuffle.first_dealer(VECTOR_SEED, seeds)
    assert match.events.get(kind=Event.Kind.START).payload["dealer"] == first
    for number, payload in enumerate(deals, start=1):
        assert payload["round"] == number
        assert payload["deck"] == [c.code for c in shuffle.deck(VECTOR_SEED, seeds, number)]
        assert payload["dealer"] == (first + number - 1) % 2
    # Not the same deck twice (the round number is in the stream).
    assert len({tuple(p["deck"]) for p in deals}) == len(deals)


def test_a_table_opened_before_the_fair_shuffle_still_deals_and_plays(users):
    match = actions.create_table(user=users[0], players=2, rules={"target": 11}, rated=False)
    Match.objects.filter(pk=match.pk).update(server_seed="")  # as the migration leaves one
    actions.join_table(user=users[1], match_id=match.pk)
    match.refresh_from_db()
    start = match.events.get(kind=Event.Kind.START).payload
    assert set(start) == {"seats", "bots", "dealer"} and match.client_seeds == []
    assert sorted(dealt(match)[0]["deck"]) == sorted(seating.DECK_CODES)
    assert reads.table_state(match_id=match.pk, user=None)["match"]["shuffle"] is None
    play_out(match)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    record = records.match_record(match)
    assert "shuffle" not in record and len(record["rounds"]) == len(dealt(match))


# --- the reveal and the record -----------------------------------------------------------------


def record_path(tmp_path, client, match_id):
    response = client.get(reverse("match_record", kwargs={"match_id": match_id}))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    path = tmp_path / f"match-{match_id}.json"
    path.write_bytes(response.content)
    return path


def test_the_record_is_published_after_the_end_and_verifies(users, tmp_path, capsys):
    match = actions.create_table(user=users[0], players=2, rules={"target": 61}, rated=False)
    actions.join_table(user=users[1], match_id=match.pk)
    match.refresh_from_db()
    client = Client()  # anyone, logged in or not
    url = reverse("match_record", kwargs={"match_id": match.pk})
    table_url = reverse("table", kwargs={"match_id": match.pk})
    assert client.get(url).status_code == 404
    for _ in range(5):
        play_turn(match)
    assert client.get(url).status_code == 404
    assert match.server_seed not in client.get(table_url).content.decode()
    play_out(match)
    match.refresh_from_db()
    page = client.get(table_url).content.decode()
    assert match.server_seed in page  # revealed on the table page once over
    path = record_path(tmp_path, client, match.pk)
    record = json.loads(path.read_text())
    assert record["shuffle"] == {
        "algorithm": "basra-shuffle/1", "commitment": shuffle.commitment(match.server_seed),
        "client_seeds": match.client_seeds, "server_seed": match.server_seed}
    assert record["headers"]["termination"] == "target"
    assert record["rounds"] == [
        {"dealer": d["dealer"], "deck": d["deck"], "plays": record["rounds"][i]["plays"]}
        for i, d in enumerate(dealt(match))
    ]
    assert shuffle.main(["verify", str(path)]) == 0
    out = capsys.readouterr().out
    assert "commitment matches" in out and f"all {1 + 2 * len(record['rounds'])} checks match" in out

    # One swapped pair in round 2's deck: the verifier names round 2 and exits 1.
    record["rounds"][1]["deck"][0], record["rounds"][1]["deck"][5] = (
        record["rounds"][1]["deck"][5], record["rounds"][1]["deck"][0])
    path.write_text(json.dumps(record))
    assert shuffle.main(["verify", str(path)]) == 1
    out = capsys.readouterr().out
    assert "round 2: deck DOES NOT match" in out and "round 1: deck matches" in out


@pytest.mark.parametrize("ending", ["resign", "abort", "claim"])
def test_every_ending_reveals_the_server_seed(users, ending, known_decks):
    match = actions.create_table(user=users[0], players=2, rules={}, rated=False)
    actions.join_table(user=users[1], match_id=match.pk)
    match.refresh_from_db()
    by_seat = users_by_seat(match)
    hidden = reads.table_state(match_id=match.pk, user=by_seat[0])
    assert hidden["match"]["shuffle"]["server_seed"] is None
    if ending == "resign":
        actions.resign(user=by_seat[0], match_id=match.pk)
    elif ending == "abort":
        actions.abort_match(user=by_seat[0], match_id=match.pk)
    else:
        Seat.objects.filter(match=match, seat=1).update(absent=True)
        Match.objects.filter(pk=match.pk).update(seating_token=uuid.uuid4())
        actions.claim_win(user=by_seat[0], match_id=match.pk,
                          now=match.started_at + timedelta(seconds=1))
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.result == ending
    shown = reads.table_state(match_id=match.pk, user=None)["match"]["shuffle"]
    assert shown["server_seed"] == match.server_seed
    record = records.match_record(match)
    assert record["shuffle"]["server_seed"] == match.server_seed
    assert record["headers"]["termination"] == ending
    # known_decks dealt this match, not the fair shuffle: the verifier says round 1's deck
    # does not match (and the commitment does).
    checks = shuffle.verify_record(record)
    assert [(c.subject, c.ok) for c in checks if c.what != "dealer"] == [
        ("commitment", True), ("round 1: deck", False)]
