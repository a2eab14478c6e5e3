"""What a chat line may hold, and the word filter (``docs/protocol.md``, "Chat").

A line is plain text, at most :data:`MAX_LENGTH` characters once cleaned, shown by the pages
as text (never markup: a link is not made clickable, ``<script>`` is shown as written).
:func:`clean` **strips**, rather than refuses, what must not reach another player's screen:

- NUL and every other control character (Unicode category ``Cc``: C0, DEL, C1), a line break
  or a tab becoming a space;
- the bidirectional embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069) and the
  directional marks (U+200E, U+200F, U+061C), with which a line could reverse the text after
  it on the reader's page or disguise a link; every other format character (category ``Cf``:
  zero-width space and joiners, soft hyphen) and the Arabic tatweel (U+0640), which hide a word
  from the filter without changing what a reader sees;
- spaces at both ends, runs of spaces folded to one;

then puts the text in Unicode normal form NFC. A line left empty is ``bad_message``.

:func:`mask` is the word filter: each word or phrase of the maintained lists kept in
``games/chat/wordlists/`` (Arabic, English, French; their source and licence in its README, and
the project's own supplement ``local.txt``), matched whole (not inside a longer word), is
**masked**: the words of the line it covers, from the first to the last, are replaced by as
many ``*`` as they have characters;
the rest of the line goes out. Matching is on a normalized form of both the line and the
entries (:func:`fold`): NFKC, case folded, format characters and tatweel dropped, the common
leetspeak digits and symbols read as letters (``1`` i, ``3`` e, ``0`` o, ``4`` a, ``@`` a,
``$`` s, ``!`` i), look-alikes mapped to their skeleton (Unicode's confusables table, the one
``accounts.confusables`` keeps for usernames); a letter repeated stands for one (``fuuuck``), a
``*`` for any letter (``f*ck``), and single letters spaced out are read as one word
(``f u c k``). Masking rather than refusing:
the line's sense stays readable, the word is not shown, and a player is not taught which
spelling gets through. Every line goes through all three lists, whatever the page's language:
players of one table write in several.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from pathlib import Path

from accounts.confusables import skeleton

#: The most characters a line has, once cleaned.
MAX_LENGTH = 140
#: A line longer than this before cleaning is refused at once (``chat_too_long``), not cleaned:
#: cleaning strips at most a few characters of an honest line.
MAX_RAW = 4 * MAX_LENGTH
#: The languages of the word lists (``wordlists/<language>.txt``).
LANGUAGES = ("ar", "en", "fr")
#: The project's own supplement to the lists (``wordlists/local.txt``, its note in the README).
SUPPLEMENT = "local"

WORDLISTS = Path(__file__).resolve().parent / "wordlists"

_BIDI = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c"
_TATWEEL = "\u0640"
_STRIPPED = str.maketrans({c: None for c in _BIDI + _TATWEEL})
_SPACES = re.compile(r"\s+")


def clean(raw: str) -> str:
    """``raw`` without control characters and bidirectional controls, its spaces folded, in
    NFC (see the module's docstring); may be empty."""
    text = "".join(
        " " if c in "\t\n\r\v\f" else c
        for c in raw.translate(_STRIPPED)
        if c in "\t\n\r\v\f" or unicodedata.category(c) not in ("Cc", "Cf")
    )
    return unicodedata.normalize("NFC", _SPACES.sub(" ", text).strip())


#: Leetspeak read as letters, before the skeleton (which reads ``1`` as ``l``).
_LEET = str.maketrans({"1": "i", "!": "i", "3": "e", "0": "o", "4": "a", "@": "a", "$": "s"})
#: Look-alikes the confusables table maps elsewhere than writers mean them: the Cyrillic
#: ``у`` is a ``y`` there, written for a ``u``.
_LOOKALIKES = str.maketrans({"\u0443": "u", "\u0423": "u"})
#: What separates words (kept as written around a masked word); a ``!`` too unless a letter
#: follows it (``sh!t``).
_PUNCTUATION = ".,;:?'\"()[]{}<>«»،؛؟…-_~/"
_WORD = re.compile(rf"(?:[^\s!{re.escape(_PUNCTUATION)}]|!(?=[^\s!{re.escape(_PUNCTUATION)}]))+")


def fold(word: str) -> str:
    """The form a word is matched in (the module's docstring): ``"Sh1t"`` → ``"shit"``,
    ``"fуck"`` (Cyrillic у) → ``"fuck"``; ``*`` is kept (any letter)."""
    text = unicodedata.normalize("NFKC", word).casefold().translate(_STRIPPED)
    text = "".join(c for c in text if unicodedata.category(c) != "Cf")
    text = text.translate(_LEET).translate(_LOOKALIKES)
    return unicodedata.normalize("NFC", skeleton(text).casefold())


def words(language: str) -> list[str]:
    """The entries of one language's list (``wordlists/<language>.txt``: one a line, blank
    lines skipped), in NFC."""
    lines = (WORDLISTS / f"{language}.txt").read_text(encoding="utf-8").splitlines()
    return [unicodedata.normalize("NFC", line.strip()) for line in lines if line.strip()]


def _entry_pattern(entry: str) -> str:
    """An entry's pattern over folded words: each character one or more times, or ``*``."""
    return " ".join(
        "".join(f"(?:{re.escape(c)}|\\*)+" for c in fold(word)) for word in entry.split()
    )


@functools.cache
def _pattern() -> re.Pattern:
    """One pattern for every entry of every list (and the supplement), over the folded words
    of a line joined by one space: longest first (a phrase before its first word), each whole."""
    entries = {w for lang in (*LANGUAGES, SUPPLEMENT) for w in words(lang)}
    bodies = sorted({_entry_pattern(w) for w in entries if fold(w)}, key=len, reverse=True)
    return re.compile(rf"(?<!\S)(?:{'|'.join(bodies)})(?!\S)")


def _units(text: str, join: bool) -> list[tuple[str, int, int]]:
    """The words of ``text`` as ``(folded, start, end)`` (offsets in ``text``); with ``join``, a
    run of single letters spaced out is one word (``f u c k``)."""
    units: list[tuple[str, int, int]] = []
    run: list[tuple[str, int, int]] = []
    for found in _WORD.finditer(text):
        folded = fold(found.group(0))
        if not folded:
            continue
        if join and len(folded) == 1:
            run.append((folded, found.start(), found.end()))
            continue
        units.extend(_joined(run))
        run = []
        units.append((folded, found.start(), found.end()))
    units.extend(_joined(run))
    return units


def _joined(run: list[tuple[str, int, int]]) -> list[tuple[str, int, int]]:
    if len(run) < 2:
        return run
    return [("".join(folded for folded, _s, _e in run), run[0][1], run[-1][2])]


def mask(text: str) -> str:
    """``text`` with every run of words a listed word or phrase matched (:func:`fold`; single
    letters read apart and joined) replaced by ``*`` of its length."""
    chars = list(text)
    for join in (False, True):
        units = _units(text, join)
        line, starts = "", []
        for folded, _start, _end in units:
            starts.append(len(line) + (1 if line else 0))
            line = f"{line} {folded}" if line else folded
        for found in _pattern().finditer(line):
            spans = [
                (start, end) for (folded, start, end), at in zip(units, starts)
                if at < found.end() and at + len(folded) > found.start()
            ]
            first, last = spans[0][0], spans[-1][1]
            chars[first:last] = "*" * (last - first)
    return "".join(chars)
