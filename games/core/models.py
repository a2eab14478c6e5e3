"""Matches, their seats and their append-only event log.

The event log is the truth: the live state of a match is the engine's ``replay`` of its ``deal`` and
``play`` events (STYLE.md, "In this project" 3). ``Match.seq`` is the ``seq`` of the last event, so
a client that sent a play against an older ``seq`` is told it is stale. Every write goes through
``games.core.actions`` (its funnel locks the match row, or compares and sets its ``seq``).

The clock lives here too, not in any process's memory: ``Match.deadline`` is when the seat to
move runs out (or, for a computer seat, when it plays), and ``Seat.last_seen`` is refreshed by the
seat's open sockets; ``games.core.clock.clock.tick`` acts on both (``docs/protocol.md`` "Clock").
"""

import uuid

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

# The seats' names live in games/core/names.py (this module stays the tables' rows); they are
# importable from here too, where the apps and the pages have always found them.
from games.core.names import (  # noqa: F401
    BOT_NAMES, bot_choices, bot_display_name, bot_numbers, record_seat_names, seat_account,
    seat_display_names,
)


#: The time limits per play a table may have, in seconds (``None``, no clock, for casual tables).
MOVE_SECONDS = (10, 20, 30, 60)


class Match(models.Model):
    """One table: created open, ``playing`` once every seat is taken, ``finished`` at the end.

    ``rules`` is ``games.engine.Rules.to_dict()`` (``players`` included), stored per match so an old
    match replays under its own rules. ``scores`` is ``[side 0, side 1]`` totals of the finished
    rounds; ``winner_side`` is 0 or 1 once finished (``None`` after an abort), and ``result`` says
    how it ended: a side reached the target, the other side's absent player was claimed against,
    a side resigned, or the match was aborted before its first play.
    ``watchers``: who may watch it being played (:class:`Watchers`).
    ``move_seconds`` is the time per play (``None``: no clock); ``deadline`` is when the seat to
    move runs out, or for a computer seat when it plays (``None``: nobody is waiting on a clock).
    ``server_seed`` and ``client_seeds``: the provably fair shuffle's seeds (RULES.md, "Provably
    fair shuffle"); the server seed is revealed only once the match is over.
    """

    class Status(models.TextChoices):
        OPEN = "open", _("Open")
        PLAYING = "playing", _("Playing")
        FINISHED = "finished", _("Finished")

    class Watchers(models.TextChoices):
        """Who may watch the match being played (chosen by the table's creator)."""

        EVERYONE = "everyone", _("Everyone")
        REGISTERED = "registered", _("Registered players")
        NOBODY = "nobody", _("Nobody")

    class Result(models.TextChoices):
        TARGET = "target", _("Target reached")
        CLAIM = "claim", _("Won on a claim (the opponent left)")
        RESIGN = "resign", _("Resigned")
        ABORT = "abort", _("Aborted")
        DECIDED = "decided", _("Decided away from the table (a forfeit or a withdrawal)")
        ABANDONED = "abandoned", _("Abandoned: no person was left to play it")

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
    result = models.CharField(
        _("how it ended"), max_length=10, choices=Result.choices, blank=True, default=""
    )
    move_seconds = models.PositiveSmallIntegerField(
        _("seconds per play"),
        null=True,
        blank=True,
        choices=[(seconds, str(seconds)) for seconds in MOVE_SECONDS],
    )
    deadline = models.DateTimeField(_("deadline"), null=True, blank=True, db_index=True)
    # Who may watch while the match is played (``games.core.actions.watching.check_may_watch``): the
    # seated players always may; the waiting room of an open table is open to all (to join it).
    watchers = models.CharField(
        _("who may watch"), max_length=10, choices=Watchers.choices, default=Watchers.EVERYONE
    )
    # Part of the key of the in-process state cache (games.core.state.cache): ids may be reused after a
    # rolled-back transaction on SQLite, a random token never is.
    cache_token = models.UUIDField(default=uuid.uuid4, editable=False)
    # Part of the key of the in-process seating cache (games.core.state.cache.seat_rows): a new random value
    # in the same transaction as every change to a seat (joins, absences, takeovers, ...), so a
    # cached seating is never used after a change, nor after a rolled-back one.
    seating_token = models.UUIDField(default=uuid.uuid4, editable=False)
    # The provably fair shuffle (RULES.md, "Provably fair shuffle (basra-shuffle/1)"): drawn from
    # ``secrets`` when the table is created and never sent anywhere until the match is over
    # (only its commitment is); "" for a match dealt before the fair shuffle.
    server_seed = models.CharField(
        _("server seed"), max_length=64, blank=True, default="", editable=False
    )
    # The seats' client seeds in seat order, fixed when the match starts (``""`` for a computer
    # seat); empty until then and for a match dealt before the fair shuffle.
    client_seeds = models.JSONField(_("client seeds"), default=list, blank=True, editable=False)
    # A private table is listed nowhere (not in the lobby's open tables); a seat is taken only
    # with ``invite_token``, the unguessable part of its invite link (``secrets.token_urlsafe``),
    # shown to the people seated there. "" for a public table.
    private = models.BooleanField(_("private"), default=False)
    invite_token = models.CharField(
        _("invite token"), max_length=43, blank=True, default="", editable=False
    )
    # A rated match that ends before every person has played a card of the first deal is
    # aborted (``games.core.actions.endings.finish``). ``False`` for a table an app opened under
    # abort rules of its own (a tournament's pairing: ``create_table(early_abort=False)``).
    early_abort = models.BooleanField(
        _("aborted when it ends early"), default=True, editable=False
    )
    # A private table is seen only by its seated players and the sessions that opened its invite
    # link, unless its creator lets everyone watch it (``games.core.state.watching``).
    private_watchable = models.BooleanField(_("everyone may watch"), default=False)

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

    @property
    def fair(self) -> bool:
        """Whether this match deals by the provably fair shuffle (it has a server seed)."""
        return bool(self.server_seed)


