"""The public profile page at /players/<username>/."""

from datetime import datetime, timezone

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from games.core.pages.profile import recent_matches
from games.core.models import Match, Seat


def make_user(username):
    return get_user_model().objects.create_user(username=username, password="x-long-password-1")


def make_match(seated, *, status, winner_side=None, scores=(), day=1, players=None):
    """A match with `seated` users in seats 0, 1, ... (sides are seat % 2)."""
    when = datetime(2026, 3, day, 20, 0, tzinfo=timezone.utc)
    match = Match.objects.create(
        created_by=seated[0],
        players=players or len(seated),
        status=status,
        winner_side=winner_side,
        scores=list(scores),
        started_at=None if status == Match.Status.OPEN else when,
        finished_at=when if status == Match.Status.FINISHED else None,
    )
    for number, user in enumerate(seated):
        Seat.objects.create(match=match, seat=number, user=user)
    return match


@pytest.mark.django_db
def test_profile_is_public_and_shows_name_and_join_date(client, player):
    player.date_joined = datetime(2025, 7, 14, 9, 30, tzinfo=timezone.utc)
    player.save()
    response = client.get(reverse("profile", args=["amira"]))
    html = response.content.decode()
    assert response.status_code == 200
    assert '<h1 class="profile-name"><bdi>amira</bdi></h1>' in html
    assert 'datetime="2025-07-14T09:30:00+00:00"' in html
    assert "14 Jul 2025" in html  # SHORT_DATE_FORMAT, as every date on the site (basra_site/formats)
    assert reverse("profile", args=["amira"]) == "/players/amira/"


@pytest.mark.django_db
def test_profile_of_unknown_user_is_404_of_closed_account_410(client, player):
    assert client.get("/players/nobody-here/").status_code == 404
    player.is_active = False  # closed (accounts.closing)
    player.save()
    response = client.get("/players/amira/")
    assert response.status_code == 410
    assert "Closed account" in response.content.decode()


@pytest.mark.django_db
def test_profile_url_in_other_case_redirects_to_stored_name(client, player):
    response = client.get("/players/AMIRA/")
    assert response.status_code == 301
    assert response["Location"] == "/players/amira/"


@pytest.mark.django_db
def test_profile_works_for_arabic_usernames(client):
    make_user("محمد")
    response = client.get(reverse("profile", args=["محمد"]))
    assert response.status_code == 200
    assert "<bdi>محمد</bdi>" in response.content.decode()


@pytest.mark.django_db
def test_own_profile_links_to_account_settings(client, player):
    url = reverse("profile", args=["amira"])
    change_password = reverse("account_change_password")
    assert change_password not in client.get(url).content.decode()
    client.force_login(player)
    assert change_password in client.get(url).content.decode()


@pytest.mark.django_db
def test_profile_without_matches_says_so(client, player):
    html = client.get(reverse("profile", args=["amira"])).content.decode()
    assert "Recent matches" in html
    assert "No matches yet." in html


@pytest.mark.django_db
def test_recent_matches_list_opponents_results_and_tables(client, player):
    karim, nour, omar = make_user("karim"), make_user("nour"), make_user("omar")
    won = make_match([player, karim], status=Match.Status.FINISHED, winner_side=0, scores=[126, 87], day=1)
    lost = make_match([karim, player], status=Match.Status.FINISHED, winner_side=0, scores=[101, 60], day=2)
    # Four players: amira (seat 2) partners karim (seat 0) against nour and omar.
    playing = make_match([karim, nour, player, omar], status=Match.Status.PLAYING, scores=[30, 44], day=3)
    make_match([player], status=Match.Status.OPEN, day=4, players=2)  # still waiting: not a match yet
    make_match([nour, omar], status=Match.Status.FINISHED, winner_side=1, day=5)  # not hers

    matches = recent_matches(player)
    assert [m.url for m in matches] == [f"/table/{m.pk}/" for m in (playing, lost, won)]
    names = lambda people: [person.name for person in people]  # noqa: E731
    assert [(names(m.opponents), names(m.partners), m.result, m.score) for m in matches] == [
        (["nour", "omar"], ["karim"], "Playing", "30–44"),
        (["karim"], [], "Lost", "60–101"),
        (["karim"], [], "Won", "126–87"),
    ]

    html = client.get(reverse("profile", args=["amira"])).content.decode()
    assert "No matches yet." not in html
    for match in (won, lost, playing):
        assert f'href="/table/{match.pk}/"' in html
    assert 'href="/players/nour/"' in html
    assert '<bdi class="score">126–87</bdi>' in html


@pytest.mark.django_db
def test_recent_matches_are_limited_and_newest_first(player):
    karim = make_user("karim")
    made = [make_match([player, karim], status=Match.Status.FINISHED, winner_side=0, day=d) for d in range(1, 13)]
    matches = recent_matches(player, limit=10)
    assert [m.url for m in matches] == [f"/table/{m.pk}/" for m in reversed(made[2:])]


@pytest.mark.django_db
def test_recent_matches_take_three_queries(player, django_assert_num_queries):
    """The matches, their seats and the seated accounts' titles (``for_apps.titles``), however
    many matches."""
    others = [make_user(name) for name in ("karim", "nour", "omar")]
    for day in range(1, 6):
        make_match([player, *others], status=Match.Status.FINISHED, winner_side=1, day=day)
    with django_assert_num_queries(3):
        recent_matches(player)


@pytest.mark.django_db
def test_recent_matches_name_a_computer_opponent(client, player):
    """A computer seat has no user: the profile names it instead of crashing."""
    match = make_match([player], status=Match.Status.PLAYING, scores=[0, 0], players=2)
    Seat.objects.create(match=match, seat=1, user=None, bot="greedy")

    [row] = recent_matches(player)
    [computer] = row.opponents
    assert computer.name == Seat(bot="greedy").display_name
    assert "greedy" in computer.name.lower()
    assert computer.url is None  # a computer has no profile to link to
    response = client.get(reverse("profile", args=[player.username]))
    assert response.status_code == 200
    assert f'<bdi class="bot">{computer.name}</bdi>' in response.content.decode()


@pytest.mark.django_db
def test_the_header_marks_profile_and_my_matches_only_on_ones_own(client, player):
    """"Profile" and "My matches" in the header are the reader's own pages: another player's
    profile or match history is not marked as the page they are on."""
    import re

    make_user("karim")
    client.force_login(player)

    def marked(url):
        page = client.get(url).content.decode()
        nav = page[page.index('id="site-nav"'):page.index("</nav>")]
        return re.findall(r'aria-current="page">([^<]+)<', nav)

    assert marked(reverse("profile", args=["amira"])) == ["Profile"]
    assert marked(reverse("profile", args=["karim"])) == []
    assert marked(reverse("match_history", args=["amira"])) == ["My matches"]
    assert marked(reverse("match_history", args=["karim"])) == []
