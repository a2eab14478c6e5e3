"""Pairings fixed in advance: FIDE's Berger tables and a seeded knockout bracket."""

from __future__ import annotations

from .errors import _check_count

__all__ = ["knockout_bracket", "round_robin"]


# --- round robin -----------------------------------------------------------------------------


def round_robin(n: int) -> list[list[tuple[int, int | None]]]:
    """The rounds of FIDE's Berger tables for entrants ``1..n``.

    Returns ``n - 1`` rounds for even ``n`` (``n`` rounds for odd ``n``), each a list of boards
    ``(first, second)``: the first-named entrant has the first seat ("white" in the published
    tables). For odd ``n`` the table of ``n + 1`` is used and the entrant who would meet
    ``n + 1`` has the bye, written ``(entrant, None)``. A double round robin plays the rounds
    again with each pair reversed.

    Source: FIDE Handbook C.05 (General Regulations for Competitions), Annex 1, "Berger Tables
    for Round-Robin Tournaments", with an odd field using the next table and the highest number
    as the bye (the tables compared here are the ones reproduced at c.w.fox.tripod.com/chess/
    berger.html and devenezia.com's round-robin forum). The tables are built the way they are
    published: round 1 is
    ``1-n, 2-(n-1), …``; each next round adds ``n/2`` to every number but ``n`` (counting
    ``1..n-1`` round and round), and ``n`` changes seat every round. The tests compare the
    result with the published tables for 4, 6 and 8 entrants.

    :raises PairingError: ``n`` is not an int or is below 2.
    """
    _check_count(n)
    m = n + (n % 2)  # the table's size: n, or n + 1 with the top number a bye
    half = m // 2
    board = [(k, m + 1 - k) for k in range(1, half + 1)]
    rounds: list[list[tuple[int, int | None]]] = []
    for _ in range(m - 1):
        rounds.append([_bye_or_pair(a, b, n) for a, b in board])
        shift = [(_rotate(a, half, m), _rotate(b, half, m)) for a, b in board]
        # The top number alternates seats: second in round 1, first in round 2, …
        board = [(b, a) if m in (a, b) else (a, b) for a, b in shift]
    return rounds


def _rotate(x: int, half: int, m: int) -> int:
    return x if x == m else (x - 1 + half) % (m - 1) + 1


def _bye_or_pair(a: int, b: int, n: int) -> tuple[int, int | None]:
    if a > n:
        return (b, None)
    if b > n:
        return (a, None)
    return (a, b)


# --- knockout --------------------------------------------------------------------------------


def knockout_bracket(n: int) -> list[tuple[int | None, int | None]]:
    """The first-round pairs of seeds ``1..n`` in bracket order, for the next power of two.

    The bracket of size ``2**k >= n`` is built the standard way: ``[1, 2]``, then each seed
    ``s`` of a bracket of size ``m`` is replaced by the pair ``s, 2m+1-s`` (so 8 gives
    ``1-8, 4-5, 2-7, 3-6``). Every first-round pair sums to ``size + 1``; a seed above ``n`` is
    ``None``, a bye, so the byes fall to the top seeds. The winners of neighbouring pairs meet
    next. Seeds 1 and 2 are in opposite halves (they can meet only in the final) and seeds 1-4
    in different quarters (they can meet only from the semi-finals).

    Source: the usual seeded single-elimination draw, in which every first-round pair of seeds
    sums to the bracket size plus one and the top seed meets the last; no FIDE table was
    consulted, so the tests check the properties above for every ``n`` up to 64.

    :raises PairingError: ``n`` is not an int or is below 2.
    """
    _check_count(n)
    order = [1]
    size = 1
    while size < n:
        size *= 2
        order = [x for s in order for x in (s, size + 1 - s)]
    return [
        (a if a <= n else None, b if b <= n else None) for a, b in zip(order[::2], order[1::2])
    ]
