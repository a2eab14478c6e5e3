"""Running analyses in the background, never in a web request (issue 12, "Analysis").

:func:`request_analysis` stores an :class:`~games.replays.models.Analysis` row, ``pending``.
Who runs it:

- with ``BASRA_ANALYSIS_IN_SERVER`` on (the default), the web process that took the request hands
  it, once the request's transaction is committed, to one background thread of its own
  (:func:`start_in_background`), which gives the plays to a process pool
  (``BASRA_ANALYSIS_WORKERS`` processes, by default one per core, started with ``spawn`` like
  ``games.core.clock.thinking``'s): the web process's event loop and database thread are never held;
- with it off, ``manage.py run_analyses`` (a worker of its own, on another machine if need be)
  picks the pending rows up.

Either way :func:`run_analysis` claims a row (``pending`` → ``running``, one update, so two
runners never analyse the same match), writes its progress every few plays, and stores the
result once done.

Asking needs a login, and one player may have at most ``BASRA_ANALYSIS_PER_USER`` analyses
waiting or running at once (``games.core.errors``: ``analysis_login_required``,
``too_many_analyses``); an analysis already stored, waiting or running is given to whoever asks,
free. A worker that dies (killed, out of memory, the machine restarted) cannot say so: its row
would stay ``running`` for ever. So each claim and each progress write is a beat
(``Analysis.beat_at``), and a ``running`` row without a beat for ``BASRA_ANALYSIS_STALE_SECONDS``
is marked ``failed`` (:func:`reap_stale`, :func:`check_stale`): the page then offers to ask
again, which queues it anew.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import threading
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import close_old_connections, connection, transaction
from django.db.models import Q
from django.utils import timezone

from games.core.for_apps import (
    ErrorCode, Event, GameError, Match, end_with_parent, match_record,
)
from games.engine import BasraError
from games.replays import analysis
from games.replays.models import Analysis, ImportedRecord

logger = logging.getLogger(__name__)

_lock = threading.Lock()
_thread: ThreadPoolExecutor | None = None
_pool: ProcessPoolExecutor | None = None


def in_server() -> bool:
    """Whether the web process runs the analyses it is asked for (``BASRA_ANALYSIS_IN_SERVER``)."""
    return bool(getattr(settings, "BASRA_ANALYSIS_IN_SERVER", True))


def worker_count() -> int:
    """Processes of the analysis pool: ``BASRA_ANALYSIS_WORKERS``, else one per core."""
    return int(getattr(settings, "BASRA_ANALYSIS_WORKERS", 0) or os.cpu_count() or 1)


def pool() -> ProcessPoolExecutor:
    """The process pool plays are analysed in (started on first use, kept for the process); its
    workers end with the process, even in the middle of an analysis (``end_with_parent``)."""
    global _pool
    with _lock:
        if _pool is None:
            _pool = ProcessPoolExecutor(
                max_workers=worker_count(), mp_context=multiprocessing.get_context("spawn"),
                initializer=end_with_parent,
            )
        return _pool


def per_user() -> int:
    """Analyses one player may have waiting or running at once (``BASRA_ANALYSIS_PER_USER``)."""
    return int(getattr(settings, "BASRA_ANALYSIS_PER_USER", 2))


def stale_after() -> timedelta:
    """How long a running analysis's worker may stay silent (``BASRA_ANALYSIS_STALE_SECONDS``)."""
    return timedelta(seconds=float(getattr(settings, "BASRA_ANALYSIS_STALE_SECONDS", 120)))


def _stale(now: datetime) -> Q:
    limit = now - stale_after()
    return Q(status=Analysis.Status.RUNNING) & (
        Q(beat_at__lt=limit) | Q(beat_at__isnull=True, started_at__lt=limit)
    )


def reap_stale(now: datetime | None = None) -> int:
    """Mark ``failed`` (error :data:`Analysis.WORKER_STOPPED`) every running analysis whose worker
    gave no sign of life for :func:`stale_after`; how many. One update."""
    now = timezone.now() if now is None else now
    return Analysis.objects.filter(_stale(now)).update(
        status=Analysis.Status.FAILED, error=Analysis.WORKER_STOPPED, finished_at=now,
    )


def check_stale(row: Analysis, now: datetime | None = None) -> Analysis:
    """``row``, marked ``failed`` first if it is a stale running one (as :func:`reap_stale`, for
    this row only: what a page's poll costs)."""
    now = timezone.now() if now is None else now
    last = row.beat_at or row.started_at
    if row.status != Analysis.Status.RUNNING or (last is not None and last >= now - stale_after()):
        return row  # no write for a live one: a page polls every second
    if Analysis.objects.filter(_stale(now), pk=row.pk).update(
        status=Analysis.Status.FAILED, error=Analysis.WORKER_STOPPED, finished_at=now,
    ):
        row.refresh_from_db()
    return row


def plays_of(match: Match | None, imported: ImportedRecord | None) -> int:
    """How many plays the record of ``match`` (its ``play`` events, one query) or ``imported``
    has."""
    if match is not None:
        return Event.objects.filter(match=match, kind=Event.Kind.PLAY).count()
    return sum(len(r["plays"]) for r in imported.record["rounds"])


