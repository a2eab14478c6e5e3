"""The replays app: replay pages from the event log, the record round trip, import, links."""

from __future__ import annotations

import copy
import json
import re
from datetime import timedelta

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from django.utils import formats, timezone, translation

from games import engine
from games.core.actions import end_by_decision, mark_absent
from games.core.models import Match
from games.core.state import records
from games.replays.models import ImportedRecord
from games.replays.positions import replay_data
from tests.core.helpers import play_turn, seated_match
from tests.core.pages.helpers import config_of
from tests.site.catalogue import script_label, served_catalogue

pytestmark = pytest.mark.django_db


def page_config(response) -> dict:
    """The ``replay-config`` JSON a replay page carries."""
    return config_of(response, "replay-config")


def importer(name: str = "importer") -> Client:
    """A client logged in as a player of that name (made if need be): importing needs a login."""
    from django.contrib.auth import get_user_model

    user, _ = get_user_model().objects.get_or_create(username=name)
    client = Client()
    client.force_login(user)
    return client


def test_every_finished_match_replays_to_its_stored_result(played):
    finished = Match.objects.filter(status=Match.Status.FINISHED)
    assert finished.count() == 4
    client = Client()
    for match in finished:
        record = records.match_record(match)
        response = client.get(reverse("replays:match", kwargs={"match_id": match.pk}))
        assert response.status_code == 200, match
        data = page_config(response)["replay"]
        assert data == json.loads(json.dumps(replay_data(record)))
        last = data["positions"][-1]
        # The stored result is the scores of the finished rounds and the winner.
        assert last["scores"] == match.scores == data["scores"]
        if match.result == Match.Result.TARGET:
            assert data["winner"] == match.winner_side
            assert data["rounds"][-1]["totals"] == match.scores
        plays = sum(len(r["plays"]) for r in record["rounds"])
        assert len(data["positions"]) == plays + len(record["rounds"])
        for position in data["positions"]:
            # Every card is somewhere: hands, floor, piles, stock (RULES.md, "Dealing").
            held = sum(map(len, position["hands"])) + len(position["floor"])
            assert held + sum(position["piles"]) + position["stock"] == 52


def test_positions_follow_the_engine(played):
    match = played[0]
    record = records.match_record(match)
    data = replay_data(record)
    live = engine.Match(engine.Rules.from_dict(record["rules"]), record["rounds"][0]["dealer"])
    for index, rnd in enumerate(record["rounds"]):
        live.start_round(rnd["deck"])
        first = data["rounds"][index]["first"]
        assert data["positions"][first]["hands"] == [[c.code for c in h] for h in live.round.hands]
        assert data["rounds"][index]["deals"][0]["stock"] == [c.code for c in live.round.stock]
        for number, code in enumerate(rnd["plays"]):
            live.play(code)
            position = data["positions"][first + number + 1]
            assert position["floor"] == [c.code for c in live.round.floor]
            assert position["hands"] == [[c.code for c in h] for h in live.round.hands]
            assert position["last"]["card"] == code
    assert data["scores"] == list(live.scores)
    # Six deals a round for two players, the stock shrinking by 8 at each.
    assert [len(d["stock"]) for d in data["rounds"][0]["deals"]] == [40, 32, 24, 16, 8, 0]


def test_no_replay_while_the_match_is_played(played):
    playing = played[-1]
    assert playing.status == Match.Status.PLAYING
    client = Client()
    for name in ("replays:match", "replays:match_analysis", "match_record"):
        response = client.get(reverse(name, kwargs={"match_id": playing.pk}))
        assert response.status_code == 404
        assert playing.server_seed not in response.content.decode()


def test_timeouts_and_basras_are_marked():
    record = {
        "format": "basra-record/1", "rules": engine.Rules(target=11).to_dict(), "seats": ["a", "b"],
        "rounds": [{"dealer": 0, "deck": [c.code for c in engine.full_deck()], "plays": []}],
    }
    live = engine.Match(engine.Rules(target=11), 0)
    live.start_round(record["rounds"][0]["deck"])
    while not live.round.over:
        card = live.round.legal_plays()[0]
        record["rounds"][0]["plays"].append(card.code)
        live.play(card)
    record["rounds"][0]["timeouts"] = [3]
    data = replay_data(record)
    lasts = [p["last"] for p in data["positions"][1:]]
    assert [i for i, last in enumerate(lasts) if last["timeout"]] == [3]
    basras = [(i, last["basra"]) for i, last in enumerate(lasts) if last["basra"]]
    expected = [(i, p.basra.value) for i, p in enumerate(live.round.plays) if p.basra]
    assert basras == expected
    assert [(b["play"], b["kind"]) for b in data["rounds"][0]["basras"]] == expected


