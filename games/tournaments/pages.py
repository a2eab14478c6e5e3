"""What the tournaments' pages show, read for one viewer: the events list's sections, the event
page's facts and its version (an ETag), and the warnings the pages give. Reads only: every
change goes through ``games.tournaments.services``; ``games.tournaments.views`` parses the
request, calls these and renders.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any
from zoneinfo import ZoneInfo

from django.db import models
from django.db.models import Count, Max, Q, Sum
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.core.for_apps import duration_text, listing
from games.ratings import for_apps as ratings
from games.tournaments import bracket as knockout
from games.tournaments import busy, noshow, organiser, registration, services, zones
from games.tournaments.errors import TournamentError
from games.tournaments.models import (
    TIEBREAK_EDITION, TIEBREAK_NAMES, AuditEntry, Entrant, Game, Pairing, Tournament,
)
from games.tournaments.pairing import ARTICLES, TieBreak

#: How many events each section of the list shows.
LIST_SIZE = 30


def event_sections() -> list[tuple[str, list[Tournament]]]:
    """The events list: ``[(title, events)]`` for running (oldest start first), upcoming
    (soonest first), finished and cancelled events (latest first), at most :data:`LIST_SIZE`
    each; each event has ``entrant_count`` (invited partnerships left out). A cancelled event
    was never played, so it has a section of its own, not the finished one's; that section is
    left out while it has no event."""
    events = Tournament.objects.annotate(
        entrant_count=Count("entrants", filter=~Q(entrants__status=Entrant.Status.INVITED))
    ).select_related("organiser")
    cancelled = list(events.filter(status=Tournament.Status.CANCELLED).order_by("-finished_at")[:LIST_SIZE])
    return [
        (_("Running"), events.filter(status=Tournament.Status.RUNNING).order_by("started_at")[:LIST_SIZE]),
        (_("Upcoming"), events.filter(status=Tournament.Status.UPCOMING).order_by("starts_at")[:LIST_SIZE]),
        (_("Finished"), events.filter(status=Tournament.Status.FINISHED).order_by("-finished_at")[:LIST_SIZE]),
    ] + ([(_("Cancelled"), cancelled)] if cancelled else [])


def seed_order(names: list[str] | str | None) -> str | None:
    """A seeding's order as the reader's language writes a list (``listing``: "a, b et c",
    Arabic "a وb وc"), from an audit entry's ``before`` or ``after`` (a list of names);
    ``None`` for none. Text is an older entry's, written joined, and is shown as it is."""
    if not names:
        return None
    return names if isinstance(names, str) else listing(names)


def with_changes(entries) -> list[AuditEntry]:
    """The audit entries, each edit's ``change_lines``: ``[(field's label, before, after,
    whether they are times)]``; a time (kept as ISO 8601 text) is read back as a datetime, so
    the page writes it in the reader's zone as it writes its other times. A seeding's entry
    gets ``seeds``: ``(before, after)`` written as lists (:func:`seed_order`), else ``None``."""
    entries = list(entries)
    for entry in entries:
        entry.seeds = None
        if entry.action == AuditEntry.Action.SEED:
            entry.seeds = (seed_order(entry.details.get("before")),
                           seed_order(entry.details.get("after")))
        entry.change_lines = []
        for field, (before, after) in (entry.details.get("changes") or {}).items():
            model_field = Tournament._meta.get_field(field)
            when = isinstance(model_field, models.DateTimeField)
            if when:
                before, after = (parse_datetime(v) if isinstance(v, str) else v for v in (before, after))
            entry.change_lines.append((model_field.verbose_name, before, after, when))
    return entries


@dataclass
class RoundView:
    number: int
    pairings: list[Pairing]
    finished: bool
    name: str = ""  # a knockout round's name (final, semi-finals, …)


def version(tournament_id: int, user: Any, language: str, zone_of) -> str | None:
    """The event page's version for this viewer (an ETag, quoted): it changes whenever what the
    page shows does, and is read in a handful of aggregate queries instead of the page's build
    (``views.event_page`` answers 304 when it is unchanged).

    What it covers: the event's row, its entrants (by status and absence), pairings (their results and
    points), games (results, aborts), the organiser's changes (arbiters named or removed among
    them), whether registration is open or full now, which entrants are engaged in another
    event, the viewer, the language and the viewer's zone (``zone_of(event's zone)`` gives
    it). ``None`` for an unknown event.
    """
    t = Tournament.objects.filter(pk=tournament_id).first()
    if t is None:
        return None
    parts: list[object] = [
        [getattr(t, f.attname) for f in Tournament._meta.concrete_fields],
        user.pk, language, zone_of(t.time_zone).key,
        services.registration_open(t), registration.is_full(t),
        sorted(Entrant.objects.filter(tournament=t).values_list("status", "absent").annotate(
            n=Count("pk"), last=Max("pk"))),
        Pairing.objects.filter(tournament=t).aggregate(
            n=Count("pk"), last=Max("pk"), done=Count("finished_at"), a=Sum("score_a"),
            b=Sum("score_b"), wins=Sum("wins_a") + Sum("wins_b"), won=Count("winner"),
        ),
        Game.objects.filter(pairing__tournament=t).aggregate(
            n=Count("pk"), won=Count("winner"), aborted=Count("pk", filter=Q(aborted=True)),
        ),
        AuditEntry.objects.filter(tournament=t).aggregate(last=Max("pk")),
    ]
    if t.status == Tournament.Status.RUNNING:
        active = t.entrants.filter(status=Entrant.Status.ACTIVE)
        parts.append(sorted((k, v.pk) for k, v in busy.engaged_entrants(t, active).items()))
    return '"' + hashlib.sha256(repr(parts).encode()).hexdigest()[:32] + '"'


