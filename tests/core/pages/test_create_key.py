"""The create form's one-time key (issue 36): a form posted twice makes one table."""

import re

import pytest
from django.urls import reverse

from games.core.actions import seating
from games.core.errors import MAX_OPEN_TABLES
from games.core.models import CreateKey, Match, Seat
from games.core.pages.views import COMPUTER_PREFIX
from tests.core.pages.helpers import VALID, computer_data, logged_in

pytestmark = pytest.mark.django_db

KEY = "k" * 22


@pytest.fixture
def alice(django_user_model):
    return django_user_model.objects.create_user("alice", "alice@example.com", "pw-Basra-123")


@pytest.fixture
def bob(django_user_model):
    return django_user_model.objects.create_user("bob", "bob@example.com", "pw-Basra-123")


def key_on(page: str, name: str = "create_key") -> str:
    found = re.search(rf'<input type="hidden" name="{name}" value="([A-Za-z0-9_-]+)"', page)
    assert found, f"no hidden {name} on the page"
    return found.group(1)


def test_the_lobby_form_carries_a_new_key_each_time_it_is_shown(alice):
    client = logged_in(alice)
    first = client.get(reverse("lobby")).content.decode()
    second = client.get(reverse("lobby")).content.decode()
    assert len(key_on(first)) >= 16
    assert key_on(first) != key_on(second)
    assert key_on(first, f"{COMPUTER_PREFIX}-create_key")


def test_the_same_form_posted_twice_makes_one_table_and_both_answers_are_its_page(alice):
    client = logged_in(alice)
    key = key_on(client.get(reverse("lobby")).content.decode())

    first = client.post(reverse("table_create"), {**VALID, "create_key": key})
    second = client.post(reverse("table_create"), {**VALID, "create_key": key})

    match = Match.objects.get()
    assert first.status_code == second.status_code == 302
    assert first["Location"] == second["Location"] == reverse("table", args=[match.id])
    assert Seat.objects.filter(user=alice).count() == 1


def test_another_key_makes_another_table_and_the_cap_still_holds(alice):
    client = logged_in(alice)
    keys = [f"{n:022d}" for n in range(MAX_OPEN_TABLES + 1)]
    for key in keys[:MAX_OPEN_TABLES]:
        assert client.post(reverse("table_create"), {**VALID, "create_key": key}).status_code == 302
    assert Match.objects.count() == MAX_OPEN_TABLES

    refused = client.post(reverse("table_create"), {**VALID, "create_key": keys[-1]})
    assert refused["Location"] == reverse("lobby")  # too_many_open_tables
    # A retry of a form that did make its table still lands there, cap or not.
    again = client.post(reverse("table_create"), {**VALID, "create_key": keys[0]})
    made = CreateKey.objects.get(user=alice, key=keys[0]).match_id
    assert again["Location"] == reverse("table", args=[made])
    assert Match.objects.count() == MAX_OPEN_TABLES


def test_a_key_is_each_persons_own(alice, bob):
    logged_in(alice).post(reverse("table_create"), {**VALID, "create_key": KEY})
    logged_in(bob).post(reverse("table_create"), {**VALID, "create_key": KEY})
    assert sorted(Match.objects.values_list("created_by__username", flat=True)) == ["alice", "bob"]


def test_a_post_that_raced_the_first_finds_its_table_after_the_unique_key_refuses_it(
    alice, monkeypatch
):
    """Two posts in flight at once: both looked before either committed, so the second's look
    found nothing; its insert of the key then fails, and it lands on the first's table."""
    client = logged_in(alice)
    client.post(reverse("table_create"), {**VALID, "create_key": KEY})
    made_with = seating._made_with
    looks = []

    def before_the_first_commit(user, key):
        looks.append(key)
        return None if len(looks) == 1 else made_with(user, key)

    monkeypatch.setattr(seating, "_made_with", before_the_first_commit)
    response = client.post(reverse("table_create"), {**VALID, "create_key": KEY})

    match = Match.objects.get()
    assert response["Location"] == reverse("table", args=[match.id])
    assert len(looks) == 2


def test_a_malformed_key_is_refused_and_makes_nothing(alice):
    response = logged_in(alice).post(reverse("table_create"), {**VALID, "create_key": "a b"})
    assert response.status_code == 400
    assert not Match.objects.exists()


def test_the_computer_form_posted_twice_makes_one_table(alice):
    client = logged_in(alice)
    data = computer_data(create_key=KEY)
    first = client.post(reverse("table_computer"), data)
    second = client.post(reverse("table_computer"), data)
    assert first.status_code == 302
    assert first["Location"] == second["Location"]
    assert Match.objects.count() == 1
