"""Look-alike names: the skeleton of Unicode Technical Standard #39 ("Unicode Security
Mechanisms", section 4, "Confusable Detection"), over Unicode's own confusables table.

Two strings are confusable when their skeletons are equal: ``skeleton("pаypal")`` (with a
Cyrillic а) is ``skeleton("paypal")``. A skeleton is only ever compared, never shown: it mixes
scripts ("m" becomes "rn").

The table is ``accounts/data/confusables.txt``, Unicode's file as published (its header gives
the version: 13.0.0, 2020-02-13), vendored because no maintained Python package gives the
skeleton (``confusable_homoglyphs`` checks mixed scripts, not skeletons). To update it, replace
the file with a newer ``https://www.unicode.org/Public/security/<version>/confusables.txt``; the
tests read the version from the header.
"""

from __future__ import annotations

import functools
import unicodedata
from pathlib import Path

#: Unicode's confusables table (see the module).
TABLE = Path(__file__).resolve().parent / "data" / "confusables.txt"


@functools.cache
def prototypes() -> dict[str, str]:
    """``{character: prototype}`` from :data:`TABLE`: each line ``source ; target ; MA``, the
    code points in hexadecimal (the target may be several)."""
    table: dict[str, str] = {}
    with TABLE.open(encoding="utf-8-sig") as lines:
        for line in lines:
            data = line.split("#", 1)[0].strip()
            if not data:
                continue
            source, target = (field.strip() for field in data.split(";")[:2])
            table[chr(int(source, 16))] = "".join(chr(int(c, 16)) for c in target.split())
    return table


def table_version() -> str:
    """The table's version, from its ``# Version:`` header line (e.g. ``"13.0.0"``)."""
    with TABLE.open(encoding="utf-8-sig") as lines:
        for line in lines:
            if line.startswith("# Version:"):
                return line.split(":", 1)[1].strip()
    raise ValueError(f"{TABLE} has no '# Version:' line")


def skeleton(text: str) -> str:
    """UTS #39's ``skeleton(X)``: NFD, default-ignorable characters dropped, each character
    replaced by its prototype, NFD again.

    Python's ``unicodedata`` has no Default_Ignorable_Code_Point property; the format
    characters (general category ``Cf``: zero-width joiners, direction marks) are the part of it
    a name could carry unseen.
    """
    table = prototypes()
    decomposed = unicodedata.normalize("NFD", text)
    mapped = "".join(
        table.get(c, c) for c in decomposed if unicodedata.category(c) != "Cf"
    )
    return unicodedata.normalize("NFD", mapped)


def name_keys(username: str) -> frozenset[str]:
    """The forms two usernames share when a reader could take one for the other: the skeleton
    of the name's NFKC form, taken twice, since case and look-alikes overlap. Two names are
    look-alikes when their sets meet.

    - folded: case-folded before the skeleton (the reserved names and allauth's uniqueness
      ignore case: "ALICE" is "alice") and after (the table's prototypes are partly capitals:
      "0" becomes "O");
    - as written, folded after: the table maps the capital "I" to "l", which folding first would
      turn into "i" ("aIice" is "alice").

    >>> bool(name_keys("ａｌｉｃｅ") & name_keys("ALICE") & name_keys("aIice"))
    True
    """
    plain = unicodedata.normalize("NFKC", username)
    return frozenset((skeleton(plain.casefold()).casefold(), skeleton(plain).casefold()))
