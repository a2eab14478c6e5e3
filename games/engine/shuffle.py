"""The provably fair shuffle ``basra-shuffle/1`` and its standalone verifier (RULES.md, "Provably fair shuffle").

Standard library only, like the rest of the engine (STYLE.md, "In this project" 1): the site
calls it to deal, and a player runs it without the site to check a finished match::

    python -m games.engine.shuffle verify RECORD.json

The scheme is commit-reveal (RULES.md, "Provably fair shuffle" 1–6):

1. A table's ``server_seed`` is 32 random bytes (:func:`new_server_seed`), written as 64 lowercase
   hex digits and kept secret; everyone sees ``commitment = SHA-256(server_seed bytes)`` (hex)
   from the table's creation on (:func:`commitment`).
2. Every seat has a client seed: 1–64 printable ASCII characters without a newline, ``""`` for a
   computer seat (:func:`check_client_seed`), fixed when the match starts.
3. Round ``r``'s byte stream (``r`` = 1 for the first round, ``r`` = 0 for the first dealer) is
   ``HMAC-SHA256(key = server_seed bytes, msg = message + b"\\n" + str(k))`` for blocks
   ``k = 0, 1, 2, …``, where ``message`` is the UTF-8 of ``"basra-shuffle/1\\n"`` followed by each
   client seed and ``"\\n"`` in seat order, then ``str(r)``; the blocks are read one after another
   as 4-byte big-endian unsigned integers (:func:`stream`).
4. ``below(n)`` takes the next integer ``u``, discards it while ``u >= (2**32 // n) * n`` and
   returns ``u % n``: rejection sampling, so every result is exactly equally likely, with none of
   the modulo bias of a bare ``u % n`` (:func:`below`).
5. Round ``r``'s deck is a Fisher–Yates shuffle of the canonical order (``AC 2C … KC AD … KS``):
   for ``i`` from 51 down to 1 swap cards ``i`` and ``below(i + 1)`` (:func:`deck`). The first
   dealer is ``below(n)`` on round 0's stream, ``n`` the number of seats (:func:`first_dealer`).
6. When the match is over the server seed is revealed in the record's ``"shuffle"``; anyone can
   then recompute the commitment, the first dealer and every deck (:func:`verify_record`,
   :func:`main`).

The test vector of RULES.md:

>>> seed = bytes(range(32)).hex()
>>> commitment(seed)
'630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd'
>>> first_dealer(seed, ["alice-7f3a", ""])
1
>>> " ".join(c.code for c in deck(seed, ["alice-7f3a", ""], 1)[:8])
'6S 9C 8D 10S 2H QC JD 5C'
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import secrets
import sys
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .cards import SUITS, Card
from .errors import BasraError, RecordError, SeedError
from .match import RECORD_FORMAT

__all__ = [
    "ALGORITHM",
    "CANONICAL_ORDER",
    "Check",
    "below",
    "check_client_seed",
    "check_server_seed",
    "commitment",
    "deck",
    "first_dealer",
    "main",
    "new_server_seed",
    "stream",
    "verify_record",
]

#: The algorithm's name, as a record's ``"shuffle"`` ``"algorithm"`` gives it.
ALGORITHM = "basra-shuffle/1"

#: The order the shuffle starts from: suits ``C D H S``, in each ``A 2 … 10 J Q K``
#: (RULES.md, "Provably fair shuffle" 5). Not :func:`~games.engine.cards.full_deck`'s rank order.
CANONICAL_ORDER: tuple[Card, ...] = tuple(
    Card(rank, suit) for suit in SUITS for rank in range(1, 14)
)

#: Bytes of a server seed (RULES.md, "Provably fair shuffle" 1), written as twice as many hex digits.
SERVER_SEED_BYTES = 32
#: The longest client seed, in characters (RULES.md, "Provably fair shuffle" 2).
CLIENT_SEED_MAX = 64

_HEX_SEED = re.compile(r"[0-9a-fA-F]{%d}" % (2 * SERVER_SEED_BYTES))
# Printable ASCII: space (0x20) to tilde (0x7e). Excludes newline, so no seed can fake the
# separator between seeds in the HMAC message.
_PRINTABLE_ASCII = re.compile(r"[\x20-\x7e]*")
_WORD = 4  # bytes per integer read from the stream
_WORD_RANGE = 2 ** (8 * _WORD)


def new_server_seed() -> str:
    """A new server seed: 32 bytes from :mod:`secrets`, as 64 lowercase hex digits.

    RULES.md, "Provably fair shuffle" 1. The caller keeps it secret until the match is over and
    publishes :func:`commitment` of it.
    """
    return secrets.token_hex(SERVER_SEED_BYTES)


def check_server_seed(server_seed: str) -> bytes:
    """The 32 bytes a server seed writes in hex (RULES.md, "Provably fair shuffle" 1).

    The site writes lowercase; uppercase hex digits are accepted too, since the bytes are what the
    commitment and the shuffle use.

    :raises SeedError: (a ``ValueError``, ``reason="server_seed"``) unless ``server_seed`` is a
        string of exactly 64 hex digits.
    """
    if not isinstance(server_seed, str) or not _HEX_SEED.fullmatch(server_seed):
        shown = server_seed if isinstance(server_seed, str) else type(server_seed).__name__
        raise SeedError(
            f"a server seed is {2 * SERVER_SEED_BYTES} hex digits, not {shown!r}",
            reason="server_seed",
        )
    return bytes.fromhex(server_seed)


def check_client_seed(seed: str) -> None:
    """Refuse a person's client seed that is not 1–64 printable ASCII characters without a newline.

    RULES.md, "Provably fair shuffle" 2. Printable ASCII is space (0x20) to ``~`` (0x7e). A
    computer seat's seed is ``""``, which this refuses: it is for a seed a person chose (the
    shuffle functions themselves accept ``""`` for any seat).

    :raises SeedError: (a ``ValueError``) with ``reason`` ``"empty"``, ``"too_long"``,
        ``"newline"`` or ``"not_printable"`` (see :class:`~games.engine.errors.SeedError`).
    """
    if not isinstance(seed, str):
        raise SeedError(
            f"a client seed is a string, not {type(seed).__name__}", reason="not_printable"
        )
    if seed == "":
        raise SeedError("a client seed has at least one character", reason="empty")
    _check_seed_text(seed)


def _check_seed_text(seed: str) -> None:
    """:func:`check_client_seed` but for the empty seed (``""``: a computer seat's seed)."""
    if len(seed) > CLIENT_SEED_MAX:
        raise SeedError(
            f"a client seed has at most {CLIENT_SEED_MAX} characters, not {len(seed)}",
            reason="too_long",
        )
    if "\n" in seed or "\r" in seed:
        raise SeedError("a client seed may not hold a line break", reason="newline")
    if not _PRINTABLE_ASCII.fullmatch(seed):
        bad = next(ch for ch in seed if not " " <= ch <= "~")
        raise SeedError(
            f"a client seed holds only printable ASCII characters (space to ~), not {bad!r}",
            reason="not_printable",
        )


def _client_seeds(client_seeds: Sequence[str]) -> list[str]:
    """The client seeds as a list, each ``""`` or a valid seed, at least one seat."""
    if isinstance(client_seeds, (str, bytes)) or not isinstance(client_seeds, Sequence):
        raise SeedError(
            "client seeds are a sequence of strings, one per seat, "
            f"not {type(client_seeds).__name__}",
            reason="seats",
        )
    seeds = list(client_seeds)
    if not seeds:
        raise SeedError("client seeds: one per seat, and there is no seat", reason="seats")
    for seed in seeds:
        if not isinstance(seed, str):
            raise SeedError(
                f"a client seed is a string, not {type(seed).__name__}", reason="seats"
            )
        _check_seed_text(seed)
    return seeds


def commitment(server_seed: str) -> str:
    """SHA-256 of the server seed's 32 bytes, as 64 lowercase hex digits.

    RULES.md, "Provably fair shuffle" 1: published when the table is created, before any client
    seed is known, so the site cannot pick its seed after seeing who sits where.

    :raises SeedError: (a ``ValueError``) unless ``server_seed`` is 64 hex digits.
    """
    return hashlib.sha256(check_server_seed(server_seed)).hexdigest()


def stream(server_seed: str, client_seeds: Sequence[str], round_number: int) -> Iterator[int]:
    """Round ``round_number``'s stream of 32-bit unsigned integers, endless.

    RULES.md, "Provably fair shuffle" 3: ``message`` is the UTF-8 of ``"basra-shuffle/1\\n"``,
    then each client seed followed by ``"\\n"`` in seat order, then ``str(round_number)``; block
    ``k`` (0, 1, 2, …) is ``HMAC-SHA256(key=server_seed bytes, msg=message + b"\\n" + str(k))``
    (RFC 2104 with SHA-256, 32 bytes); each block gives eight 4-byte big-endian integers, in order.
    ``round_number`` is 0 for the first dealer, 1 for the first round.

    :raises SeedError: (a ``ValueError``) for a bad server seed or client seed, no seats, or a
        round number that is not an integer ≥ 0.
    """
    key = check_server_seed(server_seed)
    seeds = _client_seeds(client_seeds)
    if round_number.__class__ is not int or round_number < 0:
        raise SeedError(
            f"a round number is an integer ≥ 0, not {round_number!r}", reason="round_number"
        )
    message = ("basra-shuffle/1\n" + "".join(s + "\n" for s in seeds) + str(round_number)).encode(
        "utf-8"
    )
    return _blocks(key, message)


def _blocks(key: bytes, message: bytes) -> Iterator[int]:
    block = 0
    while True:
        digest = hmac.digest(key, message + b"\n" + str(block).encode("ascii"), "sha256")
        for start in range(0, len(digest), _WORD):
            yield int.from_bytes(digest[start : start + _WORD], "big")
        block += 1


def below(n: int, words: Iterator[int]) -> int:
    """A uniform integer in ``0 .. n - 1`` from the next ``words`` (RULES.md, "Provably fair shuffle" 4).

    Takes the next ``u`` (a 32-bit unsigned integer); while ``u >= (2**32 // n) * n`` it discards
    ``u`` and takes the next; returns ``u % n``. The accepted values are a whole number of
    copies of ``0 .. n - 1``, so each result is equally likely (rejection sampling). For the
    shuffle's ``n ≤ 52`` a value is discarded with probability below ``52 / 2**32``.

    >>> below(3, iter([2**32 - 1, 7]))   # 2**32 - 1 >= (2**32 // 3) * 3: discarded
    1

    :raises ValueError: if ``n`` is not in ``1 .. 2**32`` or ``words`` runs out.
    """
    if not 1 <= n <= _WORD_RANGE:
        raise ValueError(f"below(n) needs 1 <= n <= 2**32, not {n}")
    limit = (_WORD_RANGE // n) * n
    for u in words:
        if u < limit:
            return u % n
    raise ValueError("the stream ran out")


def deck(server_seed: str, client_seeds: Sequence[str], round_number: int) -> list[Card]:
    """The 52 cards of round ``round_number`` (1: the match's first round; extra rounds count too).

    RULES.md, "Provably fair shuffle" 5: from :data:`CANONICAL_ORDER`, for ``i`` from 51 down
    to 1, ``j = below(i + 1)`` on the round's :func:`stream`, swap cards ``i`` and ``j``
    (Fisher–Yates; Knuth, TAOCP vol. 2, 3.4.2, Algorithm P). ``deck[0]`` is the top card, dealt
    as in RULES.md "Dealing". ``client_seeds``: one per seat in seat order, ``""`` for a computer
    seat.

    :raises SeedError: (a ``ValueError``) for a server seed that is not 64 hex digits, a client
        seed that is neither ``""`` nor 1–64 printable ASCII characters without a newline, no
        seats, or a round number that is not an integer ≥ 1.
    """
    if round_number.__class__ is not int or round_number < 1:
        raise SeedError(
            "a deck's round number is an integer ≥ 1 (0 picks the first dealer), "
            f"not {round_number!r}",
            reason="round_number",
        )
    words = stream(server_seed, client_seeds, round_number)
    cards = list(CANONICAL_ORDER)
    for i in range(len(cards) - 1, 0, -1):
        j = below(i + 1, words)
        cards[i], cards[j] = cards[j], cards[i]
    return cards


def first_dealer(server_seed: str, client_seeds: Sequence[str]) -> int:
    """The first round's dealer: ``below(n)`` on round 0's stream, ``n = len(client_seeds)``.

    RULES.md, "Provably fair shuffle" 5; every later round's dealer is the seat after the
    previous one (RULES.md, "Dealing" 4).

    :raises SeedError: (a ``ValueError``) as :func:`deck` does for the seeds.
    """
    words = stream(server_seed, client_seeds, 0)
    return below(len(client_seeds), words)


# --- checking a record -------------------------------------------------------------------------


@dataclass(frozen=True)
class Check:
    """One comparison of a record with the shuffle, printed as one line by :func:`main`.

    ``what``: ``"commitment"``, ``"dealer"`` or ``"deck"``; ``round``: the 1-based round a dealer
    or deck check is about (``None`` for the commitment); ``ok``: whether the record matches the
    shuffle; ``detail``: what was compared, for the reader (may be empty).
    """

    what: str
    round: int | None
    ok: bool
    detail: str = ""

    @property
    def subject(self) -> str:
        """``"commitment"`` or ``"round 2: deck"``: what the line is about."""
        return self.what if self.round is None else f"round {self.round}: {self.what}"

    def __str__(self) -> str:
        line = f"{self.subject} {'matches' if self.ok else 'DOES NOT match'}"
        return f"{line} ({self.detail})" if self.detail else line


def _get(data: Mapping[str, Any], key: str, kind: type, name: str, **where: int) -> Any:
    """``data[key]``, of the JSON kind a record holds there (``name`` says it in the message)."""
    if not isinstance(data, Mapping) or key not in data:
        raise RecordError(f"no {key!r} given", **where)
    value = data[key]
    if not isinstance(value, kind) or isinstance(value, bool):
        raise RecordError(f"{key!r} must be {name}, not {type(value).__name__}", **where)
    return value


def verify_record(record: Mapping[str, Any]) -> list[Check]:
    """Recompute a finished match's shuffle and compare it with its ``basra-record/1`` record.

    The record's ``"shuffle"`` is ``{"algorithm": "basra-shuffle/1", "commitment": hex,
    "client_seeds": [one per seat], "server_seed": hex}`` (RULES.md, "Game record"); the number
    of seats is ``rules.players`` (default 2), which ``seats`` must agree with. The checks, in
    order (RULES.md, "Provably fair shuffle" 6): the commitment is SHA-256 of the server seed;
    round 1's dealer is :func:`first_dealer`, each later round's the seat after the previous
    round's (RULES.md, "Dealing" 4); round ``r``'s deck is ``deck(server_seed, client_seeds, r)``.
    Plays are not checked (:func:`~games.engine.record.replay` does that).

    :raises RecordError: (a ``ValueError``) for a record that cannot be checked: not a
        ``basra-record/1`` mapping, no ``"shuffle"`` (a match dealt before the fair shuffle), an
        unknown algorithm, no server seed yet (the match is not over), seeds that break
        RULES.md, or a round without an integer dealer and a list of card codes as its deck.
    """
    if not isinstance(record, Mapping):
        raise RecordError(f"a record is a JSON object, not {type(record).__name__}")
    if record.get("format") != RECORD_FORMAT:
        raise RecordError(f"the record's format is {record.get('format')!r}, not {RECORD_FORMAT!r}")
    rules = _get(record, "rules", Mapping, "an object")
    players = rules.get("players", 2)
    if players.__class__ is not int or players < 1:
        raise RecordError(f"rules: 'players' must be a number of seats, not {players!r}")
    seats = _get(record, "seats", list, "a list")
    if len(seats) != players:
        raise RecordError(f"'seats' names {len(seats)} seats, the rules {players}")
    rounds = _get(record, "rounds", list, "a list")
    if not rounds:
        # Every match that started dealt round 1: a record without it hides every deck.
        raise RecordError("the record has no rounds: a match that started has at least one deal")

    if "shuffle" not in record:
        raise RecordError(
            "the record has no 'shuffle' data: its decks were not dealt by basra-shuffle/1"
        )
    shuffle = _get(record, "shuffle", Mapping, "an object")
    algorithm = shuffle.get("algorithm")
    if algorithm != ALGORITHM:
        raise RecordError(
            f"shuffle: the algorithm is {algorithm!r}; this verifier knows {ALGORITHM!r}"
        )
    if "server_seed" not in shuffle or shuffle["server_seed"] is None:
        raise RecordError(
            "shuffle: no 'server_seed' in the record: it is revealed only when the match is over"
        )
    server_seed = _get(shuffle, "server_seed", str, "a string")
    claimed = _get(shuffle, "commitment", str, "a string")
    client_seeds = _get(shuffle, "client_seeds", list, "a list")
    if len(client_seeds) != players:
        raise RecordError(f"shuffle: {len(client_seeds)} client seeds for {players} seats")
    try:
        check_server_seed(server_seed)
        _client_seeds(client_seeds)
    except SeedError as error:
        raise RecordError(f"shuffle: {error}") from error

    recorded: list[tuple[int, list[Card]]] = []
    for number, data in enumerate(rounds, 1):
        if not isinstance(data, Mapping):
            raise RecordError("a round is an object with a dealer and a deck", round=number)
        dealer = _get(data, "dealer", int, "an integer", round=number)
        codes = _get(data, "deck", list, "a list", round=number)
        try:
            cards = [Card.from_code(code) for code in codes]
        except BasraError as error:
            raise RecordError(f"deck: {error}", round=number) from error
        recorded.append((dealer, cards))

    actual = commitment(server_seed)
    checks = [
        Check(
            "commitment",
            None,
            claimed.lower() == actual,
            "SHA-256 of the server seed"
            if claimed.lower() == actual
            else f"the record says {claimed}, SHA-256 of the server seed is {actual}",
        )
    ]
    dealer = first_dealer(server_seed, client_seeds)
    for number, (claimed_dealer, cards) in enumerate(recorded, 1):
        why = "from the seeds" if number == 1 else f"the seat after round {number - 1}'s dealer"
        checks.append(
            Check(
                "dealer",
                number,
                claimed_dealer == dealer,
                f"seat {dealer}, {why}"
                if claimed_dealer == dealer
                else f"the record says seat {claimed_dealer}, the shuffle seat {dealer} ({why})",
            )
        )
        dealer = (dealer + 1) % players
        checks.append(_deck_check(number, cards, deck(server_seed, client_seeds, number)))
    return checks


def _deck_check(number: int, recorded: list[Card], shuffled: list[Card]) -> Check:
    if recorded == shuffled:
        return Check("deck", number, True)
    if len(recorded) != len(shuffled):
        detail = f"the record's deck has {len(recorded)} cards, not {len(shuffled)}"
        return Check("deck", number, False, detail)
    at = next(i for i, (a, b) in enumerate(zip(recorded, shuffled)) if a is not b)
    return Check(
        "deck",
        number,
        False,
        f"card {at + 1} from the top: the record has {recorded[at]}, "
        f"the shuffle gives {shuffled[at]}",
    )


def main(argv: Sequence[str] | None = None) -> int:
    """The command line: ``python -m games.engine.shuffle verify RECORD.json``.

    Prints one line per check of :func:`verify_record` and a summary to standard output.
    Returns the exit status: 0 when everything matches, 1 when something does not, 2 when the
    record cannot be read or checked (the reason on standard error). ``RECORD.json`` may be
    ``-`` for standard input.
    """
    import argparse  # only the command line needs it

    parser = argparse.ArgumentParser(
        prog="python -m games.engine.shuffle",
        description="Check a finished Basra match's provably fair shuffle (basra-shuffle/1).",
    )
    commands = parser.add_subparsers(dest="command", required=True)
    verify = commands.add_parser(
        "verify",
        help="recompute the commitment, the dealers and every deck of a game record",
        description="Recompute the commitment, the first dealer and every round's deck of a "
        "basra-record/1 game record from its revealed seeds, and compare them with the record.",
    )
    verify.add_argument("record", help="the game record, a JSON file ('-' for standard input)")
    args = parser.parse_args(argv)

    try:
        if args.record == "-":
            data = json.load(sys.stdin)
        else:
            with open(args.record, encoding="utf-8") as file:
                data = json.load(file)
    except (OSError, UnicodeDecodeError, ValueError) as error:
        print(f"{args.record}: cannot read a JSON record: {error}", file=sys.stderr)
        return 2
    try:
        checks = verify_record(data)
    except RecordError as error:
        print(f"{args.record}: cannot check this record: {error}", file=sys.stderr)
        return 2
    for check in checks:
        print(check)
    failed = [check for check in checks if not check.ok]
    if failed:
        print(f"{len(failed)} of {len(checks)} checks DO NOT match")
        return 1
    print(f"all {len(checks)} checks match")
    return 0


if __name__ == "__main__":
    sys.exit(main())
