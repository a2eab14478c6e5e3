"""Watching a table: who may (``Match.watchers``) and how many do (``Watcher`` rows).

Issue 12: the table's creator chooses who may watch the match being played: everyone,
registered players, or nobody. The seated players always see their table, and the waiting room
of an open table is open to all (people must see it to join). :func:`check_may_watch` is the one
rule, used by the table page (``games.core.pages.views.table``) and the table socket
(``games.core.sockets.table.TableConsumer``), which refuses a spectator with the rule's error code.

The count of watchers is kept in the database, one ``Watcher`` row per spectator socket, so every
server process counts every socket (a user watching in two tabs counted once): :func:`watch_started` on the socket's connect,
:func:`watches_seen` on its process's heartbeat, :func:`watch_ended` on its disconnect. A row whose process
died without the disconnect stops counting after :func:`stale_after` and the clock deletes it
(:func:`sweep_watchers`). None of this is on a play's path: plays never read or write these rows.
The rows are the sockets' bookkeeping, like ``games.core.state.liveness``'s heartbeats, not a change to a
table: they are written here, not through the actions' funnel.
"""

from __future__ import annotations

from collections.abc import Collection
from datetime import datetime, timedelta
from typing import Any

from django.db.models import Count, Q
from django.utils import timezone

from games.core.errors import GameError
from games.core.models import Match, Watcher
from games.core.state import liveness


def check_may_watch(*, watchers: str, status: str, seated: bool, user: Any) -> None:
    """Whether ``user`` may see a table with this ``watchers`` setting and ``status``.

    Seated users always may; anyone may see an open table (its waiting room) or a finished one
    (its result, as the replays show it). While it is being played: ``everyone`` lets all watch,
    ``registered`` only logged-in users, ``nobody`` no one.

    :raises GameError: ``watch_nobody``, ``watch_login_required``.
    """
    if seated or status != Match.Status.PLAYING:
        return
    if watchers == Match.Watchers.NOBODY:
        raise GameError("watch_nobody")
    if watchers == Match.Watchers.REGISTERED and not (
        user is not None and user.is_authenticated
    ):
        raise GameError("watch_login_required")


#: The session key holding the ids of the private tables this browser session opened by their
#: invite link (``games.core.pages.friend_views.table_invite``): a list of ints, newest last.
INVITED_SESSION_KEY = "invited_tables"
#: How many such tables a session remembers (the oldest is forgotten first).
INVITED_SESSION_MAX = 50


def invited_tables(session: Any) -> list[int]:
    """The private tables ``session`` (a Django session, or ``None``) opened by their invite."""
    if session is None:
        return []
    ids = session.get(INVITED_SESSION_KEY, [])
    return [i for i in ids if isinstance(i, int)] if isinstance(ids, list) else []


def remember_invite(session: Any, match_id: int) -> None:
    """``session`` opened private table ``match_id`` by its invite link and keeps that right."""
    ids = [i for i in invited_tables(session) if i != match_id][-(INVITED_SESSION_MAX - 1):]
    session[INVITED_SESSION_KEY] = [*ids, match_id]


def check_may_see_private(*, match: Match, seated: bool, invited: bool) -> None:
    """Whether someone may see private table ``match`` at all (page and socket, any status).

    Issue 22: a private table is open only to its seated players and to the browser sessions
    that opened its invite link, unless its creator let everyone watch
    (``Match.private_watchable``). Anyone else is told the table does not exist, as for an
    unknown id: its sequential id confirms nothing.

    :raises GameError: ``not_found``.
    """
    if match.private and not (seated or invited or match.private_watchable):
        raise GameError("not_found")


def may_watch(match: Match, user: Any) -> bool:
    """:func:`check_may_watch` for someone not seated at ``match``, as a boolean (the lobby)."""
    try:
        check_may_watch(
            watchers=match.watchers, status=match.status, seated=False, user=user
        )
    except GameError:
        return False
    return True


