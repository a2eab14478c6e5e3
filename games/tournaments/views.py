"""Tournament pages: the events list, the create form, the event page and its actions.

Thin views (STYLE.md): a form is validated, a service of ``games.tournaments.services`` is
called, and a ``TournamentError`` becomes a message. Every action is a POST with the CSRF token.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Count, Max, Q, Sum
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import condition, require_POST

from games.tournaments import bracket as knockout
from games.tournaments import busy, organiser, registration, services, zones
from games.tournaments.errors import Code, TournamentError
from games.tournaments.forms import CONFIRMED, ArbiterForm, RegisterForm, ResultForm, TournamentForm
from games.tournaments.models import (
    TIEBREAK_EDITION, TIEBREAK_NAMES, AuditEntry, Entrant, Game, Pairing, Tournament,
)
from games.tournaments.pairing import ARTICLES, TieBreak

#: How many events each section of the list shows.
LIST_SIZE = 30


def event_list(request: HttpRequest) -> HttpResponse:
    """Upcoming, running and finished events."""
    events = Tournament.objects.annotate(
        entrant_count=Count("entrants", filter=~Q(entrants__status=Entrant.Status.INVITED))
    ).select_related("organiser")
    sections = [
        (_("Running"), events.filter(status=Tournament.Status.RUNNING).order_by("started_at")[:LIST_SIZE]),
        (_("Upcoming"), events.filter(status=Tournament.Status.UPCOMING).order_by("starts_at")[:LIST_SIZE]),
        (_("Finished"), events.filter(status__in=[Tournament.Status.FINISHED, Tournament.Status.CANCELLED]).order_by("-finished_at")[:LIST_SIZE]),
    ]
    zone = zones.viewer_zone(request, zones.DEFAULT)
    return render(request, "tournaments/list.html", {
        "sections": sections, "viewer_zone": zone, "viewer_zone_name": zone.key,
    })


@login_required
def event_create(request: HttpRequest) -> HttpResponse:
    """The create form (GET) and creating the event (POST)."""
    form = TournamentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            t = services.create_tournament(user=request.user, **form.settings())
        except TournamentError as error:
            error.flash(request)
        else:
            return redirect("tournament", tournament_id=t.pk)
    return render(request, "tournaments/create.html", {"form": form})


def with_changes(entries) -> list[AuditEntry]:
    """The audit entries, each edit's ``change_lines``: ``[(field's label, before, after)]``."""
    entries = list(entries)
    for entry in entries:
        entry.change_lines = [
            (Tournament._meta.get_field(field).verbose_name, before, after)
            for field, (before, after) in (entry.details.get("changes") or {}).items()
        ]
    return entries


@login_required
def event_edit(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The organiser's form of an upcoming event's settings, prefilled (GET), and the change
    (POST); the format and the players at a table are fixed once anyone registered."""
    t = get_object_or_404(Tournament, pk=tournament_id)
    if not t.can_manage(request.user) or t.status != Tournament.Status.UPCOMING:
        messages.error(request, TournamentError(
            Code.NOT_ORGANISER if not t.can_manage(request.user) else Code.ALREADY_STARTED).message)
        return redirect("tournament", tournament_id=t.pk)
    form = TournamentForm(request.POST or None, initial=TournamentForm.initial_for(t))
    if t.entrants.exclude(status=Entrant.Status.WITHDRAWN).exists():
        for name in ("format", "players"):
            form.fields[name].disabled = True
    if request.method == "POST" and form.is_valid():
        try:
            services.edit_tournament(user=request.user, tournament_id=t.pk, **form.settings())
        except TournamentError as error:
            error.flash(request)
        else:
            messages.info(request, _("The settings are saved."))
            return redirect("tournament", tournament_id=t.pk)
    return render(request, "tournaments/create.html", {"form": form, "edit": t})


@dataclass
class RoundView:
    number: int
    pairings: list[Pairing]
    finished: bool
    name: str = ""  # a knockout round's name (final, semi-finals, …)


