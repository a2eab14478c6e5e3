"""What the replays app keeps: imported game records and the analyses of matches and records.

A played match is the core's (``games.core.models.Match`` and its event log); the replays app only
reads it. An imported record is not a played match: it is never counted, never rated, and is
reached only by its own unguessable link.
"""

import secrets
from datetime import datetime, timedelta

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


def new_token() -> str:
    """An unguessable link token: 16 bytes of ``secrets`` in URL-safe base64 (22 characters)."""
    return secrets.token_urlsafe(16)


def import_lifetime() -> timedelta:
    """How long an import its owner has not kept lives: ``BASRA_IMPORT_DAYS`` (default 30)."""
    return timedelta(days=settings.BASRA_IMPORT_DAYS)


class ImportedRecordQuerySet(models.QuerySet):
    def live(self, now: datetime | None = None) -> "ImportedRecordQuerySet":
        """The imports still reachable at ``now``: kept, or younger than :func:`import_lifetime`."""
        now = timezone.now() if now is None else now
        return self.filter(models.Q(kept=True) | models.Q(created_at__gt=now - import_lifetime()))

    def expired(self, now: datetime | None = None) -> "ImportedRecordQuerySet":
        """The imports past their life at ``now`` (not kept, older than the lifetime)."""
        now = timezone.now() if now is None else now
        return self.filter(kept=False, created_at__lte=now - import_lifetime())


class ImportedRecord(models.Model):
    """A ``basra-record/1`` record someone imported (``/replay/import/``), checked by the engine.

    ``record`` is the record as the engine replayed it (JSON); ``token`` its link
    (``/replay/<token>/``), unguessable, so an import is shared only by whoever has the link.
    ``imported_by``: who imported it (a login is needed; ``None`` once that account is
    deleted, or for an import made before logins were asked for). An import lives
    :func:`import_lifetime` unless its owner keeps it (``kept``); past that it is gone (its link
    answers 404, ``games.replays.views``, and the row is deleted by the next import or by
    ``manage.py expire_imports``).
    """

    token = models.CharField(_("link token"), max_length=32, unique=True, default=new_token,
                             editable=False)
    record = models.JSONField(_("record"))
    imported_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
        related_name="imported_records", verbose_name=_("imported by"),
    )
    created_at = models.DateTimeField(_("imported at"), auto_now_add=True, db_index=True)
    kept = models.BooleanField(_("kept by its owner"), default=False)

    objects = ImportedRecordQuerySet.as_manager()

    class Meta:
        verbose_name = _("imported record")
        verbose_name_plural = _("imported records")
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return _("Imported record %(token)s") % {"token": self.token}

    @property
    def expires_at(self) -> datetime | None:
        """When it goes unless kept (``None``: kept)."""
        return None if self.kept else self.created_at + import_lifetime()


class Analysis(models.Model):
    """The engine's analysis of a finished match or of an imported record (one of the two).

    ``status``: ``pending`` (asked for, waiting for a worker), ``running`` (``done`` of ``total``
    plays analysed so far), ``done`` (``result`` is ``games.replays.analysis.analyse_record``'s
    answer) or ``failed`` (``error`` says why; :data:`WORKER_STOPPED` when its worker stopped
    beating). ``requested_by``: who asked for it last (``None`` once that account is deleted);
    ``beat_at``: the last sign of life of the worker running it (its claim, then every progress
    write), by which a ``running`` row whose worker died is found (``games.replays.jobs``).
    """

    #: ``error`` of an analysis whose worker stopped while running it (shown translated).
    WORKER_STOPPED = "worker_stopped"

    class Status(models.TextChoices):
        PENDING = "pending", _("Waiting")
        RUNNING = "running", _("Running")
        DONE = "done", _("Done")
        FAILED = "failed", _("Failed")

    match = models.OneToOneField(
        "games.Match", on_delete=models.CASCADE, null=True, blank=True,
        related_name="analysis", verbose_name=_("match"),
    )
    imported = models.OneToOneField(
        ImportedRecord, on_delete=models.CASCADE, null=True, blank=True,
        related_name="analysis", verbose_name=_("imported record"),
    )
    status = models.CharField(_("status"), max_length=10, choices=Status.choices,
                              default=Status.PENDING, db_index=True)
    done = models.PositiveIntegerField(_("plays analysed"), default=0)
    total = models.PositiveIntegerField(_("plays"), default=0)
    result = models.JSONField(_("result"), null=True, blank=True)
    error = models.TextField(_("error"), blank=True, default="")
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
        related_name="analyses", verbose_name=_("requested by"),
    )
    requested_at = models.DateTimeField(_("requested at"), auto_now_add=True)
    beat_at = models.DateTimeField(_("last sign of its worker"), null=True, blank=True)
    started_at = models.DateTimeField(_("started at"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)

    class Meta:
        verbose_name = _("analysis")
        verbose_name_plural = _("analyses")
        constraints = [
            models.CheckConstraint(
                condition=(models.Q(match__isnull=False, imported__isnull=True)
                           | models.Q(match__isnull=True, imported__isnull=False)),
                name="replays_analysis_of_one_thing",
            ),
        ]

    def __str__(self) -> str:
        return f"analysis {self.pk} ({self.status})"
