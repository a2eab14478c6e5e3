"""The organiser's changes before the start (issue 24): change the settings, cancel the event,
remove an entrant, set the seeds by hand."""

from __future__ import annotations

import re
from datetime import timedelta
from zoneinfo import ZoneInfo

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import timezone

from games.tournaments import services
from games.tournaments.errors import Code, TournamentError
from games.tournaments.models import AuditEntry, Entrant, Tournament
from tests.tournaments.helpers import client_for, edit_post, enter, event, refresh, users

pytestmark = pytest.mark.django_db


def test_the_organiser_cancels_an_upcoming_event_and_its_players_are_told(
    sent, django_capture_on_commit_callbacks
):
    org, a, b = users("org", "a", "b")
    t = event(org, "swiss", swiss_rounds=3)
    enter(t, [a, b])
    with django_capture_on_commit_callbacks(execute=True):
        response = client_for(org).post(reverse("tournament_cancel", args=[t.pk]), {"confirmed": "yes"})
    assert response.status_code == 302
    t = refresh(t)
    assert t.status == Tournament.Status.CANCELLED and t.finished_at is not None
    entry = t.audit.get(action=AuditEntry.Action.CANCEL)
    assert entry.actor == org and entry.details == {"entrants": 2}
    told = {(user_id, p["news"]) for user_id, kind, p in sent if kind == "tournament_news"}
    assert told == {(a.pk, "cancelled"), (b.pk, "cancelled")}
    page = client_for(org).get(reverse("tournament", args=[t.pk])).content.decode()
    assert 'id="cancel-reason"' not in page and 'id="cancel-button"' not in page


def test_cancel_is_refused_to_others_and_once_started():
    org, a, b = users("org", "a", "b")
    t = event(org, "swiss", swiss_rounds=3)
    enter(t, [a, b])
    with pytest.raises(TournamentError) as error:
        services.cancel(user=a, tournament_id=t.pk)
    assert error.value.code == Code.NOT_ORGANISER
    assert client_for(org).get(reverse("tournament", args=[t.pk])).content.decode().count(
        'id="cancel-button"') == 1
    services.start(user=org, tournament_id=t.pk)
    with pytest.raises(TournamentError) as error:
        services.cancel(user=org, tournament_id=t.pk)
    assert error.value.code == Code.ALREADY_STARTED
    assert refresh(t).status == Tournament.Status.RUNNING
    assert not t.audit.filter(action=AuditEntry.Action.CANCEL).exists()


def test_the_cancel_button_wears_the_site_s_danger_style_and_the_harmless_ones_do_not():
    org, a = users("org", "a")
    t = event(org, "swiss", swiss_rounds=3)
    enter(t, [a])
    page = client_for(org).get(reverse("tournament", args=[t.pk])).content.decode()
    classes = dict((found[1], found[0].split()) for found in re.findall(
        r'<(?:button|a) [^>]*class="([^"]*)"[^>]*id="([^"]*)"', page))
    assert "danger" in classes["cancel-button"]
    assert "danger" not in classes["start-button"] and "danger" not in classes["edit-link"]
    # The class is styled by the sheet every page loads, not by one app's: outlined in the
    # accent on white, where a primary button is filled with it.
    sheet = (settings.BASE_DIR / "static" / "css" / "site.css").read_text()
    danger = re.search(r"^\.button\.danger\b[^{]*\{([^}]*)\}", sheet, re.M)[1]
    primary = re.search(r"^\.button\.primary\s*\{([^}]*)\}", sheet, re.M)[1]
    assert "background: var(--accent)" in primary
    assert "background: #fff" in danger and "var(--accent)" not in danger.split("background:")[1].split(";")[0]
    assert re.search(r"border: \d+px solid var\(--accent\)", danger) and "color: var(--accent)" in danger
    # The organiser's buttons keep room between them.
    own = (settings.BASE_DIR / "games" / "tournaments" / "static" / "tournaments" / "tournaments.css").read_text()
    assert re.search(r"^\.tournaments \.organiser \{[^}]*display: flex[^}]*gap: \.5rem", own, re.M)


