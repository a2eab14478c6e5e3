"""The ladder, profile, match history and head-to-head pages: content, bad input, query counts."""

from __future__ import annotations

import re
import uuid
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from games.core import actions
from games.core.models import Match, Seat
from games.ratings.ladder import PER_PAGE
from games.ratings.models import PlayerRating, RatingChange
from tests.ratings.helpers import lose, rated_match

pytestmark = pytest.mark.django_db


def make_user(name):
    return get_user_model().objects.create_user(username=name, password=None)


def ladder_rows(count, *, pool="1v1", deviation=60.0, start=2000, days_ago=1, prefix="p"):
    users = get_user_model().objects.bulk_create(
        [get_user_model()(username=f"{prefix}{i:04d}") for i in range(count)]
    )
    now = timezone.now()
    PlayerRating.objects.bulk_create([
        PlayerRating(user=user, pool=pool, rating=start - i, deviation=deviation, matches=10,
                     wins=7, losses=3, last_rated_at=now - timedelta(days=days_ago))
        for i, user in enumerate(users)
    ])
    return users


def names_in(html):
    return re.findall(r'<td class="player"><a href="/players/([^/]+)/"', html)


def test_ladder_lists_active_established_players_best_first(client):
    ladder_rows(3)
    ladder_rows(2, deviation=200, prefix="new")  # provisional
    ladder_rows(2, days_ago=45, prefix="old")  # inactive: hidden
    html = client.get(reverse("ladder", args=["1v1"])).content.decode()
    assert names_in(html) == ["p0000", "p0001", "p0002"]
    assert "<td>1</td>" in html and "70%" in html
    provisional = client.get(reverse("ladder", args=["1v1"]), {"tab": "provisional"})
    assert names_in(provisional.content.decode()) == ["new0000", "new0001"]
    assert '<bdi dir="ltr">2000?</bdi></td>' in provisional.content.decode()  # "?" kept right in Arabic
    assert names_in(client.get(reverse("ladder", args=["partnership"])).content.decode()) == []


def test_the_inactive_days_are_a_setting(client, settings):
    ladder_rows(2, days_ago=45, prefix="old")
    settings.BASRA_LADDER_INACTIVE_DAYS = 60
    assert names_in(client.get(reverse("ladder", args=["1v1"])).content.decode()) == [
        "old0000", "old0001"
    ]


def test_own_row_is_highlighted_with_a_link_to_its_page(client):
    users = ladder_rows(PER_PAGE + 5)
    client.force_login(users[PER_PAGE + 2])
    html = client.get(reverse("ladder", args=["1v1"])).content.decode()
    assert f"You are ranked {PER_PAGE + 3}" in html
    assert 'href="/ladder/1v1/?tab=established&amp;page=2#me"' in html
    page2 = client.get(reverse("ladder", args=["1v1"]), {"page": 2}).content.decode()
    assert f'<tr class="me" id="me">\n        <td>{PER_PAGE + 3}</td>' in page2


def test_search_keeps_the_ladder_ranks(client):
    ladder_rows(30)
    html = client.get(reverse("ladder", args=["1v1"]), {"q": "p0012"}).content.decode()
    assert names_in(html) == ["p0012"]
    assert "<td>13</td>" in html


def test_bad_ladder_input_is_a_clear_answer(client):
    ladder_rows(3)
    url = reverse("ladder", args=["1v1"])
    with CaptureQueriesContext(connection) as queries:
        long = client.get(url, {"q": "x" * 10_000})
    assert long.status_code == 200
    assert "No player has a name that long." in long.content.decode()
    assert names_in(long.content.decode()) == []
    assert not any("LIKE" in q["sql"].upper() for q in queries.captured_queries)
    for page in ("99", "0", "abc", "9" * 5000):
        response = client.get(url, {"page": page})
        assert response.status_code == 404
        assert "pages go from 1 to 1" in response.content.decode()
    assert client.get(url, {"tab": "nonsense"}).status_code == 200
    assert client.get(reverse("ladder", args=["chess"])).status_code == 404
    assert client.get(reverse("ladder_index")).status_code == 302


def count_queries(client, url, params=None):
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url, params or {}).status_code == 200
    return len(queries)


def test_ladder_queries_do_not_grow_with_the_page(client):
    users = ladder_rows(3)
    client.force_login(users[1])
    url = reverse("ladder", args=["1v1"])
    few, few_search = count_queries(client, url), count_queries(client, url, {"q": "p"})
    ladder_rows(PER_PAGE - 3, start=1000, prefix="q")
    # The ladder's own queries, plus the session, the user and the header's unread notices.
    assert count_queries(client, url) == few <= 9
    assert count_queries(client, url, {"q": "p"}) == few_search <= 10


