"""What the tournaments tell their players live, on whatever page of the site they are: the
site's notice socket (``games.core.state.notices.send_notice``, ``/ws/me/``; ``docs/protocol.md``,
"Notices"). Every notice is sent after the commit of the change it tells of (nothing for a
rolled-back one).

Kinds (payloads are JSON; the page, ``static/tournaments/notify.js``, words them in its own
language, through the ``/jsi18n/`` catalogue):

- ``tournament_table``, to every player seated at a table the event just opened (a round's
  pairing, an arena wave, the next match of a best-of-3 pairing, an aborted match set up
  again): :func:`table_payload`. Also offered by :func:`pending_tables` (a pending provider,
  registered in ``TournamentsConfig.ready()``) to every page opened while the table is played.
- ``tournament_table_over``, to the same players when that table no longer counts (its
  result is recorded, or the pairing was decided without it: a forfeit, a withdrawal):
  ``{"match_id", "tournament_id"}``.
- ``tournament_news``, ``{"tournament_id", "event", "event_url", "news", "round"}``: ``news``
  ``"started"`` (to every entrant's players, at the start), ``"bye"`` (to the entrant's
  players: a bye in round ``round``, a win) or ``"finished"`` (to every active entrant's
  players when the event ends), ``"cancelled"`` and ``"removed"`` (before the start), or
  ``"edited"`` (the settings changed before the start, :func:`tell_edit`: with ``"changes"``
  and ``"starts_at"``); ``"arbiter"``, to a user the organiser named an arbiter.
- ``tournament_invite``, to a player invited as a partner (``registration.register``):
  ``{"tournament_id", "event", "event_url", "entrant_id", "inviter"}`` (the inviter's
  username); the event page has the Accept and Decline buttons.
- ``tournament_declined``, to the inviter when the invited partner declines
  (``registration.decline_partner``): ``{"tournament_id", "event", "event_url", "partner"}``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.urls import reverse

from games.core.for_apps import Match, absent_grace, send_notice
from games.tournaments.models import Entrant, Game, Pairing, Tournament

TABLE = "tournament_table"
TABLE_OVER = "tournament_table_over"
NEWS = "tournament_news"
INVITE = "tournament_invite"
DECLINED = "tournament_declined"

#: The most tables :func:`pending_tables` offers one player (newest first).
PENDING_LIMIT = 5


def member_ids(e: Entrant) -> list[int]:
    """The user ids who play for entrant ``e``: the player, and the partner if any."""
    return [e.user_id] + ([e.partner_id] if e.partner_id is not None else [])


def table_payload(t: Tournament, p: Pairing, game: Game) -> dict:
    """A ``tournament_table`` notice's payload: ``{"match_id", "url" (the table page),
    "tournament_id", "event" (its name), "event_url", "round" (the round's number; ``None`` in
    an arena, which has no rounds), "game" (the match's number within its pairing, 1 unless a
    best-of-3 or an aborted match set up again), "wait_seconds" (how long after its opening
    a player has to come before losing by default: ``noshow.wait``, the core's absence grace;
    an integer)}``."""
    return {
        "match_id": game.match_id,
        "url": reverse("table", args=[game.match_id]),
        "tournament_id": t.pk,
        "event": t.name,
        "event_url": reverse("tournament", args=[t.pk]),
        "round": None if t.format == Tournament.Format.ARENA else p.round.number,
        "game": game.number,
        # noshow.wait's value; noshow imports this module, so it is read from the core here.
        "wait_seconds": int(absent_grace().total_seconds()),
    }


def tell_table(t: Tournament, p: Pairing, game: Game, user_ids: Iterable[int]) -> None:
    """Tell each of ``user_ids`` (the players seated at ``game``) that their table is ready
    (``tournament_table``), after the commit."""
    payload = table_payload(t, p, game)
    for user_id in user_ids:
        send_notice(user_id, TABLE, payload)


def tell_table_over(p: Pairing, match_ids: Iterable[int]) -> None:
    """Tell the players of pairing ``p`` that its tables ``match_ids`` no longer wait for them
    (``tournament_table_over``), after the commit."""
    players = member_ids(p.a) + (member_ids(p.b) if p.b_id is not None else [])
    for match_id in match_ids:
        for user_id in players:
            send_notice(user_id, TABLE_OVER, {"match_id": match_id, "tournament_id": p.tournament_id})


def tell_news(
    t: Tournament, entrants: Iterable[Entrant], news: str, *, round_number: int | None = None,
    **extra: Any,
) -> None:
    """Tell the players of ``entrants`` the event's ``news`` (``"started"``, ``"bye"``,
    ``"finished"``, ``"cancelled"``, ``"removed"``, ``"edited"``; ``tournament_news``), after
    the commit; ``extra``: more keys of the payload (JSON values)."""
    payload = _event(t) | {"news": news, "round": round_number} | extra
    for e in entrants:
        for user_id in member_ids(e):
            send_notice(user_id, NEWS, payload)


def tell_edit(t: Tournament, entrants: Iterable[Entrant], changes: list[str]) -> None:
    """Tell the players of ``entrants`` that the organiser changed the event's settings before
    its start (``tournament_news``, news ``"edited"``), after the commit: the payload also has
    ``"changes"``, the changed fields' names (``Tournament`` field names, in the order
    ``registration.event_settings`` gives them; the page words them, ``slots.notice_config``)
    and ``"starts_at"``, the start in ISO 8601 (with its offset) whether it changed or not (the page shows it in the reader's own zone)."""
    tell_news(t, entrants, "edited", changes=changes, starts_at=t.starts_at.isoformat())


def _event(t: Tournament) -> dict:
    return {"tournament_id": t.pk, "event": t.name, "event_url": reverse("tournament", args=[t.pk])}


def tell_arbiter(t: Tournament, arbiter: Any) -> None:
    """Tell ``arbiter`` (a user) that the organiser named them an arbiter of ``t``
    (``tournament_news``, news ``"arbiter"``), after the commit."""
    send_notice(arbiter.pk, NEWS, _event(t) | {"news": "arbiter", "round": None})


def tell_invitation(t: Tournament, entrant: Entrant) -> None:
    """Tell the partner ``entrant``'s player invited that an invitation waits for their
    answer (``tournament_invite``), after the commit."""
    payload = _event(t) | {"entrant_id": entrant.pk, "inviter": entrant.user.get_username()}
    send_notice(entrant.partner_id, INVITE, payload)


def tell_declined(t: Tournament, entrant: Entrant) -> None:
    """Tell ``entrant``'s player that the partner they invited declined
    (``tournament_declined``), after the commit."""
    payload = _event(t) | {"partner": entrant.partner.get_username()}
    send_notice(entrant.user_id, DECLINED, payload)


def pending_tables(user: Any) -> list[tuple[str, dict]]:
    """The tournament tables ``user`` is seated at that are being played now and still count
    (a pending provider, ``games.core.state.notices.register_pending``): ``("tournament_table",
    table_payload)``, newest first, at most :data:`PENDING_LIMIT`. One query."""
    games = (
        Game.objects.filter(
            winner__isnull=True, aborted=False, pairing__finished_at__isnull=True,
            match__status=Match.Status.PLAYING, match__seats__user_id=user.pk,
        )
        .select_related("pairing__tournament", "pairing__round")
        .order_by("-pk")[:PENDING_LIMIT]
    )
    return [(TABLE, table_payload(g.pairing.tournament, g.pairing, g)) for g in games]
