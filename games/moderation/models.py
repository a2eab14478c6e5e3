"""The moderation app's tables: reports (one open report per reported player, collecting each
reporter's entry: lichess's ``Report`` with its atoms), sanctions (chat timeouts and bans,
ranked bans, the cheat flag), the moderation log, and the messages players get from the
moderators (a warning, points given back, the outcome of their report).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

#: Characters of a report's text.
TEXT_MAX = 1000
#: Characters of a chat line kept with a report (the chat's lines have 140).
LINE_MAX = 500


class Reason(models.TextChoices):
    """Why a player is reported (lichess's list)."""

    CHEAT = "cheat", _("Cheating (help from a program or another person)")
    BOOST = "boost", _("Boosting or sandbagging (losing or winning on purpose)")
    INSULT = "insult", _("Insults or abuse in chat")
    SPAM = "spam", _("Spam")
    STALL = "stall", _("Leaving or stalling")
    USERNAME = "username", _("An offensive username")
    OTHER = "other", _("Something else")


#: What closed a report or an entry (the values of ``ModLog.Action``, repeated here because
#: ``Report`` comes first).
OUTCOMES = [
    ("warn", _("Warning")), ("chat_timeout", _("Chat timeout")), ("chat_ban", _("Chat ban")),
    ("ranked_ban", _("Ranked ban")), ("lift", _("Sanction lifted")), ("close", _("Account closed")),
    ("close_cheat", _("Closed for cheating")), ("resolve", _("Report closed without action")),
]


class Report(models.Model):
    """The report of one player: open until a moderator resolves it; each reporter adds an
    :class:`ReportEntry`. At most one open report per reported player (a constraint)."""

    class Status(models.TextChoices):
        OPEN = "open", pgettext_lazy("a report's status", "Open")
        CLOSED = "closed", pgettext_lazy("a report's status", "Closed")

    reported = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", verbose_name=_("reported player")
    )
    status = models.CharField(_("status"), max_length=8, choices=Status.choices, default=Status.OPEN)
    created_at = models.DateTimeField(_("opened at"))
    updated_at = models.DateTimeField(_("last entry at"))
    closed_at = models.DateTimeField(_("closed at"), null=True, blank=True)
    closed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+",
        verbose_name=_("closed by"),
    )
    #: What closed it: a :class:`ModLog.Action` value (``resolve``: no action).
    outcome = models.CharField(_("outcome"), max_length=20, blank=True, default="", choices=OUTCOMES)

    class Meta:
        verbose_name = _("report")
        verbose_name_plural = _("reports")
        constraints = [
            models.UniqueConstraint(
                fields=["reported"], condition=Q(status="open"), name="moderation_one_open_report"
            ),
        ]
        indexes = [models.Index(fields=["status", "updated_at"], name="moderation_report_queue")]

    def __str__(self) -> str:
        return f"{self.reported_id} {self.status}"


class ReportEntry(models.Model):
    """One reporter's entry on a report: the reason, the text, and the match and chat line
    attached when given (the line's text copied, so that the evidence survives the line)."""

    report = models.ForeignKey(Report, on_delete=models.CASCADE, related_name="entries", verbose_name=_("report"))
    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", verbose_name=_("reporter")
    )
    reason = models.CharField(_("reason"), max_length=10, choices=Reason.choices)
    text = models.TextField(_("text"), max_length=TEXT_MAX, blank=True, default="")
    match = models.ForeignKey(
        "games.Match", on_delete=models.SET_NULL, null=True, blank=True, related_name="+", verbose_name=_("match")
    )
    line_id = models.BigIntegerField(_("chat line"), null=True, blank=True)
    line_room = models.CharField(_("chat room"), max_length=20, blank=True, default="")
    line_text = models.CharField(_("chat line's text"), max_length=LINE_MAX, blank=True, default="")
    created_at = models.DateTimeField(_("reported at"), db_index=True)
    #: When an action answering its reason closed it (``None``: open), and that action.
    closed_at = models.DateTimeField(_("closed at"), null=True, blank=True)
    outcome = models.CharField(_("outcome"), max_length=20, blank=True, default="", choices=OUTCOMES)

    class Meta:
        verbose_name = _("report entry")
        verbose_name_plural = _("report entries")
        indexes = [models.Index(fields=["reporter", "created_at"], name="moderation_entry_reporter")]


