"""Imported records within bounds (issue 23, item 4): a login, a quota and a rate per player,
imports that expire unless kept, the lobby's targets and a cap on rounds, headers of their
RULES.md types, an analysis bounded in plays."""

from __future__ import annotations

import json
import re
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.core.state import records
from games.replays.forms import MAX_ROUNDS
from games.replays.models import Analysis, ImportedRecord


def client_of(name: str) -> Client:
    user, _ = get_user_model().objects.get_or_create(username=name)
    client = Client()
    client.force_login(user)
    return client


def post(client: Client, record: dict):
    return client.post(reverse("replays:import"), {"text": json.dumps(record)})


@pytest.fixture
def record(played) -> dict:
    return records.match_record(played[0])


def test_importing_needs_a_login(record):
    response = Client().post(reverse("replays:import"), {"text": json.dumps(record)})
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert Client().get(reverse("replays:import")).status_code == 302
    assert not ImportedRecord.objects.exists()


@pytest.mark.parametrize("change, words", [
    (lambda r: r["rules"].update(target=10**9), "Its target, 1000000000, is not one"),
    (lambda r: r["rounds"].extend([r["rounds"][0]] * MAX_ROUNDS), "the site replays records of"),
])
def test_a_record_beyond_the_limits_is_refused_before_the_engine_replays_it(
    record, monkeypatch, change, words
):
    from games.replays import forms

    def no_replay(_record):
        raise AssertionError("the engine replayed a record beyond the limits")

    monkeypatch.setattr(forms.engine, "replay", no_replay)
    change(record)
    response = post(client_of("omar"), record)
    assert response.status_code == 400
    assert words in response.content.decode()
    assert not ImportedRecord.objects.exists()


@pytest.mark.parametrize("change, name", [
    (lambda r: r.update(headers=[1]), "headers"),
    (lambda r: r["headers"].update(termination=["target"]), "headers.termination"),
    (lambda r: r["headers"].update(termination="won"), "headers.termination"),
    (lambda r: r["headers"].update(winner=True), "headers.winner"),
    (lambda r: r["headers"].update(rated="yes"), "headers.rated"),
    (lambda r: r["headers"].update(date="yesterday"), "headers.date"),
    (lambda r: r["headers"].update(ratings_before=[1500]), "headers.ratings_before"),
    (lambda r: r["headers"].update(pool="3v3"), "headers.pool"),
    (lambda r: r.update(shuffle={"commitment": 5}), "shuffle.commitment"),
    (lambda r: r["rounds"][0].update(timeouts=["3"]), "rounds[1].timeouts"),
])
def test_headers_of_the_wrong_type_are_refused(record, change, name):
    change(record)
    response = post(client_of("omar"), record)
    assert response.status_code == 400
    assert f"The record&#x27;s {name} is not of the type" in response.content.decode()
    assert not ImportedRecord.objects.exists()


def test_headers_rules_md_does_not_name_are_kept(record):
    record["headers"]["opening"] = ["anything"]
    assert post(client_of("omar"), record).status_code == 302
    assert ImportedRecord.objects.get().record["headers"]["opening"] == ["anything"]


def test_a_player_imports_at_most_so_many_an_hour(record, settings):
    settings.BASRA_IMPORTS_PER_HOUR = 2
    omar = client_of("omar")
    assert [post(omar, record).status_code for _ in range(3)] == [302, 302, 429]
    assert "in the last hour" in post(omar, record).content.decode()
    assert post(client_of("salma"), record).status_code == 302  # another player's own rate
    ImportedRecord.objects.update(created_at=timezone.now() - timedelta(hours=2))
    assert post(omar, record).status_code == 302
    assert ImportedRecord.objects.count() == 4


def test_a_player_keeps_at_most_so_many_and_deleting_one_frees_a_place(record, settings):
    settings.BASRA_IMPORTS_MAX = 2
    omar = client_of("omar")
    assert [post(omar, record).status_code for _ in range(3)] == [302, 302, 400]
    first = ImportedRecord.objects.order_by("pk").first()
    # Nobody else may delete it: as for an unknown link.
    salma = client_of("salma")
    assert salma.post(reverse("replays:delete_import", kwargs={"token": first.token})).status_code == 404
    assert omar.post(reverse("replays:delete_import", kwargs={"token": first.token})).status_code == 302
    assert post(omar, record).status_code == 302
    assert ImportedRecord.objects.count() == 2


