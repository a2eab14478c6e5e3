"""Lobby and table pages.

The views are thin: they validate the form, call ``games.core.actions`` and turn a ``GameError``
into a message. Everything live (the open tables, the table itself) arrives over the websockets
described in ``docs/protocol.md``; a page only carries the first state so that a reload shows
exactly the table as it is, before the socket connects.
"""

from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.middleware.csrf import get_token
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import NoReverseMatch, reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games.core import actions, errors
from games.core.errors import GameError
from games.core.models import NO_SHOW_RESULTS, Match, bot_choices, nothing_to_replay
from games.core.pages import table_page
from games.core.pages.forms import CreateTableForm, PlayComputerForm
from games.core.state import reads, records, watching, lobby as lobby_reads


def _login_then(request: HttpRequest, next_url: str) -> HttpResponse | None:
    """Send an anonymous user to the log-in page, coming back to ``next_url`` (a GET page).

    The actions are POST-only, so coming back to the action itself after logging in would fail;
    the page the action was started from is where the user wants to be.
    """
    if request.user.is_authenticated:
        return None
    return redirect_to_login(next_url)


def _no_replay(match: Match) -> bool:
    """Whether finished ``match`` is a no-show's table (``models.nothing_to_replay``). One query
    for the results a no-show ends with, none otherwise."""
    return (
        match.status == Match.Status.FINISHED and match.result in NO_SHOW_RESULTS
        and Match.objects.filter(nothing_to_replay(), pk=match.pk).exists()
    )


def _url_templates() -> dict:
    """URL patterns for the scripts, with ``{id}`` where the match id goes."""
    def pattern(name: str) -> str:
        return reverse(name, kwargs={"match_id": 0}).replace("/0/", "/{id}/")

    urls = {
        "lobby": reverse("lobby"),
        "table": pattern("table"),
        "join": pattern("table_join"),
        "leave": pattern("table_leave"),
        "seed": pattern("table_seed"),
        "record": pattern("match_record"),
    }
    # The replay page, when the replays app is installed (by URL name: the core never imports
    # the apps built on it).
    try:
        urls["replay"] = pattern("replays:match")
    except NoReverseMatch:
        pass
    return urls


#: The prefix of the "Play the computer" form's fields, so both lobby forms fit on one page.
COMPUTER_PREFIX = "computer"


def _lobby_page(
    request: HttpRequest,
    form: CreateTableForm | None = None,
    computer_form: PlayComputerForm | None = None,
    *,
    status: int = 200,
) -> HttpResponse:
    username = request.user.get_username() if request.user.is_authenticated else None
    if request.user.is_authenticated:
        # Opening the lobby counts as being there for one's open tables (as its socket does).
        actions.seen_waiting(user=request.user)
    tables = lobby_reads.open_table_rows(reads.open_tables(), username=username)
    config = {
        "wsPath": "/ws/lobby/",
        "username": username,
        "csrfToken": get_token(request),
        "urls": _url_templates(),
    }
    return render(
        request, "games/lobby.html",
        {
            "tables": tables,
            "your_matches": lobby_reads.your_matches(request.user),
            "live_matches": lobby_reads.live_matches(request.user),
            "form": form or CreateTableForm(),
            "computer_form": computer_form or PlayComputerForm(prefix=COMPUTER_PREFIX),
            "config": config,
        },
        status=status,
    )


@require_GET
def lobby(request: HttpRequest) -> HttpResponse:
    """The lobby: the user's matches being played, the matches to watch and the open tables
    (all live over ``/ws/lobby/``), the form to create a table and the form to play the
    computer."""
    return _lobby_page(request)


@require_POST
def table_create(request: HttpRequest) -> HttpResponse:
    """Create a table from :class:`CreateTableForm`, seat its creator, go to its page.

    The form's one-time key (``create_key``) makes a second post of the same form go to the
    table the first one made (``models.CreateKey``).

    An invalid form shows the lobby again with the errors (status 400); a ``GameError``
    becomes an error message on the lobby.
    """
    if (response := _login_then(request, reverse("lobby"))) is not None:
        return response
    form = CreateTableForm(request.POST)
    if not form.is_valid():
        return _lobby_page(request, form, status=400)
    try:
        match = actions.create_table(
            user=request.user,
            players=form.cleaned_data["players"],
            rules=form.rules(),
            rated=form.rated,
            move_seconds=form.clock(),
            client_seed=form.cleaned_data["client_seed"],
            watchers=form.cleaned_data["watchers"],
            private=form.cleaned_data["private"],
            private_watchable=bool(form.cleaned_data.get("private_watchable")),
            create_key=form.cleaned_data["create_key"] or None,
        )
    except GameError as error:
        error.flash(request)
        return redirect("lobby")
    return redirect("table", match_id=match.id)


