"""The moderation app's pages.

- ``/players/<name>/report/`` (``moderation:report``; ``?match=<id>&line=<id>`` attach a match
  and a chat line, as the chat's lines link to it): the report form, for a signed-in player.
- ``/moderation/`` (``moderation:queue``): the open reports; ``/moderation/players/<name>/``
  (``moderation:player``): a reported player's report with, side by side, their recent
  matches, chat lines, earlier reports, sanctions and rating history, and the actions;
  ``/moderation/log/`` (``moderation:log``): the moderation log. Staff only (``is_staff``):
  anyone else is sent to log in, or refused (403).
- ``/moderation/messages/`` (``moderation:messages``): what the moderators told the player.

Thin: check the request, call the service, turn a ``ModerationError`` into a message.
"""

from __future__ import annotations

from functools import wraps
from typing import Any

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.db.models import Prefetch
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST

from games.core.for_apps import Match, Seat, match_ending, seat_person, titles
from games.moderation import actions, chat, refund, reports, sanctions, told
from games.moderation.errors import ModerationError
from games.moderation.models import TEXT_MAX, ModLog, Reason, Report, ReportEntry, Sanction
from games.ratings import for_apps as ratings

#: Recent matches, chat lines and rating history rows the staff's page shows.
SHOWN = 20
#: The actions that cannot be undone, sent only with the confirmation ``static/site.js`` adds
#: (the hidden ``confirmed`` field set to :data:`CONFIRMED` once the moderator said yes).
CONFIRM = ("close", "close_cheat")
CONFIRMED = "yes"


@login_required
@require_http_methods(["GET", "POST"])
def report(request: HttpRequest, username: str) -> HttpResponse:
    """The report form of ``username`` (see the module)."""
    data = request.POST if request.method == "POST" else request.GET
    values = {
        "reason": data.get("reason", ""), "text": data.get("text", ""),
        "match": data.get("match", ""), "line": data.get("line", ""),
    }
    error = None
    try:
        reported = reports.reported_player(username)
    except ModerationError:
        raise Http404("No such player") from None
    if request.method == "POST":
        try:
            reports.file_report(
                reporter=request.user, username=reported.get_username(), reason=values["reason"],
                text=values["text"], match_id=values["match"], line_id=values["line"],
            )
        except ModerationError as refusal:
            error = refusal.message
        else:
            messages.success(request, _("Thank you: the moderators will read your report."))
            if reported.is_active:
                return redirect("profile", username=reported.get_username())
            return redirect("lobby")
    match_id, line = None, None
    closed = not reported.is_active
    if closed:
        error = error or ModerationError("report_closed_account").message
    try:
        match_id, line = reports.check_attachments(
            reported, values["match"], values["line"], reporter=request.user
        )
    except ModerationError as refusal:
        error = error or refusal.message
    return render(request, "moderation/report.html", {
        "reported": reported, "values": values, "reasons": Reason.choices, "line": line,
        "match_id": match_id, "error": error, "closed": closed, "text_max": TEXT_MAX,
    }, status=400 if error and not (closed and request.method == "GET") else 200)


def staff_only(view):
    """A staff page: a visitor is sent to log in, a player who is not staff refused (403)."""

    @wraps(view)
    @login_required
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not request.user.is_staff:
            raise PermissionDenied("staff only")
        return view(request, *args, **kwargs)

    return wrapped


@staff_only
def queue(request: HttpRequest) -> HttpResponse:
    """The open reports, the most reporters first."""
    return render(request, "moderation/queue.html", {"queue": reports.open_queue(moderator_id=request.user.pk)})


def _recent_matches(player: Any) -> list[dict]:
    seats = list(
        Seat.objects.filter(user=player).exclude(match__status=Match.Status.OPEN)
        .select_related("match")
        .prefetch_related(Prefetch("match__seats", queryset=Seat.objects.select_related("user").order_by("seat")))
        .order_by("-match__created_at", "-match_id")[:SHOWN]
    )
    marks = titles.titles(s.user_id for own in seats for s in own.match.seats.all())
    rows = []
    for own in seats:
        side = own.seat % 2
        _outcome, text = match_ending(own.match, side)
        rows.append({
            "match": own.match, "result": text, "rated": own.match.rated,
            "url": reverse("table", kwargs={"match_id": own.match_id}),
            "opponents": [seat_person(s, marks) for s in own.match.seats.all() if s.seat % 2 != side],
        })
    return rows


def _player(username: str) -> Any:
    player = get_user_model().objects.filter(username=username).first()
    if player is None:
        raise Http404("No such player")
    return player


