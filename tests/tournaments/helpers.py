"""Playing whole events through the services and the core's actions, with scripted results.

Every result comes from a real table: the paired players sit at a match created by
``games.core.actions`` and the losing side resigns (``actions.resign``; in a partnership both
partners, the first offer and the second agreement), so the result reaches the event through
``games.core.signals.match_finished`` as it does on the site; what follows it (the next round,
the next match of a pairing) is then run as the server runs it after the commit
(``services.catch_up``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.core import actions
from games.core.models import Match
from games.tournaments import services
from games.tournaments.errors import TournamentError
from games.tournaments.models import AuditEntry, Entrant, Game, Pairing, Round, Tournament


def users(*names: str) -> list:
    """Users named ``names`` (no password: hashing one is slow and nobody logs in)."""
    model = get_user_model()
    return [model.objects.create_user(username=n, email=f"{n}@example.com", password=None) for n in names]


def event(organiser, fmt: str, *, players: int = 2, starts_in: int = 60, **settings) -> Tournament:
    """A new event by ``organiser`` starting ``starts_in`` minutes from now, to a target of 11."""
    settings.setdefault("rules", {"target": 11})
    return services.create_tournament(
        user=organiser, name=f"{fmt} test", format=fmt, players=players,
        starts_at=timezone.now() + timedelta(minutes=starts_in), **settings,
    )


def started_arena(organiser, people: list, minutes: int):
    """An arena of ``minutes`` by ``organiser`` that ``people`` entered, started now: the event
    (read again) and its start time."""
    t = event(organiser, "arena", arena_minutes=minutes)
    enter(t, people)
    start = timezone.now()
    services.start(user=organiser, tournament_id=t.pk, now=start)
    return refresh(t), start


def enter(t: Tournament, people: list) -> list[Entrant]:
    """Register ``people``: one entrant each, or partnerships of consecutive pairs (invited and
    accepted)."""
    out = []
    if t.players == 2:
        for person in people:
            out.append(services.register(user=person, tournament_id=t.pk))
        return out
    for first, second in zip(people[::2], people[1::2]):
        e = services.register(user=first, tournament_id=t.pk, partner=second)
        out.append(services.accept_partner(user=second, entrant_id=e.pk))
    return out


def live_games(t: Tournament) -> list[Game]:
    """The games of ``t`` being played now."""
    return list(
        Game.objects.filter(
            pairing__tournament=t, winner__isnull=True, aborted=False,
            match__status=Match.Status.PLAYING,
        ).select_related("pairing__a__user", "pairing__a__partner", "pairing__b__user",
                         "pairing__b__partner", "match")
    )


def seated(game: Game) -> dict[int, int]:
    """``{seat: user id}`` of a game's match."""
    return dict(game.match.seats.values_list("seat", "user_id"))


def check_seats(t: Tournament, game: Game) -> None:
    """The paired entrants sit at the game's table, by side (a at ``a_side``)."""
    p = game.pairing
    side_a = [p.a.user_id] + ([p.a.partner_id] if t.players == 4 else [])
    side_b = [p.b.user_id] + ([p.b.partner_id] if t.players == 4 else [])
    seats = seated(game)
    assert len(seats) == t.players
    for k, uid in enumerate(side_a):
        assert seats[game.a_side + 2 * k] == uid
    for k, uid in enumerate(side_b):
        assert seats[1 - game.a_side + 2 * k] == uid


def resign_for(entrant: Entrant, game: Game) -> None:
    """The entrant's side resigns its game (both partners at a table for four), then what the
    site's server does once the ending commits (``services.catch_up`` for the game's event:
    the test's transaction never commits, and no server is woken)."""
    for member in entrant.members():
        if actions.resign(user=member, match_id=game.match_id) == "resigned":
            services.catch_up(game.pairing.tournament_id)
            return
    raise AssertionError("the side did not resign")


def play_out(
    t: Tournament,
    loser: Callable[[Game], Entrant] | None = None,
    *,
    limit: int = 10_000,
    on_game: Callable[[Game], None] | None = None,
) -> int:
    """Play every live game of ``t`` until none is left; ``loser(game)`` picks who resigns
    (default: the entrant whose player's name sorts last). Returns the games played."""
    loser = loser or by_name
    played = 0
    while played < limit:
        games = live_games(t)
        if not games:
            return played
        for game in games:
            check_seats(t, game)
            if on_game:
                on_game(game)
            resign_for(loser(game), game)
            played += 1
    raise AssertionError("the event did not end")


def play_round(t: Tournament, loser: Callable[[Game], Entrant] | None = None) -> int:
    """Play the games live now once (one round); returns how many."""
    games = live_games(t)
    for game in games:
        check_seats(t, game)
        resign_for((loser or by_name)(game), game)
    return len(games)


def by_name(game: Game) -> Entrant:
    """The pairing's entrant whose player's username sorts last (p01 beats p02)."""
    p = game.pairing
    return max((p.a, p.b), key=lambda e: e.user.username)


def refresh(t: Tournament) -> Tournament:
    return Tournament.objects.get(pk=t.pk)


def pairings(t: Tournament, number: int) -> list[Pairing]:
    return list(Pairing.objects.filter(tournament=t, round__number=number).select_related("a__user", "b__user"))


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def form_data(**extra) -> dict:
    starts = (timezone.now() + timedelta(days=1)).strftime("%Y-%m-%dT%H:%M")
    data = {
        "name": "Tied up", "format": "round_robin", "players": "2", "starts_at": starts,
        "seeding": "rating", "best_of": "1", "target": "101", "mode": "casual",
        "move_seconds": "30", "majority_points": "30", "basra_points": "10",
        "jack_basra_points": "30", "seven_diamonds": "wild",
    }
    return data | extra


def snapshot(t: Tournament) -> tuple:
    """Everything the services write about ``t``, to check that a refusal changed nothing."""
    t = refresh(t)
    return (
        t.status, t.paused, t.current_round,
        sorted(Entrant.objects.filter(tournament=t).values_list("pk", "status", "partner_id", "first_round")),
        sorted(Pairing.objects.filter(tournament=t).values_list("pk", "winner_id", "score_a", "score_b", "forfeit", "finished_at")),
        Round.objects.filter(tournament=t).count(),
        Game.objects.filter(pairing__tournament=t).count(),
        AuditEntry.objects.filter(tournament=t).count(),
    )


def refused(code: str, t: Tournament, call, *args, **kwargs) -> None:
    before = snapshot(t)
    with pytest.raises(TournamentError) as error:
        call(*args, **kwargs)
    assert error.value.code == code
    assert str(error.value.message)  # a sentence to show
    assert snapshot(t) == before


def page_of(user, t: Tournament) -> str:
    return client_for(user).get(reverse("tournament", args=[t.pk])).content.decode()


def result_form(page: str, pairing_id: int) -> str:
    """The organiser's form of one pairing, as the page sends it."""
    match = re.search(r'<form[^>]*organiser-result[^>]*/pairing/%d/.*?</form>' % pairing_id, page, re.S)
    assert match, "no result form for the pairing"
    return match.group(0)


def edit_post(t: Tournament, **changes) -> dict:
    """The edit form as its page fills it in for ``t``, with ``changes``."""
    from games.tournaments.forms import DATETIME_FORMAT, TournamentForm
    data = TournamentForm.initial_for(t)
    for name in ("starts_at", "registration_closes"):
        if data[name] is not None:
            data[name] = data[name].strftime(DATETIME_FORMAT)
    data = {k: v for k, v in (data | changes).items() if v is not None and v is not False}
    return data
