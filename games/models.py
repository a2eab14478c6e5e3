"""Matches, their seats and their append-only event log.

The event log is the truth: the live state of a match is the engine's ``replay`` of its ``deal`` and
``play`` events (STYLE.md, "In this project" 3). ``Match.seq`` is the ``seq`` of the last event, so
a client that sent a play against an older ``seq`` is told it is stale. Every write goes through
``games.services``, which locks the match row first.
"""

import uuid

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Match(models.Model):
    """One table: created open, ``playing`` once every seat is taken, ``finished`` at the target.

    ``rules`` is ``games.engine.Rules.to_dict()`` (``players`` included), stored per match so an old
    match replays under its own rules. ``scores`` is ``[side 0, side 1]`` totals of the finished
    rounds; ``winner_side`` is 0 or 1 once finished.
    """

    class Status(models.TextChoices):
        OPEN = "open", _("Open")
        PLAYING = "playing", _("Playing")
        FINISHED = "finished", _("Finished")

    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="created_matches",
        verbose_name=_("created by"),
    )
    players = models.PositiveSmallIntegerField(
        _("players"), choices=[(2, "2"), (4, "4")], default=2
    )
    rules = models.JSONField(_("rules"), default=dict)
    rated = models.BooleanField(_("rated"), default=False)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.OPEN, db_index=True
    )
    seq = models.PositiveIntegerField(_("last event number"), default=0)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    started_at = models.DateTimeField(_("started at"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)
    scores = models.JSONField(_("scores"), default=list)
    winner_side = models.PositiveSmallIntegerField(_("winning side"), null=True, blank=True)
    # Part of the key of the in-process state cache (games.state): ids may be reused after a
    # rolled-back transaction on SQLite, a random token never is.
    cache_token = models.UUIDField(default=uuid.uuid4, editable=False)

    class Meta:
        verbose_name = _("match")
        verbose_name_plural = _("matches")
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(players__in=[2, 4]), name="games_match_players_2_or_4"
            ),
        ]

    def __str__(self) -> str:
        return _("Match %(id)s") % {"id": self.pk}


class Seat(models.Model):
    """A user sitting at a match. Seat numbers follow RULES.md "Four players": 0, 2, 1, 3."""

    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, related_name="seats", verbose_name=_("match")
    )
    seat = models.PositiveSmallIntegerField(_("seat"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="seats",
        verbose_name=_("user"),
    )

    class Meta:
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        ordering = ["match", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["match", "seat"], name="games_seat_unique_seat"),
            models.UniqueConstraint(fields=["match", "user"], name="games_seat_unique_user"),
        ]

    def __str__(self) -> str:
        return _("Seat %(seat)s of match %(match)s") % {"seat": self.seat, "match": self.match_id}

    @property
    def side(self) -> int:
        """The side this seat plays for: ``seat % 2`` (RULES.md "Names", "Four players")."""
        return self.seat % 2


class Event(models.Model):
    """One thing that happened at a match, numbered ``seq`` from 1; never updated or deleted.

    Payloads by kind (``docs/protocol.md`` "Event log"): ``join``/``leave`` ``{"user", "username"}``;
    ``start`` ``{"seats": [usernames by seat], "dealer"}``; ``deal`` ``{"round", "dealer", "deck":
    [52 codes, top first]}``; ``play`` ``{"card", "taken": [codes], "basra": null|"basra"|
    "jack_basra"}``; ``round_end`` ``{"round", "breakdown": {...per side...}, "scores"}``;
    ``match_end`` ``{"scores", "winner"}``.
    """

    class Kind(models.TextChoices):
        JOIN = "join", _("Join")
        LEAVE = "leave", _("Leave")
        START = "start", _("Start")
        DEAL = "deal", _("Deal")
        PLAY = "play", _("Play")
        ROUND_END = "round_end", _("Round end")
        MATCH_END = "match_end", _("Match end")

    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, related_name="events", verbose_name=_("match")
    )
    seq = models.PositiveIntegerField(_("number"))
    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices)
    seat = models.PositiveSmallIntegerField(_("seat"), null=True, blank=True)
    payload = models.JSONField(_("payload"), default=dict)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("event")
        verbose_name_plural = _("events")
        ordering = ["match", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["match", "seq"], name="games_event_unique_seq"),
        ]

    def __str__(self) -> str:
        return f"{self.match_id}#{self.seq} {self.kind}"