@require_POST
def table_computer(request: HttpRequest) -> HttpResponse:
    """"Play the computer": create a casual table with computer players, go to its page.

    Two players start at once; four players start when the seats left to people are taken.
    An invalid form shows the lobby again with the errors (status 400).
    """
    if (response := _login_then(request, reverse("lobby"))) is not None:
        return response
    form = PlayComputerForm(request.POST, prefix=COMPUTER_PREFIX)
    if not form.is_valid():
        return _lobby_page(request, computer_form=form, status=400)
    try:
        match = actions.create_table(
            user=request.user,
            players=form.cleaned_data["players"],
            rules=form.rules(),
            rated=False,
            move_seconds=form.clock(),
            bots=form.bots(),
            client_seed=form.cleaned_data["client_seed"],
            watchers=form.cleaned_data["watchers"],
            create_key=form.cleaned_data["create_key"] or None,
        )
    except GameError as error:
        error.flash(request)
        return redirect("lobby")
    return redirect("table", match_id=match.id)


@require_GET
def _no_table(request: HttpRequest) -> HttpResponse:
    """The table page's 404, for an unknown id and for a private table alike (which one it is is
    not said): rendered here rather than raised, so that it reads the same under DEBUG too
    (Django's technical 404 page would list the site's every address)."""
    return render(request, "games/no_table.html", status=404)


def table(request: HttpRequest, match_id: int, invite: str | None = None) -> HttpResponse:
    """The live table: the state as this user may see it, then live updates over the socket.

    Someone not seated whom the table does not let watch (``Match.watchers``) gets a page that
    says why (status 403), with a log-in link when logging in would let them. A private table is
    a 404 for anyone neither seated nor invited (``watching.check_may_see_private``).

    ``invite``: the page was opened from a private table's invite link (checked by
    ``games.core.pages.friend_views.table_invite``): its join buttons carry the invite. The invite link
    itself is shown to the people seated at a private table while it waits for players.
    """
    match = Match.objects.filter(pk=match_id).first()
    if match is None:
        return _no_table(request)
    try:
        state = reads.table_state(
            match_id=match.id, user=request.user, watching_rule=True, session=request.session
        )
    except GameError as error:
        if error.code == "not_found":
            # A private table this visitor may not see: the same 404 as an unknown id's, not a
            # 403 that would confirm the table exists.
            return _no_table(request)
        if error.code not in ("watch_nobody", "watch_login_required"):
            raise
        return render(
            request, "games/table_refused.html",
            {"match": match, "reason": error.message, "code": error.code}, status=403,
        )
    urls = _url_templates()
    if "replay" in urls and _no_replay(match):
        del urls["replay"]  # a no-show's table: no "Watch the replay" under its result
    if invite is None and match.private and match.pk in watching.invited_tables(request.session):
        invite = match.invite_token  # this session came by the link: its join carries it
    if invite is not None:
        urls["join"] += "?" + urlencode({"invite": invite})
    extras = table_page.config()
    config = {
        "matchId": match.id,
        "wsPath": f"/ws/table/{match.id}/",
        "username": request.user.get_username() if request.user.is_authenticated else None,
        "csrfToken": get_token(request),
        "urls": urls,
        "state": state,
        # The computer levels' names are the models'; a computer seat's name at the table is
        # its level, numbered beside others (static/games/table/kit.js, seatName).
        "botLevels": dict(bot_choices()),
        "talk": extras["talk"],
        "roundPauseSeconds": extras["roundPauseSeconds"],
        # A rated match to fewer points has no rematch (rematch.js, actions.rematch), nor has
        # a table an app claims (a tournament's): asked while it is played, since a page open
        # at the end is not loaded again.
        "ratedTargetMin": errors.RATED_TARGET_MIN,
        "rematchOffered": actions.rematch_offered(match.pk),
    }
    config["urls"]["login"] = extras["login"]
    invite_link = None
    if match.private and match.status == Match.Status.OPEN and state["you"] is not None:
        invite_link = request.build_absolute_uri(
            reverse("table_invite", kwargs={"match_id": match.pk, "token": match.invite_token})
        )
    return render(
        request, "games/table.html",
        {"match": match, "config": config, "invite_link": invite_link},
    )


