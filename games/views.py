"""Lobby and table pages.

The views are thin: they validate the form, call ``games.services`` and turn a ``ServiceError``
into a message. Everything live (the open tables, the table itself) arrives over the websockets
described in ``docs/protocol.md``; a page only carries the first state so that a reload shows
exactly the table as it is, before the socket connects.
"""

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from games import services
from games.forms import CreateTableForm
from games.models import Match


def _login_then(request: HttpRequest, next_url: str) -> HttpResponse | None:
    """Send an anonymous user to the log-in page, coming back to ``next_url`` (a GET page).

    The actions are POST-only, so coming back to the action itself after logging in would fail;
    the page the action was started from is where the user wants to be.
    """
    if request.user.is_authenticated:
        return None
    return redirect_to_login(next_url)


def _url_templates() -> dict:
    """URL patterns for the scripts, with ``{id}`` where the match id goes."""
    def pattern(name: str) -> str:
        return reverse(name, kwargs={"match_id": 0}).replace("/0/", "/{id}/")

    return {
        "lobby": reverse("lobby"),
        "table": pattern("table"),
        "join": pattern("table_join"),
        "leave": pattern("table_leave"),
    }


def common_labels() -> dict:
    """Translated strings the lobby and table scripts show (``%(name)s`` marks a placeholder)."""
    return {
        "connecting": _("Connecting…"),
        "live": _("Live"),
        "reconnecting": _("Connection lost, reconnecting…"),
        "closed": _("Closed"),
        "players": _("%(count)s players"),
        "target": _("to %(target)s"),
        "rated": _("Rated"),
        "casual": _("Casual"),
        "emptySeat": _("Empty seat"),
        "join": _("Join"),
        "leave": _("Leave"),
        "open": _("Open"),
        "watch": _("Watch"),
        "tableNumber": _("Table %(id)s"),
        "noTables": _("No open tables. Create one!"),
        "createdBy": _("created by %(name)s"),
    }


def table_labels() -> dict:
    """Translated strings of the table page script, on top of :func:`common_labels`."""
    return common_labels() | {
        "yourTurn": _("Your turn"),
        "turnOf": _("%(name)s to play"),
        "round": _("Round %(number)s"),
        "dealer": _("Dealer"),
        "cardsInHand": _("%(count)s in hand"),
        "stock": _("Stock: %(count)s"),
        "floor": _("Floor"),
        "floorEmpty": _("The floor is empty"),
        "yourHand": _("Your hand"),
        "you": _("you"),
        "spectating": _("You are watching this table."),
        "pile": _("Pile"),
        "basras": _("Basras"),
        "jackBasras": _("Jack basras"),
        "score": _("Score"),
        "lastPlay": _("Last play"),
        "played": _("%(name)s played"),
        "took": _("took"),
        "tookNothing": _("took nothing"),
        "basra": _("Basra!"),
        "jackBasra": _("Jack basra!"),
        "waiting": _("Waiting for players: %(taken)s of %(total)s seats taken."),
        "waitingHint": _("The match starts when every seat is taken."),
        "roundScore": _("Round %(number)s score"),
        "cards": _("Cards"),
        "majority": _("Most cards"),
        "cardPoints": _("Card points"),
        "roundTotal": _("Round total"),
        "matchTotal": _("Match total"),
        "continue": _("Continue"),
        "rounds": _("Rounds played"),
        "matchOver": _("Match over"),
        "youWon": _("You won!"),
        "youLost": _("You lost."),
        "winsOne": _("%(name)s wins"),
        "winsPair": _("%(names)s win"),
        "and": _("%(a)s & %(b)s"),
        "side": _("Side %(number)s"),
        "backToLobby": _("Back to the lobby"),
        "tableClosed": _("This table no longer exists."),
        "cardName": _("%(rank)s of %(suit)s"),
        "suits": {"C": _("clubs"), "D": _("diamonds"), "H": _("hearts"), "S": _("spades")},
        "ranks": {"A": _("Ace"), "J": _("Jack"), "Q": _("Queen"), "K": _("King")},
    }


