"""Who is online: a signed-in user with any socket (table, lobby, notices) open on any server
process, seen alike by every process (``games.core.models.Online``, in the database).

Each process counts its users' open sockets (:func:`opened`, :func:`closed`, called by
``games.core.sockets.base.JsonSocket`` on the event loop) and writes only the changes, in its
server beat (``games.core.sockets.beats.ServerBeat``, every second): a row for a user whose
first socket in the process opened, the row deleted when their last one closed
(:func:`take_changes`, :func:`write`). Every :data:`REFRESH_SECONDS` the beat refreshes all of
the process's rows in one ``UPDATE`` and deletes the rows of dead processes (:func:`refresh`). A
process that died without closing its sockets leaves rows that stop counting after
:func:`stale_after`. So being online costs a few writes a second per process, not one per
socket or page view, and reading it is one indexed query (:func:`online_among`).

Who may see whom online is asked of ``games.core.relations`` (kind ``see_online``).
"""

from __future__ import annotations

import collections
import uuid
from collections.abc import Collection
from datetime import datetime, timedelta

from django.utils import timezone

from games.core import relations
from games.core.models import Online

#: This process's id in ``Online.process``.
PROCESS = uuid.uuid4().hex
#: Seconds between two refreshes of the process's rows.
REFRESH_SECONDS = 30.0

_sockets: collections.Counter[int] = collections.Counter()
_changed: set[int] = set()


def stale_after() -> timedelta:
    """How old a row's ``seen_at`` may be and still count: two refreshes and a half."""
    return timedelta(seconds=REFRESH_SECONDS * 2.5)


def opened(user_id: int) -> None:
    """A socket of ``user_id`` opened in this process (on the event loop)."""
    _sockets[user_id] += 1
    if _sockets[user_id] == 1:
        _changed.add(user_id)


def closed(user_id: int) -> None:
    """A socket of ``user_id`` opened with :func:`opened` closed (on the event loop)."""
    _sockets[user_id] -= 1
    if _sockets[user_id] <= 0:
        del _sockets[user_id]
        _changed.add(user_id)


def take_changes() -> tuple[frozenset[int], frozenset[int]]:
    """``(came, went)``: the users whose first socket opened and those whose last one closed
    since the last call (on the event loop; :func:`give_back` when writing them failed)."""
    changed = set(_changed)
    _changed.clear()
    came = frozenset(u for u in changed if _sockets.get(u))
    return came, frozenset(changed - came)


def give_back(came: Collection[int], went: Collection[int]) -> None:
    """Changes :func:`write` could not write: taken again at the next beat."""
    _changed.update(came)
    _changed.update(went)


def write(came: Collection[int], went: Collection[int], now: datetime | None = None) -> None:
    """Write the changes: rows for ``came``, none for ``went`` (two queries at most)."""
    now = timezone.now() if now is None else now
    if went:
        Online.objects.filter(process=PROCESS, user_id__in=list(went)).delete()
    if came:
        Online.objects.bulk_create(
            [Online(user_id=u, process=PROCESS, seen_at=now) for u in came],
            update_conflicts=True, unique_fields=["user", "process"], update_fields=["seen_at"],
        )


def refresh(now: datetime | None = None) -> None:
    """This process's rows are still true (one ``UPDATE``); dead processes' rows go (one
    ``DELETE``)."""
    now = timezone.now() if now is None else now
    Online.objects.filter(process=PROCESS).update(seen_at=now)
    Online.objects.filter(seen_at__lt=now - stale_after()).delete()


def online_users(user_ids: Collection[int], now: datetime | None = None) -> set[int]:
    """Which of ``user_ids`` are online, whoever asks (one query)."""
    if not user_ids:
        return set()
    now = timezone.now() if now is None else now
    return set(
        Online.objects.filter(user_id__in=list(user_ids), seen_at__gt=now - stale_after())
        .values_list("user_id", flat=True)
        .distinct()
    )


def online_among(viewer_id: int | None, user_ids: Collection[int], now: datetime | None = None) -> set[int]:
    """Which of ``user_ids`` the user ``viewer_id`` (``None``: an anonymous visitor) sees online:
    those online (:func:`online_users`) whom ``games.core.relations`` does not bar from it
    (kind ``see_online``, the viewer the actor; an anonymous visitor is asked as user 0)."""
    online = online_users(user_ids, now)
    if not online:
        return online
    hidden = relations.barred("see_online", viewer_id or 0, online)
    return online - set(hidden)
