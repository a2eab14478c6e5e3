"""The queues keep apart two players one of whom blocked the other: ``blocked_for`` and the
wave ask the core's question (``games.core.relations``, kind ``pair``) once for the wave."""

from __future__ import annotations

import pytest

from games.core import relations
from games.queues import services
from tests.core.helpers_relations import answering

pytestmark = [pytest.mark.django_db]


def test_blocked_for_answers_through_the_core_question():
    with answering() as answers:
        assert services.blocked_for((1,), (2, 3)) == frozenset()
        answers.barred[("pair", 3, 1)] = relations.SILENT
        # Either way round keeps both apart.
        assert services.blocked_for((1,), (2, 3)) == frozenset({3})
        assert services.blocked_for((3,), (1, 2)) == frozenset({1})
        assert services.never_meet({1, 2, 3}) == {1: frozenset({3}), 3: frozenset({1})}


def test_a_wave_never_pairs_two_players_one_of_whom_blocked_the_other():
    from datetime import datetime, timezone as tz

    from tests.queues.helpers import users

    a, b, c = users("a", "b", "c")
    at = datetime(2026, 1, 1, tzinfo=tz.utc)
    for user in (a, b):
        services.join(user=user, players=2, move_seconds=20, now=at)
    with answering() as answers:
        answers.barred[("pair", b.pk, a.pk)] = relations.SILENT
        assert services.wave(2, 20, now=at) == []
        services.join(user=c, players=2, move_seconds=20, now=at)
        (match_id,) = services.wave(2, 20, now=at)
        # One query of the answerer for the whole wave.
        assert [k for k, _a, _t in answers.asked].count("pair") == 2
    from games.core.models import Seat

    assert set(Seat.objects.filter(match_id=match_id).values_list("user_id", flat=True)) in ({a.pk, c.pk}, {b.pk, c.pk})
