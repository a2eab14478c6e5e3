"""Tournament pages: the events list, the create form, the event page and its actions.

Thin views (STYLE.md): a request is parsed (a form validated), a service of
``games.tournaments.services`` is called or the page's facts are read
(``games.tournaments.pages``), a ``TournamentError`` becomes a message, and the page is
rendered. Every action is a POST with the CSRF token.
"""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import condition, require_POST

from games.tournaments import pages, services, zones
from games.tournaments.errors import Code, TournamentError
from games.tournaments.forms import CONFIRMED, ArbiterForm, RegisterForm, ResultForm, TournamentForm
from games.tournaments.models import Entrant, Pairing, Tournament


def event_list(request: HttpRequest) -> HttpResponse:
    """Upcoming, running and finished events."""
    zone = zones.viewer_zone(request, zones.DEFAULT)
    return render(request, "tournaments/list.html", {
        "sections": pages.event_sections(), "viewer_zone": zone, "viewer_zone_name": zones.label(zone.key),
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


@login_required
def event_edit(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The organiser's (or an arbiter's) form of an upcoming event's settings, prefilled
    (GET), and the change (POST); the format and the players at a table are fixed once anyone
    registered."""
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


def event_etag(request: HttpRequest, tournament_id: int) -> str | None:
    """The event page's ETag for this viewer (``pages.version``): the page's script
    fetches the page every few seconds (``tournaments/live.js``); an unchanged page answers
    304, with no body, and is not built (Django's ``condition``). ``None`` for an unknown
    event (the view answers 404), and while a message waits to be shown: a refused action
    changes nothing the version covers, and its message must not stay behind a 304."""
    if len(messages.get_messages(request)):
        return None
    return pages.version(tournament_id, request.user, get_language(),
                              lambda zone: zones.viewer_zone(request, zone))


@condition(etag_func=event_etag)
def event_page(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The event (``pages.event_facts``), with the register and arbiter forms."""
    t = get_object_or_404(Tournament.objects.select_related("organiser"), pk=tournament_id)
    context = pages.event_facts(t, request.user, zones.viewer_zone(request, t.time_zone))
    context |= {"register_form": RegisterForm(), "arbiter_form": ArbiterForm()}
    response = render(request, "tournaments/event.html", context)
    if request.headers.get("X-Requested-With") == "fetch":
        # The page's own refresh swaps in parts without the messages: they are kept for the
        # page a form's post leads to (the refresh may come before it is loaded).
        messages.get_messages(request).used = False
    return response


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
        return _refused_form(request, form, tournament_id)
    partner = form.cleaned_data["partner"]
    try:
        entrant = services.register(user=request.user, tournament_id=tournament_id, partner=partner)
    except TournamentError as error:
        error.flash(request)
    else:
        messages.info(request, _("Your partner is invited.") if partner else _("You are registered."))
        _warn(request, pages.clash_warning(entrant.tournament, [request.user, partner]))
    return redirect("tournament", tournament_id=tournament_id)


def _refused_form(request: HttpRequest, form, tournament_id: int) -> HttpResponse:
    """Back to the event page, saying why ``form`` (one field) was not valid."""
    for errors in form.errors.values():
        for error in errors:
            messages.error(request, error)
    return redirect("tournament", tournament_id=tournament_id)


def _warn(request: HttpRequest, warning: str) -> None:
    if warning:
        messages.warning(request, warning)


def _confirmed(request: HttpRequest) -> bool:
    """Whether the post carries the confirmation (``static/site.js``) that lets it do
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
def rejoin(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """A player marked absent after a no-show comes back: paired from the next round or wave."""
    return _act(request, tournament_id,
                lambda: services.rejoin(user=request.user, tournament_id=tournament_id),
                _("Welcome back: you will be paired again."))


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
        return _refused_form(request, form, tournament_id)
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
        _warn(request, pages.clash_warning(entrant.tournament, [request.user]))
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
    _warn(request, pages.started_warning(tournament_id, request.user))
    return response


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