class Seat(models.Model):
    """A seat taken at a match. Seat numbers follow RULES.md "Four players": 0, 2, 1, 3.

    Who plays it: a person (``user`` set, ``bot`` blank), the computer (``user`` null, ``bot`` a
    level of ``games.engine.bots.BOTS``), or, after an absent person was replaced in a 4-player
    match, the computer in that person's seat (both set, ``absent`` true).
    ``last_seen`` is refreshed by the seat's open sockets (on connect, every
    ``games.core.state.liveness.heartbeat_seconds()``, on disconnect); ``absent`` is set by the clock after a
    disconnection longer than the grace period or three timeouts in a row (``timeouts`` counts
    them), and cleared when the player comes back. ``resign_offered``: the player offered to
    resign and waits for the partner (4 players). ``client_seed``: the person's seed for the fair
    shuffle, changeable until the start.
    """

    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, related_name="seats", verbose_name=_("match")
    )
    seat = models.PositiveSmallIntegerField(_("seat"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="seats",
        verbose_name=_("user"),
        null=True,
        blank=True,
    )
    bot = models.CharField(
        _("computer level"), max_length=10, choices=bot_choices, blank=True, default=""
    )
    last_seen = models.DateTimeField(_("last seen"), null=True, blank=True)
    absent = models.BooleanField(_("absent"), default=False)
    timeouts = models.PositiveSmallIntegerField(_("timeouts in a row"), default=0)
    resign_offered = models.BooleanField(_("offered to resign"), default=False)
    # The person's client seed (RULES.md, "Provably fair shuffle" 2), theirs to change until
    # the match starts, then copied into ``Match.client_seeds``; ``""`` for a computer seat.
    client_seed = models.CharField(_("client seed"), max_length=64, blank=True, default="")

    class Meta:
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        ordering = ["match", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["match", "seat"], name="games_seat_unique_seat"),
            models.UniqueConstraint(
                fields=["match", "user"],
                condition=models.Q(user__isnull=False),
                name="games_seat_unique_user",
            ),
            models.CheckConstraint(
                condition=models.Q(user__isnull=False) | ~models.Q(bot=""),
                name="games_seat_person_or_bot",
            ),
        ]

    def __str__(self) -> str:
        return _("Seat %(seat)s of match %(match)s") % {"seat": self.seat, "match": self.match_id}

    @property
    def name(self) -> str:
        """The seat's stable name in the log and game records: the username, or ``bot:<level>``.

        A username never holds ``:`` (Django's username validator), so the two never clash.
        """
        if self.user_id is not None:
            return self.user.get_username()
        return f"bot:{self.bot}"

    @property
    def display_name(self) -> str:
        """The name to show people: the username, "Closed account" translated for an account
        its owner or a moderator closed (``is_active`` false: ``accounts.closing``), or
        a computer seat's :func:`bot_display_name`, numbered among the match's computer seats
        (``self.match.seats``: prefetch them to list many seats without a query each)."""
        if self.user_id is not None:
            if not self.user.is_active:
                return str(_("Closed account"))
            return self.user.get_username()
        if self.match_id is None:  # a seat not yet at a table has no others to be numbered among
            return bot_display_name(self.bot)
        numbers = bot_numbers(s.seat for s in self.match.seats.all() if s.user_id is None and s.bot)
        return bot_display_name(self.bot, numbers.get(self.seat))


