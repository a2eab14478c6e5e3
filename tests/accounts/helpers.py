"""Helpers of the accounts tests: a sign-up through the form, its confirmation link."""

import re

from django.core import mail
from django.urls import reverse

PASSWORD = "felt-table-4-kings"


def sign_up(client, username: str, email: str, password: str = PASSWORD):
    """Post the sign-up form (mandatory verification: the player is sent to "check your email")."""
    return client.post(reverse("account_signup"), {
        "username": username, "email": email, "password1": password, "password2": password,
    })


def confirmation_link(email: str) -> str:
    """The path of the last confirmation link mailed to ``email``."""
    for message in reversed(mail.outbox):
        if email in message.to:
            found = re.search(r"https?://[^/\s]+(/accounts/confirm-email/[^/\s]+/)", message.body)
            if found:
                return found.group(1)
    raise AssertionError(f"no confirmation link mailed to {email}")