def test_export_then_import_gives_the_same_replay(played):
    match = played[0]
    client = importer()
    exported = client.get(reverse("match_record", kwargs={"match_id": match.pk}))
    assert exported.status_code == 200
    upload = exported.content
    response = client.post(reverse("replays:import"), {"text": upload.decode()})
    assert response.status_code == 302
    imported = ImportedRecord.objects.get()
    assert response["Location"] == reverse("replays:imported", kwargs={"token": imported.token})
    assert len(imported.token) >= 22
    page = client.get(response["Location"])
    assert page.status_code == 200
    original = page_config(client.get(reverse("replays:match", kwargs={"match_id": match.pk})))
    assert page_config(page)["replay"] == original["replay"]
    # The import's own record download gives the same record back.
    again = client.get(reverse("replays:imported_record", kwargs={"token": imported.token}))
    assert json.loads(again.content) == json.loads(upload)
    # An import is not a played match.
    assert Match.objects.count() == len(played)


def test_a_file_upload_is_imported_too(played):
    from django.core.files.uploadedfile import SimpleUploadedFile

    record = records.match_record(played[1])
    upload = SimpleUploadedFile("m.json", json.dumps(record).encode(), "application/json")
    response = importer().post(reverse("replays:import"), {"file": upload})
    assert response.status_code == 302
    assert ImportedRecord.objects.get().record["rounds"] == record["rounds"]


def test_an_illegal_play_at_round_2_play_17_is_refused_and_nothing_is_stored(played):
    match = played[0]
    record = records.match_record(match)
    assert len(record["rounds"]) >= 2
    # Round 2's 17th play: a card of another seat's hand at that moment.
    live = engine.Match(engine.Rules.from_dict(record["rules"]), record["rounds"][0]["dealer"])
    live.start_round(record["rounds"][0]["deck"])
    for code in record["rounds"][0]["plays"]:
        live.play(code)
    live.start_round(record["rounds"][1]["deck"])
    for code in record["rounds"][1]["plays"][:16]:
        live.play(code)
    other = (live.round.turn + 1) % 2
    bad = copy.deepcopy(record)
    bad["rounds"][1]["plays"][16] = live.round.hands[other][0].code
    response = importer().post(reverse("replays:import"), {"text": json.dumps(bad)})
    assert response.status_code == 400
    text = response.content.decode()
    assert "round 2, play 17" in text
    assert "is not in the hand of seat" in text
    assert ImportedRecord.objects.count() == 0


def test_a_record_with_a_nul_character_is_refused_and_nothing_is_stored(played):
    record = records.match_record(played[0])
    record["headers"]["event"] = "club\x00night"  # "\u0000" in the JSON text
    response = importer().post(reverse("replays:import"), {"text": json.dumps(record)})
    assert response.status_code == 400
    assert "NUL character" in response.content.decode()
    assert ImportedRecord.objects.count() == 0


def test_a_pasted_nul_character_gets_one_error_that_says_so(db):
    response = importer().post(reverse("replays:import"), {"text": '{"format": "\x00"}'})
    assert response.status_code == 400
    text = response.content.decode()
    assert "Null characters are not allowed" in text
    assert "Upload a record file or paste a record" not in text  # something was pasted


@pytest.mark.parametrize("text, words", [
    ("{not json", "This is not JSON"),
    ('{"format": "basra-record/1", "rules": {}, "seats": ["a"], "rounds": []}', "seats"),
    ("", "Upload a record file or paste a record"),
    ("[" * 100_000 + "]" * 100_000, "nested too deeply"),  # a refusal, not a 500
])
def test_a_malformed_record_is_refused(db, text, words):
    response = importer().post(reverse("replays:import"), {"text": text})
    assert response.status_code == 400
    assert words in response.content.decode()
    assert ImportedRecord.objects.count() == 0


@pytest.mark.parametrize("content, words", [
    (b"\x89PNG\r\n\x1a\n\xff\xfe", "Ce fichier n&#x27;est pas du texte"),
    (b'{"format": "basra-record/1",\n "seats": [}', "ligne 2, colonne 12"),
])
def test_a_file_that_is_not_a_record_is_refused_in_the_reader_s_words(db, content, words):
    """Neither the decoder's nor the parser's own English message reaches the page."""
    upload = SimpleUploadedFile("record.json", content, content_type="application/json")
    response = importer().post(reverse("replays:import"), {"file": upload},
                               HTTP_ACCEPT_LANGUAGE="fr")
    assert response.status_code == 400
    text = response.content.decode()
    assert words in text
    assert "codec" not in text and "Expecting" not in text
    assert ImportedRecord.objects.count() == 0


def test_an_unknown_import_link_is_404(db):
    assert Client().get("/replay/AAAAAAAAAAAAAAAAAAAAAA/").status_code == 404


def test_links_to_the_replay(played, users):
    client = Client()
    client.force_login(users[0])
    full = played[0]
    replay = reverse("replays:match", kwargs={"match_id": full.pk})
    profile = client.get(reverse("profile", kwargs={"username": "alice"})).content.decode()
    assert f'href="{replay}"' in profile
    playing = played[-1]
    assert reverse("replays:match", kwargs={"match_id": playing.pk}) not in profile
    lobby = client.get(reverse("lobby")).content.decode()
    assert reverse("replays:recent") in lobby
    recent = client.get(reverse("replays:recent")).content.decode()
    assert f'href="{replay}"' in recent
    table = client.get(reverse("table", kwargs={"match_id": full.pk})).content.decode()
    assert '"replay": "/match/{id}/replay/"' in table


