"""Ratings per player and pool, a history row per player per rated match, and each rated match's
seats before and after.

Everything here is written by :func:`games.ratings.rating.on_match_finished` (in the transaction
that ends the match) and by :func:`games.ratings.rating.void_match` (staff, from the admin); the
core's ``Match`` knows nothing of it (:class:`RatedMatch` points at the match, not the reverse).
Ratings are on the Glicko scale (``games.ratings.glicko2``).
"""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from games.ratings import glicko2


class Pool(models.TextChoices):
    """The two rating pools: tables for two, tables for four (partners opposite)."""

    ONE_V_ONE = "1v1", _("1v1")
    PARTNERSHIP = "partnership", _("Partnership")

    @classmethod
    def of_players(cls, players: int) -> "Pool":
        """The pool of a table for ``players`` (2 or 4).

        :raises ValueError: any other number.
        """
        if players == 2:
            return cls.ONE_V_ONE
        if players == 4:
            return cls.PARTNERSHIP
        raise ValueError(f"a table has 2 or 4 players, got {players!r}")


class PlayerRating(models.Model):
    """A player's Glicko-2 rating in one pool, as after their last rated match there.

    ``deviation`` is stored as the match left it; shown values are widened for the idle time
    since ``last_rated_at`` (:meth:`current`). ``matches``, ``wins``, ``losses`` count the rated
    matches of the pool that were not voided.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="ratings",
        verbose_name=_("player"),
    )
    pool = models.CharField(_("pool"), max_length=12, choices=Pool.choices)
    rating = models.FloatField(_("rating"), default=glicko2.NEW_PLAYER.rating)
    deviation = models.FloatField(_("deviation"), default=glicko2.NEW_PLAYER.deviation)
    volatility = models.FloatField(_("volatility"), default=glicko2.NEW_PLAYER.volatility)
    matches = models.PositiveIntegerField(_("rated matches"), default=0)
    wins = models.PositiveIntegerField(_("wins"), default=0)
    losses = models.PositiveIntegerField(_("losses"), default=0)
    last_rated_at = models.DateTimeField(_("last rated match"), null=True, blank=True)
    #: The highest rating the player has had in the pool after a rated match or a refund
    #: (lichess's perf stat "highest"); ``None`` before the first.
    top = models.FloatField(_("highest rating"), null=True, blank=True)

    class Meta:
        verbose_name = _("rating")
        verbose_name_plural = _("ratings")
        constraints = [
            models.UniqueConstraint(fields=["user", "pool"], name="ratings_one_per_pool"),
        ]
        indexes = [
            # The ladder: one pool, best first (ties by user id). On PostgreSQL the tab's filter
            # columns and the id ride in the index, so ranking a tab (a window over it) and
            # skipping to a deep page read the index alone (an index-only scan).
            models.Index(
                fields=["pool", "-rating", "user"],
                include=["deviation", "last_rated_at", "id"],
                name="ratings_ladder_order",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} {self.pool} {self.rating:.0f}"

    @property
    def glicko(self) -> glicko2.Rating:
        """The stored rating as a :class:`glicko2.Rating`."""
        return glicko2.Rating(self.rating, self.deviation, self.volatility)

    def current(self, now) -> glicko2.Rating:
        """The rating as it stands at ``now``: the deviation widened for the idle days, capped."""
        days = 0.0
        if self.last_rated_at is not None:
            days = max((now - self.last_rated_at).total_seconds() / 86400.0, 0.0)
        return glicko2.cap(glicko2.widen(self.glicko, days))

    @property
    def provisional(self) -> bool:
        """Shown with "?": the stored deviation is 110 or more (``glicko2.is_provisional``)."""
        return glicko2.is_provisional(self.glicko)

    @property
    def win_rate(self) -> float | None:
        """Wins over rated matches, 0 to 1; ``None`` before the first."""
        return self.wins / self.matches if self.matches else None


class RatedMatch(models.Model):
    """A match that was rated: its pool and every seat's rating before and after.

    ``seats`` is a list in seat order of ``{"seat", "user", "username", "side", "score",
    "before", "after", "deviation_before", "deviation_after"}`` (ratings rounded to 0.01).
    Its one-to-one key on the match is what makes rating happen exactly once: a second finish,
    or a second process finishing the same match, cannot insert a second row.
    ``voided_at``/``voided_by``: staff voided it (``rating.void_match``); its changes are undone.
    """

    match = models.OneToOneField(
        "games.Match",
        on_delete=models.CASCADE,
        related_name="rating_record",
        verbose_name=_("match"),
    )
    pool = models.CharField(_("pool"), max_length=12, choices=Pool.choices)
    rated_at = models.DateTimeField(_("rated at"), db_index=True)
    seats = models.JSONField(_("seats before and after"), default=list)
    voided_at = models.DateTimeField(_("voided at"), null=True, blank=True)
    voided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("voided by"),
    )

    class Meta:
        verbose_name = _("rated match")
        verbose_name_plural = _("rated matches")
        ordering = ["-rated_at"]

    def __str__(self) -> str:
        return _("Rated match %(id)s") % {"id": self.match_id}


class RatingChange(models.Model):
    """One player's rating change from one rated match: the rating history.

    ``rating_before``/``rating_after``: the rating; ``deviation_before`` is the deviation the
    match was rated from (widened for the idle days and capped), ``deviation_after`` the new one;
    ``score`` 1 win, 0 loss. ``stored_*`` and ``previous_rated_at`` are the player's row exactly
    as it was, so a void can put it back. ``voided``: the change was undone.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="rating_changes",
        verbose_name=_("player"),
    )
    rated = models.ForeignKey(
        RatedMatch, on_delete=models.CASCADE, related_name="changes", verbose_name=_("rated match")
    )
    match = models.ForeignKey(
        "games.Match", on_delete=models.CASCADE, related_name="+", verbose_name=_("match")
    )
    pool = models.CharField(_("pool"), max_length=12, choices=Pool.choices)
    rated_at = models.DateTimeField(_("rated at"))
    score = models.FloatField(_("score"))
    rating_before = models.FloatField(_("rating before"))
    rating_after = models.FloatField(_("rating after"))
    deviation_before = models.FloatField(_("deviation before"))
    deviation_after = models.FloatField(_("deviation after"))
    volatility_after = models.FloatField(_("volatility after"))
    stored_deviation_before = models.FloatField()
    stored_volatility_before = models.FloatField()
    previous_rated_at = models.DateTimeField(null=True, blank=True)
    voided = models.BooleanField(_("voided"), default=False)

    class Meta:
        verbose_name = _("rating change")
        verbose_name_plural = _("rating changes")
        ordering = ["user", "pool", "rated_at"]
        constraints = [
            models.UniqueConstraint(fields=["match", "user"], name="ratings_one_change_per_match"),
        ]
        indexes = [
            models.Index(fields=["user", "pool", "rated_at"], name="ratings_history_order"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} {self.match_id} {self.change:+.1f}"

    @property
    def change(self) -> float:
        """``rating_after - rating_before``."""
        return self.rating_after - self.rating_before


class NotRated(models.Model):
    """A person seated at a rated table whose match did not rate them, and why.

    ``reason`` is a :class:`games.ratings.rating.Unrated` code (``RULES.md``, "Game record":
    the ``not_rated`` header). A match nobody was rated in has a row for every person seated; a
    match rated for some (a stayer whose partner left) has rows for the others only. Written
    with the ending (``rating.on_match_finished``), once: one row per match and player.
    """

    match = models.ForeignKey(
        "games.Match", on_delete=models.CASCADE, related_name="+", verbose_name=_("match")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="+",
        verbose_name=_("player"),
    )
    seat = models.PositiveSmallIntegerField(_("seat"))
    reason = models.CharField(_("why not rated"), max_length=20)

    class Meta:
        verbose_name = _("unrated seat")
        verbose_name_plural = _("unrated seats")
        constraints = [
            models.UniqueConstraint(fields=["match", "user"], name="ratings_not_rated_once"),
        ]

    def __str__(self) -> str:
        return f"{self.match_id} {self.user_id} {self.reason}"


class RatingRefund(models.Model):
    """Rating points given back to a player in a pool, outside any match (lichess's
    ``RatingRefund``: the points a cheater took from them): ``rating_before`` and
    ``rating_after`` the stored rating around it, ``points`` the difference; ``reason`` what
    the player's rating history says: ``"cheat"`` (an opponent closed for cheating, said in
    the reader's language) or a moderator's words. Written by ``for_apps.refund`` only."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", verbose_name=_("player")
    )
    pool = models.CharField(_("pool"), max_length=12, choices=Pool.choices)
    points = models.FloatField(_("points"))
    rating_before = models.FloatField(_("rating before"))
    rating_after = models.FloatField(_("rating after"))
    reason = models.CharField(_("reason"), max_length=200)
    created_at = models.DateTimeField(_("given at"), db_index=True)

    class Meta:
        verbose_name = _("rating refund")
        verbose_name_plural = _("rating refunds")
        indexes = [models.Index(fields=["user", "-created_at"], name="ratings_refund_user_time")]

    def __str__(self) -> str:
        return f"{self.user_id} {self.pool} +{self.points:.0f}"
