"""Tournaments: an event, its entrants, rounds, pairings, the tables (games) of each pairing and
the audit trail of what its organiser changed (issue 13).

Every write goes through ``games.tournaments.services``, which locks the :class:`Tournament` row
(``select_for_update``) first. Entrant ids are what ``games.tournaments.pairing`` pairs.
A pairing's tables are the core's ``games.Match`` rows, created through ``games.core.actions``; the
result comes back through ``games.core.signals.match_finished``.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from games.core.for_apps import MOVE_SECONDS, Match
from games.tournaments.pairing import TieBreak

#: The tie-breaks' names people read (FIDE Handbook C.07).
TIEBREAK_NAMES = {
    TieBreak.BUCHHOLZ: _("Buchholz"),
    TieBreak.BUCHHOLZ_CUT1: _("Buchholz cut 1"),
    TieBreak.SONNEBORN_BERGER: _("Sonneborn-Berger"),
    TieBreak.DIRECT_ENCOUNTER: _("Direct encounter"),
    TieBreak.WINS: _("Number of wins"),
}

#: The edition of FIDE's tie-break regulations the standings follow (``pairing.EDITION``), and
#: each tie-break's article in it (``pairing.ARTICLES``), as the event page names them.
TIEBREAK_EDITION = _("FIDE Handbook C.07, Tie-Break Regulations effective from 1 August 2024")


#: The tie-breaks an event gets when the organiser leaves the order to the site, per format
#: (``services.create_tournament`` stores them with the event; an empty order is "no
#: tie-breaks": tied entrants share a place, FIDE C.07 2.1).
DEFAULT_TIEBREAKS = {
    "round_robin": [TieBreak.DIRECT_ENCOUNTER, TieBreak.SONNEBORN_BERGER, TieBreak.WINS],
    "swiss": [TieBreak.BUCHHOLZ_CUT1, TieBreak.BUCHHOLZ, TieBreak.SONNEBORN_BERGER],
}


#: The longest event description, in characters (the event page shows it to every viewer).
DESCRIPTION_MAX = 2000


class Tournament(models.Model):
    """One event: its settings, and where it stands (``status``, ``current_round``, ``paused``).

    ``players``: 2 (single players) or 4 (partnerships, tables for four). ``rules``: the
    ``games.engine.Rules`` fields (``players`` among them), given to every table as it is.
    ``double_round_robin``: each pair meets twice (round robin). ``third_place`` and
    ``best_of`` (1 or 3): knockout only. ``swiss_rounds``: Swiss only. ``arena_minutes``:
    arena only; ``ends_at`` is set at the start and moved on by each pause's length when it
    resumes (``paused_at``: when the current pause began). ``registration_closes``: no registration after
    it (``None``: the start time); a Swiss event takes late entries until half its rounds have
    started. ``max_entrants``: ``None`` for no limit. ``tiebreaks``: the order of
    ``pairing.TieBreak`` values, as the organiser chose it or the format's default
    (:data:`DEFAULT_TIEBREAKS`) stored at creation; empty: no tie-breaks, tied entrants share a
    place. ``time_zone``: the organiser's zone (an IANA name, ``games.tournaments.zones``),
    the one its times were entered in. ``starts_at`` is the planned start; ``started_at`` the real one (the organiser may
    start early).
    """

    class Format(models.TextChoices):
        ROUND_ROBIN = "round_robin", _("Round robin")
        KNOCKOUT = "knockout", _("Knockout")
        SWISS = "swiss", _("Swiss")
        ARENA = "arena", _("Arena")

    class Status(models.TextChoices):
        UPCOMING = "upcoming", _("Upcoming")
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")
        CANCELLED = "cancelled", _("Cancelled")

    class Seeding(models.TextChoices):
        RATING = "rating", _("By rating")
        RANDOM = "random", _("At random")
        MANUAL = "manual", _("By the organiser")

    organiser = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="organised_tournaments",
        verbose_name=_("organiser"),
    )
    arbiters = models.ManyToManyField(
        settings.AUTH_USER_MODEL, blank=True, related_name="arbitrated_tournaments",
        verbose_name=_("arbiters"),
    )
    name = models.CharField(_("name"), max_length=100)
    description = models.TextField(_("description"), blank=True, default="")
    format = models.CharField(_("format"), max_length=12, choices=Format.choices)
    players = models.PositiveSmallIntegerField(
        _("players at a table"), choices=[(2, _("2 (single players)")), (4, _("4 (partnerships)"))],
        default=2,
    )
    rules = models.JSONField(_("rules"), default=dict)
    rated = models.BooleanField(_("rated"), default=False)
    move_seconds = models.PositiveSmallIntegerField(
        _("seconds per play"), null=True, blank=True,
        choices=[(seconds, str(seconds)) for seconds in MOVE_SECONDS],
    )
    double_round_robin = models.BooleanField(_("double round robin"), default=False)
    third_place = models.BooleanField(_("third-place match"), default=False)
    best_of = models.PositiveSmallIntegerField(
        _("matches per knockout pairing"), choices=[(1, "1"), (3, "3")], default=1
    )
    swiss_rounds = models.PositiveSmallIntegerField(_("Swiss rounds"), null=True, blank=True)
    arena_minutes = models.PositiveSmallIntegerField(_("arena minutes"), null=True, blank=True)
    starts_at = models.DateTimeField(_("starts at"))
    time_zone = models.CharField(_("time zone"), max_length=64, default="UTC")
    registration_closes = models.DateTimeField(_("registration closes"), null=True, blank=True)
    max_entrants = models.PositiveIntegerField(_("entrant limit"), null=True, blank=True)
    seeding = models.CharField(
        _("seeding"), max_length=10, choices=Seeding.choices, default=Seeding.RATING
    )
    tiebreaks = models.JSONField(_("tie-breaks"), default=list, blank=True)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.UPCOMING,
        db_index=True,
    )
    paused = models.BooleanField(_("paused"), default=False)
    paused_at = models.DateTimeField(_("paused at"), null=True, blank=True)
    current_round = models.PositiveSmallIntegerField(_("current round"), default=0)
    ends_at = models.DateTimeField(_("ends at"), null=True, blank=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    started_at = models.DateTimeField(_("started at"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)

    class Meta:
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        ordering = ["starts_at", "pk"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(players__in=[2, 4]), name="tournaments_players_2_or_4"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def partnerships(self) -> bool:
        """Whether entrants are pairs of players (tables for four)."""
        return self.players == 4

    @property
    def registration_deadline(self):
        """When registration closes: ``registration_closes``, or the start time."""
        return self.registration_closes or self.starts_at

    def can_manage(self, user) -> bool:
        """Whether ``user`` may act as this event's organiser: the organiser, an arbiter they
        named (``arbiters``; one query), or staff. Deciding a pairing the user plays in is
        refused apart from this (``organiser.check_not_involved``)."""
        if user is None or not user.is_authenticated:
            return False
        return (
            user.pk == self.organiser_id or user.is_staff
            or self.arbiters.filter(pk=user.pk).exists()
        )

    def can_name_arbiters(self, user) -> bool:
        """Whether ``user`` may name or remove this event's arbiters: the organiser or staff,
        not an arbiter (the organiser chooses who shares their powers)."""
        return bool(
            user is not None and user.is_authenticated
            and (user.pk == self.organiser_id or user.is_staff)
        )

    def planned_rounds(self, entrants: int) -> int | None:
        """The number of rounds for ``entrants`` entrants (``None``: an arena has no rounds).

        Round robin: ``n - 1`` (even) or ``n`` (odd), twice for a double round robin (FIDE
        Handbook C.05 Annex 1); knockout: ``ceil(log2 n)``; Swiss: ``swiss_rounds``.
        """
        if self.format == self.Format.ROUND_ROBIN:
            single = entrants - 1 + entrants % 2
            return single * (2 if self.double_round_robin else 1)
        if self.format == self.Format.KNOCKOUT:
            return max(1, (entrants - 1).bit_length())
        if self.format == self.Format.SWISS:
            return self.swiss_rounds
        return None

    def tiebreak_order(self) -> list[str]:
        """The event's tie-breaks in order (``pairing.TieBreak`` values; empty: none)."""
        return list(self.tiebreaks)


