"""What follows a result, after the ending's commit (issue 20, "Endings do only the ending's
work").

A match's ending records the tournament's result rows inside its transaction
(``rounds.record_result``: the game's winner or its abort, the pairing's result) and nothing
else; every table that the result calls for (the next Swiss or round-robin round, the bracket's
next round, an arena wave, the next match of a best-of-3 pairing, an aborted match set up
again) is opened afterwards by ``scheduler.catch_up``, in a transaction of its own per event,
deciding from the stored rows what is missing (so running it twice opens nothing twice).

:func:`wake` asks for that step once the current transaction commits (nothing for a rolled-back
one). The step runs where a *waker* is installed (:func:`install`): in a web server process the
scheduler's own thread (``scheduler.start_in_server``), never the sockets' database threads, so
the finishing play's state goes back to its socket without waiting for the next round's
tables. A process with no waker (``manage.py run_clock``, a shell, the tests) leaves it to the
scheduler's next tick, which runs the same step for every running event: that is also what
finishes the work of a process that stopped between the commit and the step.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from django.db import transaction

_waker: Callable[[int], None] | None = None
_lock = threading.Lock()


def install(waker: Callable[[int], None] | None) -> Callable[[int], None] | None:
    """Make ``waker(tournament_id)`` (called from any thread, it must not block) what
    :func:`wake` calls after each commit in this process; ``None`` uninstalls it. Returns the
    waker it replaced."""
    global _waker
    with _lock:
        previous, _waker = _waker, waker
    return previous


def wake(tournament_id: int) -> None:
    """Ask for what follows a result of event ``tournament_id`` (``scheduler.catch_up``) once
    the current transaction commits (at once outside one). Without a waker in this process,
    nothing: the scheduler's next tick does it."""

    def woken() -> None:
        waker = _waker
        if waker is not None:
            waker(tournament_id)

    transaction.on_commit(woken)