def play_rated(winner, loser, *, how="resign"):
    match = rated_match([winner, loser])
    if how == "claim":
        Seat.objects.filter(match=match, user=loser).update(absent=True)
        Match.objects.filter(pk=match.pk).update(seating_token=uuid.uuid4())
        actions.claim_win(user=winner, match_id=match.pk)
        match.refresh_from_db()
        return match
    return lose(match, loser)


def test_profile_shows_ratings_chart_totals_and_how_matches_ended(client):
    amira, karim = make_user("amira"), make_user("karim")
    claimed = play_rated(karim, amira, how="claim")
    play_rated(amira, karim)
    html = client.get(reverse("profile", args=["amira"])).content.decode()
    row = PlayerRating.objects.get(user=amira)
    assert f'<bdi class="rating" dir="ltr">{round(row.rating)}?</bdi>' in html
    assert "<svg" in html and html.count('<circle') == 3  # before, after each of 2 matches
    assert "<dt>Matches</dt><dd>2</dd>" in html and "<dt>Win rate</dt><dd>50%</dd>" in html
    assert "Lost on a claim (away from the table)" in html
    assert "Won: the opponent resigned" in html  # one opponent, at two
    assert "0–0" not in html  # both ended before a round was scored
    assert f'href="/table/{claimed.pk}/"' in html
    assert 'href="/players/amira/matches/"' in html


def test_profile_queries_are_bounded(client):
    amira, karim = make_user("amira"), make_user("karim")
    play_rated(amira, karim)
    first = count_queries(client, reverse("profile", args=["amira"]))
    for _ in range(4):
        play_rated(karim, amira)
    assert count_queries(client, reverse("profile", args=["amira"])) == first


def test_match_history_filters_and_bad_input(client):
    amira, karim, nour = make_user("amira"), make_user("karim"), make_user("nour")
    won = play_rated(amira, karim)
    lost = play_rated(nour, amira)
    casual = lose(rated_match([amira, nour], rated=False), nour)
    url = reverse("match_history", args=["amira"])

    def tables(params):
        response = client.get(url, params)
        assert response.status_code == 200
        return re.findall(r'<a href="/table/(\d+)/">', response.content.decode())

    assert tables({}) == [str(m.pk) for m in (casual, lost, won)]
    assert tables({"result": "won"}) == [str(m.pk) for m in (casual, won)]
    assert tables({"result": "lost"}) == [str(lost.pk)]
    assert tables({"opponent": "KARIM"}) == [str(won.pk)]
    assert tables({"pool": "partnership"}) == []
    today = timezone.now().date()
    assert tables({"from": str(today + timedelta(days=1))}) == []
    assert len(tables({"to": str(today)})) == 3
    # Bad values are ignored, never a 500.
    assert len(tables({"result": "x" * 10_000, "pool": "?", "from": "not a date",
                       "opponent": "y" * 10_000})) == 0
    assert len(tables({"result": "x", "pool": "?", "from": "2020-13-45"})) == 3
    assert client.get(url, {"page": "7"}).status_code == 404
    assert client.get(reverse("match_history", args=["nobody"])).status_code == 404
    html = client.get(url).content.decode()
    assert "casual" in html and re.search(r'class="change" dir="ltr">\+\d+', html)


def test_history_queries_do_not_grow(client):
    amira, karim = make_user("amira"), make_user("karim")
    play_rated(amira, karim)
    url = reverse("match_history", args=["amira"])
    first = count_queries(client, url)
    for _ in range(5):
        play_rated(karim, amira)
    assert count_queries(client, url) == first


def test_head_to_head(client):
    amira, karim, nour = make_user("amira"), make_user("karim"), make_user("nour")
    play_rated(amira, karim)
    play_rated(karim, amira)
    play_rated(amira, karim)
    play_rated(amira, nour)
    response = client.get(reverse("head_to_head", args=["amira", "karim"]))
    html = response.content.decode()
    assert "As opponents: 3 matches, amira won 2 and lost 1." in html
    assert len(re.findall(r'<a href="/table/\d+/">', html)) == 3
    assert client.get(reverse("head_to_head", args=["amira", "amira"])).status_code == 404
    assert client.get(reverse("head_to_head", args=["amira", "x" * 10_000])).status_code == 404


def test_the_table_page_of_a_rated_match_shows_each_sides_win_chance(client):
    amira, karim = make_user("amira"), make_user("karim")
    PlayerRating.objects.create(user=amira, pool="1v1", rating=1900, deviation=50, matches=9,
                                last_rated_at=timezone.now())
    match = rated_match([amira, karim])
    html = client.get(reverse("table", args=[match.pk])).content.decode()
    assert 'id="win-chances"' in html
    # Each name and rating isolated (Arabic pages keep "(1500?)" and "%" in place), the last
    # rating of a side kept on one line with its colon and percentage (issue 35).
    assert '<bdi>amira</bdi> <span class="chance-end"><bdi class="rating" dir="ltr">(1900)</bdi>: ' in html
    assert '<bdi>karim</bdi> <span class="chance-end"><bdi class="rating" dir="ltr">(1500?)</bdi>: ' in html
    shown = [int(p) for p in re.findall(r"<strong><bdi>(\d+)%</bdi></strong>", html)]
    assert len(shown) == 2 and sum(shown) == 100 and shown[0] > 70
    casual = rated_match([make_user("nour"), make_user("omar")], rated=False)
    assert 'id="win-chances"' not in client.get(reverse("table", args=[casual.pk])).content.decode()
    assert 'id="win-chances"' not in client.get(reverse("lobby")).content.decode()