class Entrant(models.Model):
    """A player, or a partnership (``user`` invited ``partner``), in one event.

    ``status``: ``invited`` until the partner accepts (partnerships only), then ``active``;
    ``withdrawn`` after a withdrawal during the event (before the start the row is deleted).
    ``rating``: the rating used for seeding and pairing, taken at registration. ``seed``: 1 for
    the top seed, set at the start. ``first_round``: the round the entrant entered at (a Swiss
    late entry misses the rounds before it, with zero points). ``withdrawn_round``: the round
    during which the entrant withdrew. ``absent``: a Swiss or arena entrant that did not come to
    its table (``games.tournaments.noshow``): still in the event, but paired no more (no points
    for the rounds it sits out) until one of its players rejoins from the event page
    (``registration.rejoin``), as lichess marks a Swiss player absent and pauses an arena player.
    """

    class Status(models.TextChoices):
        INVITED = "invited", _("Partner invited")
        ACTIVE = "active", _("Active")
        WITHDRAWN = "withdrawn", _("Withdrawn")

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="entrants",
        verbose_name=_("tournament"),
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="tournament_entries",
        verbose_name=_("player"),
    )
    partner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True,
        related_name="tournament_partner_entries", verbose_name=_("partner"),
    )
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.ACTIVE
    )
    rating = models.FloatField(_("rating"), default=1500.0)
    seed = models.PositiveIntegerField(_("seed"), null=True, blank=True)
    first_round = models.PositiveSmallIntegerField(_("first round"), default=1)
    withdrawn_round = models.PositiveSmallIntegerField(_("withdrawn in round"), null=True, blank=True)
    absent = models.BooleanField(_("absent"), default=False)
    registered_at = models.DateTimeField(_("registered at"), auto_now_add=True)

    class Meta:
        verbose_name = _("entrant")
        verbose_name_plural = _("entrants")
        ordering = ["tournament", "seed", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "user"], name="tournaments_entrant_unique_user"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def name(self) -> str:
        """``alice``, or ``alice & bob`` for a partnership."""
        if self.partner_id is None:
            return self.user.get_username()
        return _("%(a)s & %(b)s") % {
            "a": self.user.get_username(), "b": self.partner.get_username()
        }

    def members(self) -> list:
        """The users who play for this entrant: the player, and the partner if any."""
        return [self.user] + ([self.partner] if self.partner_id is not None else [])