def test_the_organiser_removes_an_entrant_before_the_start_and_the_player_is_told(
    sent, django_capture_on_commit_callbacks
):
    org, a, b, c = users("org", "a", "b", "c")
    t = event(org, "swiss", swiss_rounds=3)
    ea, eb, ec = enter(t, [a, b, c])
    page = client_for(org).get(reverse("tournament", args=[t.pk])).content.decode()
    assert reverse("tournament_remove_entrant", args=[t.pk, eb.pk]) in page
    with django_capture_on_commit_callbacks(execute=True):
        client_for(org).post(reverse("tournament_remove_entrant", args=[t.pk, eb.pk]),
                             {"confirmed": "yes"})
    assert set(t.entrants.values_list("pk", flat=True)) == {ea.pk, ec.pk}
    entry = t.audit.get(action=AuditEntry.Action.REMOVE)
    assert entry.actor == org and entry.details == {"entrant": "b"}
    told = [(user_id, p["news"]) for user_id, kind, p in sent if kind == "tournament_news"]
    assert told == [(b.pk, "removed")]


def test_removing_is_the_organisers_and_only_before_the_start():
    org, a, b = users("org", "a", "b")
    t = event(org, "swiss", swiss_rounds=3)
    ea, eb = enter(t, [a, b])
    with pytest.raises(TournamentError) as error:
        services.remove_entrant(user=a, entrant_id=eb.pk)
    assert error.value.code == Code.NOT_ORGANISER
    services.start(user=org, tournament_id=t.pk)
    with pytest.raises(TournamentError) as error:
        services.remove_entrant(user=org, entrant_id=eb.pk)
    assert error.value.code == Code.ALREADY_STARTED
    assert Entrant.objects.filter(pk=eb.pk).exists()
    page = client_for(org).get(reverse("tournament", args=[t.pk])).content.decode()
    assert "tournament_remove_entrant" not in page and f"/entrant/{eb.pk}/remove/" not in page


def test_seeds_set_by_hand_are_the_starts_seeds():
    org, a, b, c, d = users("org", "a", "b", "c", "d")
    t = event(org, "knockout")
    ea, eb, ec, ed = enter(t, [a, b, c, d])
    client = client_for(org)
    assert reverse("tournament_seeds", args=[t.pk]) in client.get(reverse("tournament", args=[t.pk])).content.decode()
    client.post(reverse("tournament_seeds", args=[t.pk]),
                {f"seed-{ec.pk}": 1, f"seed-{ea.pk}": 2, f"seed-{ed.pk}": 3, f"seed-{eb.pk}": 4})
    t = refresh(t)
    assert t.seeding == Tournament.Seeding.MANUAL
    assert t.audit.get(action=AuditEntry.Action.SEED).details == {"before": None, "after": ["c", "a", "d", "b"]}
    late = services.register(user=users("e")[0], tournament_id=t.pk)
    services.start(user=org, tournament_id=t.pk)
    order = list(t.entrants.order_by("seed").values_list("pk", flat=True))
    assert order == [ec.pk, ea.pk, ed.pk, eb.pk, late.pk]


@pytest.mark.parametrize("language, before, after", [
    ("en", "b, a, and c", "c, a, and b"),
    ("fr", "b, a et c", "c, a et b"),
    ("ar", "b وa وc", "c وa وb"),
])
def test_the_seeds_are_shown_as_the_readers_language_writes_a_list(language, before, after):
    """The audit keeps each seeding's order as a list of names, and the event page writes it
    with the reader's list pattern (Arabic's "و", never a Latin comma); an entry kept as
    joined text before that is made a list by the migration."""
    import importlib

    from django.apps import apps

    org, a, b, c = users("org", "a", "b", "c")
    t = event(org, "knockout")
    ea, eb, ec = enter(t, [a, b, c])
    services.set_seeds(user=org, tournament_id=t.pk, seeds={eb.pk: 1, ea.pk: 2, ec.pk: 3})
    services.set_seeds(user=org, tournament_id=t.pk, seeds={ec.pk: 1, ea.pk: 2, eb.pk: 3})
    first, second = t.audit.filter(action=AuditEntry.Action.SEED).order_by("pk")
    assert second.details == {"before": ["b", "a", "c"], "after": ["c", "a", "b"]}
    # The first as an older server wrote it: the names joined with ", ".
    AuditEntry.objects.filter(pk=first.pk).update(details={"before": None, "after": "b, a, c"})
    migration = importlib.import_module("games.tournaments.migrations.0012_audit_seed_lists")
    migration.split_seed_orders(apps, None)
    first.refresh_from_db()
    assert first.details == {"before": None, "after": ["b", "a", "c"]}
    client = client_for(org)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    page = client.get(reverse("tournament", args=[t.pk])).content.decode()
    audit = page[page.index('class="audit"'):]
    assert f"<bdi>–</bdi> → <bdi>{before}</bdi>" in audit
    assert f"<bdi>{before}</bdi> → <bdi>{after}</bdi>" in audit
    if language == "ar":
        assert "b, a" not in audit


