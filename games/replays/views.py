"""Replay pages: a finished match or an imported record, stepped through in the browser.

The page carries every position, computed here by the engine from the record
(``games.replays.positions.replay_data``); the script only shows them. A match's replay exists
once it is over (before: 404, as its record: every deck and the server seed are in it).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.middleware.csrf import get_token
from django.urls import reverse
from django.utils import timezone
from django.utils.dateparse import parse_date
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games.core.for_apps import (
    ErrorCode, GameError, Match, Seat, match_record, nothing_to_replay, record_seat_names,
    titles,
)
from games.ratings.for_apps import cheaters_among, match_ratings
from games.replays import analysis as analysis_module, jobs
from games.replays.forms import ImportForm
from games.replays.models import Analysis, ImportedRecord
from games.replays.positions import replay_data

#: Finished matches listed on ``/replays/``.
RECENT = 30


#: The least height (view-box units) between two labels of the chart's axis: its labels' size.
LABEL_GAP = 10


def totals_chart(rounds: list[dict], target: int) -> dict[str, Any]:
    """Both sides' match totals round by round as SVG coordinates (a 320 × 150 view box).

    :returns: ``{"width", "height", "lines": [{"side", "points": "x,y x,y ..."}], "dots":
        [{"side", "x", "y", "value", "round"}], "target_y", "target", "ticks": [{"x", "round"}],
        "top", "top_y", "top_label"}``; the y scale runs from 0 to the larger of the target and
        the highest total. ``top_label``: whether the axis labels the top too (a total above the
        target, far enough above the target's label, :data:`LABEL_GAP`, not to overlap it).
    """
    width, height, left, right, top_pad, bottom = 320, 150, 30, 10, 10, 22
    n = max(len(rounds), 1)
    top = max([target, *(max(r["totals"]) for r in rounds)] or [1]) or 1

    def x(i: int) -> float:
        return round(left + i * (width - left - right) / n, 1)

    def y(v: int) -> float:
        return round(height - bottom - v * (height - bottom - top_pad) / top, 1)

    lines, dots = [], []
    for side in (0, 1):
        points = [(x(0), y(0))] + [(x(i + 1), y(r["totals"][side])) for i, r in enumerate(rounds)]
        lines.append({"side": side, "points": " ".join(f"{a},{b}" for a, b in points)})
        dots += [{"side": side, "x": x(i + 1), "y": y(r["totals"][side]),
                  "value": r["totals"][side], "round": i + 1} for i, r in enumerate(rounds)]
    return {
        "width": width, "height": height, "lines": lines, "dots": dots,
        "target": target, "target_y": y(target), "top": top, "top_y": y(top),
        "top_label": top > target and y(target) - y(top) >= LABEL_GAP,
        "left": left, "base_y": y(0), "right_x": width - right,
        "ticks": [{"x": x(i + 1), "round": i + 1} for i in range(len(rounds))],
    }


def rating_columns(ratings: dict[int, dict], seat: int) -> dict[str, Any]:
    """``{"rating", "change", "direction"}`` of ``seat`` from ``games.ratings.for_apps.
    match_ratings`` (the seats a played match rated): ``rating`` as the table showed it before the
    match ("1523?"), ``change`` written as the table wrote it at the end ("+12", "−12", "±0"),
    ``direction`` 1, -1 or 0; all ``None`` for a seat not rated."""
    found = ratings.get(seat)
    if found is None:
        return {"rating": None, "change": None, "direction": None}
    change = found["change"]
    text = f"+{change}" if change > 0 else f"\u2212{-change}" if change < 0 else "\u00b10"
    return {"rating": found["rating"], "change": text, "direction": (change > 0) - (change < 0)}


def _side_names(labels: list[str], players: int) -> list[str]:
    """Each side's name from the seats' ``labels`` (``record_seat_names``): its player's (2
    players), or "a & b" with each name isolated (U+2068 … U+2069, Unicode's first-strong
    isolate: a name mixing Arabic and Latin scrambled the line round it; the page shows a
    side's name in a ``<bdi>``, which isolates the whole only)."""
    if players == 2:
        return [labels[0], labels[1]]
    return [_("%(a)s & %(b)s") % {"a": f"\u2068{labels[s]}\u2069",
                                  "b": f"\u2068{labels[s + 2]}\u2069"}
            for s in (0, 1)]


def _seat_titles(match: Match | None, players: int) -> list[str | None]:
    """Each seat's account title (``games.core.titles``: ``"BOT"``), ``None`` for a person, a
    computer seat and every seat of an imported record (its names are no accounts)."""
    if match is None:
        return [None] * players
    users = dict(Seat.objects.filter(match=match).values_list("seat", "user_id"))
    marks = titles.titles(users.values())
    return [marks.get(users.get(seat)) for seat in range(players)]


def _day(date: Any):
    """The record's ``date`` header (ISO 8601, ``YYYY-MM-DD`` first) as a ``date`` the page
    writes in the reader's language; ``None`` when it does not start with one (an imported
    record may say anything)."""
    if not isinstance(date, str):
        return None
    try:
        return parse_date(date[:10])
    except ValueError:
        return None


def _termination(record: dict) -> str:
    value = (record.get("headers") or {}).get("termination") or ""
    return str(dict(Match.Result.choices).get(value, value))


def _replay_page(request: HttpRequest, record: dict, *, title: str, match: Match | None = None,
                 imported: ImportedRecord | None = None, status: int = 200) -> HttpResponse:
    data = replay_data(record)
    players = data["players"]
    seats = data["seats"]
    labels = record_seat_names(seats)
    sides = _side_names(labels, players)
    if match is not None:
        record_url = reverse("match_record", kwargs={"match_id": match.pk})
        analysis_url = reverse("replays:match_analysis", kwargs={"match_id": match.pk})
        share = request.build_absolute_uri(reverse("replays:match", kwargs={"match_id": match.pk}))
        table_url = reverse("table", kwargs={"match_id": match.pk})
    else:
        record_url = reverse("replays:imported_record", kwargs={"token": imported.token})
        analysis_url = reverse("replays:imported_analysis", kwargs={"token": imported.token})
        share = request.build_absolute_uri(
            reverse("replays:imported", kwargs={"token": imported.token}))
        table_url = None
    row = Analysis.objects.filter(match=match) if match else Analysis.objects.filter(
        imported=imported)
    row = row.first()
    analysis = _analysis_json(jobs.check_stale(row) if row is not None else None)
    shuffle = record.get("shuffle") if isinstance(record.get("shuffle"), dict) else None
    config = {
        "replay": data,
        "seatNames": labels,
        "seatTitles": _seat_titles(match, players),
        "sideNames": sides,
        "share": share,
        "csrfToken": get_token(request),
        "urls": {"record": record_url, "analysis": analysis_url},
        "analysis": analysis,
        "shuffle": shuffle if shuffle and shuffle.get("server_seed") else None,
    }
    headers = record.get("headers") if isinstance(record.get("headers"), dict) else {}
    user_model = get_user_model()
    people = set(user_model.objects.filter(username__in=seats).values_list("username", flat=True))
    # Only a match played here has ratings (an imported record's claims are not shown).
    ratings = match_ratings(match.pk) if match is not None else {}
    # Seats of players closed for cheating since (the moderation app says, through the
    # ratings): the replay marks them, as the match histories do.
    users = dict(Seat.objects.filter(match=match).values_list("seat", "user_id")) if match else {}
    cheaters = cheaters_among(users.values())
    seat_rows = [{
        "seat": i, "name": labels[i],
        "url": reverse("profile", kwargs={"username": name}) if name in people and match else None,
        "cheat": users.get(i) in cheaters,
        **rating_columns(ratings, i),
    } for i, name in enumerate(seats)]
    context = {
        "title": title,
        "match": match,
        "imported": imported,
        "owner": imported is not None and request.user.is_authenticated
        and imported.imported_by_id == request.user.pk,
        "config": config,
        "sides": sides,
        "seat_rows": seat_rows,
        "scores": data["scores"],
        "winner": data["winner"],
        "winner_name": sides[data["winner"]] if data["winner"] is not None else None,
        "termination": _termination(record),
        "date": headers.get("date"),
        "day": _day(headers.get("date")),
        "rated": headers.get("rated"),
        "rounds_count": len(data["rounds"]),
        "chart": totals_chart(data["rounds"], data["rules"]["target"]),
        "record_url": record_url,
        "table_url": table_url,
        "share": share,
        "samples": analysis_module.ITERATIONS,
        "noise": analysis_module.NOISE,
        "sigma": int(analysis_module.SIGMA),
        **{name: f"{chance:g}" for name, chance, _points in analysis_module.GRADES},
        **{f"p_{name}": f"{points:g}" for name, _chance, points in analysis_module.GRADES},
        "per_user": jobs.per_user(),
        "analysis_url": analysis_url,
    }
    return render(request, "replays/replay.html", context, status=status)


def _analysis_json(row: Analysis | None) -> dict | None:
    if row is None:
        return None
    error = row.error
    if error == Analysis.WORKER_STOPPED:
        error = _("its worker stopped before it was done. Ask for it again.")
    out = {"status": row.status, "done": row.done, "total": row.total, "error": error}
    if row.status == Analysis.Status.DONE:
        out["result"] = row.result
    return out


def _finished(match_id: int) -> Match:
    match = get_object_or_404(Match, pk=match_id)
    if match.status != Match.Status.FINISHED:
        raise Http404(_("The replay is published when the match is over."))
    return match


@require_GET
def match_replay(request: HttpRequest, match_id: int) -> HttpResponse:
    """The replay of finished match ``match_id`` (404 while it is played: nothing about the
    decks leaks), from its event log through ``games.core.state.records.match_record``."""
    match = _finished(match_id)
    url = request.build_absolute_uri(reverse("table", kwargs={"match_id": match.pk}))
    record = match_record(match, url=url)
    if not record["rounds"]:  # aborted before the first deal: nothing to replay
        raise Http404(_("This match was called off before any card was dealt."))
    return _replay_page(request, record, match=match,
                        title=_("Replay of match %(id)s") % {"id": match.pk})


def _live_import(token: str) -> ImportedRecord:
    """The import of link ``token`` while it lives (``ImportedRecord.objects.live``); else 404."""
    return get_object_or_404(ImportedRecord.objects.live(), token=token)


@require_GET
def imported_replay(request: HttpRequest, token: str) -> HttpResponse:
    """The replay of an imported record, reached by its link only."""
    imported = _live_import(token)
    return _replay_page(request, imported.record, imported=imported,
                        title=_("Imported record"))


@require_GET
def imported_record(request: HttpRequest, token: str) -> JsonResponse:
    """An imported record as it was stored, as a JSON download."""
    imported = _live_import(token)
    response = JsonResponse(imported.record, json_dumps_params={"indent": 1})
    response["Content-Disposition"] = f'attachment; filename="basra-record-{token}.json"'
    return response


def import_refusal(user: Any, now: Any) -> tuple[str, int] | None:
    """Why ``user`` may not import now, and the HTTP status: ``BASRA_IMPORTS_PER_HOUR`` imports
    in the last hour (429), or ``BASRA_IMPORTS_MAX`` imports still living (400); else ``None``."""
    mine = ImportedRecord.objects.filter(imported_by=user)
    if mine.filter(created_at__gt=now - timedelta(hours=1)).count() >= (
        settings.BASRA_IMPORTS_PER_HOUR
    ):
        return _("You have imported %(count)s records in the last hour: wait a while before "
                 "importing another.") % {"count": settings.BASRA_IMPORTS_PER_HOUR}, 429
    if mine.live(now).count() >= settings.BASRA_IMPORTS_MAX:
        return _("You keep %(count)s imported records, the most one player may: delete some "
                 "before importing another.") % {"count": settings.BASRA_IMPORTS_MAX}, 400
    return None


@login_required
@require_http_methods(["GET", "POST"])
def import_record(request: HttpRequest) -> HttpResponse:
    """Import a ``basra-record/1`` record (file or text), logged in: the engine replays it first;
    a record it refuses is shown with the engine's error (round and play) and nothing is stored;
    a good one is stored under a new unguessable link, which the browser is sent to. Within
    :func:`import_refusal`'s quota; imports past their life are deleted here."""
    if request.method == "POST":
        now = timezone.now()
        ImportedRecord.objects.expired(now).delete()
        refusal = import_refusal(request.user, now)
        form = ImportForm(request.POST, request.FILES)
        if refusal is not None:
            form.add_error(None, refusal[0])
            return _import_page(request, form, refusal[1])
        if form.is_valid():
            imported = ImportedRecord.objects.create(
                record=form.cleaned_data["record"], imported_by=request.user
            )
            return redirect("replays:imported", token=imported.token)
        return _import_page(request, form, 400)
    return _import_page(request, ImportForm())


def _import_page(request: HttpRequest, form: ImportForm, status: int = 200) -> HttpResponse:
    return render(request, "replays/import.html",
                  {"form": form, "import_days": int(settings.BASRA_IMPORT_DAYS)}, status=status)


@require_POST
def keep_import(request: HttpRequest, token: str) -> HttpResponse:
    """The owner keeps an import (``kept``: it no longer expires), or with ``keep=0`` lets it
    expire again; anyone else gets 404, as for an unknown link."""
    imported = _live_import(token)
    if not request.user.is_authenticated or imported.imported_by_id != request.user.pk:
        raise Http404
    imported.kept = request.POST.get("keep", "1") != "0"
    imported.save(update_fields=["kept"])
    messages.success(request, _("Kept: this record no longer expires.") if imported.kept
                     else _("This record will expire on its date."))
    return redirect("replays:imported", token=token)


@require_POST
def delete_import(request: HttpRequest, token: str) -> HttpResponse:
    """The owner deletes an import (and its analysis); anyone else gets 404."""
    imported = _live_import(token)
    if not request.user.is_authenticated or imported.imported_by_id != request.user.pk:
        raise Http404
    imported.delete()
    messages.success(request, _("The imported record was deleted."))
    return redirect("replays:import")


#: The HTTP status of each refusal of an analysis request.
_REFUSED = {ErrorCode.ANALYSIS_LOGIN_REQUIRED: 403, ErrorCode.TOO_MANY_ANALYSES: 429}


def _analysis_view(request: HttpRequest, **key) -> JsonResponse:
    if request.method == "POST":
        try:
            with transaction.atomic():
                row = jobs.request_analysis(user=request.user, **key)
        except GameError as error:
            return JsonResponse(error.as_json(), status=_REFUSED.get(error.code, 400))
        return JsonResponse(_analysis_json(row), status=202)
    row = Analysis.objects.filter(**key).first()
    if row is None:
        return JsonResponse({"status": None}, status=404)
    return JsonResponse(_analysis_json(jobs.check_stale(row)))


@require_http_methods(["GET", "POST"])
def match_analysis(request: HttpRequest, match_id: int) -> JsonResponse:
    """GET: the analysis of a finished match (status, progress, the result once done; a running
    one whose worker stopped is answered ``failed``); POST: ask for it (logged in; it runs in
    the background, ``games.replays.jobs``). A refused POST answers ``{"code", "message"}``
    (``games.core.errors``): 403 ``analysis_login_required``, 429 ``too_many_analyses``."""
    return _analysis_view(request, match=_finished(match_id))


@require_http_methods(["GET", "POST"])
def imported_analysis(request: HttpRequest, token: str) -> JsonResponse:
    """As :func:`match_analysis`, for an imported record."""
    return _analysis_view(request, imported=_live_import(token))


@require_GET
def recent(request: HttpRequest) -> HttpResponse:
    """The latest finished matches, each with its replay, and the import form's link; not a
    no-show's (decided away from the table or abandoned with no card played by a person:
    nothing to replay)."""
    matches = list(
        Match.objects.filter(status=Match.Status.FINISHED, seq__gt=0)
        .exclude(result=Match.Result.ABORT)
        .exclude(nothing_to_replay())
        .prefetch_related("seats__user")
        .order_by("-finished_at", "-pk")[:RECENT]
    )
    rows = []
    for match in matches:
        seats = sorted(match.seats.all(), key=lambda s: s.seat)
        names = [s.display_name for s in seats]
        if match.players == 4 and len(names) == 4:
            sides = [_("%(a)s & %(b)s") % {"a": names[s], "b": names[s + 2]} for s in (0, 1)]
        else:
            sides = names[:2] + [""] * (2 - len(names[:2]))
        rows.append({"match": match, "sides": sides,
                     "scores": match.scores if len(match.scores or ()) == 2 else [0, 0]})
    count = len(rows)
    return render(request, "replays/recent.html", {
        "rows": rows,
        "summary": ngettext("%(count)s finished match", "%(count)s finished matches",
                            count) % {"count": count},
    })