def event_etag(request: HttpRequest, tournament_id: int) -> str | None:
    """The event page's version for this viewer (an ETag): it changes whenever what the page
    shows does, and is read in a handful of aggregate queries instead of the page's build. The
    page's script fetches the page every few seconds (``tournaments/live.js``): an unchanged
    page answers 304, with no body, and is not built (Django's ``condition``).

    What it covers: the event's row, its entrants (by status), pairings (their results and
    points), games (results, aborts), the organiser's changes, whether registration is open or
    full now, which entrants are engaged in another event, the viewer and the language.
    ``None`` (no ETag) for an unknown event: the view answers 404.
    """
    t = Tournament.objects.filter(pk=tournament_id).first()
    if t is None:
        return None
    parts: list[object] = [
        [getattr(t, f.attname) for f in Tournament._meta.concrete_fields],
        request.user.pk, get_language(), zones.viewer_zone(request, t.time_zone).key,
        services.registration_open(t), registration.is_full(t),
        sorted(Entrant.objects.filter(tournament=t).values_list("status").annotate(
            n=Count("pk"), last=Max("pk"))),
        Pairing.objects.filter(tournament=t).aggregate(
            n=Count("pk"), last=Max("pk"), done=Count("finished_at"), a=Sum("score_a"),
            b=Sum("score_b"), wins=Sum("wins_a") + Sum("wins_b"), won=Count("winner"),
        ),
        Game.objects.filter(pairing__tournament=t).aggregate(
            n=Count("pk"), won=Count("winner"), aborted=Count("pk", filter=Q(aborted=True)),
        ),
        AuditEntry.objects.filter(tournament=t).aggregate(last=Max("pk")),
    ]
    if t.status == Tournament.Status.RUNNING:
        active = t.entrants.filter(status=Entrant.Status.ACTIVE)
        parts.append(sorted((k, v.pk) for k, v in busy.engaged_entrants(t, active).items()))
    return '"' + hashlib.sha256(repr(parts).encode()).hexdigest()[:32] + '"'