def test_the_win_chances_leave_the_table_once_the_match_is_over(client):
    """A forecast: the page and the ``state``'s ``extras`` show it while the match is played,
    neither once it ended (the result and the rating changes say what came of it)."""
    from games.core.for_apps import table_state

    amira, karim = make_user("amira"), make_user("karim")
    match = rated_match([amira, karim])
    url = reverse("table", args=[match.pk])
    assert 'id="win-chances"' in client.get(url).content.decode()
    assert table_state(match_id=match.pk, user=None)["extras"]["ratings"]["chances"] is not None
    actions.resign(user=karim, match_id=match.pk)
    assert 'id="win-chances"' not in client.get(url).content.decode()
    assert table_state(match_id=match.pk, user=None)["extras"]["ratings"]["chances"] is None


def test_the_navigation_bar_in_english_and_arabic(client):
    amira = make_user("amira")
    html = client.get(reverse("lobby")).content.decode()
    assert '<a href="/" aria-current="page">Lobby</a>' in html
    assert '<a href="/ladder/">Ladder</a>' in html
    assert "My matches" not in html
    client.force_login(amira)
    arabic = client.get(reverse("ladder", args=["1v1"]), HTTP_ACCEPT_LANGUAGE="ar")
    html = arabic.content.decode()
    assert 'dir="rtl"' in html
    assert '<a href="/">الصالة</a>' in html
    assert '<a href="/ladder/" aria-current="page">سلّم الترتيب</a>' in html
    assert '<a href="/players/amira/">الملف الشخصي</a>' in html
    assert '<a href="/players/amira/matches/">مبارياتي</a>' in html
    for english in (">Lobby<", ">Ladder<", ">Profile<", ">My matches<", ">Established<", ">Provisional<",
                    ">Rank<", "Nobody is on this ladder yet."):
        assert english not in html, english


def test_profile_totals_come_from_the_round_ends(client):
    from games.core.models import Event
    from games.ratings.profile import totals
    from tests.core.helpers import play_out

    amira, karim = make_user("amira"), make_user("karim")
    match = actions.create_table(user=amira, players=2, rules={"target": 61}, rated=True)
    actions.join_table(user=karim, match_id=match.pk)
    play_out(match)
    match.refresh_from_db()
    ends = [e.payload["breakdown"] for e in Event.objects.filter(match=match, kind="round_end")]
    assert ends and match.result == "target"
    got = totals(amira)
    assert got["matches"] == 1 and got["wins"] + got["losses"] == 1
    # A count of basras (and jack basras) made by amira's side (seat 0), not their points.
    made = Event.objects.filter(match=match, kind="play", payload__basra__isnull=False)
    made = [e for e in made if e.payload["basra"] is not None and e.seat % 2 == 0]
    assert got["basras_per_match"] == len(made)
    assert sum(b["basras"][0] for b in ends) == 10 * sum(
        e.payload["basra"] == "basra" for e in made
    )
    assert got["points_per_round"] == round(sum(b["total"][0] for b in ends) / len(ends), 1)
    assert RatingChange.objects.filter(match=match).count() == 2


def test_partnership_win_chances_weigh_each_side(client):
    from games.ratings.rating import win_chances

    users = [make_user(n) for n in ("amira", "karim", "nour", "omar")]
    for user, rating in zip(users, (1900, 1500, 1500, 1500)):
        PlayerRating.objects.create(user=user, pool="partnership", rating=rating, deviation=50,
                                    matches=20, last_rated_at=timezone.now())
    match = rated_match(users)
    chances = win_chances(match)
    amira_side = next(i for i, side in enumerate(chances) if "amira" in side.names)
    assert len(chances[0].names) == 2 and len(chances[1].names) == 2
    assert 0.6 < chances[amira_side].chance < 0.85  # a 200-point edge of the side's mean
    html = client.get(reverse("table", args=[match.pk])).content.decode()
    assert html.count('class="side-chance"') == 2 and "&amp;" in html


