"""Closing an account: the one mechanism its owner (``accounts.views.close``) and, later,
moderators use.

A closed account's ``User`` row stays with ``is_active = False`` (what "closed" means to every
app: Django's backends refuse it, the profile, the ladder, challenges and follows look for
active users only), so its name stays taken and reserved, and its matches stay where they are.
What ends with it: its password (unusable, so every session's hash check fails and a password
reset link no longer works), its pending e-mail confirmations, its social log-ins' tokens.

What the apps above accounts must end first (its running matches, its tables waiting for
players, its tournament entries) they end in their receivers of :data:`account_closing`:
accounts sits below them and imports none of them. :data:`account_closed` follows the commit
(the core asks the user's table sockets to check their session again).
"""

from __future__ import annotations

from typing import Any

from allauth.account.models import EmailConfirmation
from allauth.socialaccount.models import SocialToken
from django.db import transaction
from django.dispatch import Signal
from django.utils import timezone

from accounts.models import Closure

#: Sent before an account closes, with ``user``, ``by`` (who closes it: the owner, a moderator)
#: and ``reason``; each receiver ends what its app holds for the user (and raises to stop the
#: closing, which then changes nothing of the account itself).
account_closing = Signal()
#: Sent after the closing committed, with the same arguments.
account_closed = Signal()


class AlreadyClosed(Exception):
    """The account was closed before."""


def closed_by_others(user: Any) -> bool:
    """Whether ``user``'s account was closed by someone else than its owner: the moderators
    (its :class:`~accounts.models.Closure` names another closer, or none left)."""
    closers = list(Closure.objects.filter(user_id=user.pk).values_list("by_id", flat=True)[:1])
    return bool(closers) and closers[0] != user.pk


def close_account(user: Any, *, by: Any, reason: str) -> Closure:
    """Close ``user``'s account, by ``by`` (the user themselves, or a moderator), for ``reason``
    (kept with the closing: ``"owner"`` for the owner's own, a moderator's words otherwise).

    Sends :data:`account_closing` (the core resigns the user's running matches and leaves their
    open tables, the tournaments withdraw their entries), then in one transaction makes the user
    inactive with an unusable password, deletes their e-mail confirmations and social tokens and
    records the :class:`~accounts.models.Closure`; :data:`account_closed` after the commit.

    :returns: the closing's record.
    :raises AlreadyClosed: the account is closed already (nothing is sent or changed).
    """
    if not user.is_active:
        raise AlreadyClosed(user.pk)
    account_closing.send(sender=type(user), user=user, by=by, reason=reason)
    with transaction.atomic():
        user.is_active = False
        user.set_unusable_password()
        user.save(update_fields=["is_active", "password"])
        EmailConfirmation.objects.filter(email_address__user=user).delete()
        SocialToken.objects.filter(account__user=user).delete()
        closure = Closure.objects.create(user=user, by=by, reason=reason, closed_at=timezone.now())
        transaction.on_commit(
            lambda: account_closed.send(sender=type(user), user=user, by=by, reason=reason)
        )
    return closure