@condition(etag_func=event_etag)
def event_page(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The event: settings, entrants, rounds and tables, standings (bracket, leaderboard),
    the player's and the organiser's buttons, the audit trail."""
    t = get_object_or_404(Tournament.objects.select_related("organiser"), pk=tournament_id)
    entrants = list(t.entrants.select_related("user", "partner"))
    pairings = list(
        Pairing.objects.filter(tournament=t)
        .select_related("round", "a__user", "a__partner", "b__user", "b__partner", "winner")
        .prefetch_related("games")
        .order_by("round__number", "board")
    )
    knockout_event = t.format == Tournament.Format.KNOCKOUT
    planned = t.planned_rounds(sum(1 for e in entrants if e.seed)) if knockout_event else None
    rounds: dict[int, RoundView] = {}
    for p in pairings:
        view = rounds.setdefault(p.round.number, RoundView(
            p.round.number, [], p.round.finished_at is not None,
            knockout.round_name(p.round.number, planned) if planned else ""))
        view.pairings.append(p)
    mine = None
    invitations = []
    if request.user.is_authenticated:
        mine = next((e for e in entrants if request.user.pk in (e.user_id, e.partner_id)), None)
        invitations = [e for e in entrants if e.partner_id == request.user.pk and e.status == Entrant.Status.INVITED]
    my_tables = []
    if mine is not None:
        my_tables = [
            g for p in pairings if not p.finished and mine.pk in (p.a_id, p.b_id)
            for g in p.games.all() if g.winner_id is None and not g.aborted
        ]
    can_manage = t.can_manage(request.user)
    arbiters = list(t.arbiters.order_by("username"))
    _mark_busy_and_decidable(t, entrants, pairings, request.user, mine, can_manage)
    uses_tiebreaks = t.format in (Tournament.Format.ROUND_ROBIN, Tournament.Format.SWISS)
    order = t.tiebreak_order() if uses_tiebreaks else []
    registration_open = services.registration_open(t)
    clashes = []
    if request.user.is_authenticated and ((mine is None and registration_open) or invitations):
        clashes = busy.clashes(t, [request.user])  # said before the click (register, accept)
    zone = zones.viewer_zone(request, t.time_zone)
    context = {
        "viewer_zone": zone,
        "viewer_zone_name": zone.key,
        "overlap_warning": overlap_warning(clashes) if clashes else "",
        "rematch_warning": rematch_warning(
            t, sum(1 for e in entrants if e.status == Entrant.Status.ACTIVE)
        ) if can_manage and t.status == Tournament.Status.UPCOMING else "",
        "t": t,
        "entrants": entrants,
        "rounds": sorted(rounds.values(), key=lambda r: -r.number) if t.format != Tournament.Format.ARENA else [],
        "arena_pairings": list(reversed(pairings)) if t.format == Tournament.Format.ARENA else [],
        "bracket": knockout.bracket(t, pairings, sum(1 for e in entrants if e.seed)) if knockout_event else [],
        "standings": services.standings(t) if t.status != Tournament.Status.UPCOMING else [],
        "uses_tiebreaks": uses_tiebreaks,
        "tiebreak_names": [TIEBREAK_NAMES[TieBreak(k)] for k in order],
        "tiebreak_articles": [(TIEBREAK_NAMES[TieBreak(k)], ARTICLES[TieBreak(k)]) for k in order],
        "tiebreak_edition": TIEBREAK_EDITION,
        "provisional": t.status == Tournament.Status.RUNNING and uses_tiebreaks and any(
            not p.finished for p in pairings),
        "mine": mine,
        "my_tables": my_tables,
        "invitations": invitations,
        "can_manage": can_manage,
        "arbiters": arbiters,
        "can_name_arbiters": can_manage and t.can_name_arbiters(request.user) and t.status in (
            Tournament.Status.UPCOMING, Tournament.Status.RUNNING),
        "arbiter_form": ArbiterForm(),
        "withdrawn": any(e.status == Entrant.Status.WITHDRAWN for e in entrants),
        "register_form": RegisterForm(),
        "registration_open": registration_open,
        "full": registration.is_full(t),
        "audit": with_changes(t.audit.select_related("actor", "pairing__round").order_by("-created_at", "-pk")),
        "cancelled_by_organiser": t.status == Tournament.Status.CANCELLED and t.audit.filter(
            action=AuditEntry.Action.CANCEL, actor__isnull=False).exists(),
    }
    return render(request, "tournaments/event.html", context)


def _mark_busy_and_decidable(t, entrants, pairings, user, mine, can_manage) -> None:
    """Set, for the event page: ``entrant.busy_in`` (the other event an active entrant's player
    is engaged in, ``busy.engaged_entrants``; ``None``), ``pairing.can_decide`` (the organiser's
    forfeit or correction form is offered: not to an organiser on their own pairing, which the
    service refuses, ``own_pairing``; staff may; nor a correction the service refuses,
    ``next_round_paired``, ``organiser.correctable``), ``pairing.has_live`` (a table of it is
    being played) and ``pairing.waiting_for`` (``[(entrant's
    name, other event)]`` for a pairing whose table waits for a player engaged elsewhere)."""
    running = t.status == Tournament.Status.RUNNING
    elsewhere = busy.engaged_entrants(
        t, [e for e in entrants if e.status == Entrant.Status.ACTIVE]
    ) if running else {}
    for e in entrants:
        e.busy_in = elsewhere.get(e.pk)
    correctable: dict[int, bool] = {}  # by round number: one query a round, not a pairing
    for p in pairings:
        own = mine is not None and mine.pk in (p.a_id, p.b_id)
        p.can_decide = can_manage and running and p.b_id is not None and (user.is_staff or not own)
        if p.can_decide and p.finished:
            if p.round.number not in correctable:
                correctable[p.round.number] = organiser.correctable(t, p)
            p.can_decide = correctable[p.round.number]
        live = [g for g in p.games.all() if g.winner_id is None and not g.aborted]
        p.has_live = bool(live)  # a forfeit would end a table: the form asks to confirm
        p.waiting_for = []
        if running and not p.finished and not live and p.b_id is not None:
            by_user = busy.engaged(
                [uid for e in (p.a, p.b) for uid in (e.user_id, e.partner_id) if uid is not None],
                tournament_id=t.pk, pairing_id=p.pk,
            )
            p.waiting_for = [
                (e.name, by_user.get(e.user_id) or by_user.get(e.partner_id))
                for e in (p.a, p.b) if e.user_id in by_user or e.partner_id in by_user
            ]


def _act(request: HttpRequest, tournament_id: int, call: Callable[[], object], done: str) -> HttpResponse:
    try:
        call()
    except TournamentError as error:
        error.flash(request)
    else:
        messages.info(request, done)
    return redirect("tournament", tournament_id=tournament_id)


@require_POST
@login_required
def register(request: HttpRequest, tournament_id: int) -> HttpResponse:
    form = RegisterForm(request.POST)
    if not form.is_valid():
        for error in form.errors.get("partner", []):
            messages.error(request, error)
        return redirect("tournament", tournament_id=tournament_id)
    partner = form.cleaned_data["partner"]
    try:
        entrant = services.register(user=request.user, tournament_id=tournament_id, partner=partner)
    except TournamentError as error:
        error.flash(request)
    else:
        messages.info(request, _("Your partner is invited.") if partner else _("You are registered."))
        others = busy.clashes(entrant.tournament, [request.user, partner])
        if others:
            messages.warning(request, overlap_warning(others))
    return redirect("tournament", tournament_id=tournament_id)


def overlap_warning(others: list[Tournament]) -> str:
    """The warning of an event whose time overlaps ``others`` (``busy.clashes``)."""
    return _(
        "This event's time overlaps %(events)s, where you are registered too. You play one "
        "tournament table at a time: a table of either event waits until you are free, and "
        "your opponent waits with it."
    ) % {"events": ", ".join(o.name for o in others)}


def _confirmed(request: HttpRequest) -> bool:
    """Whether the post carries the confirmation (``tournaments/confirm.js``) that lets it do
    what cannot be undone: end a table being played, cancel the event, remove an entrant."""
    return request.POST.get("confirmed") == CONFIRMED


@require_POST
@login_required
def withdraw(request: HttpRequest, tournament_id: int) -> HttpResponse:
    return _act(request, tournament_id,
                lambda: services.withdraw(user=request.user, tournament_id=tournament_id,
                                          end_live=_confirmed(request)),
                _("You have withdrawn."))


@require_POST
@login_required
def withdraw_other(request: HttpRequest, tournament_id: int, entrant_id: int) -> HttpResponse:
    """The organiser withdraws an entrant (a no-show)."""
    get_object_or_404(Entrant, pk=entrant_id, tournament_id=tournament_id)
    return _act(request, tournament_id,
                lambda: services.withdraw_other(user=request.user, entrant_id=entrant_id,
                                                end_live=_confirmed(request)),
                _("The entrant is withdrawn."))


@require_POST
@login_required
def remove_entrant(request: HttpRequest, tournament_id: int, entrant_id: int) -> HttpResponse:
    """The organiser removes an entrant before the start."""
    get_object_or_404(Entrant, pk=entrant_id, tournament_id=tournament_id)
    return _act(request, tournament_id,
                lambda: services.remove_entrant(user=request.user, entrant_id=entrant_id,
                                                confirmed=_confirmed(request)),
                _("The entrant is removed."))


@require_POST
@login_required
def add_arbiter(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The organiser names an arbiter (field ``username``)."""
    form = ArbiterForm(request.POST)
    if not form.is_valid():
        for error in form.errors.get("username", []):
            messages.error(request, error)
        return redirect("tournament", tournament_id=tournament_id)
    arbiter = form.cleaned_data["username"]
    return _act(request, tournament_id,
                lambda: services.add_arbiter(user=request.user, tournament_id=tournament_id, arbiter=arbiter),
                _("%(name)s is an arbiter of the event.") % {"name": arbiter.get_username()})


@require_POST
@login_required
def remove_arbiter(request: HttpRequest, tournament_id: int, user_id: int) -> HttpResponse:
    """The organiser removes an arbiter."""
    return _act(request, tournament_id,
                lambda: services.remove_arbiter(user=request.user, tournament_id=tournament_id,
                                                arbiter_id=user_id),
                _("The arbiter is removed."))


@require_POST
@login_required
def seeds(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The organiser's seeds: a field ``seed-<entrant id>`` per entrant."""
    def call():
        chosen = {}
        for key, value in request.POST.items():
            if key.startswith("seed-"):
                try:
                    chosen[int(key[5:])] = int(value)
                except ValueError:
                    raise TournamentError(Code.BAD_SEEDS) from None
        services.set_seeds(user=request.user, tournament_id=tournament_id, seeds=chosen)
    return _act(request, tournament_id, call, _("The seeds are set."))


@require_POST
@login_required
def accept(request: HttpRequest, tournament_id: int, entrant_id: int) -> HttpResponse:
    try:
        entrant = services.accept_partner(user=request.user, entrant_id=entrant_id)
    except TournamentError as error:
        error.flash(request)
    else:
        messages.info(request, _("You are registered with your partner."))
        others = busy.clashes(entrant.tournament, [request.user])
        if others:
            messages.warning(request, overlap_warning(others))
    return redirect("tournament", tournament_id=tournament_id)


@require_POST
@login_required
def decline(request: HttpRequest, tournament_id: int, entrant_id: int) -> HttpResponse:
    return _act(request, tournament_id,
                lambda: services.decline_partner(user=request.user, entrant_id=entrant_id),
                _("You have declined the invitation."))


def _organiser_action(service, done_message: str):
    @require_POST
    @login_required
    def view(request: HttpRequest, tournament_id: int) -> HttpResponse:
        return _act(request, tournament_id,
                    lambda: service(user=request.user, tournament_id=tournament_id), str(done_message))
    return view


def start(request: HttpRequest, tournament_id: int) -> HttpResponse:
    response = _organiser_action(services.start, _("The tournament has started."))(request, tournament_id)
    t = Tournament.objects.filter(pk=tournament_id, status=Tournament.Status.RUNNING).first()
    if t is not None and t.can_manage(request.user):
        warning = rematch_warning(t, t.entrants.filter(seed__isnull=False).count())
        if warning:
            messages.warning(request, warning)
    return response


def rematch_warning(t: Tournament, entrants: int) -> str:
    """The warning of a Swiss with more rounds than ``entrants`` less one, where some entrants
    must meet twice (a round robin is the way to have everyone meet once); empty otherwise."""
    rounds = t.swiss_rounds or 0
    if t.format != Tournament.Format.SWISS or entrants < 2 or rounds <= entrants - 1:
        return ""
    return _(
        "This Swiss has %(rounds)s for %(entrants)s: more rounds than entrants less one, so "
        "some entrants will meet twice (the pairing then chooses those who met least, and "
        "longest ago)."
    ) % {
        "rounds": ngettext("%(n)s round", "%(n)s rounds", rounds) % {"n": rounds},
        "entrants": ngettext("%(n)s entrant", "%(n)s entrants", entrants) % {"n": entrants},
    }


@require_POST
@login_required
def cancel(request: HttpRequest, tournament_id: int) -> HttpResponse:
    return _act(request, tournament_id,
                lambda: services.cancel(user=request.user, tournament_id=tournament_id,
                                        confirmed=_confirmed(request)),
                _("The tournament is cancelled."))


def pause(request: HttpRequest, tournament_id: int) -> HttpResponse:
    return _organiser_action(services.pause, _("The tournament is paused."))(request, tournament_id)


def resume(request: HttpRequest, tournament_id: int) -> HttpResponse:
    return _organiser_action(services.resume, _("The tournament goes on."))(request, tournament_id)


def pair(request: HttpRequest, tournament_id: int) -> HttpResponse:
    return _organiser_action(services.pair_round, _("The next round is paired."))(request, tournament_id)


def _result_action(service, done: Callable[[], str], *, ends_tables: bool):
    """A forfeit's or a correction's view: the chosen result (nothing chosen is refused,
    ``no_result_chosen``); ``ends_tables``: the service ends a table being played only when
    the organiser confirmed it (``end_live``, :meth:`ResultForm.confirmed_end`)."""
    @require_POST
    @login_required
    def view(request: HttpRequest, tournament_id: int, pairing_id: int) -> HttpResponse:
        get_object_or_404(Pairing, pk=pairing_id, tournament_id=tournament_id)
        form = ResultForm(request.POST)
        form.is_valid()  # two optional text fields: always valid

        def call():
            extra = {"end_live": form.confirmed_end()} if ends_tables else {}
            return service(user=request.user, pairing_id=pairing_id, winner_id=form.winner_id(), **extra)
        return _act(request, tournament_id, call, done())
    return view


def forfeit(request: HttpRequest, tournament_id: int, pairing_id: int) -> HttpResponse:
    return _result_action(services.record_forfeit, lambda: _("The forfeit is recorded."),
                          ends_tables=True)(request, tournament_id, pairing_id)


def correct(request: HttpRequest, tournament_id: int, pairing_id: int) -> HttpResponse:
    return _result_action(services.correct_result, lambda: _("The result is corrected."),
                          ends_tables=False)(request, tournament_id, pairing_id)


def game_links(pairing: Pairing) -> list[Game]:
    """The tables of a pairing in order (for templates)."""
    return sorted(pairing.games.all(), key=lambda g: g.number)
