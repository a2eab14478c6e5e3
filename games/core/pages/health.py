"""``GET /health/``: whether this server can do its work, for the proxy and monitoring.

``{"database": "ok"|"down", "layer": "ok"|"down"|"in-memory", "clock": "ok"|"late"|"unknown"}``
with status 200 when all are fine (``"in-memory"``: the one-process layer without
``REDIS_URL``, fine) and 503 otherwise. No log-in, and nothing read from or written to the
session or the cache (the page must answer while Redis is down): the view never touches
``request.session``, so no session is loaded or saved and no cookie is set.
"""

from __future__ import annotations

from datetime import datetime

from django.db import DatabaseError, connection
from django.http import HttpRequest, JsonResponse
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from games.core.state import broadcast, liveness

#: The values of each part that count as fine.
FINE = {"database": {"ok"}, "layer": {"ok", "in-memory"}, "clock": {"ok"}}


def database() -> str:
    """``"ok"`` if ``SELECT 1`` answers, else ``"down"``."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    except DatabaseError:
        return "down"
    return "ok"


def clock(last_tick: datetime | None, now: datetime) -> str:
    """``"ok"`` if the table clock's last tick ended within ``liveness.outage_after()``
    (``BASRA_CLOCK_OUTAGE_SECONDS``, 5 s) of ``now``, ``"late"`` if before, ``"unknown"`` if
    it never ran or the database cannot say."""
    if last_tick is None:
        return "unknown"
    return "ok" if now - last_tick <= liveness.outage_after() else "late"


@never_cache
@require_GET
def health(request: HttpRequest) -> JsonResponse:
    """The state of the database, the channel layer and the clock (see the module)."""
    state = {"database": database(), "layer": broadcast.probe_layer(), "clock": "unknown"}
    if state["database"] == "ok":
        try:
            state["clock"] = clock(liveness.clock_last_ran(), timezone.now())
        except DatabaseError:
            pass
    fine = all(state[part] in values for part, values in FINE.items())
    return JsonResponse(state, status=200 if fine else 503)
