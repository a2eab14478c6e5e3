"""Sorting words as a reader expects: the Unicode Collation Algorithm (UTS #10) with its
default table (DUCET) through ``pyuca``, so an accented letter sorts with its base letter
("Égypte" beside "Équateur", after "Danemark", not after "Zimbabwe") and Arabic sorts in its
alphabet's order, where a code-point sort puts every accented capital after Z."""

from __future__ import annotations

import functools

from pyuca import Collator


@functools.cache
def _collator() -> Collator:
    return Collator()  # reads pyuca's allkeys.txt once (about a second)


def collation_key(text: str) -> tuple[int, ...]:
    """``text``'s UCA sort key (``sorted(words, key=collation_key)``)."""
    return _collator().sort_key(text)
