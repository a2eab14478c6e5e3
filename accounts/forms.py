"""The sign-up form: allauth's, with the username box as long as a name may be."""

from allauth.account.forms import SignupForm as AllauthSignupForm

from accounts.adapter import USERNAME_MAX_LENGTH


class SignupForm(AllauthSignupForm):
    """Allauth's ``SignupForm`` (``ACCOUNT_FORMS["signup"]``) whose username box stops at
    ``USERNAME_MAX_LENGTH`` characters, the limit the adapter enforces; allauth sizes the box
    from the user model (150)."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        username = self.fields.get("username")
        if username is not None:
            username.widget.attrs["maxlength"] = str(USERNAME_MAX_LENGTH)
