"""Fixtures of the moderation tests."""

from __future__ import annotations

import pytest

from games.moderation import chat
from tests.moderation.helpers import fake_chat, users


@pytest.fixture
def chat_lines():
    """A fake chat, registered for the test; the readers registered before it (the chat app's,
    from its ``ready()``) are registered again after it, for the tests that follow."""
    before = chat.registered()
    fake = fake_chat()
    yield fake
    chat.forget()
    if before is not None:
        chat.provide(*before)


@pytest.fixture
def people(db):
    """ali, bea, cem, dan (players) and mod (staff)."""
    return dict(zip(("ali", "bea", "cem", "dan", "mod"), users("ali", "bea", "cem", "dan", "mod", staff=("mod",))))
