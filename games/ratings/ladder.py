"""The ladder: one pool's active players, best first, in pages, with their ranks.

Rows are :class:`PlayerRating` rows of open accounts (a closed one, ``is_active`` false, leaves
it) with a rated match in the last ``settings.BASRA_LADDER_INACTIVE_DAYS`` days (default 30), ordered by rating, then user id (so a
rank never ties). Provisional players (deviation 110 or more, ``glicko2.is_provisional``) have a
tab of their own; the main tab holds the established ones. Every page costs a fixed number of
queries whatever its length: the count, the page (its users joined), and for a signed-in player
their own row and the number of rows ahead of it; a search adds one query for its rows' ranks.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db import connection
from django.db.models import Exists, F, OuterRef, Q, QuerySet, Value, Window
from django.db.models.functions import RowNumber
from django.utils import timezone

from games.ratings import glicko2
from games.ratings.models import PlayerRating

#: Rows per page.
PER_PAGE = 50
#: The longest search that can match anything: a username has at most 150 characters.
MAX_SEARCH = 150
TABS = ("established", "provisional", "bots")

#: Who is a bot account (``register_bots``): a function giving a query of their user ids, or
#: ``None`` while no app says (then the Bots tab is empty and every player is a person).
_bot_ids = None


def register_bots(bot_ids) -> None:
    """Let an app say which accounts are bots (the public API's, ``games.api``): ``bot_ids()``
    returns a ``QuerySet`` of their user ids (one subquery in the ladder's queries)."""
    global _bot_ids
    _bot_ids = bot_ids


#: Who is kept off the ladders although their account is open (``register_off_ladder``: a
#: moderator's ranked ban, ``games.moderation``): a function giving a query of user ids.
_off_ladder_ids = None


def register_off_ladder(user_ids) -> None:
    """Let an app keep players off every ladder tab (a ranked ban): ``user_ids()`` returns a
    ``QuerySet`` of their user ids (one subquery in the ladder's queries)."""
    global _off_ladder_ids
    _off_ladder_ids = user_ids


def with_bot_flag(rows: QuerySet[PlayerRating]) -> QuerySet[PlayerRating]:
    """``rows`` with ``is_bot`` on each (whether its player is a bot account), in the same
    query (``False`` for all while no app registered bots)."""
    if _bot_ids is None:
        return rows.annotate(is_bot=Value(False))
    return rows.annotate(is_bot=Exists(_bot_ids().filter(pk=OuterRef("user_id"))))


def inactive_days() -> int:
    """Days without a rated match after which a player leaves the ladder (a setting)."""
    return int(getattr(settings, "BASRA_LADDER_INACTIVE_DAYS", 30))


def ladder(pool: str, tab: str | None, now: datetime | None = None) -> QuerySet[PlayerRating]:
    """The rows of ``pool``'s ladder tab ``tab`` ("established" or "provisional": people;
    "bots": the bot accounts, apart from people (``register_bots``); ``None``: every tab, as a
    search sees them), best first.

    :raises ValueError: an unknown tab.
    """
    if tab is not None and tab not in TABS:
        raise ValueError(f"unknown ladder tab {tab!r}")
    now = timezone.now() if now is None else now
    rows = PlayerRating.objects.filter(
        pool=pool, last_rated_at__gte=now - timedelta(days=inactive_days()),
        user__is_active=True,  # a closed account leaves the ladder (accounts.closing)
    )
    if _off_ladder_ids is not None:
        rows = rows.exclude(user_id__in=_off_ladder_ids())
    if tab == "bots":
        return (rows.filter(user_id__in=_bot_ids()) if _bot_ids is not None
                else rows.none()).order_by("-rating", "user_id")
    if tab is not None and _bot_ids is not None:
        rows = rows.exclude(user_id__in=_bot_ids())
    if tab == "provisional":
        rows = rows.filter(deviation__gte=glicko2.PROVISIONAL_DEVIATION)
    elif tab == "established":
        rows = rows.filter(deviation__lt=glicko2.PROVISIONAL_DEVIATION)
    return rows.order_by("-rating", "user_id")


def rank_of(rows: QuerySet[PlayerRating], row: PlayerRating) -> int:
    """``row``'s rank (1 = best) among ``rows`` (as :func:`ladder` orders them): one query."""
    ahead = rows.filter(
        Q(rating__gt=row.rating) | Q(rating=row.rating, user_id__lt=row.user_id)
    ).count()
    return ahead + 1


def ranks_of(rows: QuerySet[PlayerRating], ids: list[int]) -> dict[int, int]:
    """``{row id: rank}`` of the rows ``ids`` among ``rows``: one query (a window function over
    the tab, filtered outside it, so the ranks are the ladder's and not the search's)."""
    if not ids:
        return {}
    ranked = rows.annotate(
        row_id=F("pk"),
        rank=Window(RowNumber(), order_by=[F("rating").desc(), F("user_id").asc()]),
    ).values_list("row_id", "rank").order_by()
    sql, params = ranked.query.sql_with_params()
    placeholders = ", ".join(["%s"] * len(ids))
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT ranked.row_id, ranked.rank FROM ({sql}) ranked WHERE ranked.row_id IN ({placeholders})",
            [*params, *ids],
        )
        return {pk: rank for pk, rank in cursor.fetchall()}


@dataclass(frozen=True)
class Row:
    """One line of the ladder as shown."""

    rank: int
    username: str
    rating: str
    deviation: int
    matches: int
    win_rate: int | None
    last_active: datetime | None
    mine: bool
    #: Still provisional (a search lists both tabs' players; each is ranked in its own tab).
    provisional: bool = False
    #: A bot account (its name marked BOT; ranked in the Bots tab).
    bot: bool = False