@pytest.mark.parametrize("seeds", [
    {"a": 1, "b": 1, "c": 2},  # repeated
    {"a": 1, "b": 2, "c": 4},  # out of 1..n
    {"a": 1, "b": 2},  # one missing
])
def test_bad_seeds_are_refused_and_change_nothing(seeds):
    org, a, b, c = users("org", "a", "b", "c")
    t = event(org, "swiss", swiss_rounds=3)
    by_name = {e.name: e.pk for e in enter(t, [a, b, c])}
    with pytest.raises(TournamentError) as error:
        services.set_seeds(user=org, tournament_id=t.pk, seeds={by_name[k]: v for k, v in seeds.items()})
    assert error.value.code == Code.BAD_SEEDS
    assert refresh(t).seeding == Tournament.Seeding.RATING
    assert not t.entrants.filter(seed__isnull=False).exists()
    response = client_for(org).post(reverse("tournament_seeds", args=[t.pk]), {f"seed-{by_name['a']}": "x"})
    assert response.status_code == 302 and not t.audit.exists()


def test_seeds_are_the_organisers_and_only_before_the_start():
    org, a, b = users("org", "a", "b")
    t = event(org, "swiss", swiss_rounds=3)
    ea, eb = enter(t, [a, b])
    with pytest.raises(TournamentError) as error:
        services.set_seeds(user=a, tournament_id=t.pk, seeds={ea.pk: 2, eb.pk: 1})
    assert error.value.code == Code.NOT_ORGANISER
    services.start(user=org, tournament_id=t.pk)
    with pytest.raises(TournamentError) as error:
        services.set_seeds(user=org, tournament_id=t.pk, seeds={ea.pk: 2, eb.pk: 1})
    assert error.value.code == Code.ALREADY_STARTED


def test_the_edit_form_is_prefilled_and_saves_the_changes_audited():
    org, a = users("org", "a")
    t = event(org, "swiss", swiss_rounds=3, max_entrants=8)
    enter(t, [a])
    client = client_for(org)
    page = client.get(reverse("tournament_edit", args=[t.pk])).content.decode()
    assert 'value="swiss test"' in page and 'name="swiss_rounds"' in page and 'value="3"' in page
    later = (t.starts_at + timedelta(hours=2)).astimezone(ZoneInfo(t.time_zone))
    response = client.post(reverse("tournament_edit", args=[t.pk]), edit_post(
        t, name="Club night", swiss_rounds=4, target=21, starts_at=later.strftime("%Y-%m-%dT%H:%M")))
    assert response.status_code == 302
    t2 = refresh(t)
    assert (t2.name, t2.swiss_rounds, t2.rules["target"]) == ("Club night", 4, 21)
    assert t2.starts_at == later.replace(second=0, microsecond=0)
    changes = t2.audit.get(action=AuditEntry.Action.EDIT).details["changes"]
    assert changes["name"] == ["swiss test", "Club night"] and changes["swiss_rounds"] == [3, 4]
    assert changes["rules"][0]["target"] == 11 and changes["rules"][1]["target"] == 21
    assert set(changes) == {"name", "swiss_rounds", "rules", "starts_at"}
    assert "Club night" in client.get(reverse("tournament", args=[t.pk])).content.decode()


def test_a_start_under_five_minutes_away_is_refused_by_the_edit_form():
    org = users("org")[0]
    t = event(org, "swiss", swiss_rounds=3)
    soon = (timezone.now() + timedelta(minutes=2)).astimezone(ZoneInfo(t.time_zone))
    response = client_for(org).post(reverse("tournament_edit", args=[t.pk]),
                                     edit_post(t, starts_at=soon.strftime("%Y-%m-%dT%H:%M")))
    assert response.status_code == 200 and "at least 5 minutes" in response.content.decode()
    assert refresh(t).starts_at == t.starts_at and not t.audit.exists()


