"""The import form: a ``basra-record/1`` record, uploaded or pasted, checked by the engine, within
the site's limits (the lobby's targets, :data:`MAX_ROUNDS`) and with its headers of the types
RULES.md ("Game record") gives them."""

import json
import re
from datetime import datetime

from django import forms
from django.utils.translation import gettext_lazy as _

from games import engine
from games.core.for_apps import TARGET_MAX, TARGET_MIN

#: The largest record accepted, in bytes (a 30-round match's record is about 60 kB).
MAX_RECORD_BYTES = 1_000_000
#: The most rounds an imported record may have: a match to the lobby's highest target takes
#: about 20 of two players; a record of 1,500 rounds made a 24 MB replay page.
MAX_ROUNDS = 60

#: RULES.md's ``termination`` values.
TERMINATIONS = ("target", "claim", "resign", "abort", "decided", "abandoned")
_HEX64 = re.compile(r"[0-9a-f]{64}")


def _is_iso_time(value: object) -> bool:
    if not isinstance(value, str):
        return False
    try:
        datetime.fromisoformat(value)
    except ValueError:
        return False
    return True


def _is_ratings(value: object, seats: int) -> bool:
    """Per seat, a number or null (a computer seat); or null."""
    return value is None or (
        isinstance(value, list) and len(value) == seats and all(
            r is None or (isinstance(r, (int, float)) and not isinstance(r, bool)) for r in value
        )
    )


#: Each header RULES.md names, and what its value must be (``seats``: how many seats). Headers
#: it does not name are kept and ignored, as a reader does.
HEADER_CHECKS = {
    "site": lambda v, n: isinstance(v, str),
    "match": lambda v, n: isinstance(v, str),
    "date": lambda v, n: _is_iso_time(v),
    "finished": lambda v, n: _is_iso_time(v),
    "rated": lambda v, n: isinstance(v, bool),
    "pool": lambda v, n: v in ("1v1", "partnership"),
    "event": lambda v, n: isinstance(v, str),
    "ratings_before": _is_ratings,
    "ratings_after": _is_ratings,
    "result": lambda v, n: isinstance(v, str),
    "winner": lambda v, n: v is None or (type(v) is int and v in (0, 1)),
    "termination": lambda v, n: isinstance(v, str) and v in TERMINATIONS,
    "not_rated": lambda v, n: isinstance(v, str),
}


def wrong_header(record: dict) -> str | None:
    """The first of the record's ``headers`` (and ``shuffle``, and rounds' ``timeouts``) whose
    value is not of its RULES.md type, named as in the record (``"headers.winner"``), or
    ``None``. ``record`` has already been replayed by the engine (its seats and rounds are
    sound)."""
    seats = len(record["seats"])
    headers = record.get("headers", {})
    if not isinstance(headers, dict):
        return "headers"
    for name, check in HEADER_CHECKS.items():
        if name in headers and not check(headers[name], seats):
            return f"headers.{name}"
    if "shuffle" in record:
        shuffle = record["shuffle"]
        if not isinstance(shuffle, dict):
            return "shuffle"
        seeds = shuffle.get("client_seeds", [])
        checks = {
            "algorithm": isinstance(shuffle.get("algorithm", ""), str),
            "commitment": _HEX64.fullmatch(str(shuffle.get("commitment", "0" * 64))) is not None,
            "server_seed": shuffle.get("server_seed") is None
            or _HEX64.fullmatch(str(shuffle["server_seed"])) is not None,
            "client_seeds": isinstance(seeds, list) and all(isinstance(s, str) for s in seeds),
        }
        for name, good in checks.items():
            if not good:
                return f"shuffle.{name}"
    for number, round_ in enumerate(record["rounds"], 1):
        timeouts = round_.get("timeouts", [])
        if not (isinstance(timeouts, list) and all(
            type(t) is int and 0 <= t < len(round_["plays"]) for t in timeouts
        )):
            return f"rounds[{number}].timeouts"
    return None


def over_limits(record: object) -> str | None:
    """Why ``record`` is beyond what the site replays, before the engine spends any time on it:
    a target outside the lobby's, a seat's name over :data:`MAX_SEAT_NAME` characters, more
    than :data:`MAX_ROUNDS` rounds; else ``None``. A record
    too malformed to tell is left to the engine."""
    if not isinstance(record, dict):
        return None
    rules, rounds = record.get("rules"), record.get("rounds")
    target = rules.get("target") if isinstance(rules, dict) else None
    if type(target) is int and not TARGET_MIN <= target <= TARGET_MAX:
        return str(_("Its target, %(target)s, is not one a table here plays to (%(low)s to %(high)s).")
                   % {"target": target, "low": TARGET_MIN, "high": TARGET_MAX})
    seats = record.get("seats")
    if isinstance(seats, list) and any(isinstance(n, str) and len(n) > MAX_SEAT_NAME for n in seats):
        return str(_("A seat's name is longer than %(limit)s characters.") % {"limit": MAX_SEAT_NAME})
    if isinstance(rounds, list) and len(rounds) > MAX_ROUNDS:
        return str(_("It has %(count)s rounds; the site replays records of at most %(limit)s.")
                   % {"count": len(rounds), "limit": MAX_ROUNDS})
    return None