def event_facts(t: Tournament, user: Any, zone: ZoneInfo) -> dict:
    """The event page's template context for ``user`` (possibly anonymous), its times in
    ``zone``: settings, entrants, rounds and tables, standings (bracket, leaderboard), the
    player's and the organiser's buttons, the arbiters, the audit trail."""
    entrants = list(t.entrants.select_related("user", "partner"))
    pairings = list(
        Pairing.objects.filter(tournament=t)
        .select_related("round", "a__user", "a__partner", "b__user", "b__partner", "winner")
        .prefetch_related("games")
        .order_by("round__number", "board")
    )
    knockout_event = t.format == Tournament.Format.KNOCKOUT
    seeded = sum(1 for e in entrants if e.seed)
    planned = t.planned_rounds(seeded) if knockout_event else None
    rounds: dict[int, RoundView] = {}
    for p in pairings:
        view = rounds.setdefault(p.round.number, RoundView(
            p.round.number, [], p.round.finished_at is not None,
            knockout.round_name(p.round.number, planned) if planned else ""))
        view.pairings.append(p)
    mine = None
    invitations = []
    if user.is_authenticated:
        mine = next((e for e in entrants if user.pk in (e.user_id, e.partner_id)), None)
        invitations = [e for e in entrants if e.partner_id == user.pk and e.status == Entrant.Status.INVITED]
    my_tables = []
    if mine is not None:
        my_tables = [
            g for p in pairings if not p.finished and mine.pk in (p.a_id, p.b_id)
            for g in p.games.all() if g.winner_id is None and not g.aborted
        ]
    can_manage = t.can_manage(user)
    _mark_busy_and_decidable(t, entrants, pairings, user, can_manage)
    uses_tiebreaks = t.format in (Tournament.Format.ROUND_ROBIN, Tournament.Format.SWISS)
    order = t.tiebreak_order() if uses_tiebreaks else []
    registration_open = services.registration_open(t)
    clashes = []
    if user.is_authenticated and ((mine is None and registration_open) or invitations):
        clashes = busy.clashes(t, [user])  # said before the click (register, accept)
    upcoming = t.status == Tournament.Status.UPCOMING
    active = sum(1 for e in entrants if e.status == Entrant.Status.ACTIVE)
    return {
        "viewer_zone": zone,
        "viewer_zone_name": zones.label(zone.key),
        "organiser_zone_name": zones.label(t.time_zone),
        "overlap_warning": overlap_warning(clashes) if clashes else "",
        "rematch_warning": rematch_warning(t, active) if can_manage and upcoming else "",
        "t": t,
        "entrants": entrants,
        "rounds": sorted(rounds.values(), key=lambda r: -r.number) if t.format != Tournament.Format.ARENA else [],
        "arena_pairings": list(reversed(pairings)) if t.format == Tournament.Format.ARENA else [],
        "bracket": knockout.bracket(t, pairings, seeded) if knockout_event else [],
        "standings": services.standings(t) if not upcoming else [],
        # Entrants closed for cheating (the moderation app says, through the ratings): their
        # results stay in the standings, flagged.
        "cheaters": ratings.cheaters_among(
            {uid for e in entrants for uid in (e.user_id, e.partner_id) if uid is not None}
        ),
        "uses_tiebreaks": uses_tiebreaks,
        "tiebreak_names": [TIEBREAK_NAMES[TieBreak(k)] for k in order],
        "tiebreak_articles": [(TIEBREAK_NAMES[TieBreak(k)], ARTICLES[TieBreak(k)]) for k in order],
        "tiebreak_edition": TIEBREAK_EDITION,
        "provisional": t.status == Tournament.Status.RUNNING and uses_tiebreaks and any(
            not p.finished for p in pairings),
        "mine": mine,
        "my_tables": my_tables,
        "no_show_rule": no_show_rule(t),
        "invitations": invitations,
        "can_manage": can_manage,
        "arbiters": list(t.arbiters.order_by("username")),
        "can_name_arbiters": can_manage and t.can_name_arbiters(user) and t.status in (
            Tournament.Status.UPCOMING, Tournament.Status.RUNNING),
        "withdrawn": any(e.status == Entrant.Status.WITHDRAWN for e in entrants),
        "registration_open": registration_open,
        "full": registration.is_full(t),
        "audit": with_changes(t.audit.select_related("actor", "pairing__round").order_by("-created_at", "-pk")),
        "cancelled_by_organiser": t.status == Tournament.Status.CANCELLED and t.audit.filter(
            action=AuditEntry.Action.CANCEL, actor__isnull=False).exists(),
    }


