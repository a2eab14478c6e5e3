"""Look-alike names (UTS #39 skeletons, ``accounts.confusables``): reserved names and taken
names cannot be had again in another script, width or case."""

import pytest
from django.apps import apps as django_apps
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.urls import reverse

from accounts.adapter import AccountAdapter
from accounts.confusables import TABLE, name_keys, prototypes, skeleton, table_version
from accounts.models import NameKey

SIGNUP = {
    "email": "new@example.com",
    "password1": "seven-of-diamonds-77",
    "password2": "seven-of-diamonds-77",
}


@pytest.fixture(autouse=True)
def _optional_verification(settings):
    settings.ACCOUNT_EMAIL_VERIFICATION = "optional"


def test_the_vendored_table_is_unicodes_whole_file():
    # The file ends with Unicode's own count of its mappings: a truncated copy would fail here.
    total = int(TABLE.read_text(encoding="utf-8-sig").rstrip().rsplit("# total:", 1)[1])
    assert len(prototypes()) == total
    assert table_version() == "13.0.0"


def test_skeleton_follows_uts39():
    # UTS #39's own example pair, and what the table maps: Cyrillic а to a, m to rn, 0 to O.
    assert skeleton("p\u0430ypal") == skeleton("paypal") == "paypal"
    assert skeleton("m") == "rn"
    assert skeleton("b0b") == "bOb"
    # Format characters a name could carry unseen are dropped.
    assert skeleton("ali\u200dce") == skeleton("alice")


@pytest.mark.parametrize(
    ("one", "other", "alike"),
    [
        ("ａｌｉｃｅ", "alice", True),  # full-width (NFKC)
        ("\u0430lice", "alice", True),  # Cyrillic а
        ("ALICE", "alice", True),  # case
        ("aIice", "alice", True),  # capital I for l
        ("b0b", "bob", True),
        ("rnary", "mary", True),
        ("omar", "amir", False),
        ("محمد", "محمود", False),
    ],
)
def test_name_keys_meet_for_look_alikes_only(one, other, alike):
    assert bool(name_keys(one) & name_keys(other)) is alike


def _signup(client, username):
    return client.post(reverse("account_signup"), {**SIGNUP, "username": username})


@pytest.mark.django_db
@pytest.mark.parametrize("name", ["ａｄｍｉｎ", "\u0430dmin123", "ＢＯＴ", "adm\u0456n"])
def test_reserved_names_are_refused_in_any_form(client, name):
    response = _signup(client, name)
    assert "This name is reserved" in response.content.decode()
    assert not get_user_model().objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize("name", ["\u0430lice", "aIice", "ａｌｉｃｅ", "ali\u0441e"])
def test_look_alike_of_a_taken_name_is_refused(client, name):
    get_user_model().objects.create_user("alice", "alice@example.com", "x")
    response = _signup(client, name)
    assert response.status_code == 200
    html = response.content.decode()
    assert "looks too much like" in html or "already exists" in html
    assert get_user_model().objects.count() == 1


@pytest.mark.django_db
def test_look_alike_message_is_arabic_for_an_arabic_page(client):
    get_user_model().objects.create_user("alice", "alice@example.com", "x")
    client.cookies["django_language"] = "ar"
    response = _signup(client, "\u0430lice")
    assert "يشبه كثيرًا اسم لاعب" in response.content.decode()


@pytest.mark.django_db
def test_a_name_of_its_own_is_stored_normalised(client):
    get_user_model().objects.create_user("alice", "alice@example.com", "x")
    assert _signup(client, "ｋａｒｉｍ").status_code == 302
    assert get_user_model().objects.filter(username="karim").exists()


@pytest.mark.django_db
def test_keys_follow_the_username_however_the_user_is_saved():
    user = get_user_model().objects.create_user("alice", "alice@example.com", "x")
    assert set(NameKey.objects.filter(user=user).values_list("key", flat=True)) == set(
        name_keys("alice")
    )
    user.username = "omar"
    user.save()
    assert set(user.name_keys.values_list("key", flat=True)) == set(name_keys("omar"))
    with pytest.raises(ValidationError):
        AccountAdapter().clean_username("0mar")
    AccountAdapter().clean_username("alice")  # free again


@pytest.mark.django_db
def test_a_log_in_writes_no_keys(django_assert_num_queries):
    user = get_user_model().objects.create_user("alice", "alice@example.com", "x")
    with django_assert_num_queries(1):  # the UPDATE of last_login alone
        user.save(update_fields=["last_login"])


@pytest.mark.django_db
def test_the_migration_gives_earlier_users_their_keys():
    from importlib import import_module

    fill = import_module("accounts.migrations.0001_name_keys").fill
    user = get_user_model().objects.create_user("ＢｏＢ", "b@example.com", "x")
    NameKey.objects.all().delete()
    fill(django_apps, None)
    assert set(user.name_keys.values_list("key", flat=True)) == set(name_keys("ＢｏＢ"))