#: The longest number a record's JSON may hold, in digits (a deck index or a score has a few;
#: Python's own limit, 4,300, would be a message naming its internals).
MAX_NUMBER_DIGITS = 18
#: The longest seat name, in characters (a username has at most 150).
MAX_SEAT_NAME = 150


def _small_int(text: str) -> int:
    """``json.loads``' ``parse_int``: the number, if it has at most :data:`MAX_NUMBER_DIGITS`
    digits.

    :raises ValueError: a longer one (the form says "This is not JSON: …").
    """
    if len(text.lstrip("-")) > MAX_NUMBER_DIGITS:
        raise ValueError(_("a number of more than %(digits)s digits") % {"digits": MAX_NUMBER_DIGITS})
    return int(text)


def _bad_text(value: object) -> str | None:
    """What no stored record may hold in any string, key or value of a parsed JSON value:
    ``"nul"`` (a NUL character: PostgreSQL refuses it in text and in jsonb), ``"surrogate"`` (a
    lone UTF-16 surrogate such as ``\\ud800``, which JSON's escapes allow but no UTF-8 text,
    PostgreSQL's or a page's, can hold); else ``None``."""
    pending = [value]
    while pending:
        item = pending.pop()
        if isinstance(item, str):
            if "\x00" in item:
                return "nul"
            if any("\ud800" <= c <= "\udfff" for c in item):
                return "surrogate"
        elif isinstance(item, dict):
            pending.extend(item.keys())
            pending.extend(item.values())
        elif isinstance(item, list):
            pending.extend(item)
    return None


class ImportForm(forms.Form):
    """One record, as a file or as text (the file wins when both are given).

    ``cleaned_data["record"]`` is the parsed record, which :func:`games.engine.replay` has
    replayed without error; a record it refuses is a form error carrying the engine's message,
    which names the round and the play.
    """

    file = forms.FileField(label=_("Record file"), required=False,
                           help_text=_("A .json game record (basra-record/1)."))
    text = forms.CharField(label=_("Or paste the record"), required=False,
                           widget=forms.Textarea(attrs={"rows": 8, "spellcheck": "false",
                                                        "dir": "ltr"}))

    def clean(self):
        data = super().clean()
        if self.has_error("text") or self.has_error("file"):
            return data  # the field's own error says it (a NUL pasted: "Null characters …")
        upload = data.get("file")
        if upload is not None:
            if upload.size > MAX_RECORD_BYTES:
                raise forms.ValidationError(_("The record is larger than 1 MB."), code="too_big")
            raw = upload.read()
        else:
            raw = (data.get("text") or "").encode()
            if len(raw) > MAX_RECORD_BYTES:
                raise forms.ValidationError(_("The record is larger than 1 MB."), code="too_big")
        if not raw.strip():
            raise forms.ValidationError(_("Upload a record file or paste a record."), code="empty")
        try:
            record = json.loads(raw, parse_int=_small_int)
        except RecursionError:
            # Arrays nested deeper than the parser's recursion limit ("[[[[…]]]]"): not a record.
            raise forms.ValidationError(
                _("This is not JSON: %(error)s"), code="json",
                params={"error": _("nested too deeply")},
            ) from None
        except UnicodeDecodeError:
            # The decoder's own words name its internals ("'utf-8' codec can't decode byte
            # 0xff"), in English whatever the reader's language.
            raise forms.ValidationError(
                _("This file is not text: a record is JSON text (UTF-8)."), code="json"
            ) from None
        except json.JSONDecodeError as error:
            # Where the JSON breaks off, in the reader's language; the parser's message
            # ("Expecting value") is English only.
            raise forms.ValidationError(
                _("This is not JSON: it breaks off at line %(line)s, column %(column)s."),
                code="json", params={"line": error.lineno, "column": error.colno},
            ) from None
        except ValueError as error:  # _small_int's, already in the reader's language
            raise forms.ValidationError(
                _("This is not JSON: %(error)s"), code="json", params={"error": error}
            ) from error
        bad = _bad_text(record)
        if bad == "nul":
            raise forms.ValidationError(
                _("The record contains a NUL character (\\u0000), which no record has."),
                code="nul",
            )
        if bad == "surrogate":
            raise forms.ValidationError(
                _("The record contains a lone UTF-16 surrogate (such as \\ud800), which is not "
                  "text: no record has one."),
                code="surrogate",
            )
        beyond = over_limits(record)
        if beyond is not None:
            raise forms.ValidationError(
                _("This record is beyond the site's limits: %(why)s"), code="limits",
                params={"why": beyond},
            )
        try:
            engine.replay(record)
        except engine.BasraError as error:
            raise forms.ValidationError(
                _("The engine refused this record: %(error)s"), code="illegal",
                params={"error": error},
            ) from error
        if not record["rounds"]:
            raise forms.ValidationError(_("The record has no round to replay."), code="empty")
        wrong = wrong_header(record)
        if wrong is not None:
            raise forms.ValidationError(
                _("The record's %(name)s is not of the type a game record gives it (RULES.md, "
                  "\"Game record\")."),
                code="header", params={"name": wrong},
            )
        data["record"] = record
        return data