class Round(models.Model):
    """A round of a round robin, knockout or Swiss event (an arena has one, its whole time)."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="rounds", verbose_name=_("tournament")
    )
    number = models.PositiveSmallIntegerField(_("number"))
    started_at = models.DateTimeField(_("started at"))
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)

    class Meta:
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "number"], name="tournaments_round_unique_number"
            ),
        ]

    def __str__(self) -> str:
        # A tournament's round, which some languages name apart from a match's (French: "ronde",
        # "manche").
        return pgettext_lazy("a tournament's round", "Round %(number)s") % {"number": self.number}


class Pairing(models.Model):
    """Two entrants paired in a round (``b`` ``None``: a bye), and the result.

    The result is set once: ``winner`` (``None`` with ``finished_at`` set: both lost, a double
    forfeit), ``score_a`` and ``score_b`` (a win 1, a loss 0), ``forfeit`` when the match was
    not played out (a withdrawal, or the organiser's forfeit). ``wins_a`` and ``wins_b`` count
    the matches won in a best-of-3 knockout pairing. ``board``: the order within the round (a
    knockout's bracket order; ``third_place`` marks the third-place match). ``no_show``: who
    did not come to the table (``games.tournaments.noshow``): ``a``, ``b`` or ``both``; empty
    when nobody defaulted so (a forfeit of another kind, or a match played).
    """

    class NoShow(models.TextChoices):
        NONE = "", _("Both came to the table")
        A = "a", _("The first entrant did not come")
        B = "b", _("The second entrant did not come")
        BOTH = "both", _("Neither came")

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="pairings",
        verbose_name=_("tournament"),
    )
    round = models.ForeignKey(
        Round, on_delete=models.CASCADE, related_name="pairings", verbose_name=_("round")
    )
    board = models.PositiveSmallIntegerField(_("board"))
    a = models.ForeignKey(
        Entrant, on_delete=models.CASCADE, related_name="+", verbose_name=_("first entrant")
    )
    b = models.ForeignKey(
        Entrant, on_delete=models.CASCADE, related_name="+", null=True, blank=True,
        verbose_name=_("second entrant"),
    )
    third_place = models.BooleanField(_("third-place match"), default=False)
    winner = models.ForeignKey(
        Entrant, on_delete=models.CASCADE, related_name="+", null=True, blank=True,
        verbose_name=_("winner"),
    )
    score_a = models.FloatField(_("first entrant's points"), null=True, blank=True)
    score_b = models.FloatField(_("second entrant's points"), null=True, blank=True)
    forfeit = models.BooleanField(_("forfeit"), default=False)
    no_show = models.CharField(
        _("no-show"), max_length=4, choices=NoShow.choices, blank=True, default=NoShow.NONE
    )
    wins_a = models.PositiveSmallIntegerField(default=0)
    wins_b = models.PositiveSmallIntegerField(default=0)
    created_at = models.DateTimeField(_("created at"))
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True, db_index=True)

    class Meta:
        verbose_name = _("pairing")
        verbose_name_plural = _("pairings")
        ordering = ["round", "board"]

    def __str__(self) -> str:
        return f"{self.round_id}:{self.board}"

    @property
    def finished(self) -> bool:
        return self.finished_at is not None

    @property
    def loser(self) -> Entrant | None:
        if self.winner_id is None or self.b_id is None:
            return None
        return self.b if self.winner_id == self.a_id else self.a


class Game(models.Model):
    """One table of a pairing: the core's ``Match``. ``a_side`` is the side (0 or 1) entrant
    ``a`` holds there; ``winner`` the entrant who won it (``None`` until it ends, or aborted)."""

    pairing = models.ForeignKey(
        Pairing, on_delete=models.CASCADE, related_name="games", verbose_name=_("pairing")
    )
    number = models.PositiveSmallIntegerField(_("number"))
    match = models.OneToOneField(
        Match, on_delete=models.PROTECT, related_name="tournament_game", verbose_name=_("match")
    )
    a_side = models.PositiveSmallIntegerField(_("side of the first entrant"), default=0)
    winner = models.ForeignKey(
        Entrant, on_delete=models.CASCADE, related_name="+", null=True, blank=True,
        verbose_name=_("winner"),
    )
    aborted = models.BooleanField(_("aborted"), default=False)

    class Meta:
        verbose_name = _("game")
        verbose_name_plural = _("games")
        ordering = ["pairing", "number"]

    def __str__(self) -> str:
        return f"{self.pairing_id}#{self.number}"


class AuditEntry(models.Model):
    """One change an organiser (an arbiter, or staff) made to an event, shown on the event page
    (``appoint`` and ``dismiss``: ``details`` ``{"arbiter": username}``; ``seed``:
    ``{"before": [names] or None, "after": [names]}``, the entrants in seed order, a list the
    page joins in the reader's language); ``actor``
    ``None``: the site made it (the scheduler cancelling an event with fewer than two entrants
    at its start, ``details`` ``{"reason": "too_few_entrants", "entrants": n}``)."""

    class Action(models.TextChoices):
        START = "start", _("Started the event")
        CANCEL = "cancel", _("Cancelled the event")
        PAUSE = "pause", _("Paused the event")
        RESUME = "resume", _("Resumed the event")
        FORFEIT = "forfeit", _("Recorded a forfeit")
        CORRECT = "correct", _("Corrected a result")
        PAIR = "pair", _("Paired a round")
        WITHDRAW = "withdraw", _("Withdrew an entrant")
        REMOVE = "remove", _("Removed an entrant")
        EDIT = "edit", _("Changed the settings")
        SEED = "seed", _("Set the seeds")
        APPOINT = "appoint", _("Named an arbiter")
        DISMISS = "dismiss", _("Removed an arbiter")

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="audit", verbose_name=_("tournament")
    )
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", null=True,
        blank=True, verbose_name=_("by"),
    )
    action = models.CharField(_("action"), max_length=10, choices=Action.choices)
    pairing = models.ForeignKey(
        Pairing, on_delete=models.SET_NULL, null=True, blank=True, related_name="+",
        verbose_name=_("pairing"),
    )
    details = models.JSONField(_("details"), default=dict, blank=True)
    created_at = models.DateTimeField(_("at"))

    class Meta:
        verbose_name = _("audit entry")
        verbose_name_plural = _("audit trail")
        ordering = ["tournament", "created_at", "pk"]

    def __str__(self) -> str:
        return f"{self.tournament_id} {self.action}"
