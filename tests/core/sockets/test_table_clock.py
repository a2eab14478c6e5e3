"""Claims, resignations, timeouts, heartbeats and the deadline watch over the real sockets
(docs/protocol.md "Clock, absence, claim and resign")."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.utils import timezone

from games.core import actions
from games.core.clock import clock
from games.core.models import ClockTick, Event, Match, Seat, WebTick
from games.core.sockets import beats, table as table_socket
from games.core.state import broadcast, liveness, reads
from games.core.state.cache import clear_caches
from tests.core.helpers import (
    eventually,
    expect_error,
    seated_match,
    table_barrier,
    table_path,
)

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

db = database_sync_to_async


@db
def reload(match: Match) -> Match:
    return Match.objects.get(pk=match.pk)


@db
def kinds(match_id: int) -> list[str]:
    return list(Event.objects.filter(match_id=match_id).order_by("seq")
                .values_list("kind", flat=True))


@db
def seat_row(match_id: int, seat: int) -> Seat:
    return Seat.objects.get(match_id=match_id, seat=seat)


@db
def make_absent(match: Match, present_user, seat: int) -> None:
    """Time passes: the person at ``seat`` went quiet, ``present_user`` kept beating."""
    later = timezone.now() + timedelta(seconds=600)
    actions.player_seen(match_id=match.pk, user=present_user, now=later)
    assert actions.mark_absent(match_id=match.pk, now=later) == 1
    assert Seat.objects.get(match=match, seat=seat).absent


async def test_claim_over_the_socket(make_player, open_socket, known_decks, settings):
    settings.BASRA_ABSENT_GRACE_SECONDS = 60
    alice, bob = await db(make_player)("alice"), await db(make_player)("bob")
    match = await db(seated_match)([alice.user, bob.user])
    a = await open_socket(table_path(match.pk), alice.cookie)
    first = await a.receive_json_from()
    await a.send_json_to({"type": "claim"})
    await expect_error(a, "claim_not_allowed")
    await make_absent(match, alice.user, 1)
    absent = await a.receive_json_from()
    assert absent["seats"][1]["absent"] is True and absent["prev_seq"] == first["seq"]
    await a.send_json_to({"type": "claim"})
    won = await a.receive_json_from()
    assert won["result"] == {"winner": 0, "scores": [0, 0], "reason": "claim"}
    assert won["match"]["status"] == "finished" and won["deadline"] is None
    assert (await kinds(match.pk))[-3:] == ["absent", "claim", "match_end"]
    # bob comes back too late: he sees the result, and cannot claim or play.
    b = await open_socket(table_path(match.pk), bob.cookie)
    assert (await b.receive_json_from())["result"]["reason"] == "claim"
    await b.send_json_to({"type": "claim"})
    await expect_error(b, "match_over")


async def test_a_returning_socket_clears_the_absence(make_player, open_socket, known_decks):
    alice, bob = await db(make_player)("alice"), await db(make_player)("bob")
    match = await db(seated_match)([alice.user, bob.user])
    a = await open_socket(table_path(match.pk), alice.cookie)
    await a.receive_json_from()
    await make_absent(match, alice.user, 1)
    assert (await a.receive_json_from())["seats"][1]["absent"] is True
    b = await open_socket(table_path(match.pk), bob.cookie)
    assert (await b.receive_json_from())["seats"][1]["absent"] is True  # the state on connect
    back = await a.receive_json_from()  # ...then everyone learns that bob is back
    assert back["seats"][1]["absent"] is False
    assert (await kinds(match.pk))[-1] == "returned"
    assert (await b.receive_json_from())["seq"] == back["seq"]
    await a.send_json_to({"type": "claim"})
    await expect_error(a, "opponent_returned")


async def test_sockets_keep_last_seen(
    make_player, open_socket, known_decks, monkeypatch, beats_clock
):
    alice, bob = await db(make_player)("alice"), await db(make_player)("bob")
    match = await db(seated_match)([alice.user, bob.user])
    stale = timezone.now() - timedelta(hours=1)
    await db(Seat.objects.filter(match=match).update)(last_seen=stale)
    monkeypatch.setattr(liveness, "HEARTBEAT_SECONDS", 0.1)
    a = await open_socket(table_path(match.pk), alice.cookie)
    await a.receive_json_from()
    connected_at = (await seat_row(match.pk, 0)).last_seen
    assert connected_at > stale  # connecting counts
    assert (await seat_row(match.pk, 1)).last_seen == stale
    seen = [connected_at]
    await eventually(lambda: beats_clock.sleeping() == 1)
    for _ in range(2):  # the process's heartbeat beats for the open socket, once a period
        await beats_clock.advance(0.1)
        seen.append((await seat_row(match.pk, 0)).last_seen)
    assert len(set(seen)) == 3 and seen == sorted(seen)  # two beats after the connect
    assert (await seat_row(match.pk, 1)).last_seen == stale  # nobody beats for bob
    await a.disconnect()  # time stands still for the beats: no beat comes meanwhile
    gone_at = (await seat_row(match.pk, 0)).last_seen
    assert gone_at > seen[-1]  # disconnecting counts too


async def test_resign_over_the_socket(make_player, open_socket, known_decks):
    alice, bob, carol = [await db(make_player)(n) for n in ("alice", "bob", "carol")]
    match = await db(seated_match)([alice.user, bob.user])
    anonymous = await open_socket(table_path(match.pk))
    watcher = await open_socket(table_path(match.pk), carol.cookie)
    b = await open_socket(table_path(match.pk), bob.cookie)
    for comm in (anonymous, watcher, b):
        await comm.receive_json_from()
    await anonymous.send_json_to({"type": "resign"})
    await expect_error(anonymous, "login_required")
    await watcher.send_json_to({"type": "resign"})
    await expect_error(watcher, "not_seated")
    assert (await reload(match)).status == Match.Status.PLAYING
    await b.send_json_to({"type": "resign"})
    for comm in (b, watcher, anonymous):
        over = await comm.receive_json_from()
        assert over["result"] == {"winner": 0, "scores": [0, 0], "reason": "resign"}
    finished = await reload(match)
    assert (finished.status, finished.winner_side, finished.result) == ("finished", 0, "resign")


async def test_abort_over_the_socket(make_player, open_socket, known_decks):
    alice, bob, carol = [await db(make_player)(n) for n in ("alice", "bob", "carol")]
    match = await db(seated_match)([alice.user, bob.user])
    watcher = await open_socket(table_path(match.pk), carol.cookie)
    a = await open_socket(table_path(match.pk), alice.cookie)
    for comm in (watcher, a):
        await comm.receive_json_from()
    await watcher.send_json_to({"type": "abort"})
    await expect_error(watcher, "not_seated")
    assert (await reload(match)).status == Match.Status.PLAYING
    await a.send_json_to({"type": "abort"})
    for comm in (a, watcher):
        over = await comm.receive_json_from()
        # Every socket is told who called it off: alice's seat.
        assert over["result"] == {"winner": None, "scores": [0, 0], "reason": "abort", "by": 0}
    finished = await reload(match)
    assert (finished.status, finished.winner_side, finished.result) == ("finished", None, "abort")
    await a.send_json_to({"type": "abort"})
    await expect_error(a, "match_over")


async def test_a_late_play_is_refused_as_timed_out(make_player, open_socket, known_decks):
    alice, bob = await db(make_player)("alice"), await db(make_player)("bob")
    match = await db(seated_match)([alice.user, bob.user])
    b = await open_socket(table_path(match.pk), bob.cookie)
    view = await b.receive_json_from()
    assert view["round"]["turn"] == 1  # dealer 0: bob first
    match = await reload(match)
    # bob's 30 seconds are over; the server beat meanwhile, as it does every second.
    await db(liveness.web_seen)(now=match.deadline)
    assert await db(clock.tick)(now=match.deadline) == 1
    after = await b.receive_json_from()
    assert after["round"]["last_play"]["seat"] == 1
    # The click bob made on the old picture arrives now.
    await b.send_json_to({"type": "play", "card": view["round"]["hand"][0], "seq": view["seq"]})
    error = await expect_error(b, "timed_out")
    assert "ran out" in error["message"]
    fresh = await b.receive_json_from()
    assert fresh["seq"] == after["seq"] and fresh["prev_seq"] is None


async def test_a_socket_reads_the_table_when_a_deadline_passes_without_news(
    make_player, open_socket, known_decks, settings, monkeypatch
):
    # The computer plays at once; the clock runs "in another process": its broadcast never
    # reaches this one (what the in-memory channel layer does across processes).
    settings.BASRA_BOT_DELAY_SECONDS = (0, 0)
    alice = await db(make_player)("alice")
    match = await db(actions.create_table)(user=alice.user, players=2, rules={}, rated=False,
                                            bots={1: "greedy"})
    a = await open_socket(table_path(match.pk), alice.cookie)
    view = await a.receive_json_from()
    assert view["round"]["turn"] == 1 and view["deadline"] is not None
    monkeypatch.setattr(broadcast, "send_states", lambda *args, **kwargs: None)
    assert await db(clock.tick)(now=timezone.now()) == 1
    moved = await a.receive_json_from(timeout=30)  # real seconds: only a bound on a hang
    assert moved["seq"] > view["seq"] and moved["round"]["turn"] == 0
    assert moved["round"]["last_play"]["seat"] == 1
    assert moved["seats"][1]["bot"] == "greedy"


async def test_a_deadline_moved_after_a_clock_outage_reaches_the_open_page(
    make_player, open_socket, known_decks
):
    alice, bob = await db(make_player)("alice"), await db(make_player)("bob")
    match = await db(seated_match)([alice.user, bob.user])

    @db
    def time_nearly_up() -> None:
        # The seat to move has 40 s left, and the clock last ran a minute ago (only the clock
        # process was down: the sockets stayed open). The pages must show the deadline the
        # server keeps, not one counted from the clock's last run.
        now = timezone.now()
        Match.objects.filter(pk=match.pk).update(deadline=now + timedelta(seconds=40))
        ClockTick.objects.update_or_create(
            pk=ClockTick.ONE, defaults={"last_tick": now - timedelta(seconds=60)}
        )

    await time_nearly_up()
    a = await open_socket(table_path(match.pk), alice.cookie)
    view = await a.receive_json_from()
    # The clock comes back and gives the table its time back: no event, but the page is told
    # at once, not when the old deadline (40 s away) has passed.
    gap = await db(actions.resume_clock)(now=timezone.now(), outage=timedelta(seconds=5))
    assert gap is not None
    moved = (await reload(match)).deadline
    assert moved.isoformat() != view["deadline"]
    again = await a.receive_json_from(timeout=20)  # real seconds: only a bound on a hang
    assert again["seq"] == view["seq"] and again["deadline"] == moved.isoformat()


async def test_a_socket_reads_a_change_whose_broadcast_was_lost(
    make_player, open_socket, known_decks, monkeypatch, beats_clock
):
    # The helper's report: a play committed, then its server died before the broadcast; the
    # other seat (on another server) never heard of it. The socket's beat looks at the seq.
    alice, bob = await db(make_player)("alice"), await db(make_player)("bob")
    match = await db(seated_match)([alice.user, bob.user])
    monkeypatch.setattr(liveness, "HEARTBEAT_SECONDS", 0.2)
    a = await open_socket(table_path(match.pk), alice.cookie)
    view = await a.receive_json_from()
    monkeypatch.setattr(broadcast, "send_states", lambda *args, **kwargs: None)  # lost
    hand = (await db(reads.table_state)(match_id=match.pk, user=bob.user))["round"]["hand"]
    assert view["round"]["turn"] == 1
    seq = await db(actions.play_card)(user=bob.user, match_id=match.pk, card=hand[0],
                                       seq=view["seq"])
    # No beat yet (time stands still for it): nothing read, nothing sent. Barrier: the play
    # returned once its broadcast (had it not been lost) was in the socket's channel; a
    # broadcast sent now is behind it (channels deliver in order) and must come first.
    await table_barrier(match.pk, [a])
    await eventually(lambda: beats_clock.sleeping() == 1)
    await beats_clock.advance(0.2)  # one beat
    moved = await a.receive_json_from(timeout=30)
    assert moved["seq"] == seq and moved["round"]["turn"] == 0
    assert moved["round"]["last_play"]["card"] == hand[0]


async def test_a_server_with_open_sockets_tells_the_clock_it_is_up(
    make_player, open_socket, server_beat_clock
):
    alice = await db(make_player)("alice")

    @db
    def web_beat():
        return WebTick.objects.filter(pk=WebTick.ONE).values_list("last_seen", flat=True).first()

    assert await web_beat() is None
    opened_at = timezone.now()
    lobby = await open_socket("/ws/lobby/", alice.cookie)
    await lobby.receive_json_from()
    await eventually(lambda: server_beat_clock.sleeping() == 1)  # it beat, and waits
    first = await web_beat()
    assert first is not None and first >= opened_at
    await server_beat_clock.advance(beats.WEB_BEAT_SECONDS)
    assert await web_beat() > first  # it goes on beating
    await lobby.disconnect()
    stopped = await web_beat()
    assert server_beat_clock.sleeping() == 0  # the last socket closed: nothing waits to beat
    await server_beat_clock.advance(beats.WEB_BEAT_SECONDS * 3)
    assert await web_beat() == stopped  # no more beats


async def test_open_sockets_keep_their_seats_present_under_a_short_grace(
    make_player, open_socket, known_decks, settings, monkeypatch, beats_clock
):
    """The sockets beat often enough for any absence grace (a quarter of it when it is shorter
    than 15 s): over twice a 1.2 s grace (of the beats' virtual time), both connected seats are
    beaten for at least every 0.3 s, and a mark of the absent at each beat's time (in the
    database's time) marks nobody."""
    settings.BASRA_ABSENT_GRACE_SECONDS = 1.2
    alice, bob = await db(make_player)("alice"), await db(make_player)("bob")
    match = await db(seated_match)([alice.user, bob.user])
    await db(Match.objects.filter(pk=match.pk).update)(
        started_at=timezone.now() - timedelta(minutes=5)
    )
    beats = []  # (virtual time, seats beaten for)
    real = actions.heartbeats

    def recorded(**kwargs):
        beats.append((beats_clock(), sorted(user for _match, user in kwargs["seated"])))
        return real(**kwargs)

    monkeypatch.setattr(actions, "heartbeats", recorded)
    connected = beats_clock()
    sockets = [await open_socket(table_path(match.pk), p.cookie) for p in (alice, bob)]
    for comm in sockets:
        await comm.receive_json_from()
    await eventually(lambda: beats_clock.sleeping() == 1)
    for _ in range(8):  # 2.4 s: twice the grace
        await beats_clock.advance(0.3)
        seen = max((await seat_row(match.pk, 0)).last_seen, (await seat_row(match.pk, 1)).last_seen)
        assert await db(actions.mark_absent)(match_id=match.pk, now=seen) == 0
    both = sorted([alice.user.pk, bob.user.pk])
    assert len(beats) >= 8 and all(seated == both for _at, seated in beats)
    times = [connected] + [at for at, _seated in beats]
    assert max(b - a for a, b in zip(times, times[1:])) <= 1.2 / 4 + 1e-9
    assert [s.absent for s in [await seat_row(match.pk, 0), await seat_row(match.pk, 1)]] == [
        False, False
    ]


async def test_one_heartbeat_call_beats_for_every_socket_of_the_process(
    make_player, open_socket, known_decks, monkeypatch, beats_clock
):
    """The process beats for its sockets together (``games.core.sockets.beats``): each call carries
    every seated socket's seat and every table shown, spectators' included."""
    alice, bob, carol = [await db(make_player)(n) for n in ("alice", "bob", "carol")]
    match = await db(seated_match)([alice.user, bob.user])
    other = await db(seated_match)([carol.user, (await db(make_player)("dan")).user])
    calls = []
    real = actions.heartbeats

    def recorded(**kwargs):
        calls.append((sorted(kwargs["seated"]), sorted(kwargs["tables"])))
        return real(**kwargs)

    monkeypatch.setattr(actions, "heartbeats", recorded)
    monkeypatch.setattr(liveness, "HEARTBEAT_SECONDS", 0.1)
    for cookie, table in ((alice.cookie, match), (bob.cookie, match), (carol.cookie, match),
                          (carol.cookie, other), (None, other)):
        comm = await open_socket(table_path(table.pk), cookie)
        await comm.receive_json_from()
    await eventually(lambda: beats_clock.sleeping() == 1)
    await beats_clock.advance(0.2)
    assert len(calls) == 2
    seated = sorted([(match.pk, alice.user.pk), (match.pk, bob.user.pk), (other.pk, carol.user.pk)])
    assert calls[-1] == (seated, sorted([match.pk, other.pk]))


class FakeSocket:
    """What ``games.core.sockets.beats`` reads of a table socket."""

    def __init__(self, match_id: int, user_id: int | None, seq: int) -> None:
        self.match_id, self.user_id, self.seq = match_id, user_id, seq
        self.closing = self.gone = False
        self.moved = False

    def seated_user(self):
        return self.user_id

    def watcher_channel(self):
        return None if self.user_id is not None else f"watch-{id(self)}"

    def table_moved(self):
        self.moved = True


async def test_a_beat_holds_the_database_thread_a_few_sockets_at_a_time(monkeypatch):
    """Plays share the one database thread with the beat: it goes CHUNK sockets a call (one
    call for 400 sockets held the thread 50-70 ms), and still tells every socket behind."""

    calls = []

    def recorded(*, seated, tables, watching, now=None):
        calls.append((len(seated), len(watching)))
        return {t: 5 for t in tables}

    monkeypatch.setattr(actions, "heartbeats", recorded)
    monkeypatch.setattr(beats, "CHUNK", 3)
    ours = beats.TableBeats()
    sockets = [FakeSocket(1 + n % 4, n if n % 5 else None, seq=n % 7) for n in range(10)]
    for socket in sockets:
        ours._sockets.add(socket)
    await ours.beat()
    assert [seated + watching for seated, watching in calls] == [3, 3, 3, 1]
    assert sum(seated for seated, _ in calls) == 8 and sum(w for _, w in calls) == 2
    assert [s.moved for s in sockets] == [s.seq < 5 for s in sockets]


async def test_a_deadline_moved_later_by_a_state_is_read_at_its_new_time(
    make_player, open_socket, known_decks, monkeypatch
):
    # A socket's timer, set for the first deadline, stays set when a state moves the deadline
    # later (TableConsumer._track): it must neither read at the old time nor miss the new one.
    alice, bob = await db(make_player)("alice"), await db(make_player)("bob")
    match = await db(seated_match)([alice.user, bob.user])

    @db
    def short_clock() -> None:
        Match.objects.filter(pk=match.pk).update(
            deadline=timezone.now() + timedelta(seconds=0.2), move_seconds=2
        )
        clear_caches()  # the kept row still has the table's 30 s a play

    await short_clock()
    opened = []
    connect = table_socket.TableConsumer.connect

    async def recording(self):
        opened.append(self)
        await connect(self)

    monkeypatch.setattr(table_socket.TableConsumer, "connect", recording)
    a = await open_socket(table_path(match.pk), alice.cookie)
    view = await a.receive_json_from()
    [socket] = opened
    first_timer = socket.timer  # set for the first deadline
    hand = (await db(reads.table_state)(match_id=match.pk, user=bob.user))["round"]["hand"]
    await db(actions.play_card)(user=bob.user, match_id=match.pk, card=hand[0], seq=view["seq"])
    played = await a.receive_json_from()
    assert played["deadline"] > view["deadline"]
    assert socket.timer is first_timer  # kept, not moved with the state

    @db
    def deadline_moved_silently() -> str:
        # As the clock's outage rule does: no event, so no broadcast; only a read shows it.
        later = timezone.now() + timedelta(seconds=5)
        Match.objects.filter(pk=match.pk).update(deadline=later)
        return later.isoformat()

    silent = await deadline_moved_silently()
    # The first deadline's time (+0.2 s, and the socket's 0.5 s margin) comes: the timer fires
    # and is set again for the new time, and no read starts then (a read would send the
    # silently moved deadline). Waited for as an event, not for a time.
    await eventually(lambda: socket.timer is not first_timer)
    if asyncio.get_running_loop().time() < socket.check_at:  # else a stall ran past both
        assert socket.watch is None and socket.timer.when() == socket.check_at
        # No barrier here: the next frame is a read that comes by real time (the new deadline
        # passing), which a barrier frame could trail on a slow machine. That no read started
        # is proved above (``watch`` is None: no look ever ran); this only adds that nothing
        # else was sent, and proves nothing on a slow machine.
        assert await a.receive_nothing()
    # The new deadline (2 s after the play) passes without news: the socket reads the table.
    again = await a.receive_json_from(timeout=30)  # real seconds: only a bound on a hang
    assert again["seq"] == played["seq"] and again["deadline"] == silent
