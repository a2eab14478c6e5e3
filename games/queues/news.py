"""What the queues tell their players live, on whatever page of the site they are: the site's
notice socket (``games.core.for_apps.send_notice``, ``/ws/me/``; ``docs/protocol.md``, "Queues").
Every notice is sent after the commit of the change it tells of.

Kinds (the page, ``static/queues/notify.js``, words them through the
``/jsi18n/`` catalogue):

- ``queue_paired``, to every player a wave seated: :func:`paired_payload`. The page goes to the
  table at once. Also offered by :func:`pending_tables` to every page opened while the table
  waits for its players (until settled).
- ``queue_requeued``, to a player whose opponent did not come to the table:
  ``{"players", "move_seconds", "url"}`` (the "Play now" page); they are back at the front of
  the queue.
- ``queue_invite``, to a player invited as a partner: ``{"inviter", "move_seconds", "url"}``.
"""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from games.core.for_apps import Match, send_notice

PAIRED = "queue_paired"
REQUEUED = "queue_requeued"
INVITE = "queue_invite"


def paired_payload(match_id: int, players: int, move_seconds: int) -> dict:
    """A ``queue_paired`` payload: ``{"match_id", "url" (the table page), "players",
    "move_seconds"}``."""
    return {"match_id": match_id, "url": reverse("table", args=[match_id]), "players": players,
            "move_seconds": move_seconds}


def tell_paired(user_ids, match_id: int, players: int, move_seconds: int) -> None:
    """Tell each of ``user_ids`` that a wave seated them at ``match_id``, after the commit."""
    payload = paired_payload(match_id, players, move_seconds)
    for user_id in user_ids:
        send_notice(user_id, PAIRED, payload)


def tell_requeued(user_id: int, players: int, move_seconds: int) -> None:
    """Tell ``user_id`` that their opponent did not come and they wait again, at the front."""
    send_notice(user_id, REQUEUED, {"players": players, "move_seconds": move_seconds,
                                    "url": reverse("queues")})


def tell_invite(user_id: int, inviter: str, move_seconds: int) -> None:
    """Tell ``user_id`` that ``inviter`` asks them to wait together (partnership queue)."""
    send_notice(user_id, INVITE, {"inviter": inviter, "move_seconds": move_seconds,
                                  "url": reverse("queues")})


def pending_tables(user: Any) -> list[tuple[str, dict]]:
    """The queue tables ``user`` is seated at that still wait for their players (not settled,
    being played): ``("queue_paired", paired_payload)``, newest first, at most 2. One query."""
    from games.queues.models import QueueTable

    rows = (
        QueueTable.objects.filter(settled=False, match__status=Match.Status.PLAYING,
                                  match__seats__user_id=user.pk)
        .order_by("-pk").values_list("match_id", "players", "move_seconds")[:2]
    )
    return [(PAIRED, paired_payload(*row)) for row in rows]
