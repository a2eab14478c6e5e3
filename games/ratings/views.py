"""Pages of the ratings app: the ladder, a player's match history, head-to-head.

Bad input never raises: an unknown pool or player is a 404, a page number out of range or not a
number is the page with a message (status 404), a search longer than any username is an empty
result without a query, a filter value that is not one of its choices is ignored with a message.
"""

from __future__ import annotations

from datetime import date

from django.contrib.auth import get_user_model
from django.core.paginator import InvalidPage, Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from games.ratings import history, refunds
from games.ratings.ladder import (
    MAX_SEARCH, PER_PAGE, TABS, Row, ladder, rank_of, ranks_of, with_bot_flag,
)
from games.ratings.models import PlayerRating, Pool
from games.ratings.glicko2 import PROVISIONAL_DEVIATION
from games.ratings.rating import shown


def _page(paginator: Paginator, number: str | None):
    """The page ``number`` (1 when absent), or ``(None, message)`` when there is no such page."""
    try:
        return paginator.page(number or 1), None
    except InvalidPage:
        shown_number = (number or "")[:20]
        return None, _(
            "There is no page “%(page)s” here: pages go from 1 to %(last)s."
        ) % {"page": shown_number, "last": paginator.num_pages}


def _pool(pool: str) -> str:
    if pool not in Pool.values:
        raise Http404("No such pool")
    return pool


@require_GET
def ladder_index(request: HttpRequest) -> HttpResponse:
    """``/ladder/``: the 1v1 ladder."""
    return redirect("ladder", pool=Pool.ONE_V_ONE)


