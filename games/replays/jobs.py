"""Running analyses in the background, never in a web request (issue 12, "Analysis").

:func:`request_analysis` stores an :class:`~games.replays.models.Analysis` row, ``pending``.
Who runs it:

- with ``BASRA_ANALYSIS_IN_SERVER`` on (the default), the web process that took the request hands
  it, once the request's transaction is committed, to one background thread of its own
  (:func:`start_in_background`), which gives the plays to a process pool
  (``BASRA_ANALYSIS_WORKERS`` processes, by default one per core, started with ``spawn`` like
  ``games.thinking``'s): the web process's event loop and database thread are never held;
- with it off, ``manage.py run_analyses`` (a worker of its own, on another machine if need be)
  picks the pending rows up.

Either way :func:`run_analysis` claims a row (``pending`` → ``running``, one update, so two
runners never analyse the same match), writes its progress every few plays, and stores the
result once done.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import threading
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor

from django.conf import settings
from django.db import close_old_connections, connection, transaction
from django.utils import timezone

from games import records
from games.engine import BasraError
from games.models import Match
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
    """The process pool plays are analysed in (started on first use, kept for the process)."""
    global _pool
    with _lock:
        if _pool is None:
            _pool = ProcessPoolExecutor(
                max_workers=worker_count(), mp_context=multiprocessing.get_context("spawn")
            )
        return _pool


def request_analysis(*, match: Match | None = None,
                     imported: ImportedRecord | None = None) -> Analysis:
    """The analysis of ``match`` (finished) or of ``imported``: the stored one, or a new
    ``pending`` one (a ``failed`` one is asked for again), started in the background when the
    transaction commits if this process runs analyses (:func:`in_server`).

    :raises ValueError: neither or both given, or the match is not finished.
    """
    if (match is None) == (imported is None):
        raise ValueError("analyse a match or an imported record, one of the two")
    if match is not None and match.status != Match.Status.FINISHED:
        raise ValueError("a match is analysed once it is over")
    key = {"match": match} if match is not None else {"imported": imported}
    row, created = Analysis.objects.get_or_create(**key)
    if not created and row.status == Analysis.Status.FAILED:
        row.status, row.error, row.done = Analysis.Status.PENDING, "", 0
        row.save(update_fields=["status", "error", "done"])
    if row.status == Analysis.Status.PENDING and in_server():
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
        return records.match_record(row.match)
    return row.imported.record


def run_analysis(pk: int, *, executor: Executor | None = None) -> bool:
    """Claim the pending analysis ``pk`` and run it (see the module); ``False`` if it was not
    pending (another runner has it, or it is done).

    Progress (``done``, ``total``) is written every few plays; the result when done; a record the
    engine refuses (never one the site wrote) marks the row ``failed`` with the engine's error.
    """
    if not connection.in_atomic_block:  # a test's transaction: keep its connection
        close_old_connections()
    claimed = Analysis.objects.filter(pk=pk, status=Analysis.Status.PENDING).update(
        status=Analysis.Status.RUNNING, started_at=timezone.now(), done=0
    )
    if not claimed:
        return False
    row = Analysis.objects.select_related("match", "imported").get(pk=pk)

    def progress(done: int, total: int) -> None:
        Analysis.objects.filter(pk=pk).update(done=done, total=total)

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
    """Run the pending analyses, oldest first (``manage.py run_analyses``); how many ran."""
    ran = 0
    for pk in Analysis.objects.filter(status=Analysis.Status.PENDING).order_by(
        "requested_at"
    ).values_list("pk", flat=True)[:limit]:
        ran += run_analysis(pk, executor=executor)
    return ran