class Watcher(models.Model):
    """One open spectator socket of a table, so that any process can count a table's watchers.

    Written on the socket's connect (one ``INSERT``), refreshed on its heartbeat (``last_seen``,
    every ``games.core.state.liveness.heartbeat_seconds()``) and deleted on its disconnect; a row whose
    process died without the disconnect stops counting once ``last_seen`` is older than
    ``games.core.actions.watching.stale_after()`` and the clock deletes it. Never touched by a play.
    ``channel`` is the socket's channel-layer name (unique per socket).
    """

    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, related_name="watcher_sockets", verbose_name=_("match")
    )
    channel = models.CharField(_("socket"), max_length=200, unique=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="+",
        verbose_name=_("user"),
        null=True,
        blank=True,
    )
    last_seen = models.DateTimeField(_("last seen"), db_index=True)

    class Meta:
        verbose_name = _("spectator socket")
        verbose_name_plural = _("spectator sockets")
        indexes = [models.Index(fields=["match", "last_seen"], name="games_watcher_match_seen")]

    def __str__(self) -> str:
        return f"{self.match_id} {self.channel}"


class Online(models.Model):
    """A signed-in user with a socket (table, lobby or notices) open in one server process, so
    that every process sees who is online (``games.core.state.online``).

    One row per user and process (``process``: the process's random id), written when the
    user's first socket in that process opens and deleted when their last one closes, both in
    the process's next beat (at most a second later); ``seen_at`` is refreshed for all of the
    process's rows with one ``UPDATE`` every ``online.REFRESH_SECONDS``. A row whose process died
    stops counting once ``seen_at`` is older than ``online.stale_after()``, and the next beat
    of any process deletes it.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", verbose_name=_("user")
    )
    process = models.CharField(_("server process"), max_length=32)
    seen_at = models.DateTimeField(_("last seen"), db_index=True)

    class Meta:
        verbose_name = _("user online")
        verbose_name_plural = _("users online")
        constraints = [
            models.UniqueConstraint(fields=["user", "process"], name="games_online_user_process")
        ]

    def __str__(self) -> str:
        return f"{self.user_id} {self.process}"


class Event(models.Model):
    """One thing that happened at a match, numbered ``seq`` from 1; never updated or deleted.

    Payloads by kind: ``docs/protocol.md`` "Event log" (one kind for each thing that can happen:
    seating, dealing, plays, round and match ends, and the clock's and the players' absence,
    return, claim, computer takeover, resign offer and resignation, and more time asked for).
    """

    class Kind(models.TextChoices):
        JOIN = "join", _("Join")
        LEAVE = "leave", _("Leave")
        START = "start", _("Start")
        DEAL = "deal", _("Deal")
        PLAY = "play", _("Play")
        ROUND_END = "round_end", _("Round end")
        MATCH_END = "match_end", _("Match end")
        ABSENT = "absent", _("Absent")
        RETURNED = "returned", _("Returned")
        CLAIM = "claim", _("Win claimed")
        BOT_TAKEOVER = "bot_takeover", _("Computer took over")
        RESIGN_OFFER = "resign_offer", _("Resign offer")
        RESIGN = "resign", _("Resign")
        ABORT = "abort", _("Abort")
        MORE_TIME = "more_time", _("More time")

    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, related_name="events", verbose_name=_("match")
    )
    seq = models.PositiveIntegerField(_("number"))
    kind = models.CharField(_("kind"), max_length=20, choices=Kind.choices)
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


def is_own_play(kind: str, payload: dict) -> bool:
    """Whether an event (its ``kind`` and ``payload``) is a card its seat's person played
    themselves: a ``play`` neither the clock's on a time-out (``"timeout": true``) nor the
    computer's standing in (``"bot"``). The one definition of an own play (who "played" a
    match, whose first deal is unplayed: ``actions.endings.first_deal_unplayed``);
    :data:`OWN_PLAY` says the same of ``Event`` rows in SQL."""
    return kind == Event.Kind.PLAY and payload.get("timeout") is not True and "bot" not in payload


#: How a match nobody came to ends (a tournament's no-show): decided away from the table for
#: the side that came, abandoned when nobody did. With no :data:`OWN_PLAY`, it has nothing to
#: replay.
NO_SHOW_RESULTS = (Match.Result.DECIDED, Match.Result.ABANDONED)


#: :func:`is_own_play` as a filter of ``Event`` rows (the key's absence said outright: "not
#: true" is unknown in SQL when the key is absent).
OWN_PLAY = (
    models.Q(kind=Event.Kind.PLAY)
    & (models.Q(payload__timeout__isnull=True) | models.Q(payload__timeout=False))
    & ~models.Q(payload__has_key="bot")
)

def nothing_to_replay() -> models.Q:
    """The filter of the ``Match`` rows with nothing to replay: a no-show's table, ended as one
    nobody came to (:data:`NO_SHOW_RESULTS`) with no card a person played (:data:`OWN_PLAY`).
    The profile's recent matches, the table page and the latest replays leave their replay out
    by it. (A function: its subquery needs the models loaded.)"""
    return models.Q(result__in=NO_SHOW_RESULTS) & ~models.Exists(
        Event.objects.filter(OWN_PLAY, match_id=models.OuterRef("pk"))
    )


class ClockTick(models.Model):
    """The table clock's own heartbeat: one row (``pk`` :attr:`ONE`), written by every tick.

    ``last_tick`` is the moment the last tick of any clock process ended. A tick that finds it
    further back than ``BASRA_CLOCK_OUTAGE_SECONDS`` knows the clock was not running (the
    server or its database was down) and gives the tables their time back before acting
    (``games.core.actions.presence.resume_clock``; ``docs/protocol.md`` "Clock, absence, claim and resign").
    """

    #: The primary key of the one row.
    ONE = 1

    last_tick = models.DateTimeField(_("last tick"))

    class Meta:
        verbose_name = _("clock tick")
        verbose_name_plural = _("clock ticks")

    def __str__(self) -> str:
        return f"clock {self.last_tick.isoformat()}"


class WebTick(models.Model):
    """The web servers' heartbeat: one row (``pk`` :attr:`ONE`), the moment a server process
    with open sockets last said it was up (``games.core.sockets.beats.ServerBeat``).

    The clock reads it: when no server has said so for longer than
    ``BASRA_CLOCK_OUTAGE_SECONDS``, nobody can reach a table, so the clock does nothing (no
    timeout, no absence, no computer play) and, once a server is back, gives every table the
    time back as after its own outage (``games.core.clock.clock.tick``). No row: no server has run yet.
    Not a field of :class:`ClockTick`: the clock holds that row's lock while it gives every table
    its time back, and the servers' one database thread must never wait on it.
    """

    #: The primary key of the one row.
    ONE = 1

    last_seen = models.DateTimeField(_("last seen"))

    class Meta:
        verbose_name = _("web servers' heartbeat")
        verbose_name_plural = _("web servers' heartbeats")

    def __str__(self) -> str:
        return f"web {self.last_seen.isoformat()}"


class Challenge(models.Model):
    """One player's challenge to another to a two-player match (``games.core.actions.challenges``).

    ``rules``, ``rated`` and ``move_seconds`` are the table's, as ``games.core.actions.create_table``
    takes them; ``challenger_seed`` the challenger's client seed (RULES.md, "Provably fair
    shuffle" 2). ``pending`` until the challenged player accepts (``match`` is then the table
    that started with both seated) or declines, or the challenger cancels it; a pending
    challenge past ``expires_at`` is expired (``is_open``), nothing needs to mark it.
    """

    class Status(models.TextChoices):
        PENDING = "pending", _("Waiting for an answer")
        ACCEPTED = "accepted", _("Accepted")
        DECLINED = "declined", _("Declined")
        CANCELLED = "cancelled", _("Cancelled")

    challenger = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="challenges_sent",
        verbose_name=_("challenger"),
    )
    challenged = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="challenges_received",
        verbose_name=_("challenged player"),
    )
    rules = models.JSONField(_("rules"), default=dict)
    rated = models.BooleanField(_("rated"), default=False)
    move_seconds = models.PositiveSmallIntegerField(_("seconds per play"), null=True, blank=True)
    challenger_seed = models.CharField(_("client seed"), max_length=64, default="", editable=False)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.PENDING, db_index=True
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    expires_at = models.DateTimeField(_("expires at"))
    match = models.ForeignKey(
        Match, on_delete=models.SET_NULL, null=True, blank=True, related_name="+",
        verbose_name=_("match"),
    )

    class Meta:
        verbose_name = _("challenge")
        verbose_name_plural = _("challenges")
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"challenge {self.pk}: {self.challenger_id} -> {self.challenged_id} {self.status}"

    def is_open(self, now) -> bool:
        """Pending and not expired at ``now``."""
        return self.status == self.Status.PENDING and now < self.expires_at


class Rematch(models.Model):
    """The rematch of a finished match (``games.core.actions.rematch``), one row per match at most.

    ``accepted``: the seats whose people asked for it, with ``client_seeds`` ``{seat: seed}``
    (their seeds for the new table). ``gone``: a seated person left the finished table (their
    table socket closed) or was away: no rematch is possible any more. ``new_match``: the table
    that started when every person's seat had accepted.
    """

    match = models.OneToOneField(
        Match, on_delete=models.CASCADE, related_name="rematch", verbose_name=_("match")
    )
    accepted = models.JSONField(_("seats that accepted"), default=list)
    client_seeds = models.JSONField(_("client seeds"), default=dict, editable=False)
    gone = models.BooleanField(_("someone left"), default=False)
    new_match = models.ForeignKey(
        Match, on_delete=models.SET_NULL, null=True, blank=True, related_name="+",
        verbose_name=_("new match"),
    )

    class Meta:
        verbose_name = _("rematch")
        verbose_name_plural = _("rematches")

    def __str__(self) -> str:
        return f"rematch of {self.match_id}"


class CreateKey(models.Model):
    """The one-time key of a create-table form and the table it made
    (``games.core.actions.seating.create_table``'s ``create_key``): the same form posted again by
    the same person (a double submit, a retry after an answer that never came) lands on that
    table instead of making another.

    Kept in the database, with a unique ``(user, key)``, rather than in the session: two posts in
    flight at once read the same session, and both would make a table; here the second one's
    insert waits for the first's commit and fails, and it then finds the first's table. Deleted
    with its table (a table whose last player left: a later retry makes a new one).
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+",
        verbose_name=_("user"),
    )
    key = models.CharField(_("key"), max_length=64)
    match = models.OneToOneField(
        Match, on_delete=models.CASCADE, related_name="+", verbose_name=_("match")
    )

    class Meta:
        verbose_name = _("create key")
        verbose_name_plural = _("create keys")
        constraints = [
            models.UniqueConstraint(fields=["user", "key"], name="games_createkey_once"),
        ]

    def __str__(self) -> str:
        return f"create key of {self.user_id} -> {self.match_id}"
