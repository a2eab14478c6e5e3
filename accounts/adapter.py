"""The allauth adapter of the site: reserved and over-long usernames, the e-mail subject prefix."""

from allauth.account.adapter import DefaultAccountAdapter
from django.core.exceptions import ValidationError
from django.utils.encoding import force_str
from django.utils.translation import gettext

from accounts.reserved import is_reserved_username

#: The longest username the sign-up form accepts. The user model allows 150 characters, but a
#: name is shown on seats, chips and score boxes next to others, on a phone too.
USERNAME_MAX_LENGTH = 24


class AccountAdapter(DefaultAccountAdapter):
    """Allauth adapter selected by ``ACCOUNT_ADAPTER = "accounts.adapter.AccountAdapter"``."""

    def clean_username(self, username: str, shallow: bool = False) -> str:
        """Refuse over-long and reserved names (see `accounts.reserved`) before allauth's checks.

        :raises ValidationError: code ``"username_too_long"`` for more than
            ``USERNAME_MAX_LENGTH`` characters, ``"username_reserved"`` for a reserved name, or
            allauth's errors (invalid characters, name taken).
        """
        if len(username) > USERNAME_MAX_LENGTH:
            raise ValidationError(
                gettext("Choose a name of at most %(limit)d characters (this one has %(length)d).")
                % {"limit": USERNAME_MAX_LENGTH, "length": len(username)},
                code="username_too_long",
            )
        if is_reserved_username(username):
            raise ValidationError(
                gettext("This name is reserved. Please choose another one."),
                code="username_reserved",
            )
        return super().clean_username(username, shallow=shallow)

    def format_email_subject(self, subject: str) -> str:
        """Prefix subjects with the translated site name instead of the Site row's name."""
        return f"[{gettext('Basra')}] {force_str(subject)}"
