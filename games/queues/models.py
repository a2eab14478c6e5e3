"""What the quick-pairing queues keep in the database, so that a server restart loses nobody.

- :class:`Entry`: one unit waiting in one queue (a player, or a pair who came together), with
  the rating it is paired on and when it joined. A player is in at most one entry (``user`` and
  ``partner`` each unique; the services check a player is not both across two entries).
- :class:`Record`: per player, what the queues remember between entries: the last queue
  opponents (no immediate rematch), the no-shows and the cooldown they earned. Its row is the
  lock every change of a player's queue state takes first (``games.queues.services``).
- :class:`Invitation`: a partner invited to wait together in a partnership queue.
- :class:`QueueTable`: a table a wave opened, until its players came (or the no-show was
  settled); how many play in each queue is counted from these.
- :class:`Wave`: when each queue's last wave ran, so that a restarted scheduler waits for the
  next one as the stopped one would have.
"""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from games.core.for_apps import Match


class Entry(models.Model):
    """One unit waiting in the queue ``(players, move_seconds)``; ``rating`` its rating in the
    queue's pool when it joined (a pair's: the mean); ``front``: put back at the front after its
    opponent did not come (``joined_at`` then kept from before the pairing)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="queue_entry",
        verbose_name=_("player"),
    )
    partner = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="queue_partner_entry",
        null=True, blank=True, verbose_name=_("partner"),
    )
    players = models.PositiveSmallIntegerField(_("players"))
    move_seconds = models.PositiveSmallIntegerField(_("seconds per play"))
    rating = models.FloatField(_("rating"))
    joined_at = models.DateTimeField(_("joined at"))
    front = models.BooleanField(_("at the front"), default=False)

    class Meta:
        verbose_name = _("queue entry")
        verbose_name_plural = _("queue entries")
        indexes = [models.Index(fields=["players", "move_seconds", "joined_at"], name="queues_entry_queue")]

    def __str__(self) -> str:
        return f"{self.user_id} {self.players}p {self.move_seconds}s"

    @property
    def members(self) -> tuple[int, ...]:
        """The user ids this entry seats: the player, and the partner if any."""
        return (self.user_id,) if self.partner_id is None else (self.user_id, self.partner_id)


class Record(models.Model):
    """A player's queue history: ``last_opponents`` (user ids of the last queue table's other
    side), ``no_shows`` (tables of a queue the player did not come to; each one lengthens the
    cooldown, lila's rage-sit counter; it decays, ``games.queues.services.decayed_no_shows``),
    ``last_no_show_at`` (the latest of them) and ``cooldown_until`` (no joining before)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="queue_record",
        primary_key=True, verbose_name=_("player"),
    )
    last_opponents = models.JSONField(_("last opponents"), default=list, blank=True)
    no_shows = models.PositiveIntegerField(_("no-shows"), default=0)
    last_no_show_at = models.DateTimeField(_("last no-show at"), null=True, blank=True)
    cooldown_until = models.DateTimeField(_("cooldown until"), null=True, blank=True)

    class Meta:
        verbose_name = _("queue record")
        verbose_name_plural = _("queue records")

    def __str__(self) -> str:
        return f"{self.user_id} no-shows {self.no_shows}"


class Invitation(models.Model):
    """``inviter`` asks ``invited`` to wait together in the partnership queue of
    ``move_seconds``; accepting makes one entry of both. It expires
    ``games.queues.services.invitation_seconds()`` after ``created_at``."""

    inviter = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="queue_invitation",
        verbose_name=_("inviter"),
    )
    invited = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="queue_invitations",
        verbose_name=_("invited partner"),
    )
    move_seconds = models.PositiveSmallIntegerField(_("seconds per play"))
    created_at = models.DateTimeField(_("created at"))

    class Meta:
        verbose_name = _("queue invitation")
        verbose_name_plural = _("queue invitations")

    def __str__(self) -> str:
        return f"{self.inviter_id} -> {self.invited_id}"


class QueueTable(models.Model):
    """A table a wave opened: ``entries`` the waiting units it seated, as they waited
    (``[{"user", "partner", "rating", "joined_at"}]``, to put back at the front whoever came
    when another did not); ``settled`` once everyone came or the no-show was dealt with."""

    match = models.OneToOneField(
        Match, on_delete=models.CASCADE, related_name="queue_table", verbose_name=_("match")
    )
    players = models.PositiveSmallIntegerField(_("players"))
    move_seconds = models.PositiveSmallIntegerField(_("seconds per play"))
    created_at = models.DateTimeField(_("created at"))
    entries = models.JSONField(_("waiting entries"), default=list)
    settled = models.BooleanField(_("settled"), default=False)

    class Meta:
        verbose_name = _("queue table")
        verbose_name_plural = _("queue tables")
        indexes = [models.Index(fields=["settled", "created_at"], name="queues_table_unsettled")]

    def __str__(self) -> str:
        return f"{self.match_id} {self.players}p {self.move_seconds}s"


class Wave(models.Model):
    """The last wave of the queue ``(players, move_seconds)`` ran at ``ran_at``
    (``games.queues.scheduler.tick``)."""

    players = models.PositiveSmallIntegerField(_("players"))
    move_seconds = models.PositiveSmallIntegerField(_("seconds per play"))
    ran_at = models.DateTimeField(_("ran at"))

    class Meta:
        verbose_name = _("queue wave")
        verbose_name_plural = _("queue waves")
        constraints = [models.UniqueConstraint(fields=["players", "move_seconds"], name="queues_wave_queue")]

    def __str__(self) -> str:
        return f"{self.players}p {self.move_seconds}s at {self.ran_at}"
