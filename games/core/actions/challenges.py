"""Challenges: a player challenges another, from the other's profile, to a two-player match;
the other accepts (a table starts with both seated) or declines; the challenger may cancel; an
unanswered challenge expires after ``settings.BASRA_CHALLENGE_SECONDS``.

Both players hear of every step at once, wherever they are on the site, through their notice
sockets (``games.core.state.notices.send_notice``, sent after the commit; ``docs/protocol.md``,
"Notices"): kinds ``challenge`` (to the challenged player: a new challenge), ``challenge_sent``
(to the challenger's other pages), ``challenge_answer`` (to both: accepted with the table's
``url``, declined, cancelled). A challenge still waiting is offered again on every page the two
open (:func:`pending_notices`, a pending provider).

Every answer locks the challenge row (``select_for_update`` in ``store.write_transaction``; on
SQLite the write lock is taken at ``BEGIN``) and checks its status first, so two clicks (or an
accept racing a cancel) decide once: the second is refused with ``challenge_answered`` and
nothing changes; a double click never opens two tables.

Only two-player challenges: partners and opponents for four are found in the lobby
(``challenge_two_players``).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone

from games import engine
from games.core import relations, standing
from games.core.actions.funnel import require_login
from games.core.actions.seating import _check_clock, _client_seed, check_rated_target, create_table
from games.core.actions.store import write_transaction
from games.core.errors import GameError
from games.core.models import Challenge
from games.core.state.notices import send_notice


def challenge_seconds() -> float:
    """How long a challenge waits for its answer (``settings.BASRA_CHALLENGE_SECONDS``, s)."""
    return settings.BASRA_CHALLENGE_SECONDS


def describe(challenge: Challenge) -> dict:
    """A challenge as the notices carry it: ``{"id", "from", "to", "rated", "move_seconds",
    "target", "rules", "status", "expires_at" (ISO 8601), "url" (the table, once accepted)}``;
    ``from``/``to`` are usernames."""
    return {
        "id": challenge.pk,
        "from": challenge.challenger.get_username(),
        "to": challenge.challenged.get_username(),
        "rated": challenge.rated,
        "move_seconds": challenge.move_seconds,
        "target": challenge.rules.get("target"),
        "rules": challenge.rules,
        "status": str(challenge.status),
        "expires_at": challenge.expires_at.isoformat(),
        "url": (
            reverse("table", kwargs={"match_id": challenge.match_id})
            if challenge.match_id
            else None
        ),
    }


#: What one player may send (:func:`check_challenge_rate`): challenges waiting for an answer
#: at once, and challenges sent within :data:`CHALLENGE_WINDOW` to anybody and to one player
#: (a cancelled one counts: cancel-and-send-again put a new pop-up on the other's every page).
CHALLENGES_WAITING = 5
CHALLENGES_PER_WINDOW = 10
CHALLENGES_TO_ONE_PER_WINDOW = 3
CHALLENGE_WINDOW = timedelta(minutes=10)


def check_challenge_rate(user: Any, other: Any, now: datetime) -> None:
    """Refuse a challenge from ``user`` to ``other`` beyond the limits above: more than
    :data:`CHALLENGES_WAITING` waiting, or :data:`CHALLENGES_PER_WINDOW` sent (to
    :data:`CHALLENGES_TO_ONE_PER_WINDOW` to ``other``) in the last :data:`CHALLENGE_WINDOW`.

    :raises GameError: ``challenge_too_many``.
    """
    sent = Challenge.objects.filter(challenger=user)
    recent = sent.filter(created_at__gt=now - CHALLENGE_WINDOW)
    if (
        sent.filter(status=Challenge.Status.PENDING, expires_at__gt=now).count()
        >= CHALLENGES_WAITING
        or recent.count() >= CHALLENGES_PER_WINDOW
        or recent.filter(challenged=other).count() >= CHALLENGES_TO_ONE_PER_WINDOW
    ):
        raise GameError("challenge_too_many")


def create_challenge(
    *,
    user: Any,
    username: str,
    rules: dict,
    rated: bool,
    move_seconds: int | None,
    client_seed: str | None = None,
    now: datetime | None = None,
) -> Challenge:
    """``user`` challenges the player ``username`` to a two-player match.

    :param rules: ``Rules`` fields as ``create_table`` takes them; ``players`` must be 2 (or
        absent).
    :param client_seed: the challenger's client seed for the fair shuffle (``None``: drawn).
    :returns: the pending :class:`Challenge`; the challenged player is sent a ``challenge``
        notice after the commit.
    :raises GameError: ``login_required``; ``player_not_found`` (no such active player);
        ``challenge_self``; ``ranked_banned`` (a rated challenge from or to a player barred
        from rated play, ``games.core.standing``; accepting a rated one sent before the ban
        refuses it for either player: ``create_table``); ``challenge_two_players``; ``bad_rules``; ``rated_target_too_low``
        (a rated match to under 61 points, ``seating.check_rated_target``); ``bad_clock``;
        ``challenge_pending`` (a challenge of ``user`` to that player still waits);
        ``challenge_too_many`` (:func:`check_challenge_rate`); a ``client_seed_*`` code;
        ``challenge_not_accepted`` (the player's settings refuse it: ``games.core.relations``,
        ``REFUSED``). A challenge to a player who blocked ``user`` (``SILENT``) is made as any
        other, but never offered to that player: it waits unanswered, then expires.
    """
    require_login(user)
    now = timezone.now() if now is None else now
    seed = _client_seed(client_seed)
    if not isinstance(rules, dict):
        raise GameError("bad_rules")
    options = dict(rules)
    if options.pop("players", 2) != 2:
        raise GameError("challenge_two_players")
    try:
        checked = engine.Rules(players=2, **options).to_dict()
    except (TypeError, ValueError):
        raise GameError("bad_rules") from None
    check_rated_target(bool(rated), checked["target"])
    _check_clock(bool(rated), move_seconds)
    other = get_user_model().objects.filter(username=username, is_active=True).first()
    if other is None:
        raise GameError("player_not_found")
    if other.pk == user.pk:
        raise GameError("challenge_self")
    standing.check_rated(bool(rated), [user.pk, other.pk])
    verdict = relations.barred("challenge", user.pk, (other.pk,)).get(other.pk)
    if verdict == relations.REFUSED:
        raise GameError("challenge_not_accepted")
    with write_transaction():
        waiting = Challenge.objects.select_for_update().filter(
            challenger=user, challenged=other, status=Challenge.Status.PENDING,
            expires_at__gt=now,
        )
        if waiting.exists():
            raise GameError("challenge_pending")
        check_challenge_rate(user, other, now)
        challenge = Challenge.objects.create(
            challenger=user, challenged=other, rules=checked, rated=bool(rated),
            move_seconds=move_seconds, challenger_seed=seed,
            expires_at=now + timedelta(seconds=challenge_seconds()),
        )
        payload = describe(challenge)
        if verdict != relations.SILENT:
            send_notice(other.pk, "challenge", payload)
        send_notice(user.pk, "challenge_sent", payload)
    return challenge


def _locked(challenge_id: Any) -> Challenge:
    """The challenge row, locked. :raises GameError: ``challenge_not_found``."""
    if isinstance(challenge_id, bool) or not isinstance(challenge_id, int):
        raise GameError("challenge_not_found")
    challenge = (
        Challenge.objects.select_for_update()
        .select_related("challenger", "challenged")
        .filter(pk=challenge_id)
        .first()
    )
    if challenge is None:
        raise GameError("challenge_not_found")
    return challenge


def _check_open(challenge: Challenge, now: datetime) -> None:
    if challenge.status != Challenge.Status.PENDING:
        raise GameError("challenge_answered")
    if now >= challenge.expires_at:
        raise GameError("challenge_expired")


def _tell_both(challenge: Challenge, *, unless_silent: bool = False) -> None:
    """Send both players ``challenge_answer``; with ``unless_silent``, not the challenged one
    when they blocked the challenger (they never saw the challenge: ``games.core.relations``)."""
    payload = describe(challenge)
    to = [challenge.challenger_id, challenge.challenged_id]
    if unless_silent and relations.barred(
        "challenge", challenge.challenger_id, (challenge.challenged_id,)
    ).get(challenge.challenged_id) == relations.SILENT:
        to.pop()
    for user_id in to:
        send_notice(user_id, "challenge_answer", payload)


def _answerer(user: Any, challenge: Challenge) -> None:
    if challenge.challenger_id == user.pk:
        raise GameError("challenge_own")
    if challenge.challenged_id != user.pk:
        raise GameError("challenge_not_yours")


def accept_challenge(
    *, user: Any, challenge_id: int, client_seed: str | None = None,
    now: datetime | None = None,
) -> Challenge:
    """The challenged player accepts: a table with the challenger in seat 0 and ``user`` in
    seat 1 starts at once (``create_table`` with ``people``); both are sent
    ``challenge_answer`` (status ``accepted``, the table's ``url``).

    :returns: the challenge, ``match`` set.
    :raises GameError: ``login_required``; ``challenge_not_found``; ``challenge_own``;
        ``challenge_not_yours``; ``challenge_answered`` (accepted, declined or cancelled
        already: a second click); ``challenge_expired``; a ``client_seed_*`` code; what
        ``create_table`` raises (``bad_clock``; ``rated_target_too_low``, a challenge sent
        before rated tables had to play to 61 ...). Nothing changes on any of them.
    """
    require_login(user)
    seed = _client_seed(client_seed)
    now = timezone.now() if now is None else now
    with write_transaction():
        challenge = _locked(challenge_id)
        _answerer(user, challenge)
        _check_open(challenge, now)
        match = create_table(
            user=challenge.challenger, players=2, rules=challenge.rules, rated=challenge.rated,
            move_seconds=challenge.move_seconds, client_seed=challenge.challenger_seed,
            people={1: (user, seed)}, now=now,
        )
        challenge.status, challenge.match = Challenge.Status.ACCEPTED, match
        challenge.save(update_fields=["status", "match"])
        _tell_both(challenge)
    return challenge


def decline_challenge(*, user: Any, challenge_id: int, now: datetime | None = None) -> Challenge:
    """The challenged player declines; both are sent ``challenge_answer`` (``declined``).

    :raises GameError: as :func:`accept_challenge` (no seed, no table).
    """
    require_login(user)
    now = timezone.now() if now is None else now
    with write_transaction():
        challenge = _locked(challenge_id)
        _answerer(user, challenge)
        _check_open(challenge, now)
        challenge.status = Challenge.Status.DECLINED
        challenge.save(update_fields=["status"])
        _tell_both(challenge)
    return challenge


def cancel_challenge(*, user: Any, challenge_id: int, now: datetime | None = None) -> Challenge:
    """The challenger takes the challenge back; both are sent ``challenge_answer``
    (``cancelled``).

    :raises GameError: ``login_required``; ``challenge_not_found``; ``challenge_not_sender``
        (not ``user``'s challenge); ``challenge_answered``; ``challenge_expired``.
    """
    require_login(user)
    now = timezone.now() if now is None else now
    with write_transaction():
        challenge = _locked(challenge_id)
        if challenge.challenger_id != user.pk:
            raise GameError("challenge_not_sender")
        _check_open(challenge, now)
        challenge.status = Challenge.Status.CANCELLED
        challenge.save(update_fields=["status"])
        _tell_both(challenge, unless_silent=True)
    return challenge


def pending_notices(user: Any) -> list[tuple[str, dict]]:
    """The challenges still waiting that involve ``user`` (a pending provider,
    ``games.core.state.notices.register_pending``): ``("challenge", ...)`` for those sent to ``user``,
    ``("challenge_sent", ...)`` for those ``user`` sent, oldest first; a challenge from a
    player ``user`` blocked (``games.core.relations``, ``SILENT``) is not offered."""
    now = timezone.now()
    rows = (
        Challenge.objects.filter(status=Challenge.Status.PENDING, expires_at__gt=now)
        .filter(Q(challenger_id=user.pk) | Q(challenged_id=user.pk))
        .select_related("challenger", "challenged")
        .order_by("created_at", "pk")
    )
    rows = list(rows)
    senders = {row.challenger_id for row in rows if row.challenger_id != user.pk}
    silent = {
        actor for (actor, _target), verdict in relations.barriers("challenge", senders, (user.pk,)).items()
        if verdict == relations.SILENT
    }
    return [
        ("challenge_sent" if row.challenger_id == user.pk else "challenge", describe(row))
        for row in rows
        if row.challenger_id not in silent
    ]

