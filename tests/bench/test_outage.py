"""The outage bench's own accounting (``bench/outage.py``): what it calls acknowledged, lost,
applied twice, on crafted states and logs, so its "0 lost" means what it says."""

from __future__ import annotations

from bench.outage import LoggedPlay, SentPlay, account, acknowledges, logged_plays, waits_after


def sent(seq, card, seat=0, round=1, answer="state", match=7):
    return SentPlay(match=match, seat=seat, round=round, card=card, seq=seq, at=0.0, answer=answer)


def state(seq, prev_seq, round=1, seat=0, card="5D", timeout=False):
    last = {"seat": seat, "card": card, "timeout": timeout}
    return {"seq": seq, "prev_seq": prev_seq, "round": {"number": round, "last_play": last}}


def test_a_play_is_acknowledged_only_by_the_broadcast_that_shows_it():
    play = sent(10, "5D")
    assert acknowledges(play, state(11, 10))
    assert acknowledges(play, state(13, 10, round=2, seat=1, card="KS"))  # the round's last play
    assert not acknowledges(play, state(11, None))  # a snapshot: the client cannot tell
    assert not acknowledges(play, state(12, 11))  # a later change
    assert not acknowledges(play, state(11, 10, timeout=True))  # the clock played for the seat
    assert not acknowledges(play, state(11, 10, seat=1))  # another seat's event


def test_logged_plays_take_their_round_from_the_last_deal():
    events = [
        (7, 1, "deal", None, {"round": 1}),
        (7, 2, "play", 0, {"card": "5D"}),
        (7, 3, "play", 1, {"card": "KS", "timeout": True}),
        (8, 1, "deal", None, {"round": 1}),
        (7, 4, "deal", None, {"round": 2}),
        (7, 5, "play", 0, {"card": "5D", "bot": "greedy"}),
    ]
    assert logged_plays(events) == [
        LoggedPlay(7, 2, 1, 0, "5D", "person"),
        LoggedPlay(7, 3, 1, 1, "KS", "timeout"),
        LoggedPlay(7, 5, 2, 0, "5D", "bot"),
    ]


def test_account_counts_each_kind_of_discrepancy_once():
    plays = [
        sent(1, "5D"),  # acknowledged, logged
        sent(2, "KS", seat=1),  # acknowledged, missing: lost
        sent(3, "2H", answer=None),  # unanswered, logged
        sent(4, "3C", seat=1, answer="error:unavailable"),  # refused, logged all the same
        sent(5, "4C"),  # acknowledged, logged twice
        sent(6, "9S", answer="error:unavailable"),  # refused, then sent again and acknowledged
        sent(8, "9S"),
        sent(10, "AS", round=2, answer="error:stale"),  # refused, not logged
    ]
    log = [
        LoggedPlay(7, 2, 1, 0, "5D", "person"),
        LoggedPlay(7, 4, 1, 0, "2H", "person"),
        LoggedPlay(7, 5, 1, 1, "3C", "person"),
        LoggedPlay(7, 6, 1, 0, "4C", "person"),
        LoggedPlay(7, 7, 1, 0, "4C", "person"),
        LoggedPlay(7, 9, 1, 0, "9S", "person"),
        LoggedPlay(7, 10, 1, 1, "QH", "person"),  # nobody sent it
        LoggedPlay(7, 11, 1, 1, "JD", "timeout"),
        LoggedPlay(7, 12, 2, 0, "5D", "person"),  # round 2: nobody sent it there
    ]
    result = account(plays, log)
    assert (result.sent, result.acknowledged) == (7, 4)
    assert (result.lost, result.twice) == (1, 1)
    assert (result.refused_applied, result.unanswered_applied) == (1, 1)
    assert (result.unsent, result.timeouts) == (2, 1)


def test_a_wait_after_the_service_is_back_counts_from_its_return_until_the_next_fault():
    waits = [
        (1.0, 3.0, False),  # ended before the return: not after it
        (2.0, 12.5, False),  # began in the outage: 2.5 s after the return at 10
        (11.0, 11.2, False),  # an ordinary round trip after it
        (19.0, 25.0, False),  # still going on when the next fault began at 20
        (21.0, 22.0, False),  # in the next fault
        (15.0, 18.0, True),  # still open when the run ended (at 18)
    ]
    after = waits_after(waits, back=10.0, until=20.0)
    assert [(round(seconds, 3), unfinished) for seconds, unfinished in after] == [
        (2.5, False), (0.2, False), (1.0, True), (3.0, True),
    ]
