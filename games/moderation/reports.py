"""Filing a report, and the reads of the staff's queue.

A report is of one player (``Report``): a reporter's report of a player with an open report
adds their entry to it (lichess's report atoms), so the moderators see one item per player
with every reporter's reason, text, match and chat line. Each reporter is limited
(:data:`PER_HOUR` entries an hour, :data:`PER_DAY` a day; over it: ``report_rate_limited``)
so that one player cannot flood the queue. A report of insults or abuse also blocks the
reported player for the reporter (``games.people.services.block``), as lichess does.

A chat line is read through the chat's registered reader (``for_apps.provide_chat``), and its
text is copied into the entry: the evidence stays when the line goes.
"""

from __future__ import annotations

import unicodedata
from datetime import timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import Count, Max
from django.utils import timezone

from games.core.for_apps import GameError, Match, Seat, check_may_watch
from games.moderation import chat
from games.moderation.errors import Code, ModerationError
from games.moderation.models import LINE_MAX, TEXT_MAX, Reason, Report, ReportEntry
from games.people import services as people

#: Report entries one reporter may file in an hour, and in a day.
PER_HOUR = 8
PER_DAY = 20
#: Characters a report's text may not hold: controls (new lines and tabs aside) and the
#: bidirectional overrides and isolates, which could make the text read otherwise than written.
_BIDI = {"\u202a", "\u202b", "\u202c", "\u202d", "\u202e", "\u2066", "\u2067", "\u2068", "\u2069"}


def clean_text(text: Any) -> str:
    """``text`` stripped, its line breaks ``\n`` (a form sends ``\r\n``: one character, as
    the browser counts it), if a report may carry it.

    :raises ModerationError: ``report_bad_text`` (longer than ``TEXT_MAX``, NUL or another
        control character, a bidirectional override).
    """
    if isinstance(text, str):
        text = text.replace("\r\n", "\n")
    text = (text or "").strip() if isinstance(text, str) or text is None else None
    if text is None or len(text) > TEXT_MAX or any(
        (unicodedata.category(ch) == "Cc" and ch not in "\n\r\t") or ch in _BIDI for ch in text
    ):
        raise ModerationError(Code.BAD_TEXT, limit=TEXT_MAX)
    return text


def _int_or_none(value: Any) -> int | None:
    if value in (None, ""):
        return None
    try:
        number = int(value)
    except (TypeError, ValueError):
        return -1  # an id nothing has: refused as not played, not written
    return number if number > 0 else -1


def reported_player(username: Any) -> Any:
    """The player named ``username``, open or closed.

    :raises ModerationError: ``report_no_such_player``.
    """
    if not isinstance(username, str) or not username or "\x00" in username:
        raise ModerationError(Code.NO_SUCH_PLAYER)
    other = get_user_model().objects.filter(username=username).first()
    if other is None:
        raise ModerationError(Code.NO_SUCH_PLAYER)
    return other


def _could_see(reporter: Any, line: dict) -> bool:
    """Whether ``reporter`` could read ``line`` at its table: they sat at its match, or it was
    said in the spectators' room of a table that lets them watch (its "who may watch" setting,
    as while it is played)."""
    match_id = line.get("match_id")
    if reporter is None or not reporter.is_authenticated:
        return False
    if Seat.objects.filter(match_id=match_id, user_id=reporter.pk).exists():
        return True
    watchers = Match.objects.filter(pk=match_id).values_list("watchers", flat=True).first()
    if line.get("room") != "spectator" or watchers is None:
        return False
    try:
        check_may_watch(watchers=watchers, status=Match.Status.PLAYING, seated=False, user=reporter)
    except GameError:
        return False
    return True


def check_attachments(
    reported: Any, match_id: Any, line_id: Any, *, reporter: Any
) -> tuple[int | None, dict | None]:
    """The match and the chat line a report of ``reported`` by ``reporter`` carries, checked:
    the match one ``reported`` played, the line one ``reported`` wrote (in that match when both
    are given) and one ``reporter`` could read (:func:`_could_see`).

    :returns: ``(match id or None, line dict or None)``; a line gives its match when none is.
    :raises ModerationError: ``report_bad_match``; ``report_bad_line`` (unknown, forged, not
        theirs, not one the reporter could read, or the chat is not installed).
    """
    match_id, line_id = _int_or_none(match_id), _int_or_none(line_id)
    line = None
    if line_id is not None:
        line = chat.line(line_id) if line_id > 0 else None
        if line is None or line.get("user_id") != reported.pk or (
            match_id is not None and line.get("match_id") != match_id
        ) or not _could_see(reporter, line):
            raise ModerationError(Code.BAD_LINE)
        match_id = line.get("match_id") if match_id is None else match_id
    if match_id is not None and not Seat.objects.filter(match_id=match_id, user_id=reported.pk).exists():
        raise ModerationError(Code.BAD_MATCH)
    return match_id, line


