"""What this process knows of its database's outages, and how it tells of them: one WARNING when
the database first fails, one INFO when it answers again (issue 36), not a traceback for every
call, tick or socket that met it.

The socket actions that meet such an error are answered ``unavailable`` (a retryable refusal:
nothing was done, ``games.core.errors``); the clock, the beats and the apps' schedulers skip the
run and try again at the next. The sockets' database threads check the connections they keep
before their next call after any failure (``games.core.sockets.workers``).
"""

from __future__ import annotations

import logging
import threading

from django.db import InterfaceError, OperationalError

logger = logging.getLogger(__name__)

#: The errors that say the database cannot answer now, though the request was fine: it is down
#: or restarting (``OperationalError``: "terminating connection due to administrator command",
#: a refused connect, the pool's "couldn't get a connection"), a connection it dropped
#: (``InterfaceError``: "connection already closed"), or it gave up on the statement (a
#: deadlock, a lock or statement timeout, also ``OperationalError``s). Trying again later may
#: succeed; nothing of the failed call was committed.
UNAVAILABLE: tuple[type[Exception], ...] = (OperationalError, InterfaceError)


class Outage:
    """One service's outages in this process, as the log tells them (see the module).

    ``failures`` counts every failure noted (not only the first of an outage): what a
    connection kept from before compares with the count it last checked at.
    """

    def __init__(self, name: str) -> None:
        self.name = name
        self.failures = 0
        self._down = False
        self._lock = threading.Lock()

    @property
    def down(self) -> bool:
        """Whether the last call noted failed and none has worked since."""
        return self._down

    def failed(self, error: BaseException) -> None:
        """Note that a call failed with ``error``: a WARNING if the service was thought up (once
        per outage; the error's text on one line), nothing more otherwise. Any thread; never
        raises."""
        with self._lock:
            self.failures += 1
            first, self._down = not self._down, True
        if first:
            logger.warning(
                "%s unavailable, failing until it is back: %s: %s",
                self.name, type(error).__name__, " ".join(str(error).split()),
            )

    def works(self) -> None:
        """Note that a call worked: an INFO if the service was thought down. Any thread."""
        if not self._down:  # the common case, without the lock
            return
        with self._lock:
            was, self._down = self._down, False
        if was:
            logger.info("%s back", self.name)


#: The database (``DATABASES["default"]``), as this process's calls meet it.
database = Outage("database")