def test_a_forfeit_nobody_played_has_no_replay_link(django_user_model):
    """A table decided before any card was played (a tournament's no-show), or abandoned by
    everyone before it (a double no-show), is listed on the profile, worded as it ended, but
    with no replay: there is nothing to replay."""
    amira, karim = (django_user_model.objects.create_user(username=n) for n in ("amira", "karim"))
    forfeit = seated_match([amira, karim])
    end_by_decision(match_id=forfeit.pk, winner=0)
    nobody = seated_match([amira, karim])
    mark_absent(match_id=nobody.pk, now=timezone.now() + timedelta(hours=1))
    nobody.refresh_from_db()
    assert nobody.result == Match.Result.ABANDONED
    played = seated_match([amira, karim])
    play_turn(played, lambda hand: sorted(hand)[0])
    end_by_decision(match_id=played.pk, winner=1)
    profile = Client().get(reverse("profile", kwargs={"username": "amira"})).content.decode()
    assert "Won: decided away from the table" in profile
    assert "Lost: decided away from the table" in profile
    for page in (profile, Client().get(reverse("replays:recent")).content.decode()):
        assert reverse("replays:match", kwargs={"match_id": played.pk}) in page
        assert reverse("replays:match", kwargs={"match_id": forfeit.pk}) not in page
        assert reverse("replays:match", kwargs={"match_id": nobody.pk}) not in page


def test_the_chart_and_the_fair_shuffle_are_on_the_page(played):
    match = played[0]
    response = Client().get(reverse("replays:match", kwargs={"match_id": match.pk}))
    html = response.content.decode()
    rounds = len(records.match_record(match)["rounds"])
    assert html.count('class="side-dot side-0"') == rounds
    config = page_config(response)
    assert config["shuffle"]["server_seed"] == match.server_seed
    assert config["sideNames"] == ["alice", "bob"]


def test_the_page_in_arabic(played):
    client = Client(headers={"accept-language": "ar"})
    response = client.get(reverse("replays:match", kwargs={"match_id": played[0].pk}))
    html = response.content.decode()
    assert 'dir="rtl"' in html
    # The script's words come from the catalogue of the page's language (/jsi18n/?language=ar).
    assert f'src="{reverse("javascript-catalog")}?language=ar"' in html
    assert served_catalogue("ar")[script_label("static/replays/labels.js", "floor")] != "Floor"
    # The analysis' lines are joined with the language's own comma and semicolon.
    arabic = served_catalogue("ar")
    assert arabic["between the parts of a line of the analysis\x04, "] == "، "
    assert arabic["between the mistakes of one play\x04; "] == "؛ "
    # The chart's coordinates are numbers SVG reads, not localised ones ("12٫5").
    coordinates = re.findall(r' (?:cx|cy|x|y|x1|y1|x2|y2)="([^"]*)"', html)
    assert coordinates
    for value in coordinates:
        float(value)


def test_a_body_past_the_upload_limit_is_refused_before_any_form_reads_it(db, settings):
    from games.replays.forms import MAX_RECORD_BYTES

    # The limit leaves room for the largest record the form takes, and no more than a little.
    assert MAX_RECORD_BYTES < settings.DATA_UPLOAD_MAX_MEMORY_SIZE <= 1.2 * MAX_RECORD_BYTES
    response = importer().post(
        reverse("replays:import"), {"text": "x" * (settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 1)}
    )
    assert response.status_code == 400
    assert "This is not JSON" not in response.content.decode()  # no form read it
    assert ImportedRecord.objects.count() == 0


def test_a_four_player_sides_names_are_each_isolated():
    from games.replays.views import _side_names

    assert _side_names(["alice", "سارةSara_7", "bob", "كريم"], 4) == [
        "\u2068alice\u2069 & \u2068bob\u2069", "\u2068سارةSara_7\u2069 & \u2068كريم\u2069"]


def test_the_chart_labels_the_top_when_a_total_passes_the_target():
    from games.replays.views import totals_chart

    chart = totals_chart([{"totals": [20, 5]}, {"totals": [60, 9]}], target=11)
    assert chart["top"] == 60 and chart["top_label"] and chart["top_y"] < chart["target_y"]
    assert not totals_chart([{"totals": [11, 5]}], target=11)["top_label"]
    assert not totals_chart([{"totals": [12, 5]}], target=11)["top_label"]  # too near to read apart


def test_the_date_is_written_in_the_readers_language(played):
    match = played[0]
    day = match.finished_at.date()
    url = reverse("replays:match", kwargs={"match_id": match.pk})
    french = Client(headers={"accept-language": "fr"}).get(url).content.decode()
    # The record's date (an ISO 8601 header), as the rest of the site writes a date in French.
    with translation.override("fr"):
        written = formats.date_format(day, "SHORT_DATE_FORMAT")
    assert f'<time datetime="{day.isoformat()}">{written}</time>' in french
    assert written != day.isoformat()