def test_the_ladder_opens_on_the_tab_that_has_players(client):
    ladder_rows(2, deviation=200, prefix="new")  # only provisional players so far
    html = client.get(reverse("ladder", args=["1v1"])).content.decode()
    assert names_in(html) == ["new0000", "new0001"]
    assert 'href="?tab=provisional" aria-current="page"' in html
    # Asked for by name, the established tab stays (empty) as asked.
    asked = client.get(reverse("ladder", args=["1v1"]), {"tab": "established"}).content.decode()
    assert names_in(asked) == []
    ladder_rows(1, prefix="est")
    assert names_in(client.get(reverse("ladder", args=["1v1"])).content.decode()) == ["est0000"]


def test_the_search_finds_provisional_players_too_marked_and_ranked_in_their_tab(client):
    ladder_rows(3, prefix="sam")
    ladder_rows(2, deviation=200, start=2500, prefix="samnew")
    html = client.get(reverse("ladder", args=["1v1"]), {"q": "sam"}).content.decode()
    assert names_in(html) == ["samnew0000", "samnew0001", "sam0000", "sam0001", "sam0002"]
    assert html.count("Provisional rating") == 2
    # samnew0001 is second on the provisional tab, sam0002 third on the established one.
    rows = re.findall(r"<td>(\d+)</td>\s*<td class=\"player\"><a href=\"/players/([^/]+)/\"", html)
    assert ("2", "samnew0001") in rows and ("3", "sam0002") in rows


def test_counts_use_plural_forms(client):
    users = ladder_rows(1, prefix="one")
    PlayerRating.objects.filter(user=users[0]).update(matches=1, wins=1, losses=0)
    html = client.get(reverse("profile", kwargs={"username": "one0000"})).content.decode()
    assert "1 rated match: 1 won, 0 lost" in html
    client.cookies["django_language"] = "ar"
    html = client.get(reverse("profile", kwargs={"username": "one0000"})).content.decode()
    assert "مباراة مصنّفة واحدة" in html


def test_the_history_shows_the_change_the_table_showed(client):
    """Rounded after less rounded before, as the table's result has it (``for_apps``): a
    change of 67.2 from 1741.4 to 1808.6 is shown "+68 → 1809", not "+67"."""
    amira, karim = make_user("amira"), make_user("karim")
    match = play_rated(amira, karim)
    RatingChange.objects.filter(match=match, user=amira).update(rating_before=1741.4, rating_after=1808.6)
    html = client.get(reverse("match_history", args=["amira"])).content.decode()
    assert re.search(r'<bdi class="change" dir="ltr">\+68</bdi> → <bdi dir="ltr">1809', html), html


def test_french_pages_space_the_percent_and_the_labels_colons(client):
    amira, karim = make_user("amira"), make_user("karim")
    play_rated(karim, amira)
    play_rated(amira, karim)
    html = client.get(reverse("profile", args=["amira"]), HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "<dd>50\u202f%</dd>" in html
    html = client.get(reverse("match_history", args=["amira"]), HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert 'data-label="Date\u00a0:"' in html and 'data-label="Résultat\u00a0:"' in html


def test_profile_totals_leave_out_a_forfeit_the_player_never_played(client):
    """A match decided away from the table (a tournament's forfeit) counts in a player's totals
    only if the player played a card of it themselves: a no-show's forfeit, and the forfeit
    win of an opponent who played nothing, are no matches played."""
    from games.core.models import Event
    from games.ratings.profile import totals
    from tests.core.helpers import play_turn

    amira, karim = make_user("amira"), make_user("karim")
    forfeit = actions.create_table(user=amira, players=2, rules={"target": 61}, rated=False)
    actions.join_table(user=karim, match_id=forfeit.pk)
    actions.end_by_decision(match_id=forfeit.pk, winner=0)
    assert totals(amira)["matches"] == 0 and totals(karim)["matches"] == 0

    played = actions.create_table(user=amira, players=2, rules={"target": 61}, rated=False)
    actions.join_table(user=karim, match_id=played.pk)
    seat, _card, _seq = play_turn(played)  # one card, played by its seat's person
    actions.end_by_decision(match_id=played.pk, winner=1 - seat % 2)
    mover = Seat.objects.get(match=played, seat=seat).user
    other = karim if mover == amira else amira
    assert totals(mover)["matches"] == 1 and totals(mover)["losses"] == 1
    assert totals(other)["matches"] == 0

    # A card the clock played for a seat whose time ran out is not the person's play.
    timed = actions.create_table(user=amira, players=2, rules={"target": 61}, rated=False, move_seconds=10)
    actions.join_table(user=karim, match_id=timed.pk)
    timed.refresh_from_db()
    assert actions.act_on_deadline(match_id=timed.pk, now=timed.deadline + timedelta(seconds=1))
    assert Event.objects.filter(match=timed, kind="play", payload__timeout=True).count() == 1
    actions.end_by_decision(match_id=timed.pk, winner=0)
    assert totals(mover)["matches"] == 1 and totals(other)["matches"] == 0