class Sanction(models.Model):
    """A sanction on a player: running from ``created_at`` until ``until`` (``None``: until
    lifted) unless ``lifted_at``. ``cheat`` is the flag of an account closed for cheating."""

    class Kind(models.TextChoices):
        CHAT_TIMEOUT = "chat_timeout", _("Chat timeout")
        CHAT_BAN = "chat_ban", _("Chat ban")
        RANKED_BAN = "ranked_ban", _("Ranked ban")
        CHEAT = "cheat", _("Closed for cheating")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", verbose_name=_("player")
    )
    kind = models.CharField(_("kind"), max_length=14, choices=Kind.choices)
    reason = models.CharField(_("reason"), max_length=500, blank=True, default="")
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+", verbose_name=_("moderator")
    )
    created_at = models.DateTimeField(_("since"))
    until = models.DateTimeField(_("until"), null=True, blank=True)
    lifted_at = models.DateTimeField(_("lifted at"), null=True, blank=True)

    class Meta:
        verbose_name = _("sanction")
        verbose_name_plural = _("sanctions")
        indexes = [models.Index(fields=["user", "kind"], name="moderation_sanction_user")]


class ModLog(models.Model):
    """One moderator's action, with its reason (the moderation log, ``/moderation/log/``)."""

    class Action(models.TextChoices):
        WARN = "warn", _("Warning")
        CHAT_TIMEOUT = "chat_timeout", _("Chat timeout")
        CHAT_BAN = "chat_ban", _("Chat ban")
        RANKED_BAN = "ranked_ban", _("Ranked ban")
        LIFT = "lift", _("Sanction lifted")
        CLOSE = "close", _("Account closed")
        CLOSE_CHEAT = "close_cheat", _("Closed for cheating")
        RESOLVE = "resolve", _("Report closed without action")

    moderator = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+", verbose_name=_("moderator")
    )
    target = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", verbose_name=_("player")
    )
    action = models.CharField(_("action"), max_length=14, choices=Action.choices)
    reason = models.CharField(_("reason"), max_length=500)
    #: What else the action did: ``{"minutes", "timeout_reason", "refunds": [...], "report"}``.
    details = models.JSONField(_("details"), default=dict, blank=True)
    created_at = models.DateTimeField(_("at"), db_index=True)

    class Meta:
        verbose_name = _("moderation log entry")
        verbose_name_plural = _("moderation log")
        ordering = ["-created_at", "-pk"]


class Message(models.Model):
    """What the moderators tell a player, kept for ``/moderation/messages/`` until read and
    after: ``kind`` and its ``data`` (``warning``: ``{"reason"}``; ``refund``: ``{"points",
    "pool"}``; ``report_outcome``: ``{"reported"}``; ``chat_timeout``: ``{"until"}``, an ISO
    time; ``chat_ban`` and ``ranked_ban``: ``{}``)."""

    class Kind(models.TextChoices):
        WARNING = "warning", _("A warning")
        REFUND = "refund", _("Rating points given back")
        REPORT_OUTCOME = "report_outcome", _("Your report was acted on")
        CHAT_TIMEOUT = "chat_timeout", _("Chat timeout")
        CHAT_BAN = "chat_ban", _("Chat ban")
        RANKED_BAN = "ranked_ban", _("Ranked ban")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", verbose_name=_("player")
    )
    kind = models.CharField(_("kind"), max_length=16, choices=Kind.choices)
    data = models.JSONField(_("data"), default=dict)
    created_at = models.DateTimeField(_("sent at"))
    read = models.BooleanField(_("read"), default=False)

    class Meta:
        verbose_name = _("message from the moderators")
        verbose_name_plural = _("messages from the moderators")
        indexes = [models.Index(fields=["user", "read"], name="moderation_message_user")]
