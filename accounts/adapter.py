"""The allauth adapter of the site: reserved, look-alike, over-long and e-mail-like usernames,
the e-mail subject prefix, the site's name and domain in e-mails."""

import re
import unicodedata

from allauth.account.adapter import DefaultAccountAdapter
from django.conf import settings
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.utils.encoding import force_str
from django.utils.translation import gettext

from accounts.confusables import name_keys
from accounts.models import NameKey
from accounts.reserved import is_reserved_username
from accounts.site import configured_site

#: The longest username the sign-up form accepts. The user model allows 150 characters, but a
#: name is shown on seats, chips and score boxes next to others, on a phone too.
USERNAME_MAX_LENGTH = 24

#: What a username may hold besides letters and digits (of any script: Python's ``\w``), as
#: the sign-up's help and its refusal both name it: Django's username characters
#: (``UnicodeUsernameValidator``, ``[\w.@+-]``) less the ``@``, which ``clean_username``
#: refuses. Django's own refusal lists "@/./+/-/_", which would contradict a help saying ". _ + -".
USERNAME_MARKS = ". _ + -"
USERNAME_CHARACTERS = re.compile(r"[\w.+-]+")


def has_letter_or_digit(name: str) -> bool:
    """Whether ``name`` holds a letter or digit that is seen on its own: ``\\w`` also takes
    modifier letters (Unicode category ``Lm``: the Arabic tatweel "ـ", which only stretches
    the letters beside it) and the underscore, and a name of those alone ("ـــ", "_._")
    reads as a blank or a line on a seat."""
    return any(ch.isalnum() and unicodedata.category(ch) != "Lm" for ch in name)


class AccountAdapter(DefaultAccountAdapter):
    """Allauth adapter selected by ``ACCOUNT_ADAPTER = "accounts.adapter.AccountAdapter"``."""

    def clean_username(self, username: str, shallow: bool = False) -> str:
        """The name in its NFKC form, once it passes the site's checks and allauth's.

        Normalised first, so that every check sees the name that is stored: Unicode
        compatibility forms are one name (full-width "ａｌｉｃｅ" is "alice", as Django's
        ``AbstractBaseUser.normalize_username`` has it). Then refused: over-long names; a name
        with an ``@`` (it reads as an e-mail address on every page that shows it, and the log-in
        box takes a log-in with an ``@`` for an e-mail address, so its owner could not log in
        with it); any other character than letters, digits and ``USERNAME_MARKS``, in the
        site's words (Django's validator, which allauth runs next, names the ``@`` too); a
        name with no letter or digit of its own;
        reserved names and their look-alikes (`accounts.reserved`); allauth's checks (the name
        taken in any case); and unless ``shallow``, a look-alike of a taken name (its Unicode
        skeleton, `accounts.confusables`: "аlice" with a Cyrillic "а" when "alice" exists).

        :raises ValidationError: code ``"username_too_long"`` for more than
            ``USERNAME_MAX_LENGTH`` characters, ``"username_email"`` for a name with ``@``,
            ``"username_characters"`` for another character than letters, digits and
            ``USERNAME_MARKS``, ``"username_no_letter"`` for a name of marks and tatweels only
            (`has_letter_or_digit`), ``"username_reserved"`` for a reserved name, allauth's errors
            (name taken), ``"username_look_alike"`` for a look-alike of a taken name.
        """
        username = unicodedata.normalize("NFKC", username)
        if len(username) > USERNAME_MAX_LENGTH:
            raise ValidationError(
                gettext("Choose a name of at most %(limit)d characters (this one has %(length)d).")
                % {"limit": USERNAME_MAX_LENGTH, "length": len(username)},
                code="username_too_long",
            )
        if "@" in username:
            raise ValidationError(
                gettext("A name cannot contain @: it would look like an e-mail address."),
                code="username_email",
            )
        if not USERNAME_CHARACTERS.fullmatch(username):
            raise ValidationError(
                gettext("A name may hold only letters, digits and %(marks)s (no spaces).")
                % {"marks": USERNAME_MARKS},
                code="username_characters",
            )
        if not has_letter_or_digit(username):
            raise ValidationError(
                gettext("A name needs at least one letter or digit."),
                code="username_no_letter",
            )
        if is_reserved_username(username):
            raise ValidationError(
                gettext("This name is reserved. Please choose another one."),
                code="username_reserved",
            )
        username = super().clean_username(username, shallow=shallow)
        if not shallow and NameKey.objects.filter(key__in=name_keys(username)).exists():
            raise ValidationError(
                gettext("This name looks too much like a player's name. Please choose another one."),
                code="username_look_alike",
            )
        return username

    def get_email_verification_redirect_url(self, email_address) -> str:
        """Where a confirmation link leads once it confirmed ``email_address`` without logging
        anyone in: allauth's choice (the log-in page for a visitor), and for a visitor a message
        saying why they must log in. allauth logs the player in itself, before asking this, when
        the link is opened in the session that signed up (``ACCOUNT_LOGIN_ON_EMAIL_CONFIRMATION``,
        ``allauth.account.internal.flows.email_verification.login_on_verification``): so here the
        link was opened in another browser or device, or after that session ended."""
        url = super().get_email_verification_redirect_url(email_address)
        if not self.request.user.is_authenticated:
            messages.info(self.request, gettext(
                "This browser is not the one you signed up in, so the link could not log you in "
                "here: log in with your name or email address and your password."
            ))
        return url

    def send_mail(self, template_prefix: str, email: str, context: dict) -> None:
        """Allauth's ``send_mail`` with ``current_site`` from the settings
        (``BASRA_SITE_NAME``, translated when it is the catalogue's "Basra", and
        ``BASRA_SITE_DOMAIN``; `accounts.site`), not the ``Site`` row's "example.com"; the
        greeting and the signature of every e-mail name it (``account/email/base_message.txt``)."""
        site = configured_site()
        site.name = gettext(site.name)  # the catalogue's "Basra" is باصرة in Arabic
        super().send_mail(template_prefix, email, {**context, "current_site": site})

    def format_email_subject(self, subject: str) -> str:
        """Prefix subjects with ``BASRA_SITE_NAME``, translated when it is the catalogue's
        "Basra" (Arabic: باصرة), instead of the Site row's name."""
        return f"[{gettext(settings.BASRA_SITE_NAME)}] {force_str(subject)}"
