"""Bring a live table of the site under test near the end of its round, through the site's own
actions (``games.core.actions``), so that a browser test plays only the part it is about.

Run by the ``seed`` fixture (``tests/e2e/conftest.py``) as a process of its own, with the
server's environment (its ``DATABASE_URL``), never by pytest itself: one process per server,
``python tests/e2e/seed.py serve``, which reads commands as JSON lists of the arguments below,
one a line, and answers each with a JSON line (:func:`serve`), so that Django is set up once
for all of a run's seeding, not once a command. By hand::

    python tests/e2e/seed.py play MATCH_ID LEFT
    python tests/e2e/seed.py table PLAYERS PLAYS NAME...
    python tests/e2e/seed.py floor PLAYERS NAME...
    python tests/e2e/seed.py abandoned PLAYERS NAME...
    python tests/e2e/seed.py aborted NAME NAME NAME NAME
    python tests/e2e/seed.py paused NAME
    python tests/e2e/seed.py rated PLAYERS TARGET NAME...
    python tests/e2e/seed.py left PLAYERS NAME...
    python tests/e2e/seed.py open PLAYERS NAME...
    python tests/e2e/seed.py open_computer NAME...
    python tests/e2e/seed.py players NAME...
    python tests/e2e/seed.py user NAME
    python tests/e2e/seed.py created PLAYERS TARGET NAME
    python tests/e2e/seed.py arbiters TAG

plays on at table ``MATCH_ID`` until ``LEFT`` plays of its current round remain: a person's
card through ``play_card`` (as that person, at the table's ``seq``, as their page would send
it), a computer seat's through ``bot_play`` (its own choice). The clock of the server keeps
running meanwhile and may play a computer seat first: that play is simply not made twice (every
action is checked against the table's ``seq``). Prints ``seq=<the table's seq>`` at the end.
``table`` opens a table for the persons named, plays its first ``PLAYS`` plays and prints the
table's id and a signed-in session for each seat (:func:`seeded_table`). ``floor`` does the same
for a table whose floor has grown to 14 cards (:func:`seeded_big_floor`): its first round is dealt
from a deck arranged for it, in place of the fair shuffle, as the unit tests' ``known_decks``
fixture deals (``tests/conftest.py``); every play is still a person's ``play_card``.
``abandoned`` plays a table's first round out and ends the match ``abandoned``
(:func:`seeded_abandoned`). ``aborted`` opens a rated table for four whose last seat's person
leaves before their first card: the match is aborted at once (:func:`seeded_aborted`).
``paused`` opens a table of ``NAME`` against the computer and marks them absent, so that it
waits for them, paused (:func:`seeded_paused`). ``rated`` ends a rated table (to ``TARGET``)
by a resignation once every person has played two cards, so that the match is rated
(:func:`seeded_rated_end`). ``decided`` opens a casual table and ends it by a decision
away from the table, before any card, side 0 the winner, as a tournament's no-show is
(:func:`seeded_decided`). ``event_end`` ends a round robin's one table by a resignation
(:func:`seeded_event_end`). ``left`` opens a rated table whose every person has played a card,
then marks its last seat's person absent, as the clock marks one whose page was closed: at two
the opponent may claim the win, at four the computer plays that seat (:func:`seeded_left`).
``open`` opens a rated table with a free seat, its ``NAME``\ s seated: the waiting room
(:func:`seeded_open`); ``open_computer`` a casual table for four with a computer in seat 3
(:func:`seeded_open_computer`). ``players`` makes players with a signed-in session each
(:func:`seeded_players`). ``user`` makes a person as the sign-up form makes them, signed in
(:func:`signed_up`); ``created`` makes one and the table they open from the lobby
(:func:`seeded_created`). ``log MATCH_ID`` prints what the table's log holds (:func:`table_log`).
``tournament TAG`` opens two events of one organiser, a Swiss in its second round and an
upcoming one, and prints their ids and the organiser's session (:func:`seeded_tournaments`).

Everything is written to the log as a real play is; the server rebuilds the table from it
(``games.core.state.log``). Its broadcasts go nowhere (this process has an in-memory channel layer of its
own): pages open on the table must reload.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "basra_site.settings")


def plays_left(round_) -> int:
    """Plays still to come in ``round_``: every card in a hand or in the stock is one play."""
    return sum(len(hand) for hand in round_.hands) + len(round_.stock)


def play_until(match_id: int, left: int, timeout: float = 60) -> int:
    """Play the round of table ``match_id`` on until ``left`` plays remain; its new ``seq``.

    :raises RuntimeError: the table is not being played, or its round has fewer plays left.
    """
    from games.core.actions import bot_play, play_card
    from games.core.errors import GameError
    from games.core.models import Match, Seat
    from games.core.state import log

    deadline = time.monotonic() + timeout
    while True:
        match = Match.objects.get(pk=match_id)
        if match.status != Match.Status.PLAYING:
            raise RuntimeError(f"table {match_id} is {match.status}, not playing")
        round_ = log.rebuild(match).round
        remaining = plays_left(round_)
        if remaining == left:
            return match.seq
        if remaining < left or round_.over:
            raise RuntimeError(f"table {match_id}: {remaining} plays left, fewer than {left}")
        if time.monotonic() > deadline:
            raise RuntimeError(f"table {match_id}: still {remaining} plays left")
        turn = round_.turn
        seat = Seat.objects.select_related("user").get(match_id=match_id, seat=turn)
        try:
            if seat.bot:
                bot_play(match_id=match_id, seat=turn)
            else:
                play_card(user=seat.user, match_id=match_id, card=round_.hands[turn][0].code,
                          seq=match.seq)
        except GameError as error:
            # The server's clock played the computer's card (or a person's whose time ran out)
            # first: read the table again.
            if error.code not in ("stale", "not_your_turn", "timed_out"):
                raise


#: The floor of :func:`seeded_big_floor`: as dealt, then the ten cards played onto it, none of
#: which takes anything (RULES.md, "What a play takes"): each is a rank not on the floor yet and,
#: played from the highest down, more than any sum the floor's smaller number cards make; no Jack
#: and no 7D (either would take the whole floor).
BIG_FLOOR_DEALT = ["10C", "10D", "9C", "9D"]
BIG_FLOOR_PLAYS = ["8S", "7C", "6S", "5S", "4S", "3S", "2S", "AS", "QS", "KS"]
#: In the hand of the seat to play after ``BIG_FLOOR_PLAYS``: the Seven of Diamonds, which
#: takes the whole floor (RULES.md, "What a play takes"), a last play of 15 cards.
BIG_FLOOR_SWEEP = "7D"


def big_floor_deck(players: int) -> list[str]:
    """A 52-card order whose first round, dealt by seat 0 (RULES.md, "Dealing" 1: the seat
    after the dealer first, 4 cards each, then 4 to the floor; later deals none to the floor),
    puts ``BIG_FLOOR_DEALT`` on the floor and ``BIG_FLOOR_PLAYS[k]`` in the hand of the seat
    whose turn is the round's ``k``-th play (seat 1 plays first), in the deal before it, and
    ``BIG_FLOOR_SWEEP`` in the hand of the seat that plays next."""
    from games.core.actions.seating import DECK_CODES

    deck: list[str | None] = [None] * 52
    deck[4 * players:4 * players + 4] = BIG_FLOOR_DEALT
    used: dict[tuple[int, int], int] = {}  # cards placed in a seat's hand of a deal
    for k, card in enumerate(BIG_FLOOR_PLAYS + [BIG_FLOOR_SWEEP]):
        deal, seat = k // (4 * players), (1 + k) % players
        start = 0 if deal == 0 else 4 * players + 4 + 4 * players * (deal - 1)
        order = (seat - 1) % players  # dealt to seats 1, 2, … then 0
        placed = used.get((deal, seat), 0)
        deck[start + 4 * order + placed] = card
        used[(deal, seat)] = placed + 1
    rest = iter(c for c in DECK_CODES if c not in deck)
    return [c if c is not None else next(rest) for c in deck]


def seeded_big_floor(players: int, names: list[str]) -> dict:
    """:func:`seeded_table` with a floor of 14 cards: the first round dealt from
    :func:`big_floor_deck` and ``BIG_FLOOR_PLAYS`` played, each by the person whose turn it is.

    :returns: as :func:`seeded_table`, and ``"turn"``: the seat to play next, which holds
        ``BIG_FLOOR_SWEEP``.
    :raises RuntimeError: a play took cards (the deck is not the one the plays were chosen for).
    """
    from games.core.actions import play_card, seating
    from games.core.models import Match, Seat
    from games.core.state import log

    deck = big_floor_deck(players)
    # Only this command deals from it, and only this table's first round: the server deals
    # every later round from the seeds, as ever (the round's deck is in the log).
    shuffled_deck, first_dealer = seating.shuffled_deck, seating.first_dealer
    seating.shuffled_deck = lambda server_seed, client_seeds, round_number: list(deck)
    seating.first_dealer = lambda server_seed, client_seeds: 0
    try:
        table = seeded_table(players, 0, names)
    finally:
        seating.shuffled_deck, seating.first_dealer = shuffled_deck, first_dealer
    for card in BIG_FLOOR_PLAYS:
        match = Match.objects.get(pk=table["match"])
        turn = log.rebuild(match).round.turn
        seat = Seat.objects.select_related("user").get(match=match, seat=turn)
        play_card(user=seat.user, match_id=match.pk, card=card, seq=match.seq)
    round_ = log.rebuild(Match.objects.get(pk=table["match"])).round
    if len(round_.floor) != len(BIG_FLOOR_DEALT) + len(BIG_FLOOR_PLAYS):
        raise RuntimeError(f"the floor has {len(round_.floor)} cards: {round_.floor}")
    return {**table, "turn": round_.turn}


def seeded_table(
    players: int, plays: int, names: list[str], *, rated: bool = False, target: int = 101
) -> dict:
    """A casual table (with ``rated``, a rated one) of ``players`` persons named ``names``
    (created here), to ``target`` with 60 s a play, its first ``plays`` plays made; a signed-in
    session for each person (the browser sets its cookie, so no test signs up through the
    pages). A rated table to fewer points than a rated table needs now is made as one made
    before that rule (``create_table(rated_target_min=None)``).

    :returns: ``{"match": id, "sessions": [session key per seat], "turn": the seat to play}``.
    """
    from django.contrib.auth import get_user_model

    from games.core.actions import create_table

    people = [get_user_model().objects.create_user(username=n, email=f"{k}-{n}@example.com")
              for k, n in enumerate(names)]
    match = create_table(
        user=people[0], players=players, rules={"target": target}, rated=rated, move_seconds=60,
        people={k: (u, None) for k, u in enumerate(people[1:], start=1)}, capped=False,
        rated_target_min=None,
    )
    from games.core.state import log

    round_ = log.rebuild(match).round
    play_until(match.pk, plays_left(round_) - plays)
    match.refresh_from_db()
    return {"match": match.pk, "sessions": [session_of(person) for person in people],
            "turn": log.rebuild(match).round.turn}


def seeded_abandoned(players: int, names: list[str]) -> dict:
    """:func:`seeded_table` with its first round played out (every play a person's
    ``play_card``), then ended ``abandoned`` as the clock's sweep ends it when nobody is left
    (``presence.mark_absent``, at a time past every seat's grace): the finished page shows the
    last round's score and the result, as a four-player match left by everyone does.

    :returns: as :func:`seeded_table`.
    :raises RuntimeError: the match did not end abandoned.
    """
    from datetime import timedelta

    from django.utils import timezone

    from games.core.actions import mark_absent, play_card
    from games.core.models import Match, Seat
    from games.core.state import log

    table = seeded_table(players, 0, names)
    match = Match.objects.get(pk=table["match"])
    play_until(match.pk, 1)
    match.refresh_from_db()
    round_ = log.rebuild(match).round
    seat = Seat.objects.select_related("user").get(match=match, seat=round_.turn)
    play_card(user=seat.user, match_id=match.pk, card=round_.hands[round_.turn][0].code,
              seq=match.seq)
    mark_absent(match_id=match.pk, now=timezone.now() + timedelta(days=1))
    match.refresh_from_db()
    if match.result != Match.Result.ABANDONED:
        raise RuntimeError(f"table {match.pk} is {match.status} ({match.result!r})")
    return table


def seeded_aborted(names: list[str]) -> dict:
    """A rated table of four persons named ``names`` (created here, target 101, 60 s a play),
    aborted at once as the clock aborts it (issue 35): the last seat's person never came, so
    the computer takes their seat before they played a card of the first deal
    (``presence.mark_absent`` at a time past their grace, the others seen then).

    :returns: ``{"match": id, "sessions": [session key per seat]}``.
    :raises RuntimeError: the match was not aborted.
    """
    from datetime import timedelta

    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from games.core.actions import create_table, mark_absent, player_seen
    from games.core.models import Match

    people = [get_user_model().objects.create_user(username=n, email=f"{k}-{n}@example.com")
              for k, n in enumerate(names)]
    match = create_table(
        user=people[0], players=4, rules={"target": 101}, rated=True, move_seconds=60,
        people={k: (u, None) for k, u in enumerate(people[1:], start=1)}, capped=False,
    )
    later = timezone.now() + timedelta(days=1)
    for person in people[:-1]:
        player_seen(match_id=match.pk, user=person, now=later)
    mark_absent(match_id=match.pk, now=later)
    match.refresh_from_db()
    if match.result != Match.Result.ABORT:
        raise RuntimeError(f"table {match.pk} is {match.status} ({match.result!r})")
    return {"match": match.pk, "sessions": [session_of(person) for person in people]}


def seeded_paused(name: str) -> dict:
    """A casual 2-player table of the person ``name`` (created here) against the greedy
    computer, without a clock, its person then marked absent as the clock marks a person whose
    page was closed (``presence.mark_absent`` at a time past the grace): the table is paused,
    waiting for them.

    :returns: ``{"match": id, "session": the person's signed-in session}``.
    :raises RuntimeError: the table is not paused.
    """
    from datetime import timedelta

    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from games.core.actions import create_table, mark_absent
    from games.core.models import Match
    from games.core.state import reads

    person = get_user_model().objects.create_user(username=name, email=f"{name}@example.com")
    match = create_table(user=person, players=2, rules={"target": 101}, rated=False,
                         move_seconds=None, bots={1: "greedy"})
    mark_absent(match_id=match.pk, now=timezone.now() + timedelta(hours=1))
    if reads.table_state(match_id=match.pk, user=None)["paused"] != 0:
        raise RuntimeError(f"table {match.pk} is not paused: {Match.objects.get(pk=match.pk)}")
    return {"match": match.pk, "session": session_of(person)}


def seeded_left(players: int, names: list[str], *, leave: bool = True) -> dict:
    """:func:`seeded_table`, rated, its first ``players`` plays made (every person one card of
    the first deal, so the match is no longer aborted when someone leaves), then its last
    seat's person marked absent as the clock marks a person whose page was closed
    (``presence.mark_absent`` at a time past the grace, the others seen then): at two the
    opponent may claim the win, at four the computer plays the seat for the rest of the match.

    ``leave=False``: the table as it stood before anyone left (:func:`leave_last` later).

    :returns: as :func:`seeded_table`.
    :raises RuntimeError: the last seat was not marked absent, or the match is not played on.
    """
    table = seeded_table(players, players, names, rated=True)
    if not leave:
        return table
    leave_last(table["match"], players)
    return table


def leave_last(match_id: int, players: int) -> None:
    """The last seat's person of table ``match_id`` leaves (:func:`seeded_left`'s second half):
    marked absent as the clock marks one whose page was closed, the others seen then.

    :raises RuntimeError: the last seat was not marked absent, or the match is not played on.
    """
    from datetime import timedelta

    from django.utils import timezone

    from games.core.actions import mark_absent, player_seen
    from games.core.models import Match, Seat

    later = timezone.now() + timedelta(days=1)
    seats = list(Seat.objects.select_related("user").filter(match_id=match_id).order_by("seat"))
    for seat in seats[:-1]:
        player_seen(match_id=match_id, user=seat.user, now=later)
    mark_absent(match_id=match_id, now=later)
    match = Match.objects.get(pk=match_id)
    last = Seat.objects.get(match=match, seat=players - 1)
    if match.status != Match.Status.PLAYING or not last.absent or (players == 4) != bool(last.bot):
        raise RuntimeError(f"table {match.pk} is {match.status} ({match.result!r}), {last!r}")


def seeded_rated_end(players: int, target: int, names: list[str]) -> dict:
    """:func:`seeded_table`, rated, to ``target``, ended by side 1's resignation (both partners' at four) once
    every person has played two cards of the first deal (an earlier ending is aborted and rates
    nobody, ``docs/protocol.md`` "Rated matches"): the finished page shows every person's new
    rating in the result.

    :returns: as :func:`seeded_table`.
    :raises RuntimeError: the match was not rated.
    """
    from games.core.actions import resign
    from games.core.models import Match, Seat
    from games.ratings.models import RatedMatch

    table = seeded_table(players, 2 * players, names, rated=True, target=target)
    for seat in Seat.objects.select_related("user").filter(match_id=table["match"], seat__in=(1, 3)):
        resign(user=seat.user, match_id=table["match"])
    if not RatedMatch.objects.filter(match_id=table["match"]).exists():
        match = Match.objects.get(pk=table["match"])
        raise RuntimeError(f"table {match.pk} is {match.status} ({match.result!r}), not rated")
    return table


def seeded_decided(names: list[str]) -> dict:
    """:func:`seeded_table` for ``len(names)`` persons, no card played, ended by a decision
    away from the table (the core's ``end_by_decision``, side 0 winning): a tournament's
    forfeit.

    :returns: as :func:`seeded_table`.
    """
    from games.core.actions import end_by_decision

    table = seeded_table(len(names), 0, names)
    end_by_decision(match_id=table["match"], winner=0)
    return table


def seeded_event_end(names: list[str]) -> dict:
    """A round robin of the two persons ``names`` (created here, with an organiser), started,
    its one table ended by the second's resignation: a finished tournament table.

    :returns: ``{"match": its id, "sessions": [a signed-in session of each]}``.
    """
    from games.tournaments import services
    from tests.tournaments.helpers import enter, event, live_games, resign_for, users

    org, *people = users(f"org_{names[0]}", *names)
    t = event(org, "round_robin")
    enter(t, people)
    services.start(user=org, tournament_id=t.pk)
    (game,) = live_games(t)
    resign_for(game.pairing.b, game)
    return {"match": game.match_id, "sessions": [session_of(person) for person in people]}


def seeded_open(players: int, names: list[str]) -> dict:
    """An open rated table of ``players`` seats to 61 points, ``names`` (fewer than
    ``players``, created here) seated in seats 0, 1, …, the rest free: the waiting room.

    :returns: ``{"match": id, "sessions": [session key per person]}``.
    """
    from django.contrib.auth import get_user_model

    from games.core.actions import create_table

    people = [get_user_model().objects.create_user(username=n, email=f"{k}-{n}@example.com")
              for k, n in enumerate(names)]
    match = create_table(
        user=people[0], players=players, rules={"target": 61}, rated=True, move_seconds=60,
        people={k: (u, None) for k, u in enumerate(people[1:], start=1)}, capped=False,
    )
    return {"match": match.pk, "sessions": [session_of(person) for person in people]}


def seeded_open_computer(names: list[str]) -> dict:
    """An open casual table for four to 61 points, ``names`` (one or two, created here) seated
    in seats 0, 1, …, the computer (greedy) in seat 3 and the rest free: a table from "Play the
    computer" with a person or two still to come, whose computer seat a person may take.

    :returns: ``{"match": id, "sessions": [session key per person]}``.
    """
    from django.contrib.auth import get_user_model

    from games.core.actions import create_table

    people = [get_user_model().objects.create_user(username=n, email=f"{k}-{n}@example.com")
              for k, n in enumerate(names)]
    match = create_table(
        user=people[0], players=4, rules={"target": 61}, rated=False, move_seconds=60,
        bots={3: "greedy"}, people={k: (u, None) for k, u in enumerate(people[1:], start=1)},
        capped=False,
    )
    return {"match": match.pk, "sessions": [session_of(person) for person in people]}


def seeded_players(names: list[str]) -> dict:
    """Players ``names`` (created here, each with a verified address), each with a signed-in
    session: ``{"sessions": [session key per player]}``."""
    from django.contrib.auth import get_user_model

    people = [get_user_model().objects.create_user(username=n, email=f"{k}-{n}@example.com")
              for k, n in enumerate(names)]
    return {"sessions": [session_of(person) for person in people]}
def signed_up(name: str) -> dict:
    """The person ``name`` as the sign-up form makes them (``tests/e2e/pages.py``'s
    ``sign_up``: the e-mail ``NAME@example.com``, unconfirmed and primary, the password
    ``PASSWORD``), for a browser test that is not about signing up.

    :returns: ``{"session": a signed-in session of theirs}``.
    """
    from allauth.account.models import EmailAddress
    from django.contrib.auth import get_user_model

    from tests.e2e.pages import PASSWORD

    person = get_user_model().objects.create_user(
        username=name, email=f"{name}@example.com", password=PASSWORD)
    EmailAddress.objects.create(user=person, email=person.email, primary=True, verified=False)
    return {"session": session_of(person)}


def seeded_created(players: int, target: int, name: str) -> dict:
    """The person ``name`` (:func:`signed_up`) and the table they opened as the lobby's form
    opens it with only ``players`` and ``target`` chosen (``pages.create_table``): casual, the
    default rules and time per play, everyone may watch; them in seat 0, the other seats free.

    :returns: ``{"match": id, "session": their signed-in session}``.
    """
    from django.contrib.auth import get_user_model

    from games.core.actions import create_table
    from games.core.actions.seating import DEFAULT_MOVE_SECONDS

    session = signed_up(name)["session"]
    person = get_user_model().objects.get(username=name)
    match = create_table(user=person, players=players, rules={"target": target}, rated=False,
                         move_seconds=DEFAULT_MOVE_SECONDS)
    return {"match": match.pk, "session": session}


def session_of(person) -> str:
    """A new signed-in session of ``person``: its key, for the browser's ``sessionid`` cookie."""
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    store = SessionStore()
    store[SESSION_KEY] = str(person.pk)
    store[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    store[HASH_SESSION_KEY] = person.get_session_auth_hash()
    store.create()
    return store.session_key


def seeded_tournaments(tag: str) -> dict:
    """Two events of one organiser (who plays in the first), through the tournaments' services,
    every name ending in ``tag``: a 3-round Swiss of 7 (long names, one of them Arabic) whose
    first round is played out (one forfeit among it) and whose second is being played, with an
    arbiter named; an upcoming round robin with 3 entrants; and a knockout of 4 (long names, one
    Arabic) in its first round.

    :returns: ``{"swiss": id, "upcoming": id, "knockout": id, "entrant": an entrant id of the Swiss,
        "session": the organiser's signed-in session, "player_session": the signed-in session
        of a player entered in the upcoming event}``.
    """
    from datetime import timedelta

    from django.utils import timezone

    from games.tournaments import services
    from tests.tournaments.helpers import enter, live_games, play_round, users

    def event(fmt: str, name: str, **settings):
        return services.create_tournament(
            user=org, name=name, format=fmt, players=2, rules={"target": 11},
            starts_at=timezone.now() + timedelta(hours=1), **settings)

    org, arbiter, *people = users(
        f"organiser_{tag}", f"arbiter_{tag}", f"abdelrahman_{tag}", f"سارة_{tag}", f"m_{tag}",
        f"Zeinab_ElShenawy_{tag}", f"khaled_{tag}", f"nour_{tag}")
    swiss = event("swiss", f"Cairo club Swiss {tag}", swiss_rounds=3)
    entrants = enter(swiss, [org, *people[:6]])
    services.add_arbiter(user=org, tournament_id=swiss.pk, arbiter=arbiter)
    services.start(user=org, tournament_id=swiss.pk)
    first = live_games(swiss)[0].pairing
    services.record_forfeit(user=arbiter, pairing_id=first.pk, winner_id=first.a_id)
    play_round(swiss)
    upcoming = event("round_robin", f"Thursday round robin {tag}")
    enter(upcoming, people[:3])
    knockout = event("knockout", f"Giza knockout {tag}")
    enter(knockout, users(*(f"{name}_{tag}" for name in (
        "Mohamed_Abdelaziz", "يوسف_الشناوي", "Fatma_ElZahraa", "Omar_Khairat"))))
    services.start(user=org, tournament_id=knockout.pk)
    return {"swiss": swiss.pk, "upcoming": upcoming.pk, "knockout": knockout.pk,
            "entrant": entrants[1].pk,
            "session": session_of(org), "player_session": session_of(people[0])}


def seeded_arbiters(tag: str) -> dict:
    """An upcoming round robin of an organiser who has named two arbiters (a long Latin name and
    an Arabic one), every name ending in ``tag``: the organiser's arbiters box without a round
    played (:func:`seeded_tournaments` plays one).

    :returns: ``{"event": id, "session": the organiser's signed-in session}``.
    """
    from games.tournaments import services
    from tests.tournaments.helpers import event, users

    org, *arbiters = users(f"organiser_{tag}", f"Abdelrahman_ElShenawy_arbiter_{tag}", f"حكم_{tag}")
    upcoming = event(org, "round_robin")
    for arbiter in arbiters:
        services.add_arbiter(user=org, tournament_id=upcoming.pk, arbiter=arbiter)
    return {"event": upcoming.pk, "session": session_of(org)}


def table_log(match_id: int) -> dict:
    """What table ``match_id``'s log holds: ``{"seq": the table's seq, "plays": [[seq, seat,
    card], …]}``, every ``play`` event in order."""
    from games.core.models import Event, Match

    plays = Event.objects.filter(match_id=match_id, kind="play").order_by("seq")
    return {"seq": Match.objects.get(pk=match_id).seq,
            "plays": [[e.seq, e.seat, e.payload.get("card")] for e in plays]}


def serve() -> None:
    """Run commands read from stdin, one JSON list of arguments a line, until it closes; answer
    each on stdout with one JSON line: ``{"out": what the command printed}``, or ``{"error": its
    traceback}``. Between two commands this process keeps no database connection (the server
    writes the same file) and no table of its state cache (the server moves tables on)."""
    import contextlib
    import io
    import json
    import traceback

    import django

    django.setup()
    from django.db import connections

    from games.core.state.cache import clear_caches

    for line in sys.stdin:
        out = io.StringIO()
        try:
            with contextlib.redirect_stdout(out):
                run(json.loads(line))
            answer = {"out": out.getvalue()}
        except BaseException:  # noqa: BLE001 - told to the test, which raises it
            answer = {"error": out.getvalue() + traceback.format_exc()}
        finally:
            connections.close_all()
            clear_caches()
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()


def main(argv: list[str]) -> None:
    import django

    if argv == ["serve"]:
        serve()
        return
    django.setup()
    run(argv)


def run(argv: list[str]) -> None:
    """Run one command (the module's docstring) and print what it gives."""
    import json

    command, *args = argv
    if command == "table" and len(args) >= 3:
        print(json.dumps(seeded_table(int(args[0]), int(args[1]), args[2:])))
        return
    if command == "tournament" and len(args) == 1:
        print(json.dumps(seeded_tournaments(args[0])))
        return
    if command == "arbiters" and len(args) == 1:
        print(json.dumps(seeded_arbiters(args[0])))
        return
    if command == "floor" and len(args) >= 3:
        print(json.dumps(seeded_big_floor(int(args[0]), args[1:])))
        return
    if command == "abandoned" and len(args) >= 3:
        print(json.dumps(seeded_abandoned(int(args[0]), args[1:])))
        return
    if command == "aborted" and len(args) == 4:
        print(json.dumps(seeded_aborted(args)))
        return
    if command == "paused" and len(args) == 1:
        print(json.dumps(seeded_paused(args[0])))
        return
    if command == "rated" and len(args) >= 4:
        print(json.dumps(seeded_rated_end(int(args[0]), int(args[1]), args[2:])))
        return
    if command == "event_end" and len(args) == 2:
        print(json.dumps(seeded_event_end(args)))
        return
    if command == "decided" and len(args) >= 2:
        print(json.dumps(seeded_decided(args)))
        return
    if command == "left" and len(args) >= 3:
        print(json.dumps(seeded_left(int(args[0]), args[1:])))
        return
    if command == "played" and len(args) >= 3:
        print(json.dumps(seeded_left(int(args[0]), args[1:], leave=False)))
        return
    if command == "leave" and len(args) == 2:
        leave_last(int(args[0]), int(args[1]))
        print(json.dumps({"match": int(args[0])}))
        return
    if command == "user" and len(args) == 1:
        print(json.dumps(signed_up(args[0])))
        return
    if command == "created" and len(args) == 3:
        print(json.dumps(seeded_created(int(args[0]), int(args[1]), args[2])))
        return
    if command == "log" and len(args) == 1:
        print(json.dumps(table_log(int(args[0]))))
        return
    if command == "players" and args:
        print(json.dumps(seeded_players(args)))
        return
    if command == "moderation" and len(args) == 1:  # tests/e2e/seed_moderation.py
        from tests.e2e.seed_moderation import seeded_moderation
        print(json.dumps(seeded_moderation(args[0])))
        return
    if command == "warned" and len(args) == 1:  # tests/e2e/seed_moderation.py
        from tests.e2e.seed_moderation import seeded_warned
        print(json.dumps(seeded_warned(args[0])))
        return
    if command == "open" and len(args) >= 2:
        print(json.dumps(seeded_open(int(args[0]), args[1:])))
        return
    if command == "open_computer" and 1 <= len(args) <= 2:
        print(json.dumps(seeded_open_computer(args)))
        return
    if command != "play" or len(args) != 2:
        raise SystemExit("usage: seed.py play MATCH_ID LEFT | seed.py table PLAYERS PLAYS NAME... "
                         "| seed.py floor PLAYERS NAME... | seed.py abandoned PLAYERS NAME... "
                         "| seed.py aborted NAME NAME NAME NAME | seed.py paused NAME "
                         "| seed.py rated PLAYERS TARGET NAME... | seed.py left PLAYERS NAME... "
                         "| seed.py played PLAYERS NAME... | seed.py leave MATCH_ID PLAYERS "
                         "| seed.py open PLAYERS NAME... | seed.py open_computer NAME... "
                         "| seed.py log MATCH_ID "
                         "| seed.py user NAME | seed.py created PLAYERS TARGET NAME "
                         "| seed.py tournament TAG | seed.py arbiters TAG")
    seq = play_until(int(args[0]), int(args[1]))
    print(f"seq={seq}")


if __name__ == "__main__":
    main(sys.argv[1:])
