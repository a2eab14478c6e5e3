"""The sign-up, log-in and change-password forms: allauth's, with bounds on what a box may hold
and a new password that differs from the current one; the form that closes an account."""

from allauth.account.forms import ChangePasswordForm as AllauthChangePasswordForm
from allauth.account.forms import LoginForm as AllauthLoginForm
from allauth.account.forms import SignupForm as AllauthSignupForm
from allauth.socialaccount.forms import SignupForm as AllauthSocialSignupForm
from django import forms
from django.contrib.auth import get_user_model
from django.core.validators import MaxLengthValidator
from django.utils.translation import gettext_lazy as _

from accounts.adapter import USERNAME_MARKS, USERNAME_MAX_LENGTH
from accounts.closing import closed_by_others

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
        bound_username_box(self)


def bound_username_box(form: forms.Form) -> None:
    """Stop ``form``'s username box at ``USERNAME_MAX_LENGTH`` and say what a name may hold."""
    username = form.fields.get("username")
    if username is not None:
        username.widget.attrs["maxlength"] = str(USERNAME_MAX_LENGTH)
        # Said before the first try: the box stops at the limit without a word, and a
        # space is refused only once sent; the same marks as the adapter's refusal names.
        username.help_text = _(
            "Up to %(limit)d letters, digits and %(marks)s (no spaces)."
        ) % {"limit": USERNAME_MAX_LENGTH, "marks": USERNAME_MARKS}


class SocialSignupForm(AllauthSocialSignupForm):
    """Allauth's social sign-up form (``SOCIALACCOUNT_FORMS["signup"]``), shown at a player's
    first log-in through a provider: the name is chosen here, under the sign-up's rules (the
    account adapter's ``clean_username``, which allauth's form calls), in the same box."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        bound_username_box(self)


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
        remember = self.fields.get("remember")
        if remember is not None:  # allauth's "Remember Me", in the site's words
            remember.label = _("Stay logged in on this device")

    def clean(self):
        """Allauth's check; a refused log-in by the name of a closed account (whose password
        no longer works: ``accounts.closing``) says the account is closed, and by whom, in
        place of "username and/or password not correct". Only a name: a closed account's
        profile says as much to anyone, but an e-mail address is never confirmed as
        registered (allauth's enumeration prevention)."""
        try:
            return super().clean()
        except forms.ValidationError:
            login = (self.cleaned_data.get("login") or "").strip() if isinstance(self.cleaned_data.get("login"), str) else ""
            closed = (
                get_user_model().objects.filter(username__iexact=login, is_active=False).first()
                if login and "@" not in login else None
            )
            if closed is None:
                raise
            if closed_by_others(closed):
                raise forms.ValidationError(_(
                    "This account was closed by the moderators for breaking the site's rules: it "
                    "can no longer log in."
                ), code="account_closed_by_moderators") from None
            raise forms.ValidationError(
                _("This account is closed: its owner closed it, and it can no longer log in."),
                code="account_closed",
            ) from None


class ChangePasswordForm(AllauthChangePasswordForm):
    """Allauth's ``ChangePasswordForm`` (``ACCOUNT_FORMS["change_password"]``) refusing a new
    password that is the current one.

    :raises ValidationError: (through ``is_valid``) on ``password1``, code ``"same_password"``.
    """

    def clean(self):
        cleaned_data = super().clean()
        # The current password is in cleaned_data only once allauth has checked it, so the
        # refusal tells nothing to someone who does not know it; allauth would otherwise
        # "change" the password to itself and say it was changed.
        current = cleaned_data.get("oldpassword")
        if current and cleaned_data.get("password1") == current:
            self.add_error("password1", forms.ValidationError(
                _("The new password must differ from the current one."), code="same_password",
            ))
        return cleaned_data


class CloseAccountForm(forms.Form):
    """The owner's confirmation that closes their account: their password, or, for an account
    that has none (made through a social log-in), their name typed out.

    :raises ValidationError: (through ``is_valid``) code ``"wrong_password"`` or
        ``"wrong_name"``.
    """

    password = forms.CharField(
        label=_("Your password"), strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )
    name = forms.CharField(label=_("Your name, as it is written"), max_length=150)

    def __init__(self, *args, user, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.user = user
        del self.fields["name" if user.has_usable_password() else "password"]

    def clean_password(self) -> str:
        password = self.cleaned_data["password"]
        if not self.user.check_password(password):
            raise forms.ValidationError(
                _("That is not your password. Your account stays open."), code="wrong_password"
            )
        return password

    def clean_name(self) -> str:
        name = self.cleaned_data["name"]
        if name != self.user.get_username():
            raise forms.ValidationError(
                _("That is not your name as it is written. Your account stays open."),
                code="wrong_name",
            )
        return name