def _check_rate(reporter: Any, now) -> None:
    mine = ReportEntry.objects.filter(reporter_id=reporter.pk)
    if mine.filter(created_at__gt=now - timedelta(hours=1)).count() >= PER_HOUR or (
        mine.filter(created_at__gt=now - timedelta(days=1)).count() >= PER_DAY
    ):
        raise ModerationError(Code.RATE_LIMITED)


def file_report(
    *, reporter: Any, username: Any, reason: Any, text: Any = "", match_id: Any = None,
    line_id: Any = None, now=None,
) -> ReportEntry:
    """``reporter`` reports the player ``username`` for ``reason`` (a :class:`Reason` value),
    with ``text`` and the match and chat line given (``?match=<id>&line=<id>`` of the form).

    :returns: the entry, on the player's open report (opened when there is none).
    :raises ModerationError: ``login_required``; ``report_no_such_player``; ``report_self``;
        ``report_closed_account`` (``is_active`` false); ``report_bad_reason``;
        ``report_bad_text``; ``report_bad_match``; ``report_bad_line``; ``report_twice`` (the
        reporter's entry for this reason is on the player's open report already);
        ``report_rate_limited`` (:data:`PER_HOUR`, :data:`PER_DAY`). Nothing is stored then.
    """
    if reporter is None or not reporter.is_authenticated:
        raise ModerationError(Code.LOGIN_REQUIRED)
    reported = reported_player(username)
    if reported.pk == reporter.pk:
        raise ModerationError(Code.SELF)
    if not reported.is_active:
        raise ModerationError(Code.CLOSED_ACCOUNT)
    if reason not in Reason.values:
        raise ModerationError(Code.BAD_REASON)
    text = clean_text(text)
    match, line = check_attachments(reported, match_id, line_id, reporter=reporter)
    now = timezone.now() if now is None else now
    entry = _add_entry(reporter, reported, reason, text, match, line, now)
    if reason == Reason.INSULT:
        try:
            people.block(user=reporter, username=reported.get_username())
        except people.PeopleError:
            pass  # blocked already, or at the block limit: the report stands
    return entry


def _add_entry(reporter, reported, reason, text, match, line, now) -> ReportEntry:
    for _attempt in range(2):
        try:
            with transaction.atomic():
                _check_rate(reporter, now)
                report = Report.objects.select_for_update().filter(
                    reported_id=reported.pk, status=Report.Status.OPEN
                ).first()
                if report is None:
                    report = Report.objects.create(reported_id=reported.pk, created_at=now, updated_at=now)
                elif report.entries.filter(reporter_id=reporter.pk, reason=reason, closed_at__isnull=True).exists():
                    raise ModerationError(Code.TWICE)
                else:
                    report.updated_at = now
                    report.save(update_fields=["updated_at"])
                return ReportEntry.objects.create(
                    report=report, reporter_id=reporter.pk, reason=reason, text=text,
                    match_id=match if match and Match.objects.filter(pk=match).exists() else None,
                    line_id=line["id"] if line else None,
                    line_room=str(line.get("room", ""))[:20] if line else "",
                    line_text=str(line.get("text", ""))[:LINE_MAX] if line else "",
                    created_at=now,
                )
        except IntegrityError:
            continue  # another reporter opened the player's report at the same moment
    raise ModerationError(Code.RATE_LIMITED)


def open_queue(limit: int = 100, moderator_id: int | None = None) -> list[dict]:
    """The open reports, the most reporters first, then the oldest: ``{"report", "reporters",
    "reasons", "last"}`` each (two queries); not the report of ``moderator_id`` (a moderator
    does not act on their own account)."""
    reports = list(
        Report.objects.filter(status=Report.Status.OPEN).exclude(reported_id=moderator_id).select_related("reported")
        .annotate(reporters=Count("entries__reporter", distinct=True), last=Max("entries__created_at"))
        .order_by("-reporters", "created_at")[:limit]
    )
    reasons: dict[int, set[str]] = {}
    for report_id, reason in ReportEntry.objects.filter(report__in=reports).values_list("report_id", "reason"):
        reasons.setdefault(report_id, set()).add(reason)
    return [
        {"report": r, "reporters": r.reporters, "last": r.last,
         "reasons": [Reason(x).label for x in sorted(reasons.get(r.pk, ()))]}
        for r in reports
    ]