@require_GET
def ladder_page(request: HttpRequest, pool: str) -> HttpResponse:
    """One pool's ladder: ``?tab=established|provisional`` (without it, the established tab if
    anybody is on it, else the provisional one), ``?q=`` a part of a username, searched on both
    tabs (each player ranked and marked in their own), ``?page=``. The signed-in player's own
    row is highlighted, with a link to its page."""
    pool = _pool(pool)
    now = timezone.now()
    tab = request.GET.get("tab")
    if tab not in TABS:
        tab = "established"
        if "tab" not in request.GET and not ladder(pool, tab, now).exists():
            if ladder(pool, "provisional", now).exists():
                tab = "provisional"
    query = request.GET.get("q", "").strip()
    rows = ladder(pool, tab, now)
    status = 200
    message = None
    if len(query) > MAX_SEARCH:
        # No username is that long: nothing can match, and the database is not asked.
        listed = PlayerRating.objects.none()
        message = _("No player has a name that long.")
    elif query:
        listed = ladder(pool, None, now).filter(user__username__icontains=query)
    else:
        listed = rows
    # The page's ids first (deep pages skip index entries, not table rows), then its rows.
    paginator = Paginator(listed.values_list("pk", flat=True), PER_PAGE)
    page, error = _page(paginator, request.GET.get("page"))
    if error:
        status, message = 404, error
    entries: list[Row] = []
    if page is not None:
        ids = list(page.object_list)
        found = with_bot_flag(PlayerRating.objects.select_related("user")).in_bulk(ids)
        objects = [found[pk] for pk in ids if pk in found]
        bots = {row.user_id for row in objects if row.is_bot}
        if query:
            ranks = {}
            for name in TABS:
                ranks.update(ranks_of(ladder(pool, name, now), [
                    row.pk for row in objects if _tab_of(row, bots) == name
                ]))
        else:
            ranks = {row.pk: page.start_index() + i for i, row in enumerate(objects)}
        me = request.user.pk if request.user.is_authenticated else None
        entries = [
            Row(
                rank=ranks.get(row.pk, 0),
                username=row.user.username,
                rating=shown(row.rating, row.deviation),
                deviation=round(row.deviation),
                matches=row.matches,
                win_rate=round(row.win_rate * 100) if row.win_rate is not None else None,
                last_active=row.last_rated_at,
                mine=row.user_id == me,
                provisional=_tab_of(row, bots) == "provisional",
                bot=row.user_id in bots,
            )
            for row in objects
        ]
    own = None
    if request.user.is_authenticated:
        mine = rows.filter(user=request.user).first()
        if mine is not None:
            rank = rank_of(rows, mine)
            own = {
                "rank": rank,
                "url": reverse("ladder", kwargs={"pool": pool}) + "?" + urlencode(
                    {"tab": tab, "page": (rank - 1) // PER_PAGE + 1}
                ) + "#me",
            }
    return render(
        request,
        "ratings/ladder.html",
        {
            "pool": pool,
            "pools": Pool.choices,
            "tab": tab,
            "query": query[:MAX_SEARCH],
            "page": page,
            "paginator": paginator,
            "entries": entries,
            "own": own,
            "message": message,
            "query_string": urlencode({"tab": tab, "q": query[:MAX_SEARCH]} if query
                                      else {"tab": tab}),
        },
        status=status,
    )


def _tab_of(row: PlayerRating, bots: set[int] = frozenset()) -> str:
    if row.user_id in bots:
        return "bots"
    return "provisional" if row.deviation >= PROVISIONAL_DEVIATION else "established"


def _player(username: str):
    users = get_user_model().objects.filter(is_active=True)
    player = users.filter(username=username[:150]).first()
    if player is None:
        raise Http404("No such player")
    return player


def _date(value: str | None) -> date | None:
    if not value:
        return None
    try:
        return date.fromisoformat(value[:10])
    except ValueError:
        return None


@require_GET
def match_history(request: HttpRequest, username: str) -> HttpResponse:
    """A player's finished matches, newest first: ``?pool=1v1|partnership``,
    ``?result=won|lost|aborted``, ``?opponent=<username>``, ``?from=`` and ``?to=`` dates
    (YYYY-MM-DD), ``?page=``. Every row links to its match."""
    player = _player(username)
    filters = history.Filters(
        pool=request.GET.get("pool") if request.GET.get("pool") in Pool.values else None,
        result=request.GET.get("result") if request.GET.get("result") in history.RESULTS else None,
        opponent=request.GET.get("opponent", "").strip()[:150] or None,
        since=_date(request.GET.get("from")),
        until=_date(request.GET.get("to")),
    )
    paginator = Paginator(history.seats_of(player, filters), history.PER_PAGE)
    page, message = _page(paginator, request.GET.get("page"))
    rows = history.rows(page.object_list, player) if page is not None else []
    params = {k: v for k, v in request.GET.items() if k != "page"}
    return render(
        request,
        "ratings/history.html",
        {
            "player": player,
            "filters": filters,
            "pools": Pool.choices,
            "results": history.result_choices(),
            "page": page,
            "paginator": paginator,
            "rows": rows,
            "message": message,
            "query_string": urlencode(params),
            "refunds": refunds.refunds_of(player.pk),
        },
        status=404 if message else 200,
    )


@require_GET
def head_to_head(request: HttpRequest, username: str, other: str) -> HttpResponse:
    """Every finished match ``username`` and ``other`` played, as opponents or partners, with
    the tally of their matches against each other."""
    player, opponent = _player(username), _player(other)
    if player.pk == opponent.pk:
        raise Http404("A player has no head-to-head with themselves")
    seats = history.seats_of(player, history.Filters(together_with=opponent.username))
    paginator = Paginator(seats, history.PER_PAGE)
    page, message = _page(paginator, request.GET.get("page"))
    rows = history.rows(page.object_list, player) if page is not None else []
    return render(
        request,
        "ratings/head_to_head.html",
        {
            "player": player,
            "opponent": opponent,
            "tally": history.tally(player, opponent),
            "page": page,
            "paginator": paginator,
            "rows": rows,
            "message": message,
            "query_string": "",
        },
        status=404 if message else 200,
    )