def settings_of(t: Tournament, **changes) -> dict:
    base = dict(
        name=t.name, format=t.format, starts_at=t.starts_at, players=t.players, rules=t.rules,
        rated=t.rated, move_seconds=t.move_seconds, description=t.description,
        registration_closes=t.registration_closes, max_entrants=t.max_entrants, seeding=t.seeding,
        double_round_robin=t.double_round_robin, third_place=t.third_place, best_of=t.best_of,
        swiss_rounds=t.swiss_rounds, arena_minutes=t.arena_minutes, tiebreaks=t.tiebreaks,
        time_zone=t.time_zone,
    )
    return base | changes


def test_the_format_and_the_limit_are_held_to_the_entrants_registered():
    org, a, b, c = users("org", "a", "b", "c")
    t = event(org, "swiss", swiss_rounds=3)
    services.edit_tournament(user=org, tournament_id=t.pk, **settings_of(t, format="round_robin"))
    t = refresh(t)
    assert t.format == "round_robin"
    enter(t, [a, b, c])
    for changes, code in [
        ({"format": "knockout"}, Code.FIXED_ONCE_REGISTERED),
        ({"players": 4, "rules": t.rules | {"players": 4}}, Code.FIXED_ONCE_REGISTERED),
        ({"max_entrants": 2}, Code.LIMIT_BELOW_ENTRANTS),
        ({"name": " "}, Code.BAD_SETTINGS),
    ]:
        with pytest.raises(TournamentError) as error:
            services.edit_tournament(user=org, tournament_id=t.pk, **settings_of(t, **changes))
        assert error.value.code == code
    services.edit_tournament(user=org, tournament_id=t.pk, **settings_of(t, max_entrants=3))
    assert refresh(t).max_entrants == 3 and refresh(t).format == "round_robin"
    page = client_for(org).get(reverse("tournament_edit", args=[t.pk])).content.decode()
    assert '<select name="format" disabled' in page and 'value="4" id="id_players_1" required disabled' in page


def test_editing_is_the_organisers_and_only_before_the_start():
    org, a, b = users("org", "a", "b")
    t = event(org, "swiss", swiss_rounds=3)
    enter(t, [a, b])
    with pytest.raises(TournamentError) as error:
        services.edit_tournament(user=a, tournament_id=t.pk, **settings_of(t, name="Mine"))
    assert error.value.code == Code.NOT_ORGANISER
    assert client_for(a).get(reverse("tournament_edit", args=[t.pk])).status_code == 302
    services.start(user=org, tournament_id=t.pk)
    with pytest.raises(TournamentError) as error:
        services.edit_tournament(user=org, tournament_id=t.pk, **settings_of(refresh(t), name="Later"))
    assert error.value.code == Code.ALREADY_STARTED
    assert client_for(org).post(reverse("tournament_edit", args=[t.pk]), {"name": "x"}).status_code == 302
    assert refresh(t).name == "swiss test"


def test_the_organisers_buttons_and_the_edit_page_read_in_arabic():
    org, a, b = users("org", "a", "b")
    t = event(org, "swiss", swiss_rounds=3)
    enter(t, [a, b])
    client = client_for(org)
    client.cookies["django_language"] = "ar"
    page = client.get(reverse("tournament", args=[t.pk]), HTTP_ACCEPT_LANGUAGE="ar").content.decode()
    assert 'dir="rtl"' in page
    for arabic in ("ألغِ البطولة", "غيّر الإعدادات", "حدّد التصنيف يدويًا", "أزِل"):
        assert arabic in page
    edit = client.get(reverse("tournament_edit", args=[t.pk]), HTTP_ACCEPT_LANGUAGE="ar").content.decode()
    assert "احفظ الإعدادات" in edit


