"""Profiles of their own: a bio (plain text), a country (its flag), an avatar from the set the
site ships (no uploads), the preferred language (applied at each log-in), and privacy and
notice settings (``games.people.models.Profile``).

A bio is plain text of at most ``BIO_MAX`` characters and is always shown escaped (as text,
never as markup). Refused with a reason, nothing saved: NUL and the other control characters
but line breaks and tabs, the bidirectional overrides and isolates (U+202A-U+202E,
U+2066-U+2069: they turn the text around the bio, "Trojan Source"), and markup (``<`` followed
by a letter, ``/``, ``!`` or ``?``), so that what is kept is what every reader is shown.
"""

from __future__ import annotations

import functools
import re
import unicodedata

from babel import Locale
from django import forms
from django.conf import settings
from django.templatetags.static import static
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from games.core.for_apps import collation_key
from games.people.models import BIO_MAX, Profile

#: The avatars the site ships (``static/people/avatars/<name>.svg``), with the words a screen
#: reader says for each.
AVATARS = {
    "spade": _("Spade"),
    "heart": _("Heart"),
    "diamond": _("Diamond"),
    "club": _("Club"),
    "star": _("Star"),
    "moon": _("Crescent moon"),
    "sun": _("Sun"),
    "crown": _("Crown"),
    "flower": _("Flower"),
    "snow": _("Snowflake"),
    "drop": _("Drop"),
    "bolt": _("Lightning bolt"),
}
DEFAULT_AVATAR = "spade"

#: The characters a bio may not hold (see the module's docstring).
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def avatar_url(name: str) -> str:
    """The address of avatar ``name`` (the default's for an unknown one)."""
    return static(f"people/avatars/{name if name in AVATARS else DEFAULT_AVATAR}.svg")


@functools.cache
def _codes() -> tuple[str, ...]:
    english = Locale("en").territories
    # ISO 3166-1 alpha-2 codes: two letters; not the groupings CLDR also names (EU, UN, EZ, QO)
    # nor its unknown region (ZZ) and pseudo-regions (XA, XB).
    return tuple(sorted(code for code in english if len(code) == 2 and code.isalpha()
                        and code not in {"EU", "EZ", "UN", "QO", "ZZ", "XA", "XB"}))


def countries(language: str | None = None) -> list[tuple[str, str]]:
    """``[(code, name)]`` of every country, named in ``language`` (the active one) and sorted
    by the Unicode Collation Algorithm (``collation_key``: "Égypte" among the E)."""
    language = language or translation.get_language() or settings.LANGUAGE_CODE
    try:
        names = Locale.parse(language.replace("-", "_")).territories
    except (ValueError, LookupError):
        names = Locale("en").territories
    return sorted(((code, names.get(code, code)) for code in _codes()), key=lambda row: collation_key(row[1]))


def country_name(code: str) -> str:
    """``code``'s name in the active language ("" for none)."""
    return dict(countries()).get(code, "") if code else ""


def flag(code: str) -> str:
    """The flag of country ``code`` as the two regional-indicator letters Unicode defines for it
    (Unicode Technical Standard 51, "Flags"); "" for none."""
    if len(code) != 2 or not code.isalpha():
        return ""
    return "".join(chr(0x1F1E6 + ord(letter) - ord("A")) for letter in code.upper())


def clean_bio(text: str) -> str:
    """``text`` as a bio is kept: line breaks made ``\\n``, each line's end and the whole's ends
    stripped, and a run of blank lines made one (a paragraph break: more only stretch the
    profile with empty space).

    :raises forms.ValidationError: longer than ``BIO_MAX``; NUL or another control character;
        a bidirectional override or isolate; markup.
    """
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    text = re.sub(r"\n{3,}", "\n\n", "\n".join(line.rstrip() for line in text.split("\n"))).strip()
    if len(text) > BIO_MAX:
        raise forms.ValidationError(
            _("At most %(limit)s characters (this one has %(count)s)."),
            params={"limit": BIO_MAX, "count": len(text)}, code="bio_too_long",
        )
    if any(ch in BIDI_CONTROLS for ch in text):
        raise forms.ValidationError(
            _("Direction controls (which turn text around) are not allowed."), code="bio_bidi"
        )
    if any(unicodedata.category(ch) == "Cc" and ch not in "\n\t" for ch in text):
        raise forms.ValidationError(_("Control characters are not allowed."), code="bio_control")
    for i, ch in enumerate(text[:-1]):
        following = text[i + 1]
        if ch == "<" and (following.isalpha() or following in "/!?"):
            raise forms.ValidationError(_("Plain text only: no markup."), code="bio_markup")
    return text


class ProfileForm(forms.ModelForm):
    """The settings page's form (every field of ``Profile``)."""

    bio = forms.CharField(
        label=_("About me"), required=False, widget=forms.Textarea(attrs={"rows": 4, "maxlength": BIO_MAX}),
        help_text=_("Plain text, at most 400 characters."),
        # Checked whole by clean_bio: the field's own length check would come first and hide the rest.
        max_length=None, strip=False,
    )
    country = forms.ChoiceField(label=_("Country"), required=False)
    avatar = forms.ChoiceField(label=_("Avatar"), required=False, widget=forms.RadioSelect)
    language = forms.ChoiceField(label=_("Language"), required=False)

    class Meta:
        model = Profile
        fields = ["bio", "country", "avatar", "language", "challenges", "online", "notify_rated", "notify_tournament"]

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["country"].choices = [("", _("None"))] + countries()
        self.fields["avatar"].choices = list(AVATARS.items())
        self.fields["language"].choices = [("", _("The browser's"))] + [
            (code, name) for code, name in settings.LANGUAGES
        ]

    def clean_bio(self) -> str:
        if len(self.data.get(self.add_prefix("bio"), "")) > BIO_MAX * 4:
            # Not read further: a 100,000-character post is refused on its length.
            raise forms.ValidationError(
                _("At most %(limit)s characters (this one has %(count)s)."),
                params={"limit": BIO_MAX, "count": len(self.data[self.add_prefix("bio")])},
                code="bio_too_long",
            )
        return clean_bio(self.cleaned_data.get("bio") or "")


def profile_of(user_id: int) -> Profile:
    """``user_id``'s profile, unsaved with the defaults when they have none (one query)."""
    return Profile.objects.filter(user_id=user_id).first() or Profile(user_id=user_id)
