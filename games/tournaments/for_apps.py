"""What the tournaments app publishes for the other apps built on the core (``games.queues``),
and nothing else.

Those apps import the tournaments app only from here; ``lint-imports`` checks it
(``pyproject.toml``, "The apps import nothing of each other but their for_apps"). An app that
needs more of the tournaments gets it added here, with a line below, where their authors see
what others rely on.

- Who is busy with an event: ``engaged`` (playing in a running event, or wanted by a table of
  one; ``games.tournaments.busy``, whose rule is that a player sits at one tournament table at
  a time).
- An event's JSON read (``docs/tournaments.md``, "JSON read"), for the public API:
  ``event_json`` (``None``: no such event).
- The entrant rows, for an app that listens to their ``post_save`` (the people app tells a
  player's friends that they entered an event): ``Entrant``.
- Withdrawing a player from every event not over, as closing their account does (a
  moderator's ranked ban, ``games.moderation``): ``withdraw_everywhere``.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db.models import Q

from games.tournaments import busy, crosstable, exports, registration
from games.tournaments.models import Entrant, Tournament

__all__ = ["Entrant", "engaged", "event_json", "withdraw_everywhere"]


def withdraw_everywhere(user) -> None:
    """Withdraw ``user`` from each event not over they are entered in (an upcoming event's
    entry removed; a running event's entrant withdrawn, its live table decided for the
    opponent): ``registration.withdraw_closing``'s rule."""
    registration.withdraw_closing(None, user)


def event_json(tournament_id: int) -> dict | None:
    """The JSON read of event ``tournament_id`` as ``/tournaments/<id>/event.json`` serves it,
    or ``None`` when there is no such event."""
    t = Tournament.objects.filter(pk=tournament_id).first()
    return None if t is None else exports.event_json(crosstable.build(t))


def entered(user_id: int) -> bool:
    """Whether ``user_id`` is entered (active or invited, as a player or a partner) in an event
    not over (upcoming or running). One query."""
    return Entrant.objects.filter(
        Q(user_id=user_id) | Q(partner_id=user_id),
        status__in=(Entrant.Status.ACTIVE, Entrant.Status.INVITED),
        tournament__status__in=(Tournament.Status.UPCOMING, Tournament.Status.RUNNING),
    ).exists()


def engaged(user_ids: Iterable[int]) -> set[int]:
    """Which of ``user_ids`` play in a running event (an active entrant not marked absent
    after a no-show, as a player or a partner: an absent one is free until it rejoins) or are
    wanted by one: seated at one of its tables being played, or in a pairing of
    it that waits for its table (``busy.engaged``, every event counting). Two to three queries.
    """
    ids = set(user_ids)
    if not ids:
        return set()
    entrants = Entrant.objects.filter(
        Q(user_id__in=ids) | Q(partner_id__in=ids), status=Entrant.Status.ACTIVE, absent=False,
        tournament__status=Tournament.Status.RUNNING,
    ).values_list("user_id", "partner_id")
    out = {u for row in entrants for u in row if u in ids}
    # tournament_id 0 is no event's: every event counts.
    out |= set(busy.engaged(ids - out, tournament_id=0))
    return out
