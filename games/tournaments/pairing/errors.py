"""The pairing functions' one error and the checks of their input that they share."""

from __future__ import annotations

from collections.abc import Iterable


class PairingError(ValueError):
    """Bad input to a pairing or standings function: too few entrants, a duplicate id, a bad score."""


def _check_count(n: int, what: str = "entrants") -> None:
    if isinstance(n, bool) or not isinstance(n, int):
        raise PairingError(f"the number of {what} must be an int, not {n!r}")
    if n < 2:
        raise PairingError(f"at least 2 {what} are needed, not {n}")


def _check_unique(ids: Iterable[int]) -> None:
    seen: set[int] = set()
    for i in ids:
        if i in seen:
            raise PairingError(f"entrant {i} appears twice")
        seen.add(i)
