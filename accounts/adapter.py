"""The allauth adapter of the site: reserved usernames and the e-mail subject prefix."""

from allauth.account.adapter import DefaultAccountAdapter
from django.core.exceptions import ValidationError
from django.utils.encoding import force_str
from django.utils.translation import gettext

from accounts.reserved import is_reserved_username


class AccountAdapter(DefaultAccountAdapter):
    """Allauth adapter selected by ``ACCOUNT_ADAPTER = "accounts.adapter.AccountAdapter"``."""

    def clean_username(self, username: str, shallow: bool = False) -> str:
        """Refuse reserved names (see `accounts.reserved`) before allauth's own checks.

        :raises ValidationError: code ``"username_reserved"`` for a reserved name, or allauth's
            errors (invalid characters, name taken).
        """
        if is_reserved_username(username):
            raise ValidationError(
                gettext("This name is reserved. Please choose another one."),
                code="username_reserved",
            )
        return super().clean_username(username, shallow=shallow)

    def format_email_subject(self, subject: str) -> str:
        """Prefix subjects with the translated site name instead of the Site row's name."""
        return f"[{gettext('Basra')}] {force_str(subject)}"
