"""Issue 21, "The rating at the table": each person's rating beside the name on a rated table,
the win chances as soon as the table is full, and at the end every name's change or why it was
not rated, in the ``state`` message every seat and spectator gets (``extras.ratings``,
``games.ratings.table``), read once per seating and status, never once per play."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import timezone

from games.core import actions
from games.core.models import Match
from games.core.signals import table_extras
from games.core.state import cache, reads
from games.ratings.models import PlayerRating, RatingChange
from tests.core.helpers import play_turn, users_by_seat
from tests.ratings.helpers import leave_seat, lose, rated_match, seat_of

pytestmark = pytest.mark.django_db


def ratings(match: Match, user=None) -> dict | None:
    """``extras.ratings`` of the state ``user`` (``None``: a spectator) gets of ``match``."""
    return reads.table_state(match_id=match.pk, user=user)["extras"].get("ratings")


def established(user, pool: str, rating: float) -> None:
    PlayerRating.objects.create(user=user, pool=pool, rating=rating, deviation=60,
                                last_rated_at=timezone.now())


def test_a_rated_table_shows_each_rating_and_the_chances_once_full(users):
    alice, bob = users[0], users[1]
    established(alice, "1v1", 1900.4)
    table = actions.create_table(user=alice, players=2, rules={}, rated=True)
    waiting = ratings(table)
    # The waiting room: alice's rating, no chances while a seat is empty.
    assert waiting == {"seats": [{"seat": 0, "rating": "1900", "rating_after": None, "change": None,
                                  "not_rated": None}],
                       "chances": None, "not_rated": None}
    actions.join_table(user=bob, match_id=table.pk)
    table.refresh_from_db()
    full = ratings(table)
    by_seat = {s["seat"]: s["rating"] for s in full["seats"]}
    assert by_seat == {seat_of(table, alice): "1900", seat_of(table, bob): "1500?"}
    stronger = seat_of(table, alice) % 2
    assert sum(full["chances"]) == 100 and full["chances"][stronger] > 70
    # The spectator and each seat read the same: no seat's secret is in it.
    assert ratings(table, alice) == ratings(table, bob) == full


def test_a_casual_table_has_no_ratings(users):
    match = rated_match(users[:2], rated=False)
    assert reads.table_state(match_id=match.pk, user=None)["extras"] == {}


def test_a_casual_tables_waiting_room_shows_the_ratings_as_the_lobby_does(users):
    """An open casual table gives its players' ratings, the lobby's for the same row, to its
    waiting room; no chances (nothing is at stake); none once the match starts."""
    alice, bob, carol = users[:3]
    established(alice, "partnership", 1700.4)
    table = actions.create_table(user=alice, players=4, rules={}, rated=False, bots={2: "greedy"})
    actions.join_table(user=bob, match_id=table.pk, seat=1)
    table.refresh_from_db()
    [row] = [row for row in reads.open_tables() if row["id"] == table.pk]
    lobby_ratings = {s["seat"]: s["rating"] for s in row["seats"] if s.get("rating")}
    waiting = ratings(table, carol)
    assert {s["seat"]: s["rating"] for s in waiting["seats"]} == lobby_ratings == {
        0: "1700", 1: "1500?"}
    assert waiting["chances"] is None and waiting["not_rated"] is None
    actions.join_table(user=carol, match_id=table.pk, seat=3)
    table.refresh_from_db()
    assert table.status == Match.Status.PLAYING and ratings(table) is None


def test_the_end_of_a_rated_match_shows_every_change(users):
    alice, bob = users[0], users[1]
    established(alice, "1v1", 1600)
    match = rated_match([alice, bob])
    lose(match, bob)
    end = ratings(match)
    changes = {
        c.user_id: round(c.rating_after) - round(c.rating_before)
        for c in RatingChange.objects.filter(match=match)
    }
    shown = {s["seat"]: s["change"] for s in end["seats"]}
    assert shown == {seat_of(match, alice): changes[alice.pk], seat_of(match, bob): changes[bob.pk]}
    assert shown[seat_of(match, alice)] > 0 > shown[seat_of(match, bob)]
    # The ratings shown stay those before the match, beside their change.
    assert {s["seat"]: s["rating"] for s in end["seats"]}[seat_of(match, alice)] == "1600"
    assert end["not_rated"] is None


def test_the_end_of_a_rated_match_shows_every_new_rating(users):
    """Issue 35, item 5: the result showed "(1500?) +241" and never the rating it made."""
    alice, bob = users[0], users[1]
    established(alice, "1v1", 1600)
    match = rated_match([alice, bob])
    # Before the end nobody has a rating after the match.
    assert [s["rating_after"] for s in ratings(match)["seats"]] == [None, None]
    lose(match, bob)
    end = {s["seat"]: s for s in ratings(match)["seats"]}
    kept = {c.user_id: c for c in RatingChange.objects.filter(match=match)}
    for user in (alice, bob):
        row, change = end[seat_of(match, user)], kept[user.pk]
        # As the profile and the history show a rating: rounded, "?" while provisional.
        mark = "?" if change.deviation_after >= 110 else ""
        assert row["rating_after"] == f"{round(change.rating_after)}{mark}"
        assert int(row["rating_after"].rstrip("?")) - int(row["rating"].rstrip("?")) == row["change"]
    assert end[seat_of(match, bob)]["rating_after"].endswith("?")  # new: still provisional
    assert not end[seat_of(match, alice)]["rating_after"].endswith("?")


def test_a_voided_match_shows_no_new_rating(users):
    from games.ratings.rating import void_match

    alice, bob = users[0], users[1]
    match = rated_match([alice, bob])
    lose(match, bob)
    void_match(match.pk, by=alice)
    cache.clear_caches()
    end = ratings(match)["seats"]
    assert all(s["rating_after"] is None and s["change"] is None for s in end)


def test_an_early_ending_says_why_and_changes_nothing(users, client):
    match = rated_match(users[:2], played=False)
    play_turn(match)  # one person played: a resignation now is aborted
    actions.resign(user=users[0], match_id=match.pk)
    match.refresh_from_db()
    end = ratings(match)
    assert match.result == "abort"
    assert end["not_rated"] == "aborted_early" and end["chances"] is None
    assert all(s["change"] is None and s["not_rated"] == "aborted_early" for s in end["seats"])
    # A play was made: the profile does not say "before the first play" of this abort.
    html = client.get(reverse("profile", args=[users[0].username])).content.decode()
    assert "Aborted" in html and "before the first play" not in html


def test_a_stayer_whose_partner_left_is_told_why(users):
    for user in users:
        established(user, "partnership", 1500)
    match = rated_match(users)
    by_seat = users_by_seat(match)
    leave_seat(match, by_seat[0])
    lose(match, by_seat[1])
    end = {s["seat"]: s for s in ratings(match)["seats"]}
    assert end[2]["change"] is None and end[2]["not_rated"] == "partner_left"
    assert end[0]["change"] < 0  # the leaver lost, although their side won
    assert end[1]["change"] is not None and end[3]["change"] is not None


def test_the_ratings_are_read_once_per_seating_and_status_not_once_per_play(users):
    calls = []

    def counting(sender, match, **kwargs):
        calls.append(str(match.status))

    table_extras.connect(counting, dispatch_uid="test.counting")
    try:
        match = rated_match(users[:2], played=False)
        cache.clear_caches()
        calls.clear()
        for _ in range(6):
            play_turn(match)
            reads.table_state(match_id=match.pk, user=None)
    finally:
        table_extras.disconnect(dispatch_uid="test.counting")
    # Six plays, each broadcast and read again by a spectator: the apps were asked once.
    assert calls == ["playing"]


def test_the_replay_shows_each_rating_and_its_change(users, client):
    alice, bob = users[0], users[1]
    established(alice, "1v1", 1600)
    match = rated_match([alice, bob])
    lose(match, bob)
    html = client.get(reverse("replays:match", kwargs={"match_id": match.pk})).content.decode()
    changes = {c.user_id: round(c.rating_after) - round(c.rating_before)
               for c in RatingChange.objects.filter(match=match)}
    won = f'<bdi class="rating-change up" dir="ltr">+{changes[alice.pk]}</bdi>'
    lost = f'<bdi class="rating-change down" dir="ltr">\u2212{-changes[bob.pk]}</bdi>'
    assert '<bdi class="rating" dir="ltr">(1600)</bdi> ' + won in html
    assert '<bdi class="rating" dir="ltr">(1500?)</bdi> ' + lost in html  # as the table showed it
    # A casual match's replay has none.
    casual = rated_match(users[2:], rated=False)
    lose(casual, users[3])
    html = client.get(reverse("replays:match", kwargs={"match_id": casual.pk})).content.decode()
    assert "rating-change" not in html


def test_the_lobby_lists_show_each_rating(users, client):
    from games.core.state import lobby

    alice, bob, carol = users[0], users[1], users[2]
    established(alice, "1v1", 1612.4)
    open_table = actions.create_table(user=alice, players=2, rules={}, rated=True)
    client.force_login(carol)
    html = client.get(reverse("lobby")).content.decode()
    row = html[html.index(f'data-match-id="{open_table.pk}"'):]
    assert '<bdi>alice</bdi> <bdi class="rating" dir="ltr">(1612)</bdi>' in row
    actions.join_table(user=bob, match_id=open_table.pk)
    mine = lobby.your_matches(bob)[0]
    assert {s["username"]: s["rating"] for s in mine["seats"]} == {"alice": "1612", "bob": "1500?"}
    client.force_login(bob)
    html = client.get(reverse("lobby")).content.decode()
    assert '<bdi class="player">bob</bdi> <bdi class="rating" dir="ltr">(1500?)</bdi>' in html


def test_the_lobby_lists_show_no_rating_at_a_casual_match_but_at_every_open_table(users, client):
    """A casual match moves no rating, and the table itself shows none, so no seat of a casual
    match being played has one in the lobby's rows (your matches, the matches to watch; not
    "alice (1500?) 0 – 0 Greedy"), whoever sits there. An open table keeps its players'
    ratings, casual or rated, as a lichess seek shows its creator's: they tell whoever would
    sit down whom they would meet."""
    from games.core.state import lobby

    alice, bob, carol, dave = users
    established(alice, "1v1", 1612.4)
    established(carol, "partnership", 1700.4)
    computer = actions.create_table(user=alice, players=2, rules={}, rated=False, bots={1: "greedy"})
    four = actions.create_table(user=bob, players=4, rules={}, rated=False,
                                bots={1: "greedy", 2: "random", 3: "strong"})
    # "Play the computer" for four with persons to come: casual, open, a computer in seat 1.
    casual_open = actions.create_table(user=carol, players=4, rules={}, rated=False, bots={1: "greedy"})
    rated_open = actions.create_table(user=dave, players=2, rules={}, rated=True)
    rows = lobby.your_matches(alice) + lobby.live_matches(alice) + reads.open_tables()
    shown = {row["id"]: [s.get("rating") for s in row["seats"]] for row in rows}
    assert shown == {computer.pk: [None, None], four.pk: [None] * 4, casual_open.pk: ["1700", None],
                     rated_open.pk: ["1500?"]}
    client.force_login(alice)
    html = client.get(reverse("lobby")).content.decode()
    for match in (computer, four):
        row = html[html.index(f'data-match-id="{match.pk}"'):]
        assert 'class="rating"' not in row[:row.index("</li>")], match
    for match, rating in ((casual_open, "1700"), (rated_open, "1500?")):
        row = html[html.index(f'data-match-id="{match.pk}"'):]
        assert f'<bdi class="rating" dir="ltr">({rating})</bdi>' in row[:row.index("</li>")], match
