"""The chat's rows: every line said at a table (kept with its match) and each player's chat
setting."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from games.core.for_apps import Match


class Room(models.TextChoices):
    """The two rooms of a table (``../shared/API.md``, ``chatLine``)."""

    PLAYER = "player", _("Players")
    SPECTATOR = "spectator", _("Spectators")


class ChatLine(models.Model):
    """One line said at a table: who, in which room, what (already cleaned and filtered,
    ``games.chat.text``; ``original``, cleaned but not filtered, for the moderators), when. Kept with the match (deleted with it); never part of its
    ``basra-record/1`` record. Read per match (the table's history, the replay) and per player
    (the moderators' queue), each through its index."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="+", verbose_name=_("match"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", verbose_name=_("player")
    )
    room = models.CharField(_("room"), max_length=9, choices=Room.choices)
    text = models.CharField(_("text"), max_length=140)
    #: The line as its writer wrote it (cleaned, before the word filter): for the moderators only.
    original = models.CharField(_("as written"), max_length=140, blank=True, default="")
    created = models.DateTimeField(_("said at"), auto_now_add=True)

    class Meta:
        verbose_name = _("chat line")
        verbose_name_plural = _("chat lines")
        indexes = [
            models.Index(fields=["match", "id"], name="chat_line_match"),
            models.Index(fields=["user", "-id"], name="chat_line_user"),
        ]

    def __str__(self) -> str:
        return f"{self.match_id}/{self.room}: {self.text}"


class ChatSetting(models.Model):
    """A player's chat: on (the default, no row) or off, kept on the account."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True, related_name="+",
        verbose_name=_("player"),
    )
    enabled = models.BooleanField(_("chat on"), default=True)

    class Meta:
        verbose_name = _("chat setting")
        verbose_name_plural = _("chat settings")