def request_analysis(*, user: Any, match: Match | None = None,
                     imported: ImportedRecord | None = None) -> Analysis:
    """The analysis of ``match`` (finished) or of ``imported`` that ``user`` asks for: the stored,
    waiting or running one, or a new ``pending`` one (a ``failed`` one, a stale running one
    included, is asked for again), started in the background when the transaction commits if
    this process runs analyses (:func:`in_server`).

    :raises ValueError: neither or both given, or the match is not finished.
    :raises GameError: ``analysis_login_required`` (``user`` is not logged in);
        ``too_many_analyses`` (a new analysis while :func:`per_user` of ``user``'s are waiting
        or running); ``analysis_too_long`` (more plays than ``BASRA_ANALYSIS_MAX_PLAYS``: the
        analysis is bounded in plays, so one request cannot hold the workers for hours).
        Nothing is stored then.
    """
    if (match is None) == (imported is None):
        raise ValueError("analyse a match or an imported record, one of the two")
    if match is not None and match.status != Match.Status.FINISHED:
        raise ValueError("a match is analysed once it is over")
    if user is None or not user.is_authenticated:
        raise GameError(ErrorCode.ANALYSIS_LOGIN_REQUIRED)
    if plays_of(match, imported) > settings.BASRA_ANALYSIS_MAX_PLAYS:
        raise GameError(ErrorCode.ANALYSIS_TOO_LONG)
    reap_stale()
    key = {"match": match} if match is not None else {"imported": imported}
    row = Analysis.objects.filter(**key).first()
    if row is None or row.status == Analysis.Status.FAILED:
        mine = Analysis.objects.filter(
            requested_by=user, status__in=[Analysis.Status.PENDING, Analysis.Status.RUNNING]
        ).count()
        if mine >= per_user():
            raise GameError(ErrorCode.TOO_MANY_ANALYSES)
        row, created = Analysis.objects.get_or_create(**key, defaults={"requested_by": user})
        if not created and row.status == Analysis.Status.FAILED:
            row.status, row.error, row.done, row.requested_by = (
                Analysis.Status.PENDING, "", 0, user)
            row.save(update_fields=["status", "error", "done", "requested_by"])
    if row.status == Analysis.Status.PENDING and in_server():
        # Also for a row already pending: the process that took it may have stopped before
        # running it; a second hand-over is harmless (the claim lets one runner only).
        pk = row.pk
        transaction.on_commit(lambda: start_in_background(pk))
    return row


def start_in_background(pk: int) -> None:
    """Run :func:`run_analysis` for ``pk`` in this process's analysis thread."""
    global _thread
    with _lock:
        if _thread is None:
            _thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="analysis")
        thread = _thread
    thread.submit(_in_thread, pk)


def _in_thread(pk: int) -> None:
    try:
        run_analysis(pk, executor=pool())
    except Exception:  # noqa: BLE001 - a thread has nobody to raise to: log it
        logger.exception("analysis %s failed", pk)
    finally:
        connection.close()


def record_of(row: Analysis) -> dict:
    """The ``basra-record/1`` record ``row`` analyses."""
    if row.match_id is not None:
        return match_record(row.match)
    return row.imported.record


def run_analysis(pk: int, *, executor: Executor | None = None) -> bool:
    """Claim the pending analysis ``pk`` and run it (see the module); ``False`` if it was not
    pending (another runner has it, or it is done).

    Progress (``done``, ``total``) is written every few plays; the result when done; a record the
    engine refuses (never one the site wrote) marks the row ``failed`` with the engine's error.
    """
    if not connection.in_atomic_block:  # a test's transaction: keep its connection
        close_old_connections()
    now = timezone.now()
    claimed = Analysis.objects.filter(pk=pk, status=Analysis.Status.PENDING).update(
        status=Analysis.Status.RUNNING, started_at=now, beat_at=now, done=0
    )
    if not claimed:
        return False
    row = Analysis.objects.select_related("match", "imported").get(pk=pk)

    def progress(done: int, total: int) -> None:  # also the worker's beat
        Analysis.objects.filter(pk=pk).update(done=done, total=total, beat_at=timezone.now())

    try:
        result = analysis.analyse_record(record_of(row), executor=executor, progress=progress)
    except BasraError as error:
        Analysis.objects.filter(pk=pk).update(
            status=Analysis.Status.FAILED, error=str(error), finished_at=timezone.now()
        )
        return True
    except BaseException:
        # Put it back for the next runner rather than leave it "running" for ever.
        Analysis.objects.filter(pk=pk).update(status=Analysis.Status.PENDING)
        raise
    total = len(result["plays"])
    Analysis.objects.filter(pk=pk).update(
        status=Analysis.Status.DONE, result=result, done=total, total=total,
        finished_at=timezone.now(),
    )
    return True


def run_pending(*, executor: Executor | None = None, limit: int | None = None) -> int:
    """Run the pending analyses, oldest first (``manage.py run_analyses``), after marking the
    stale running ones failed (:func:`reap_stale`); how many ran."""
    reap_stale()
    ran = 0
    for pk in Analysis.objects.filter(status=Analysis.Status.PENDING).order_by(
        "requested_at"
    ).values_list("pk", flat=True)[:limit]:
        ran += run_analysis(pk, executor=executor)
    return ran
