"""What a chat line may hold, and the word filter (``docs/protocol.md``, "Chat").

A line is plain text, at most :data:`MAX_LENGTH` characters once cleaned, shown by the pages
as text (never markup: a link is not made clickable, ``<script>`` is shown as written).
:func:`clean` **strips**, rather than refuses, what must not reach another player's screen:

- NUL and every other control character (Unicode category ``Cc``: C0, DEL, C1), a line break
  or a tab becoming a space;
- the bidirectional embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069) and the
  directional marks (U+200E, U+200F, U+061C), with which a line could reverse the text after
  it on the reader's page or disguise a link;
- spaces at both ends, runs of spaces folded to one;

then puts the text in Unicode normal form NFC. A line left empty is ``bad_message``.

:func:`mask` is the word filter: each word or phrase of the maintained lists kept in
``games/chat/wordlists/`` (Arabic, English, French; their source and licence in its README),
matched whole (not inside a longer word), letter case ignored, is **masked**: replaced by as
many ``*`` as it has characters; the rest of the line goes out. Masking rather than refusing:
the line's sense stays readable, the word is not shown, and a player is not taught which
spelling gets through. Every line goes through all three lists, whatever the page's language:
players of one table write in several.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from pathlib import Path

#: The most characters a line has, once cleaned.
MAX_LENGTH = 140
#: A line longer than this before cleaning is refused at once (``chat_too_long``), not cleaned:
#: cleaning strips at most a few characters of an honest line.
MAX_RAW = 4 * MAX_LENGTH
#: The languages of the word lists (``wordlists/<language>.txt``).
LANGUAGES = ("ar", "en", "fr")

WORDLISTS = Path(__file__).resolve().parent / "wordlists"

_BIDI = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c"
_STRIPPED = str.maketrans({c: None for c in _BIDI})
_SPACES = re.compile(r"\s+")


def clean(raw: str) -> str:
    """``raw`` without control characters and bidirectional controls, its spaces folded, in
    NFC (see the module's docstring); may be empty."""
    text = "".join(
        " " if c in "\t\n\r\v\f" else c
        for c in raw.translate(_STRIPPED)
        if c in "\t\n\r\v\f" or unicodedata.category(c) != "Cc"
    )
    return unicodedata.normalize("NFC", _SPACES.sub(" ", text).strip())


def words(language: str) -> list[str]:
    """The entries of one language's list (``wordlists/<language>.txt``: one a line, blank
    lines skipped), in NFC."""
    lines = (WORDLISTS / f"{language}.txt").read_text(encoding="utf-8").splitlines()
    return [unicodedata.normalize("NFC", line.strip()) for line in lines if line.strip()]


@functools.cache
def _pattern() -> re.Pattern:
    """One pattern for every entry of every list: longest first (a phrase before its first
    word), each whole (no word character on either side), case ignored."""
    entries = sorted({w for lang in LANGUAGES for w in words(lang)}, key=len, reverse=True)
    body = "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in entries)
    return re.compile(rf"(?<!\w)(?:{body})(?!\w)", re.IGNORECASE)


def mask(text: str) -> str:
    """``text`` with every listed word or phrase replaced by ``*`` of its length."""
    return _pattern().sub(lambda m: "*" * len(m.group(0)), text)