def _mark_busy_and_decidable(t, entrants, pairings, user, can_manage) -> None:
    """Set, for the event page: ``entrant.busy_in`` (the other event an active entrant's player
    is engaged in, ``busy.engaged_entrants``; ``None``), ``pairing.can_decide`` (the organiser's
    or arbiter's forfeit or correction form is offered: not on a pairing the user plays in,
    which the service refuses, ``organiser.check_not_involved``; staff may; nor a correction
    the service refuses, ``next_round_paired``, ``organiser.correctable``),
    ``pairing.has_live`` (a table of it is being played) and ``pairing.waiting_for``
    (``[(entrant's name, other event)]`` for a pairing whose table waits for a player engaged
    elsewhere)."""
    running = t.status == Tournament.Status.RUNNING
    elsewhere = busy.engaged_entrants(
        t, [e for e in entrants if e.status == Entrant.Status.ACTIVE]
    ) if running else {}
    for e in entrants:
        e.busy_in = elsewhere.get(e.pk)
    correctable: dict[int, bool] = {}  # by round number: one query a round, not a pairing
    for p in pairings:
        p.can_decide = can_manage and running and p.b_id is not None and _may_decide(user, p)
        if p.can_decide and p.finished:
            if p.round.number not in correctable:
                correctable[p.round.number] = organiser.correctable(t, p)
            p.can_decide = correctable[p.round.number]
        live = [g for g in p.games.all() if g.winner_id is None and not g.aborted]
        p.has_live = bool(live)  # a forfeit would end a table: the form asks to confirm
        p.waiting_for = []
        if running and not p.finished and not live and p.b_id is not None:
            by_user = busy.engaged(
                [uid for e in (p.a, p.b) for uid in (e.user_id, e.partner_id) if uid is not None],
                tournament_id=t.pk, pairing_id=p.pk,
            )
            p.waiting_for = [
                (e.name, by_user.get(e.user_id) or by_user.get(e.partner_id))
                for e in (p.a, p.b) if e.user_id in by_user or e.partner_id in by_user
            ]


def _may_decide(user: Any, p: Pairing) -> bool:
    """Whether ``organiser.check_not_involved`` lets ``user`` decide ``p``."""
    try:
        organiser.check_not_involved(user, p)
    except TournamentError:
        return False
    return True


def no_show_rule(t: Tournament) -> str:
    """The event's no-show rule as its page publishes it (``noshow``): the wait
    (``noshow.wait``, in words), what a default gives, and the knockout's own part, or the
    Swiss's and the arena's (the no-show is marked absent until it rejoins)."""
    rule = _(
        "A player who has not come to their table within %(wait)s of its opening loses by default "
        "(unrated, no match played); when neither comes, both lose."
    ) % {"wait": duration_text(noshow.wait().total_seconds())}
    if t.format == Tournament.Format.KNOCKOUT:
        rule += " " + _("In a knockout, when neither comes, the better seed goes on.")
    elif t.format in noshow.PAUSING_FORMATS:
        rule += " " + _(
            "A player who does not come is then marked absent and not paired again until they "
            "rejoin on this page."
        )
    return rule


def overlap_warning(others: list[Tournament]) -> str:
    """The warning of an event whose time overlaps ``others`` (``busy.clashes``)."""
    return _(
        "This event's time overlaps %(events)s, where you are registered too. You play one "
        "tournament table at a time: a table of one waits until you are free, and your "
        "opponent waits with it."
    ) % {"events": listing(o.name for o in others)}


def clash_warning(t: Tournament, users: list) -> str:
    """:func:`overlap_warning` for ``users`` (``None`` left out) registered in ``t``, empty when
    no other event of theirs overlaps it."""
    others = busy.clashes(t, [u for u in users if u is not None])
    return overlap_warning(others) if others else ""


def rematch_warning(t: Tournament, entrants: int) -> str:
    """The warning of a Swiss with more rounds than ``entrants`` less one, where some entrants
    must meet twice (a round robin is the way to have everyone meet once); empty otherwise."""
    rounds = t.swiss_rounds or 0
    if t.format != Tournament.Format.SWISS or entrants < 2 or rounds <= entrants - 1:
        return ""
    return _(
        "This Swiss has %(rounds)s for %(entrants)s: more rounds than entrants less one, so "
        "some entrants will meet twice (the pairing then chooses those who met least, and "
        "longest ago)."
    ) % {
        "rounds": ngettext("%(n)s round", "%(n)s rounds", rounds) % {"n": rounds},
        "entrants": ngettext("%(n)s entrant", "%(n)s entrants", entrants) % {"n": entrants},
    }


def started_warning(tournament_id: int, user: Any) -> str:
    """After a start: :func:`rematch_warning` for the entrants seeded at it, shown to one who
    manages the event (empty when it did not start, or for anyone else)."""
    t = Tournament.objects.filter(pk=tournament_id, status=Tournament.Status.RUNNING).first()
    if t is None or not t.can_manage(user):
        return ""
    return rematch_warning(t, t.entrants.filter(seed__isnull=False).count())
