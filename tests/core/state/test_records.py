"""The site's record of a match is written by the engine's one writer (``games.engine.write_record``)."""

from __future__ import annotations

import pytest

from games import engine
from games.core.models import Event
from games.core.state import log as event_log
from games.core.state.records import match_record
from tests.core.helpers import play_out, seated_match

pytestmark = pytest.mark.django_db


@pytest.fixture
def users(make_player):
    return [make_player(name).user for name in ("alice", "bob")]


def test_the_sites_record_is_the_engines_for_the_same_deals_and_plays(users, known_decks):
    match = seated_match(users, rules={"target": 31})
    play_out(match)
    match.refresh_from_db()
    tenth = Event.objects.filter(match=match, kind=Event.Kind.PLAY).order_by("seq")[9]
    tenth.payload = {**tenth.payload, "timeout": True}  # as the clock writes its plays
    tenth.save()
    record = match_record(match, url="/match/1/")
    assert [r["deck"] for r in record["rounds"]] == known_decks
    plays = [e.payload["card"] for e in Event.objects.filter(match=match, kind="play").order_by("seq")]
    rules = engine.Rules.from_dict(match.rules)
    engine_match = engine.Match(rules, record["rounds"][0]["dealer"])
    for deck in known_decks:
        engine_match.start_round(deck)
        while not engine_match.round.over:
            engine_match.play(plays.pop(0))
    timed_out = 9
    written = engine.write_record(
        rules.to_dict(), record["seats"],
        [{"dealer": r.dealer, "deck": r.deck, "plays": [p.card for p in r.plays],
          "timeouts": [timed_out] if index == 0 else []}
         for index, r in enumerate(engine_match.rounds)],
        headers=record["headers"], shuffle=record.get("shuffle"),
    )
    assert record == written
    assert record["rounds"][0]["timeouts"] == [timed_out]
    # The reader takes it back: the same match, and the same record again.
    result = engine.replay(record)
    assert list(result.scores) == match.scores and result.winner == match.winner_side
    again = result.match.to_record(record["seats"])
    assert again == {key: value for key, value in written.items() if key not in ("headers", "shuffle")} | {
        "rounds": [{k: v for k, v in r.items() if k != "timeouts"} for r in written["rounds"]]}
    # The log's own record (the rebuild's) is the same writer's, without the optional keys.
    assert event_log.rebuild(match).scores == result.scores
