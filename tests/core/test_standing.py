"""The one question the core asks about a player's standing (``games.core.standing``): who
may play rated, asked of the app that answers; without an answer everyone may."""

from __future__ import annotations

import pytest

from games.core import standing
from games.core.errors import GameError


@pytest.fixture
def answering():
    asked = []

    def answer(ids):
        asked.append(ids)
        return {7, 99}

    standing.answer_with(answer)
    yield asked
    from games.moderation import sanctions

    standing.answer_with(sanctions.banned_from_rated)


def test_without_an_answer_everyone_may_play_rated():
    previous = standing._answerer
    standing.answer_with(None)
    try:
        assert standing.banned_from_rated([1, 2]) == frozenset()
        standing.check_rated(True, [1, 2])
    finally:
        standing.answer_with(previous)


def test_one_ask_for_all_the_ids_and_only_those_asked_come_back(answering):
    assert standing.banned_from_rated([7, 8, None]) == frozenset({7})
    assert answering == [frozenset({7, 8})]
    assert standing.may_play_rated([8]) and not standing.may_play_rated([7, 8])


def test_check_rated_refuses_a_rated_table_only(answering):
    with pytest.raises(GameError) as caught:
        standing.check_rated(True, [7])
    assert caught.value.code == "ranked_banned"
    assert "moderator" in caught.value.message
    asked = len(answering)
    standing.check_rated(False, [7])
    assert len(answering) == asked  # a casual table asks nothing