@staff_only
def player(request: HttpRequest, username: str) -> HttpResponse:
    """A player as the moderators see them: the open report, and beside it the player's recent
    matches, chat lines, earlier reports, sanctions, log and rating history; the actions."""
    target = _player(username)
    open_report = Report.objects.filter(reported=target, status=Report.Status.OPEN).first()
    entries = (
        ReportEntry.objects.filter(report=open_report).select_related("reporter", "match")
        .order_by("-closed_at", "created_at")
        if open_report else []
    )
    earlier = (
        Report.objects.filter(reported=target, status=Report.Status.CLOSED).select_related("closed_by")
        .prefetch_related(Prefetch("entries", queryset=ReportEntry.objects.select_related("reporter")))
        .order_by("-created_at")[:SHOWN]
    )
    return render(request, "moderation/player.html", {
        "target": target, "own": target.pk == request.user.pk, "report": open_report, "entries": entries, "earlier": earlier,
        "matches": _recent_matches(target), "lines": chat.lines_by(target.pk, SHOWN),
        "ratings": ratings.rating_history(target.pk, SHOWN),
        "sanctions": sanctions.of(target.pk), "running": {s.kind for s in sanctions.running().filter(user=target)},
        "log": ModLog.objects.filter(target=target).select_related("moderator")[:SHOWN],
        "timeout_reasons": list(actions.TIMEOUT_REASONS.items()),
        "timeout_minutes": actions.TIMEOUT_MINUTES, "liftable": [
            (kind, Sanction.Kind(kind).label) for kind in actions.LIFTABLE
        ],
    })


def _minutes(value: Any) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return -1


def _done(entry: ModLog) -> str:
    """What the page says after ``entry``: the action, and for a close for cheating the points
    given back (``refund.give_back``), or why none were."""
    done = _("Done: %(action)s.") % {"action": entry.get_action_display()}
    if entry.action != ModLog.Action.CLOSE_CHEAT:
        return done
    given = entry.details.get("refunds") or []
    if not given:
        return done + " " + _(
            "No rating points were given back: no opponent lost rating to this player while not "
            "provisional, over their last %(games)s rated matches of the last %(days)s days."
        ) % {"games": refund.GAMES, "days": refund.DAYS}
    victims = len({row["user"] for row in given})
    return done + " " + ngettext(
        "%(victims)s victim got %(points)s rating points back in all.",
        "%(victims)s victims got %(points)s rating points back in all.", victims,
    ) % {"victims": victims, "points": sum(row["points"] for row in given)}


@staff_only
@require_POST
def act(request: HttpRequest, username: str) -> HttpResponse:
    """One action of the player's page (``action``: warn, chat_timeout, chat_ban, ranked_ban,
    lift, close, close_cheat, resolve), with its ``reason``."""
    target = _player(username)
    post = request.POST
    common = {"moderator": request.user, "user": target, "reason": post.get("reason", "")}
    action = post.get("action", "")
    calls = {
        "warn": lambda: actions.warn(**common),
        "chat_timeout": lambda: actions.chat_timeout(
            **common, timeout_reason=post.get("timeout_reason", ""),
            minutes=_minutes(post.get("minutes", actions.TIMEOUT_MINUTES)),
        ),
        "chat_ban": lambda: actions.chat_ban(**common),
        "ranked_ban": lambda: actions.ranked_ban(**common),
        "lift": lambda: actions.lift(**common, kind=post.get("kind", "")),
        "close": lambda: actions.close(**common),
        "close_cheat": lambda: actions.close(**common, cheat=True),
        "resolve": lambda: actions.resolve(**common),
    }
    try:
        if action not in calls:
            raise ModerationError("mod_bad_action")
        if action in CONFIRM and post.get("confirmed") != CONFIRMED:
            raise ModerationError("mod_not_confirmed")
        entry = calls[action]()
    except ModerationError as refusal:
        messages.error(request, refusal.message)
    else:
        messages.success(request, _done(entry))
    return redirect("moderation:player", username=target.get_username())


@staff_only
def log(request: HttpRequest) -> HttpResponse:
    """The moderation log, newest first, 50 a page."""
    paginator = Paginator(ModLog.objects.select_related("moderator", "target"), 50)
    page = paginator.get_page(request.GET.get("page"))
    return render(request, "moderation/log.html", {"page": page})


@login_required
def inbox(request: HttpRequest) -> HttpResponse:
    """What the moderators told the signed-in player (each marked read)."""
    notes = told.read_all(request.user.pk)
    for note in notes:
        until = note.data.get("until") if isinstance(note.data, dict) else None
        note.until = parse_datetime(until) if isinstance(until, str) else None
    return render(request, "moderation/messages.html", {"notes": notes})
