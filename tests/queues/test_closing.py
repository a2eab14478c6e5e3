"""A closing account leaves the queue (games/queues/services.py, ``leave_closing``, the answer to
``accounts.closing.account_closing``)."""

import pytest
from django.contrib.auth import get_user_model

from accounts.closing import close_account
from games.queues import services
from games.queues.models import Entry

pytestmark = pytest.mark.django_db


def test_a_closing_account_leaves_the_queue():
    ali, badr = (get_user_model().objects.create_user(username=n, password=None) for n in ("ali", "badr"))
    services.join(user=ali, players=2, move_seconds=30)
    services.join(user=badr, players=4, move_seconds=30)
    close_account(ali, by=ali, reason="owner")
    assert list(Entry.objects.values_list("user__username", flat=True)) == ["badr"]