def stale_after() -> timedelta:
    """How long a ``Watcher`` row counts without a heartbeat: three beats of its socket
    (``liveness.heartbeat_seconds()``) and a few seconds, so a live socket is never missed and a
    dead process's rows stop counting within a minute."""
    return timedelta(seconds=3 * liveness.heartbeat_seconds() + 5)


#: What a table's watchers are counted by: each signed-in user once, however many tabs they
#: watch it in, and each anonymous socket once (an anonymous visitor may have no session to
#: tell their tabs apart by).
_PEOPLE = {
    "users": Count("user", distinct=True),
    "anonymous": Count("id", filter=Q(user__isnull=True)),
}


def watcher_count(match_id: int, *, now: datetime | None = None) -> int:
    """The people watching ``match_id`` (spectator sockets seen within :func:`stale_after`):
    its signed-in users, each once, and its anonymous sockets (one indexed query)."""
    now = timezone.now() if now is None else now
    found = Watcher.objects.filter(
        match_id=match_id, last_seen__gte=now - stale_after()
    ).aggregate(**_PEOPLE)
    return found["users"] + found["anonymous"]


def watcher_counts(match_ids: list[int], *, now: datetime | None = None) -> dict[int, int]:
    """``{match id: people watching}`` of ``match_ids``, counted as :func:`watcher_count`
    counts them (one grouped query; 0 when none)."""
    now = timezone.now() if now is None else now
    counts = dict.fromkeys(match_ids, 0)
    rows = (
        Watcher.objects.filter(match_id__in=match_ids, last_seen__gte=now - stale_after())
        .values("match_id")
        .annotate(**_PEOPLE)
        .values_list("match_id", "users", "anonymous")
    )
    counts.update({match_id: users + anonymous for match_id, users, anonymous in rows})
    return counts


def watch_started(*, match_id: int, channel: str, user: Any, now: datetime | None = None) -> int:
    """A spectator socket ``channel`` opened at ``match_id``: its row; returns the count.

    :raises GameError: ``not_found`` (the table is gone).
    """
    now = timezone.now() if now is None else now
    if not Match.objects.filter(pk=match_id).exists():
        raise GameError("not_found")
    person = user if user is not None and user.is_authenticated else None
    Watcher.objects.update_or_create(
        channel=channel, defaults={"match_id": match_id, "user": person, "last_seen": now}
    )
    return watcher_count(match_id, now=now)


def watches_seen(*, channels: Collection[str], now: datetime | None = None) -> None:
    """Spectator sockets beat (their process's heartbeat, ``games.core.sockets.beats``): their rows are
    seen at ``now`` (one ``UPDATE``)."""
    now = timezone.now() if now is None else now
    Watcher.objects.filter(channel__in=list(channels)).update(last_seen=now)


def watch_ended(*, match_id: int, channel: str, now: datetime | None = None) -> int:
    """A spectator socket closed (or took a seat): its row goes; returns the count left."""
    Watcher.objects.filter(channel=channel).delete()
    return watcher_count(match_id, now=now)


def sweep_watchers(*, now: datetime) -> int:
    """Delete the rows of sockets not seen within :func:`stale_after` (their process died);
    returns how many. Run by the clock now and then (``games.core.clock.clock.tick``)."""
    deleted, _ = Watcher.objects.filter(last_seen__lt=now - stale_after()).delete()
    return deleted


def watched_by(user_ids: Collection[int], *, now: datetime | None = None) -> dict[int, int]:
    """``{user id: match id}``: a table each of ``user_ids`` watches now (a spectator socket
    seen within :func:`stale_after`; of several, the newest table). One indexed query."""
    now = timezone.now() if now is None else now
    rows = (
        Watcher.objects.filter(user_id__in=list(user_ids), last_seen__gte=now - stale_after())
        .order_by("match_id")
        .values_list("user_id", "match_id")
    )
    return dict(rows)
