"""The moderators' actions, each logged (``ModLog``) with its reason and its moderator:
warn, chat timeout (:data:`TIMEOUT_MINUTES` by default, for one of :data:`TIMEOUT_REASONS`),
chat ban, ranked ban (no rated play, no queues, no tournaments: ``games.core.standing``),
lifting a sanction, closing the account (for cheating too: the cheat flag and the rating
refund, ``games.moderation.refund``), and closing a report without action.

An action on a player with an open report closes the entries whose reason it answers
(:data:`ANSWERS`: a chat sanction answers insults and spam, a ranked ban boosting and
cheating, the others every entry), each with the action as its outcome; the reporters of
those entries are told that their report was acted on (not when it is closed without
action). The report stays open while any entry is; it closes, its outcome the action, with
its last open entry.

Every action takes a moderator (``is_staff``, never acting on their own account) and a
reason (at most 500 characters); on a closed account only a lift, closing the report without
action, and closing for cheating (once) are taken.
:raises ModerationError: ``mod_not_staff``; ``mod_self``; ``mod_reason_required``;
``mod_bad_action`` (a timeout reason or a sanction kind not listed); ``mod_bad_minutes``;
``mod_already_closed``; ``mod_nothing_to_lift``.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.closing import AlreadyClosed, close_account
from games.moderation import refund, sanctions, told
from games.moderation.errors import Code, ModerationError
from games.moderation.models import ModLog, Reason, Report, Sanction
from games.moderation.reports import clean_text
from games.queues import for_apps as queues
from games.tournaments import for_apps as tournaments

#: A chat timeout's length by default, and its longest.
TIMEOUT_MINUTES = 15
TIMEOUT_MAX_MINUTES = 24 * 60
#: Why a chat timeout is given (lichess's list).
TIMEOUT_REASONS = {
    "insult": _("Insults"),
    "spam": _("Spam"),
    "shaming": _("Public shaming"),
    "other": _("Other"),
}
#: The report entries' reasons each action answers (``None``: every entry).
ANSWERS: dict[str, tuple[str, ...] | None] = {
    ModLog.Action.CHAT_TIMEOUT: (Reason.INSULT, Reason.SPAM),
    ModLog.Action.CHAT_BAN: (Reason.INSULT, Reason.SPAM),
    ModLog.Action.RANKED_BAN: (Reason.BOOST, Reason.CHEAT),
    ModLog.Action.WARN: None, ModLog.Action.CLOSE: None, ModLog.Action.CLOSE_CHEAT: None,
    ModLog.Action.RESOLVE: None,
}
#: The sanctions that can be lifted.
LIFTABLE = (Sanction.Kind.CHAT_TIMEOUT, Sanction.Kind.CHAT_BAN, Sanction.Kind.RANKED_BAN)


def _check(moderator: Any, reason: Any, user: Any = None, closed_ok: bool = False) -> str:
    if moderator is None or not getattr(moderator, "is_staff", False):
        raise ModerationError(Code.NOT_STAFF)
    if user is not None and user.pk == moderator.pk:
        raise ModerationError(Code.SELF_ACTION)
    if user is not None and not closed_ok and not user.is_active:
        raise ModerationError(Code.ALREADY_CLOSED)
    try:
        reason = clean_text(reason)
    except ModerationError:
        raise ModerationError(Code.REASON_REQUIRED) from None
    if not reason or len(reason) > 500:
        raise ModerationError(Code.REASON_REQUIRED)
    return reason


def _log(moderator: Any, user: Any, action: str, reason: str, now: datetime, tell: bool = True,
         **details: Any) -> ModLog:
    """Log the action and close the entries of the player's open report it answers
    (:data:`ANSWERS`; their reporters told), the report with its last open entry."""
    report = Report.objects.select_for_update().filter(reported_id=user.pk, status=Report.Status.OPEN).first()
    if report is not None:
        answered = report.entries.filter(closed_at__isnull=True)
        if ANSWERS.get(action) is not None:
            answered = answered.filter(reason__in=ANSWERS[action])
        reporters = set(answered.values_list("reporter_id", flat=True))
        if reporters:
            answered.update(closed_at=now, outcome=action)
            details["report"] = report.pk
        if not report.entries.filter(closed_at__isnull=True).exists():
            report.status, report.closed_at, report.closed_by, report.outcome = (
                Report.Status.CLOSED, now, moderator, action,
            )
            report.save(update_fields=["status", "closed_at", "closed_by", "outcome"])
        if tell:
            for reporter in sorted(reporters):
                told.tell(reporter, "report_outcome", {"reported": user.get_username()}, now=now)
    return ModLog.objects.create(
        moderator=moderator, target=user, action=action, reason=reason, details=details, created_at=now,
    )


def warn(*, moderator: Any, user: Any, reason: Any, now: datetime | None = None) -> ModLog:
    """Warn ``user``: they are told, with the reason."""
    reason = _check(moderator, reason, user)
    now = timezone.now() if now is None else now
    with transaction.atomic():
        told.tell(user.pk, "warning", {"reason": reason}, now=now)
        return _log(moderator, user, ModLog.Action.WARN, reason, now)


def _sanction(moderator, user, kind, reason, now, until=None, **details) -> ModLog:
    """The sanction, logged; ``user`` is told of it as of a warning: a message from the
    moderators with the reason (and a timeout's end)."""
    with transaction.atomic():
        Sanction.objects.create(user=user, kind=kind, reason=reason, by=moderator, created_at=now, until=until)
        told.tell(user.pk, kind, {"reason": reason, **({"until": until.isoformat()} if until else {})}, now=now)
        return _log(moderator, user, kind, reason, now, **details)


def chat_timeout(
    *, moderator: Any, user: Any, reason: Any, timeout_reason: str = "insult",
    minutes: int = TIMEOUT_MINUTES, now: datetime | None = None,
) -> ModLog:
    """No chat from ``user`` for ``minutes`` (1 to :data:`TIMEOUT_MAX_MINUTES`; the chat refuses
    their lines with ``chat_timeout``), for one of :data:`TIMEOUT_REASONS`."""
    reason = _check(moderator, reason, user)
    if timeout_reason not in TIMEOUT_REASONS:
        raise ModerationError(Code.BAD_ACTION)
    if isinstance(minutes, bool) or not isinstance(minutes, int) or not 1 <= minutes <= TIMEOUT_MAX_MINUTES:
        raise ModerationError(Code.BAD_MINUTES, most=TIMEOUT_MAX_MINUTES)
    now = timezone.now() if now is None else now
    return _sanction(moderator, user, Sanction.Kind.CHAT_TIMEOUT, reason, now,
                     until=now + timedelta(minutes=minutes), minutes=minutes, timeout_reason=timeout_reason)


def chat_ban(*, moderator: Any, user: Any, reason: Any, now: datetime | None = None) -> ModLog:
    """No chat from ``user`` until lifted (``chat_banned``)."""
    reason = _check(moderator, reason, user)
    return _sanction(moderator, user, Sanction.Kind.CHAT_BAN, reason, timezone.now() if now is None else now)


def ranked_ban(*, moderator: Any, user: Any, reason: Any, now: datetime | None = None) -> ModLog:
    """No rated play for ``user`` until lifted: no rated tables, challenges or rematches
    (``ranked_banned``), no queues, no tournaments (they leave the queue they wait in and are
    withdrawn from the events not over they entered); off the ladders."""
    reason = _check(moderator, reason, user)
    entry = _sanction(moderator, user, Sanction.Kind.RANKED_BAN, reason, timezone.now() if now is None else now)
    # Out of what would seat them at a rated table: the queue they wait in, the events they
    # entered (each in its own app's transaction, once the ban is written).
    queues.leave(user)
    tournaments.withdraw_everywhere(user)
    return entry


def lift(*, moderator: Any, user: Any, kind: Any, reason: Any, now: datetime | None = None) -> ModLog:
    """End ``user``'s running sanctions of ``kind`` (one of :data:`LIFTABLE`)."""
    reason = _check(moderator, reason, user, closed_ok=True)
    if kind not in LIFTABLE:
        raise ModerationError(Code.BAD_ACTION)
    now = timezone.now() if now is None else now
    with transaction.atomic():
        if not sanctions.running(now).filter(user=user, kind=kind).update(lifted_at=now):
            raise ModerationError(Code.NOTHING_TO_LIFT)
        return ModLog.objects.create(
            moderator=moderator, target=user, action=ModLog.Action.LIFT, reason=reason,
            details={"kind": kind}, created_at=now,
        )


def close(*, moderator: Any, user: Any, reason: Any, cheat: bool = False, now: datetime | None = None) -> ModLog:
    """Close ``user``'s account (``accounts.closing.close_account``: off the ladders, their
    running matches resigned). With ``cheat``: the cheat flag (their matches marked on the
    histories, their results in finished tournaments kept) and the rating refund of their
    victims, each told (``refund.give_back``; the refunds are in the log's details).

    An account already closed (by its owner, or by a close whose refund did not follow) may
    still be closed for cheating, once: the flag and the refund are what it lacks. Closing the
    account is not in the flag's transaction (the core resigns each running match in its own),
    so this is how a close interrupted between the two is finished.

    :raises ModerationError: ``mod_already_closed`` (closed, and flagged already or ``cheat``
        not asked).
    """
    reason = _check(moderator, reason, user, closed_ok=True)
    now = timezone.now() if now is None else now
    if not user.is_active:
        if not cheat or Sanction.objects.filter(user=user, kind=Sanction.Kind.CHEAT).exists():
            raise ModerationError(Code.ALREADY_CLOSED)
    else:
        try:
            close_account(user, by=moderator, reason=reason)
        except AlreadyClosed:
            raise ModerationError(Code.ALREADY_CLOSED) from None
    with transaction.atomic():
        if not cheat:
            return _log(moderator, user, ModLog.Action.CLOSE, reason, now)
        Sanction.objects.create(user=user, kind=Sanction.Kind.CHEAT, reason=reason, by=moderator, created_at=now)
        given = refund.give_back(user.pk, now=now)
        return _log(moderator, user, ModLog.Action.CLOSE_CHEAT, reason, now, refunds=given)


def resolve(*, moderator: Any, user: Any, reason: Any, now: datetime | None = None) -> ModLog:
    """Close ``user``'s open report without action (its reporters are not told); taken on a
    closed account too, so that its report does not stay in the queue."""
    reason = _check(moderator, reason, user, closed_ok=True)
    now = timezone.now() if now is None else now
    if not Report.objects.filter(reported_id=user.pk, status=Report.Status.OPEN).exists():
        raise ModerationError(Code.BAD_ACTION)
    with transaction.atomic():
        return _log(moderator, user, ModLog.Action.RESOLVE, reason, now, tell=False)