def seat_list(players: int, seats: list[dict]) -> list[dict]:
    """Every seat of a table in seat order, ``{"seat", "username"}``, ``None`` for a free seat."""
    by_seat = {seat["seat"]: seat.get("username") for seat in seats}
    return [{"seat": number, "username": by_seat.get(number)} for number in range(players)]


def _lobby_page(request: HttpRequest, form: CreateTableForm, *, status: int = 200) -> HttpResponse:
    tables = services.open_tables()
    username = request.user.get_username() if request.user.is_authenticated else None
    for row in tables:
        row["seats"] = seat_list(row["players"], row["seats"])
        row["taken"] = sum(1 for seat in row["seats"] if seat["username"])
        row["mine"] = username is not None and any(
            seat["username"] == username for seat in row["seats"]
        )
    config = {
        "wsPath": "/ws/lobby/",
        "username": username,
        "csrfToken": get_token(request),
        "urls": _url_templates(),
        "labels": common_labels(),
    }
    return render(
        request, "games/lobby.html",
        {"tables": tables, "form": form, "config": config},
        status=status,
    )


@require_GET
def lobby(request: HttpRequest) -> HttpResponse:
    """The lobby: the open tables (live over ``/ws/lobby/``) and the form to create one."""
    return _lobby_page(request, CreateTableForm())


@require_POST
def table_create(request: HttpRequest) -> HttpResponse:
    """Create a table from :class:`CreateTableForm`, seat its creator, go to its page.

    An invalid form shows the lobby again with the errors (status 400); a ``ServiceError``
    becomes an error message on the lobby.
    """
    if (response := _login_then(request, reverse("lobby"))) is not None:
        return response
    form = CreateTableForm(request.POST)
    if not form.is_valid():
        return _lobby_page(request, form, status=400)
    try:
        match = services.create_table(
            user=request.user,
            players=form.cleaned_data["players"],
            rules=form.rules(),
            rated=form.rated,
        )
    except services.ServiceError as error:
        messages.error(request, error.message)
        return redirect("lobby")
    return redirect("table", match_id=match.id)


@require_GET
def table(request: HttpRequest, match_id: int) -> HttpResponse:
    """The live table: the state as this user may see it, then live updates over the socket."""
    match = get_object_or_404(Match, pk=match_id)
    state = services.table_state(match_id=match.id, user=request.user)
    config = {
        "matchId": match.id,
        "wsPath": f"/ws/table/{match.id}/",
        "username": request.user.get_username() if request.user.is_authenticated else None,
        "csrfToken": get_token(request),
        "urls": _url_templates(),
        "state": state,
        "labels": table_labels(),
    }
    return render(request, "games/table.html", {"match": match, "config": config})


@require_POST
def table_join(request: HttpRequest, match_id: int) -> HttpResponse:
    """Take the next free seat of an open table (RULES.md "Four players": 0, 2, 1, 3)."""
    table_url = reverse("table", kwargs={"match_id": match_id})
    if (response := _login_then(request, table_url)) is not None:
        return response
    try:
        services.join_table(user=request.user, match_id=match_id)
    except services.ServiceError as error:
        messages.error(request, error.message)
    return redirect(table_url)


@require_POST
def table_leave(request: HttpRequest, match_id: int) -> HttpResponse:
    """Give up one's seat at a table that has not started yet, back to the lobby."""
    table_url = reverse("table", kwargs={"match_id": match_id})
    if (response := _login_then(request, table_url)) is not None:
        return response
    try:
        services.leave_table(user=request.user, match_id=match_id)
    except services.ServiceError as error:
        messages.error(request, error.message)
        return redirect(table_url)
    messages.info(request, _("You left table %(id)s.") % {"id": match_id})
    return redirect("lobby")