@require_http_methods(["GET", "POST"])
def table_join(request: HttpRequest, match_id: int) -> HttpResponse:
    """Take the next free seat of an open table (RULES.md "Four players": 0, 2, 1, 3), or with
    a ``seat`` field that seat (an empty one, or a computer's before the start).

    ``GET`` (a join link shared or opened in a new tab) takes no seat: it goes to the table's
    page (``table``), which shows the table and its join buttons; an unknown table is a 404.

    A ``seat`` that is not a number from 0 to players - 1 takes no seat: the table page comes
    back with the ``bad_seat`` message (an empty ``seat`` means no choice); a taken seat or a
    full table (no empty seat, or the match started) comes back with the action's ``seat_taken``
    or ``table_full`` message, and nothing changes. Someone already seated there just comes
    back to the table, with no message. ``client_seed``: the person's seed for the fair shuffle
    (the browser draws one); a bad one takes no seat and comes back as an error message; none at
    all: the server draws one. An unknown table is a 404.
    """
    table_url = reverse("table", kwargs={"match_id": match_id})
    invite = request.GET.get("invite") or request.POST.get("invite")
    back = (
        reverse("table_invite", kwargs={"match_id": match_id, "token": invite})
        if invite and invite.isascii() and invite.isprintable() and "/" not in invite
        else table_url
    )
    if request.method == "GET":
        get_object_or_404(Match, pk=match_id)
        return redirect(back)
    if (response := _login_then(request, back)) is not None:
        return response
    match = get_object_or_404(Match, pk=match_id)
    seat = request.POST.get("seat") or None
    if seat is not None:
        # A seat number that is not one of this table's is a bad request, never "any seat":
        # taking another seat than the one asked for would surprise the player.
        # At most two digits: int() refuses strings over 4,300 digits (a 500), and no table has
        # a hundred seats.
        number = int(seat) if seat.isascii() and seat.isdigit() and len(seat) <= 2 else None
        if number is None or number >= match.players:
            GameError(errors.ErrorCode.BAD_SEAT).flash(request)
            return redirect(table_url)
        seat = number
    try:
        actions.join_table(
            user=request.user, match_id=match_id, seat=seat,
            client_seed=request.POST.get("client_seed"),
            invite=invite,
        )
    except GameError as error:
        # A second join (a lobby row or a join button still showing in another tab) asks for
        # what the person has: their seat, on the page they come back to.
        if error.code != errors.ErrorCode.ALREADY_SEATED:
            error.flash(request)
    return redirect(table_url)


@require_POST
def table_seed(request: HttpRequest, match_id: int) -> HttpResponse:
    """Change one's client seed (field ``client_seed``) before the match starts, back to the
    table page; a bad seed, a change after the start or no seat there is an error message."""
    table_url = reverse("table", kwargs={"match_id": match_id})
    if (response := _login_then(request, table_url)) is not None:
        return response
    try:
        actions.set_client_seed(
            user=request.user, match_id=match_id,
            client_seed=request.POST.get("client_seed", ""),
        )
    except GameError as error:
        error.flash(request)
    else:
        messages.info(request, _("Your client seed is changed."))
    return redirect(table_url)


@require_GET
def match_record(request: HttpRequest, match_id: int) -> JsonResponse:
    """The finished match's game record, ``basra-record/1`` with its ``"shuffle"`` and the
    revealed server seed (``games.core.state.records.match_record``), as a JSON download.

    404 while the match is not over: the record holds every deck, and the server seed opens
    every deck still to come.
    """
    match = get_object_or_404(Match, pk=match_id)
    if match.status != Match.Status.FINISHED:
        raise Http404(_("The record is published when the match is over."))
    url = request.build_absolute_uri(reverse("table", kwargs={"match_id": match.pk}))
    response = JsonResponse(records.match_record(match, url=url), json_dumps_params={"indent": 1})
    response["Content-Disposition"] = f'attachment; filename="basra-match-{match.pk}.json"'
    return response


@require_POST
def table_leave(request: HttpRequest, match_id: int) -> HttpResponse:
    """Give up one's seat at a table that has not started yet, back to the lobby."""
    table_url = reverse("table", kwargs={"match_id": match_id})
    if (response := _login_then(request, table_url)) is not None:
        return response
    try:
        actions.leave_table(user=request.user, match_id=match_id)
    except GameError as error:
        error.flash(request)
        return redirect(table_url)
    messages.info(request, _("You left table %(id)s.") % {"id": match_id})
    return redirect("lobby")
