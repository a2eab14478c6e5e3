"""The import form: a ``basra-record/1`` record, uploaded or pasted, checked by the engine."""

import json

from django import forms
from django.utils.translation import gettext_lazy as _

from games import engine

#: The largest record accepted, in bytes (a 30-round match's record is about 60 kB).
MAX_RECORD_BYTES = 1_000_000


def _has_nul(value: object) -> bool:
    """Whether a parsed JSON value has a NUL character in any string, key or value."""
    pending = [value]
    while pending:
        item = pending.pop()
        if isinstance(item, str):
            if "\x00" in item:
                return True
        elif isinstance(item, dict):
            pending.extend(item.keys())
            pending.extend(item.values())
        elif isinstance(item, list):
            pending.extend(item)
    return False


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
            record = json.loads(raw)
        except RecursionError:
            # Arrays nested deeper than the parser's recursion limit ("[[[[…]]]]"): not a record.
            raise forms.ValidationError(
                _("This is not JSON: %(error)s"), code="json",
                params={"error": _("nested too deeply")},
            ) from None
        except (UnicodeDecodeError, ValueError) as error:
            raise forms.ValidationError(
                _("This is not JSON: %(error)s"), code="json", params={"error": error}
            ) from error
        if _has_nul(record):
            # PostgreSQL refuses NUL in text and in jsonb: stored, such a record was a 500.
            raise forms.ValidationError(
                _("The record contains a NUL character (\\u0000), which no record has."),
                code="nul",
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
        data["record"] = record
        return data
