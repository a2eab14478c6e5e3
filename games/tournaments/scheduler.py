"""What time alone changes in the events: ``manage.py run_tournaments`` (and ``manage.py
serve``) call :func:`tick` (``games.tournaments.services``)."""

from __future__ import annotations

from datetime import datetime

from django.db.models import Exists, OuterRef
from django.utils import timezone

from games.actions.store import write_transaction
from games.tournaments.checks import Format, lock, locked_pairing
from games.tournaments.errors import Code, TournamentError
from games.tournaments.models import Game, Pairing, Tournament
from games.tournaments.rounds import start
from games.tournaments.tables import finish_event, open_table, unfinished


def tick(now: datetime | None = None) -> dict[str, int]:
    """What time alone changes: start the events whose time has come (cancel those with fewer
    than 2 entrants), end the arenas whose time is up once their last match ended, and open the
    tables the core refused before. Run by ``manage.py run_tournaments`` (the core's clock
    never imports this app).

    :returns: counts ``{"started", "cancelled", "finished", "tables"}``.
    """
    now = timezone.now() if now is None else now
    counts = {"started": 0, "cancelled": 0, "finished": 0, "tables": 0}
    due = Tournament.objects.filter(status=Tournament.Status.UPCOMING, starts_at__lte=now)
    for tournament_id in due.values_list("pk", flat=True):
        try:
            start(user=None, tournament_id=tournament_id, now=now)
            counts["started"] += 1
        except TournamentError as error:
            if error.code == Code.TOO_FEW_ENTRANTS:
                with write_transaction():
                    t = lock(tournament_id)
                    if t.status == Tournament.Status.UPCOMING:
                        t.status = Tournament.Status.CANCELLED
                        t.finished_at = now
                        t.save(update_fields=["status", "finished_at"])
                        counts["cancelled"] += 1
    ended = Tournament.objects.filter(
        status=Tournament.Status.RUNNING, format=Format.ARENA, ends_at__lte=now
    )
    for tournament_id in ended.values_list("pk", flat=True):
        with write_transaction():
            t = lock(tournament_id)
            if t.status == Tournament.Status.RUNNING and not unfinished(t).exists():
                finish_event(t, now)
                counts["finished"] += 1
    waiting = (
        Pairing.objects.filter(
            tournament__status=Tournament.Status.RUNNING, finished_at__isnull=True,
            b__isnull=False,
        )
        .exclude(Exists(Game.objects.filter(pairing=OuterRef("pk"), winner__isnull=True, aborted=False)))
        .values_list("pk", flat=True)
    )
    for pairing_id in waiting:
        with write_transaction():
            t, p = locked_pairing(pairing_id)
            if p.finished or p.games.filter(winner__isnull=True, aborted=False).exists():
                continue
            if open_table(t, p, (p.games.count() or 0) + 1, now) is not None:
                counts["tables"] += 1
    return counts