def test_cancelling_or_removing_without_the_confirmation_changes_nothing_and_says_why(
    sent, django_capture_on_commit_callbacks
):
    """Both forms ask before they are sent (``static/site.js``); a post without the
    confirmation (a forged one, a script's, a browser without the script) was carried out."""
    org, a, b = users("org", "a", "b")
    t = event(org, "swiss", swiss_rounds=3)
    ea, eb = enter(t, [a, b])
    client = client_for(org)
    with django_capture_on_commit_callbacks(execute=True):
        cancel = client.post(reverse("tournament_cancel", args=[t.pk]), {"confirmed": "no"}, follow=True)
        remove = client.post(reverse("tournament_remove_entrant", args=[t.pk, eb.pk]), follow=True)
    assert "Cancelling the event is final: nothing was changed." in cancel.content.decode()
    assert "Removing an entrant needs your confirmation: nothing was changed." in remove.content.decode()
    assert refresh(t).status == Tournament.Status.UPCOMING and not t.audit.exists()
    assert set(t.entrants.values_list("pk", flat=True)) == {ea.pk, eb.pk}
    assert sent == []
    for call, code, kwargs in [
        (services.cancel, Code.CONFIRM_CANCEL, {"tournament_id": t.pk}),
        (services.remove_entrant, Code.CONFIRM_REMOVE, {"entrant_id": eb.pk}),
    ]:
        with pytest.raises(TournamentError) as error:
            call(user=org, confirmed=False, **kwargs)
        assert error.value.code == code


def test_the_entrants_are_told_what_an_edit_changed(sent, django_capture_on_commit_callbacks):
    """An organiser moved the start by two hours; the entrants found out at the old time."""
    org, a, b, c, d = users("org", "a", "b", "c", "d")
    t = event(org, "swiss", swiss_rounds=3, players=4)
    enter(t, [a, b])  # a partnership: both players are told
    services.register(user=c, tournament_id=t.pk, partner=d)  # still invited: told as well
    later = t.starts_at + timedelta(hours=2)
    with django_capture_on_commit_callbacks(execute=True):
        services.edit_tournament(user=org, tournament_id=t.pk, **settings_of(t, starts_at=later, swiss_rounds=4))
        assert sent == []  # nothing until the commit
    news = [(user_id, p) for user_id, kind, p in sent if kind == "tournament_news"]
    assert sorted(user_id for user_id, _ in news) == sorted([a.pk, b.pk, c.pk, d.pk])
    payload = news[0][1]
    assert payload["news"] == "edited" and payload["event_url"] == reverse("tournament", args=[t.pk])
    assert payload["changes"] == ["starts_at", "swiss_rounds"]
    assert payload["starts_at"] == later.isoformat()
    sent.clear()
    with django_capture_on_commit_callbacks(execute=True):
        services.edit_tournament(user=org, tournament_id=t.pk, **settings_of(refresh(t)))
    assert sent == []  # nothing changed, nobody told


def test_the_edit_notice_is_worded_in_the_readers_language():
    """``notify.js`` words it through the JavaScript catalogue, and every setting's name from the
    page (the model's fields' names)."""
    from django.utils import translation

    from games.tournaments.slots import notice_config
    from tests.site.catalogue import script_label, served_catalogue

    edited = script_label("games/tournaments/static/tournaments/notify.js", "edited")
    assert edited == "The organiser of %(event)s changed %(changes)s. It starts at %(start)s."
    arabic = served_catalogue("ar")[edited]
    assert "%(event)s" in arabic and "%(changes)s" in arabic and arabic != edited
    with translation.override("ar"):
        fields = notice_config(None, {})["fields"]
    assert fields["starts_at"] != "starts at" and fields["swiss_rounds"] != "Swiss rounds"


@pytest.mark.parametrize("minutes, arabic", [(6, "6 دقائق"), (11, "11 دقيقة"), (2, "دقيقتان")])
def test_an_arena_s_length_takes_the_arabic_plural_of_its_minutes(minutes, arabic):
    """An arena's length on its page is counted in the reader's plural forms (Arabic: 3-10
    take "دقائق", 11 and more "دقيقة", two the dual)."""
    org, = users("org")
    t = event(org, "arena", arena_minutes=minutes)
    client = client_for(org)
    client.cookies["django_language"] = "ar"
    page = client.get(reverse("tournament", args=[t.pk]), HTTP_ACCEPT_LANGUAGE="ar").content.decode()
    assert f"· {arabic}</dd>" in page
