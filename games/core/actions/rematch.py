"""Rematches: at the end of a match any seated person asks for a rematch; once every person's
seat has asked (computer seats accept at once), a new table with the same rules, the same
people in the same seats, the same rated/casual choice and clock, and the same privacy starts,
and every socket of the old table is told to go there (``docs/protocol.md``, "Rematch").

The first dealer: every table deals by the provably fair shuffle, whose first dealer is drawn
from the seeds (RULES.md, "Provably fair shuffle" 5) and checked by every verifier, so the new
table's first dealer is the shuffle's draw for the new seeds, like any table's (each round's
dealer then moves on as always, RULES.md "Dealing" 4). Forcing "the next seat deals first"
would make the shuffle's check fail; that was the choice.

The offer lives as long as every seated person is still at the table: when a seated person's
table socket closes after the end (they left or reloaded the page; :func:`left`), or a person's
seat is away or played by the computer, no rematch is possible any more (``rematch_gone``), and
the table's sockets are told at once (``rematch`` with ``gone``), whether or not anyone had
asked: the one who stays is not left with a button that can only be refused. Against the
computer (``liveness.against_computer``: one person, the other seats the computer's from the
start) nobody stays to be told and computers never leave, so the person's own leaving ends
nothing: back at the table, they may still ask. A person marked away at the end is back once
they ask (an ask comes from the table): their absence refuses neither them nor, once they
asked, the others.

A match decided away from the table (``endings.end_by_decision``: a tournament's forfeit, a
withdrawal) has no rematch either (``rematch_decided``): the app that decided it seats its
players next; nor has a table an app claims as its own (``rematch_not_offered``,
:func:`~games.core.actions.seating.claim_tables_with`: a tournament's, whose event opens its
players' next table).

A rated match whose target is under ``errors.RATED_TARGET_MIN`` (made before rated tables had
to play to 61, or a tournament's, whose organiser chose its target) has no rematch: asking is
refused (``rated_target_too_low``) and nothing is recorded, rather than a rematch quietly made
casual or played to another target than the one the players chose; the table page says so in
place of the button (``static/games/table/rematch.js``).

Every step goes through the funnel on the old match (``funnel.run``: the match row is locked),
and the new table is opened in the same transaction: two clicks at once, or the last two
acceptances at once, start one table.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.urls import reverse

from games.core import relations, standing
from games.core.actions import funnel
from games.core.actions.funnel import Change, require_login
from games.core.actions.seating import (
    _client_seed, check_rated_target, create_table, seated_by_app,
)
from games.core.errors import GameError
from games.core.models import Match, Rematch
from games.core.state import broadcast, liveness


def offered(match_id: int) -> bool:
    """Whether table ``match_id`` may have a rematch as far as the apps go: no app seats it
    (``seating.seated_by_app``). One query an app, at most."""
    return not seated_by_app(match_id)


def _gone(rematch: Rematch, seats: list[Any]) -> bool:
    """Whether a person's leaving ended the offer. Never against the computer: the only person
    is the one who left, and coming back is theirs to do (rows marked before that rule too)."""
    return rematch.gone and not liveness.against_computer(seats)


def _message(rematch: Rematch, seats: list[Any]) -> dict:
    """The ``rematch`` frame (``docs/protocol.md``): ``{"type": "rematch", "accepted": [seat,
    ...], "waiting": [seat, ...], "gone": bool, "url": new table or None}``."""
    people = [s.seat for s in seats if s.user_id is not None and not s.bot]
    accepted = sorted(set(rematch.accepted))
    url = (
        reverse("table", kwargs={"match_id": rematch.new_match_id})
        if rematch.new_match_id
        else None
    )
    return {
        "type": "rematch",
        "accepted": accepted,
        "waiting": [seat for seat in people if seat not in accepted],
        "gone": _gone(rematch, seats),
        "url": url,
    }


def _announce(change: Change, rematch: Rematch, seats: list[Any], hidden_from: tuple[int, ...] = ()) -> None:
    message = _message(rematch, seats)
    match_id = change.match_id
    if hidden_from:
        transaction.on_commit(lambda: broadcast.send_table_news(match_id, message, hidden_from=hidden_from))
    else:
        transaction.on_commit(lambda: broadcast.send_table_news(match_id, message))


def rematch_state(*, match_id: int) -> dict | None:
    """The ``rematch`` frame of a finished table, ``None`` when nobody asked and nobody left
    (a socket sends it on opening)."""
    row = Rematch.objects.filter(match_id=match_id).first()
    if row is None:
        return None
    seats = list(row.match.seats.all())
    return _message(row, seats)


def ask_rematch(
    *, user: Any, match_id: int, client_seed: str | None = None
) -> Match | None:
    """``user``, seated at the finished table ``match_id``, asks for (or accepts) a rematch.

    A second ask by the same person changes nothing (the sockets are told the offer again);
    one after the start is told the new table's ``url`` again. When every person's seat has
    asked, the new table starts (``create_table`` with the old table's creator in seat 0, the other
    people by ``people`` and the computer seats by ``bots``), and the table's sockets are sent
    ``rematch`` with its ``url``.

    :param client_seed: the person's client seed for the new table (``None``: drawn).
    :returns: the new table once it started, else ``None``.
    :raises GameError: ``login_required``; ``not_found``; ``not_seated``; ``rematch_not_over``
        (the match is not finished); ``rematch_decided`` (it was decided away from the
        table: ``endings.end_by_decision``); ``rematch_not_offered`` (an app seats this table's
        players itself: ``seating.claim_tables_with``); ``rematch_gone`` (a person left the
        finished table, or is away, or the computer plays their seat); ``rated_target_too_low`` (a rated match whose
        target is under ``errors.RATED_TARGET_MIN``: see the module's docstring);
        ``ranked_banned`` (a rated match, a player of it barred from rated play:
        ``games.core.standing``); a
        ``client_seed_*`` code; what ``create_table`` raises. Nothing changes on any of them.
        An ask of a person who blocked ``user`` (``games.core.relations``, kind ``rematch``,
        ``SILENT``) is not recorded and never reaches that person; the other sockets of the
        table are sent the offer as if it were, so ``user`` sees a player who does not answer.
    """
    require_login(user)
    seed = _client_seed(client_seed)

    def body(change: Change) -> Match | None:
        match = change.match
        seats = change.seat_models()
        mine = next((s for s in seats if s.user_id == user.pk), None)
        if mine is None:
            raise GameError("not_seated")
        if match.status != Match.Status.FINISHED:
            raise GameError("rematch_not_over")
        if match.result == Match.Result.DECIDED:
            # The app that decided it (a tournament's forfeit) owns the players' next table.
            raise GameError("rematch_decided")
        if not offered(match.pk):
            raise GameError("rematch_not_offered")
        # Before anything is recorded: asking must not leave an offer that cannot start.
        check_rated_target(match.rated, match.rules["target"])
        standing.check_rated(match.rated, [s.user_id for s in seats])
        rematch, _created = Rematch.objects.get_or_create(match=match)
        change.announce = None
        if rematch.new_match_id is not None:
            _announce(change, rematch, seats)  # a late click is told where it went
            return rematch.new_match
        people = [s for s in seats if s.user_id is not None]
        # An ask comes from the table: a person who asked is back, whatever ``absent`` says.
        back = {*rematch.accepted, mine.seat}
        if _gone(rematch, seats) or any(
            s.bot or (s.absent and s.seat not in back) for s in people
        ):
            raise GameError("rematch_gone")
        silent = tuple(
            target for target, verdict in relations.barred(
                "rematch", user.pk, {s.user_id for s in people}
            ).items() if verdict == relations.SILENT
        )
        if silent:
            # Asked of someone who blocked ``user``: as a player who does not answer, the
            # others' pages show the ask, theirs does not, and nothing is recorded, so it
            # can never start a table with them.
            shown = Rematch(match=match, accepted=sorted({*rematch.accepted, mine.seat}))
            _announce(change, shown, seats, hidden_from=silent)
            return None
        if mine.seat not in rematch.accepted:
            rematch.accepted = sorted({*rematch.accepted, mine.seat})
            rematch.client_seeds = {**rematch.client_seeds, str(mine.seat): seed}
        new = None
        if all(s.seat in rematch.accepted for s in people):
            by_seat = {s.seat: s for s in seats}
            creator = by_seat.get(0)
            new = create_table(
                user=creator.user,
                players=match.players,
                rules=match.rules,
                rated=match.rated,
                move_seconds=match.move_seconds,
                client_seed=rematch.client_seeds.get("0"),
                private=match.private,
                bots={s.seat: s.bot for s in seats if s.user_id is None},
                people={
                    s.seat: (s.user, rematch.client_seeds.get(str(s.seat)))
                    for s in people
                    if s.seat != 0
                },
                now=change.now,
            )
            rematch.new_match = new
        rematch.save()
        _announce(change, rematch, seats)
        return new

    return funnel.run(match_id, body)


def left(*, user: Any, match_id: int) -> None:
    """A seated person's table socket closed after the end of the match: no rematch any more.

    Does nothing when ``user`` is not seated, the match is not finished, it was against the
    computer (nobody else to tell, and the offer waits for its person), or its rematch has
    started already. Otherwise the table's ``Rematch`` is marked ``gone`` (created if nobody
    had asked yet) and the sockets are sent ``rematch`` with ``gone``, whether or not someone
    had asked: the people still there learn at once that no rematch can be made, rather than
    from a refusal (``rematch_gone``) after they ask.
    """
    if user is None or not user.is_authenticated:
        return
    if not Match.objects.filter(
        pk=match_id, status=Match.Status.FINISHED, seats__user_id=user.pk
    ).exists():
        return

    def body(change: Change) -> None:
        change.announce = None
        if liveness.against_computer(change.seats):
            return
        rematch, _created = Rematch.objects.get_or_create(match=change.match)
        if rematch.gone or rematch.new_match_id is not None:
            return
        rematch.gone = True
        rematch.save(update_fields=["gone"])
        _announce(change, rematch, change.seat_models())

    funnel.run(match_id, body)
