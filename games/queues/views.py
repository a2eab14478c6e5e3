"""The "Play now" page and its POSTs (``docs/protocol.md``, "Queues"). Thin: each calls one
service of ``games.queues.services``. A POST asked for JSON (``Accept: application/json``, the
page's script) is answered with the player's status, or ``{"error": code, "message"}`` and 400;
a plain form POST is redirected to the page with the message."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from games.queues import matching, services
from games.queues.errors import QueueError


def _wants_json(request: HttpRequest) -> bool:
    return "application/json" in request.headers.get("Accept", "")


@require_GET
def play(request: HttpRequest) -> HttpResponse:
    """The queues as buttons (time per play × 1v1 / partnership) and, while waiting, the wait."""
    state = services.status(request.user)
    return render(request, "queues/play.html", {
        "state": state,
        "queues_1v1": [q for q in state["queues"] if q["players"] == 2],
        "queues_4": [q for q in state["queues"] if q["players"] == 4],
        "config": {"urls": {"status": reverse("queues_status"), "accept": reverse("queues_accept")}},
        "no_show_seconds": int(services.no_show_seconds()),
        "widest_seconds": round(matching.WIDEST_AFTER),
        "invitation_minutes": max(1, round(services.invitation_seconds() / 60)),
    })


@require_GET
@never_cache
def status(request: HttpRequest) -> JsonResponse:
    """The page's refresh: ``services.status`` as JSON."""
    return JsonResponse(services.status(request.user))


def _act(request: HttpRequest, call: Callable[[], object]) -> HttpResponse:
    try:
        call()
    except QueueError as error:
        if _wants_json(request):
            return JsonResponse(error.as_json(), status=400)
        messages.error(request, error.message)
        return redirect("queues")
    if _wants_json(request):
        return JsonResponse(services.status(request.user))
    return redirect("queues")


@require_POST
@login_required
def join(request: HttpRequest) -> HttpResponse:
    """Join a queue: fields ``players`` (2 or 4) and ``seconds`` (10, 20, 30, 60)."""
    return _act(request, lambda: services.join(
        user=request.user, players=request.POST.get("players"), move_seconds=request.POST.get("seconds")))


@require_POST
@login_required
def leave(request: HttpRequest) -> HttpResponse:
    """Leave the queue (a no-op when not in one)."""
    return _act(request, lambda: services.leave(user=request.user))


@require_POST
@login_required
def invite(request: HttpRequest) -> HttpResponse:
    """Invite a partner: fields ``username`` and ``seconds``."""
    return _act(request, lambda: services.invite(
        user=request.user, username=request.POST.get("username", ""), move_seconds=request.POST.get("seconds")))


@require_POST
@login_required
def accept(request: HttpRequest) -> HttpResponse:
    """Accept a partner's invitation: field ``inviter`` (a username)."""
    return _act(request, lambda: services.accept(user=request.user, inviter=request.POST.get("inviter", "")))