def test_an_import_expires_unless_its_owner_keeps_it(record, settings):
    settings.BASRA_IMPORT_DAYS = 30
    omar, salma = client_of("omar"), client_of("salma")
    post(omar, record)
    post(omar, record)
    old, kept = ImportedRecord.objects.order_by("pk")
    page = omar.get(reverse("replays:imported", kwargs={"token": old.token})).content.decode()
    assert "It expires on" in page and 'id="keep-import"' in page
    assert 'id="keep-import"' not in salma.get(
        reverse("replays:imported", kwargs={"token": old.token})).content.decode()
    # Only the owner keeps it.
    keep = reverse("replays:keep_import", kwargs={"token": kept.token})
    assert salma.post(keep).status_code == 404
    assert omar.post(keep).status_code == 302
    kept.refresh_from_db()
    assert kept.kept and kept.expires_at is None
    ImportedRecord.objects.update(created_at=timezone.now() - timedelta(days=31))
    for name in ("imported", "imported_record", "imported_analysis"):
        assert omar.get(reverse(f"replays:{name}", kwargs={"token": old.token})).status_code == 404
    for name in ("imported", "imported_record"):
        assert omar.get(reverse(f"replays:{name}", kwargs={"token": kept.token})).status_code == 200
    # (No analysis asked for: the kept one's answers so, not "no such record".)
    analysis = omar.get(reverse("replays:imported_analysis", kwargs={"token": kept.token}))
    assert analysis.json() == {"status": None}
    # The next import deletes what expired.
    post(salma, record)
    assert not ImportedRecord.objects.filter(pk=old.pk).exists()
    assert ImportedRecord.objects.filter(pk=kept.pk).exists()


def test_an_analysis_is_bounded_in_plays(record, settings):
    settings.BASRA_ANALYSIS_IN_SERVER = False
    omar = client_of("omar")
    post(omar, record)
    imported = ImportedRecord.objects.get()
    plays = sum(len(r["plays"]) for r in record["rounds"])
    url = reverse("replays:imported_analysis", kwargs={"token": imported.token})
    settings.BASRA_ANALYSIS_MAX_PLAYS = plays - 1
    response = omar.post(url)
    assert response.status_code == 400
    assert response.json()["code"] == "analysis_too_long"
    assert f"at most {plays - 1} plays" in response.json()["message"]
    assert not Analysis.objects.exists()
    settings.BASRA_ANALYSIS_MAX_PLAYS = plays
    assert omar.post(url).status_code == 202


def test_the_expire_imports_command_deletes_what_expired(record):
    from io import StringIO

    from django.core.management import call_command

    omar = client_of("omar")
    post(omar, record)
    post(omar, record)
    old, new = ImportedRecord.objects.order_by("pk")
    ImportedRecord.objects.filter(pk=old.pk).update(created_at=timezone.now() - timedelta(days=365))
    call_command("expire_imports", stdout=StringIO())
    assert list(ImportedRecord.objects.values_list("pk", flat=True)) == [new.pk]


def test_a_lone_surrogate_is_refused_before_anything_is_stored(record):
    record["seats"][0] = "al\ud800ice"  # "\ud800" in the JSON text: valid JSON, not text
    response = post(client_of("omar"), record)
    assert response.status_code == 400
    assert "lone UTF-16 surrogate" in response.content.decode()
    assert not ImportedRecord.objects.exists()


def test_a_number_too_long_and_a_seat_name_too_long_are_refused_in_plain_words(record):
    from games.replays.forms import MAX_SEAT_NAME

    text = re.sub(r'"target": \d+', '"target": ' + "9" * 5000, json.dumps(record), count=1)
    assert "9" * 5000 in text
    response = client_of("omar").post(reverse("replays:import"), {"text": text})
    assert response.status_code == 400
    page = response.content.decode()
    assert "a number of more than 18 digits" in page and "int_max_str_digits" not in page
    record["seats"][1] = "b" * (MAX_SEAT_NAME + 1)
    response = post(client_of("omar"), record)
    assert response.status_code == 400
    assert f"longer than {MAX_SEAT_NAME} characters" in response.content.decode()
    assert not ImportedRecord.objects.exists()
