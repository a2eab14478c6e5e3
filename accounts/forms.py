"""The sign-up and log-in forms: allauth's, with bounds on what a box may hold."""

from allauth.account.forms import LoginForm as AllauthLoginForm
from allauth.account.forms import SignupForm as AllauthSignupForm
from django.core.validators import MaxLengthValidator
from django.utils.translation import gettext_lazy as _

from accounts.adapter import USERNAME_MARKS, USERNAME_MAX_LENGTH

#: The longest log-in (a username or an e-mail address) the log-in form looks up: an e-mail
#: address has at most 254 characters (RFC 5321's path limit less its brackets, Django's
#: ``EmailValidator``), a username far fewer.
LOGIN_MAX_LENGTH = 254


class SignupForm(AllauthSignupForm):
    """Allauth's ``SignupForm`` (``ACCOUNT_FORMS["signup"]``) whose username box stops at
    ``USERNAME_MAX_LENGTH`` characters, the limit the adapter enforces (allauth sizes the box
    from the user model, 150), and says what a name may hold."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        username = self.fields.get("username")
        if username is not None:
            username.widget.attrs["maxlength"] = str(USERNAME_MAX_LENGTH)
            # Said before the first try: the box stops at the limit without a word, and a
            # space is refused only once sent; the same marks as the adapter's refusal names.
            username.help_text = _(
                "Up to %(limit)d letters, digits and %(marks)s (no spaces)."
            ) % {"limit": USERNAME_MAX_LENGTH, "marks": USERNAME_MARKS}


class LoginForm(AllauthLoginForm):
    """Allauth's ``LoginForm`` (``ACCOUNT_FORMS["login"]``) refusing a log-in longer than
    ``LOGIN_MAX_LENGTH`` with a form error before any lookup.

    Allauth's "username or e-mail" box has no limit, and a 100,000-character one reached the
    database as a ``LIKE`` pattern SQLite refuses ("pattern too complex": HTTP 500).
    """

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        login = self.fields["login"]
        login.max_length = LOGIN_MAX_LENGTH
        login.validators.append(MaxLengthValidator(LOGIN_MAX_LENGTH))
        login.widget.attrs["maxlength"] = str(LOGIN_MAX_LENGTH)
